/*
 * Unit tests for synth/abstract_state (the abstract interpreter's values, its
 * transfer function over IR effects, the effect of a call and join) and for
 * emit_row_from_state (the H row a state stands for).
 *
 * Everything is written in IR, the way the decoder lowers x86_64:
 *   push %r    ir_set(rsp, rsp, -8); ir_store(rsp, 0, r, 8)
 *   pop  %r    ir_load(r, rsp, 0);   ir_set(rsp, rsp, 8)
 *   mov  %rsp,%rbp / lea k(%b),%d / add, sub imm    ir_set(d, b, k)
 *   leave      ir_set(rsp, rbp, 0); ir_load(rbp, rsp, 0); ir_set(rsp, rsp, 8)
 * Every expected value below is derived by hand from entry: rsp = CFA - 8,
 * [CFA - 8] = entry(RA), every other register R = entry(R).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "semantics/abi.h"
#include "semantics/unwind_table.h"
#include "synth/abstract_state.h"
#include "synth/ir.h"
#include "synth/synthesize.h"
#include "tests/unit/synth_asserts.h"

#define RSP ABI_RSP
#define RBP ABI_RBP
#define NONE IR_REG_NONE

/* ---- assertions (macros, so that a failure names the caller's line) ------ */

#define assert_rule_kind(row, r, kd) assert_int_equal((row).reg[(r)].kind, (kd))

/* ---- building IR --------------------------------------------------------- */

static void run1(struct abstract_state *s, struct ir_effect a)
{
    struct ir_insn in;
    memset(&in, 0, sizeof in);
    ir_add(&in, a);
    abstract_state_step(s, &in);
}

static void run2(struct abstract_state *s, struct ir_effect a, struct ir_effect b)
{
    struct ir_insn in;
    memset(&in, 0, sizeof in);
    ir_add(&in, a);
    ir_add(&in, b);
    abstract_state_step(s, &in);
}

static void run3(struct abstract_state *s, struct ir_effect a, struct ir_effect b, struct ir_effect c)
{
    struct ir_insn in;
    memset(&in, 0, sizeof in);
    ir_add(&in, a);
    ir_add(&in, b);
    ir_add(&in, c);
    abstract_state_step(s, &in);
}

static void push(struct abstract_state *s, uint8_t r)
{
    run2(s, ir_set(RSP, RSP, -8), ir_store(RSP, 0, r, 8));
}

static void pop(struct abstract_state *s, uint8_t r)
{
    run2(s, ir_load(r, RSP, 0), ir_set(RSP, RSP, 8));
}

static void sub_rsp(struct abstract_state *s, int32_t n)
{
    run1(s, ir_set(RSP, RSP, -n));
}

static void add_rsp(struct abstract_state *s, int32_t n)
{
    run1(s, ir_set(RSP, RSP, n));
}

static void mov_rsp_rbp(struct abstract_state *s)
{
    run1(s, ir_set(RBP, RSP, 0));
}

static void leave(struct abstract_state *s)
{
    run3(s, ir_set(RSP, RBP, 0), ir_load(RBP, RSP, 0), ir_set(RSP, RSP, 8));
}

static void store8(struct abstract_state *s, uint8_t base, int32_t disp, uint8_t src)
{
    run1(s, ir_store(base, disp, src, 8));
}

/* The expressions of the row row_of built last (each test reads one row at a time). */
static struct synth_row_exprs row_exprs;

static void row_of(const struct abstract_state *s, struct unwind_row *row)
{
    memset(row, 0xa5, sizeof *row);
    emit_row_from_state(s, row, &row_exprs);
}

/* push %rbp; mov %rsp,%rbp; push %rbx; push %r12; sub $24,%rsp
 * rsp: CFA-16, -16, -24, -32, -56.  Slots: -8 RA, -16 rbp, -24 rbx, -32 r12. */
static void fp_prologue(struct abstract_state *s)
{
    abstract_state_entry(s);
    push(s, RBP);
    mov_rsp_rbp(s);
    push(s, ABI_RBX);
    push(s, ABI_R12);
    sub_rsp(s, 24);
}

/* push %rbx; push %rbp; push %r12; sub $40,%rsp (no frame pointer)
 * rsp: CFA-16, -24, -32, -72.  Slots: -8 RA, -16 rbx, -24 rbp, -32 r12. */
static void rsp_prologue(struct abstract_state *s)
{
    abstract_state_entry(s);
    push(s, ABI_RBX);
    push(s, RBP);
    push(s, ABI_R12);
    sub_rsp(s, 40);
}

/* ---- entry --------------------------------------------------------------- */

static void test_entry_state(void **state)
{
    (void)state;
    struct abstract_state s;
    memset(&s, 0x5a, sizeof s);
    abstract_state_entry(&s);
    assert_cfa(s.reg[RSP], -8);
    for (unsigned r = 0; r < STATE_GPRS; r++)
        if (r != RSP)
            assert_entry(s.reg[r], r, 0);
    assert_int_equal(s.nslots, 1);
    assert_entry(abstract_state_slot(&s, -8), STATE_RA, 0);
    assert_unknown(abstract_state_slot(&s, -16));
    assert_unknown(abstract_state_slot(&s, 0));
    assert_unknown(abstract_state_slot(&s, -4));
    assert_int_equal(s.frame_pointer, 0);

    /* Its row: CFA = rsp + 8, RA at CFA - 8, nothing else described. */
    struct unwind_row row;
    row_of(&s, &row);
    assert_cfa_rule(row, RSP, 8);
    assert_saved_at(row, ABI_RA, -8);
    for (unsigned r = 0; r < STATE_GPRS; r++)
        assert_rule_kind(row, r, REG_RULE_UNREFERENCED);
}

static void test_unknown_state_row(void **state)
{
    (void)state;
    struct abstract_state s;
    abstract_state_unknown(&s);
    for (unsigned r = 0; r < STATE_GPRS; r++)
        assert_unknown(s.reg[r]);
    assert_int_equal(s.nslots, 0);
    struct unwind_row row;
    row_of(&s, &row);
    assert_int_equal(row.cfa.kind, CFA_RULE_UNKNOWN);
    for (unsigned i = 0; i < ABI_NCALLEE_SAVED; i++)
        assert_rule_kind(row, abi_callee_saved_regs[i], REG_RULE_UNKNOWN);
    assert_rule_kind(row, ABI_RA, REG_RULE_UNKNOWN);
    assert_rule_kind(row, ABI_RAX, REG_RULE_UNREFERENCED);
}

/* ---- prologue / epilogue transfer ---------------------------------------- */

static void test_push_rbp_mov_sets_frame_pointer(void **state)
{
    (void)state;
    struct abstract_state s;
    abstract_state_entry(&s);
    push(&s, RBP);
    assert_cfa(s.reg[RSP], -16);
    assert_entry(abstract_state_slot(&s, -16), RBP, 0);
    assert_entry(abstract_state_slot(&s, -8), STATE_RA, 0);
    assert_int_equal(s.nslots, 2);
    assert_entry(s.reg[RBP], RBP, 0);
    assert_int_equal(s.frame_pointer, 0);

    mov_rsp_rbp(&s);
    assert_cfa(s.reg[RBP], -16);
    assert_cfa(s.reg[RSP], -16);
    assert_int_equal(s.frame_pointer, 1);

    /* Pushes and sub below the frame pointer keep it. */
    push(&s, ABI_RBX);
    push(&s, ABI_R12);
    sub_rsp(&s, 24);
    assert_cfa(s.reg[RSP], -56);
    assert_cfa(s.reg[RBP], -16);
    assert_int_equal(s.frame_pointer, 1);
    assert_entry(abstract_state_slot(&s, -24), ABI_RBX, 0);
    assert_entry(abstract_state_slot(&s, -32), ABI_R12, 0);
    assert_int_equal(s.nslots, 4);
    /* Pushing reads the register, it does not change it. */
    assert_entry(s.reg[ABI_RBX], ABI_RBX, 0);
    assert_entry(s.reg[ABI_R12], ABI_R12, 0);
}

static void test_mov_rsp_rbp_without_push_is_not_frame_pointer(void **state)
{
    (void)state;
    struct abstract_state s;
    abstract_state_entry(&s);
    /* rbp := rsp, but [rsp] holds the return address, not entry(rbp). */
    mov_rsp_rbp(&s);
    assert_cfa(s.reg[RBP], -8);
    assert_int_equal(s.frame_pointer, 0);
    struct unwind_row row;
    row_of(&s, &row);
    assert_cfa_rule(row, RSP, 8);
    assert_rule_kind(row, RBP, REG_RULE_UNKNOWN);   /* clobbered, never saved */
}

static void test_lea_rbp_is_not_frame_pointer(void **state)
{
    (void)state;
    struct abstract_state s;
    abstract_state_entry(&s);
    push(&s, RBP);                                   /* rsp = CFA-16 */
    sub_rsp(&s, 32);                                 /* rsp = CFA-48 */
    run1(&s, ir_set(RBP, RSP, 16));                  /* lea 16(%rsp),%rbp */
    assert_cfa(s.reg[RBP], -32);
    assert_cfa(s.reg[RSP], -48);
    assert_int_equal(s.frame_pointer, 0);
    struct unwind_row row;
    row_of(&s, &row);
    assert_cfa_rule(row, RSP, 48);
    assert_saved_at(row, RBP, -16);

    /* Even when it is the first thing after push %rbp. */
    abstract_state_entry(&s);
    push(&s, RBP);
    run1(&s, ir_set(RBP, RSP, 16));                  /* lea 16(%rsp),%rbp: rbp = CFA */
    assert_cfa(s.reg[RBP], 0);
    assert_int_equal(s.frame_pointer, 0);
    row_of(&s, &row);
    assert_cfa_rule(row, RSP, 16);
}

static void test_frame_pointer_cleared_by_rbp_writes(void **state)
{
    (void)state;
    struct abstract_state base, s;
    struct unwind_row row;
    abstract_state_entry(&base);
    push(&base, RBP);
    mov_rsp_rbp(&base);
    sub_rsp(&base, 16);                              /* rsp = CFA-32 */
    assert_int_equal(base.frame_pointer, 1);

    /* Clobber. */
    s = base;
    run1(&s, ir_clobber(RBP));
    assert_unknown(s.reg[RBP]);
    assert_int_equal(s.frame_pointer, 0);
    row_of(&s, &row);
    assert_cfa_rule(row, RSP, 32);
    assert_saved_at(row, RBP, -16);                  /* still in its slot */

    /* Load through a non-stack pointer: mov (%rdi),%rbp. */
    s = base;
    run1(&s, ir_load(RBP, ABI_RDI, 0));
    assert_unknown(s.reg[RBP]);
    assert_int_equal(s.frame_pointer, 0);

    /* Load from a frame slot: mov 16(%rsp),%rbp reads [CFA-16] = entry(rbp). */
    s = base;
    run1(&s, ir_load(RBP, RSP, 16));
    assert_entry(s.reg[RBP], RBP, 0);
    assert_int_equal(s.frame_pointer, 0);

    /* Copy of another register. */
    s = base;
    run1(&s, ir_set(RBP, ABI_RAX, 0));
    assert_entry(s.reg[RBP], ABI_RAX, 0);
    assert_int_equal(s.frame_pointer, 0);

    /* Adjusting rbp itself: rbp is CFA-8 now, but no longer the idiom. */
    s = base;
    run1(&s, ir_set(RBP, RBP, 8));
    assert_cfa(s.reg[RBP], -8);
    assert_int_equal(s.frame_pointer, 0);
    row_of(&s, &row);
    assert_cfa_rule(row, RSP, 32);

    /* Realigning rbp. */
    s = base;
    run1(&s, ir_and(RBP, -16));
    assert_unknown(s.reg[RBP]);
    assert_int_equal(s.frame_pointer, 0);

    /* Writes to other registers leave it alone. */
    s = base;
    run1(&s, ir_clobber(ABI_RAX));
    run1(&s, ir_load(ABI_RBX, ABI_RDI, 0));
    run1(&s, ir_set(ABI_RCX, RBP, -8));
    assert_int_equal(s.frame_pointer, 1);
}

static void test_pop_epilogue(void **state)
{
    (void)state;
    struct abstract_state s;
    fp_prologue(&s);
    run1(&s, ir_clobber(ABI_RBX));
    run1(&s, ir_clobber(ABI_R12));
    add_rsp(&s, 24);
    assert_cfa(s.reg[RSP], -32);
    pop(&s, ABI_R12);
    assert_entry(s.reg[ABI_R12], ABI_R12, 0);
    assert_cfa(s.reg[RSP], -24);
    pop(&s, ABI_RBX);
    assert_entry(s.reg[ABI_RBX], ABI_RBX, 0);
    assert_cfa(s.reg[RSP], -16);
    assert_int_equal(s.frame_pointer, 1);
    pop(&s, RBP);
    assert_entry(s.reg[RBP], RBP, 0);
    assert_cfa(s.reg[RSP], -8);
    assert_int_equal(s.frame_pointer, 0);
    /* Popping does not erase the memory below rsp. */
    assert_entry(abstract_state_slot(&s, -16), RBP, 0);
    assert_entry(abstract_state_slot(&s, -24), ABI_RBX, 0);
    assert_entry(abstract_state_slot(&s, -32), ABI_R12, 0);
    assert_entry(abstract_state_slot(&s, -8), STATE_RA, 0);
}

static void test_leave_epilogue(void **state)
{
    (void)state;
    struct abstract_state s;
    fp_prologue(&s);
    run1(&s, ir_clobber(ABI_RBX));
    /* The three effects of leave one at a time. */
    struct ir_effect e1 = ir_set(RSP, RBP, 0), e2 = ir_load(RBP, RSP, 0), e3 = ir_set(RSP, RSP, 8);
    abstract_state_apply(&s, &e1);
    assert_cfa(s.reg[RSP], -16);
    assert_int_equal(s.frame_pointer, 1);
    abstract_state_apply(&s, &e2);
    assert_entry(s.reg[RBP], RBP, 0);
    assert_int_equal(s.frame_pointer, 0);
    struct unwind_row row;
    row_of(&s, &row);
    assert_cfa_rule(row, RSP, 16);
    abstract_state_apply(&s, &e3);
    assert_cfa(s.reg[RSP], -8);
    row_of(&s, &row);
    assert_cfa_rule(row, RSP, 8);

    /* As one instruction: the same state. */
    struct abstract_state t;
    fp_prologue(&t);
    run1(&t, ir_clobber(ABI_RBX));
    leave(&t);
    assert_true(abstract_state_equal(&s, &t));
    assert_cfa(t.reg[RSP], -8);
    assert_entry(t.reg[RBP], RBP, 0);
    assert_int_equal(t.frame_pointer, 0);
}

/* ---- emit_row_from_state ------------------------------------------------ */

static void test_row_rsp_based(void **state)
{
    (void)state;
    struct abstract_state s;
    struct unwind_row row;
    abstract_state_entry(&s);
    push(&s, ABI_RBX);
    row_of(&s, &row);
    assert_cfa_rule(row, RSP, 16);
    assert_saved_at(row, ABI_RBX, -16);

    rsp_prologue(&s);
    run1(&s, ir_clobber(ABI_RBX));
    run1(&s, ir_set(RBP, ABI_RDI, 0));              /* rbp used as a plain register */
    run1(&s, ir_clobber(ABI_R12));
    run1(&s, ir_clobber(ABI_R14));                  /* clobbered, never saved */
    run1(&s, ir_clobber(ABI_RAX));
    row_of(&s, &row);
    assert_cfa_rule(row, RSP, 72);
    assert_saved_at(row, ABI_RBX, -16);
    assert_saved_at(row, RBP, -24);
    assert_saved_at(row, ABI_R12, -32);
    assert_rule_kind(row, ABI_R13, REG_RULE_UNREFERENCED);
    assert_rule_kind(row, ABI_R14, REG_RULE_UNKNOWN);
    assert_rule_kind(row, ABI_R15, REG_RULE_UNREFERENCED);
    assert_saved_at(row, ABI_RA, -8);
    /* Caller-saved columns and rsp are never described. */
    assert_rule_kind(row, ABI_RAX, REG_RULE_UNREFERENCED);
    assert_rule_kind(row, ABI_RDI, REG_RULE_UNREFERENCED);
    assert_rule_kind(row, RSP, REG_RULE_UNREFERENCED);

    /* A callee-saved register moved elsewhere, or offset, is not its entry value. */
    run1(&s, ir_set(ABI_R13, ABI_R13, 8));          /* add $8,%r13 */
    run1(&s, ir_set(ABI_R15, ABI_RBX, 0));          /* mov %rbx,%r15 (rbx unknown) */
    row_of(&s, &row);
    assert_rule_kind(row, ABI_R13, REG_RULE_UNKNOWN);
    assert_rule_kind(row, ABI_R15, REG_RULE_UNKNOWN);
}

static void test_row_frame_pointer_based(void **state)
{
    (void)state;
    struct abstract_state s;
    struct unwind_row row;
    abstract_state_entry(&s);
    push(&s, RBP);
    row_of(&s, &row);
    assert_cfa_rule(row, RSP, 16);                   /* not yet: rbp is still entry(rbp) */
    assert_saved_at(row, RBP, -16);

    mov_rsp_rbp(&s);
    row_of(&s, &row);
    assert_cfa_rule(row, RBP, 16);

    fp_prologue(&s);
    run1(&s, ir_clobber(ABI_RBX));
    run1(&s, ir_clobber(ABI_R12));
    run1(&s, ir_clobber(ABI_R13));
    row_of(&s, &row);
    assert_cfa_rule(row, RBP, 16);                   /* rsp = CFA-56 is not used */
    assert_saved_at(row, RBP, -16);
    assert_saved_at(row, ABI_RBX, -24);
    assert_saved_at(row, ABI_R12, -32);
    assert_rule_kind(row, ABI_R13, REG_RULE_UNKNOWN);
    assert_rule_kind(row, ABI_R14, REG_RULE_UNREFERENCED);
    assert_rule_kind(row, ABI_R15, REG_RULE_UNREFERENCED);
    assert_saved_at(row, ABI_RA, -8);

    /* A frame pointer with a later CFA-relative offset: sub before the push. */
    abstract_state_entry(&s);
    sub_rsp(&s, 8);                                  /* rsp = CFA-16 */
    push(&s, RBP);                                   /* rsp = CFA-24, [CFA-24] = rbp */
    mov_rsp_rbp(&s);
    assert_int_equal(s.frame_pointer, 1);
    sub_rsp(&s, 64);
    row_of(&s, &row);
    assert_cfa_rule(row, RBP, 24);
    assert_saved_at(row, RBP, -24);
}

static void test_row_after_pops_keeps_slots(void **state)
{
    (void)state;
    struct abstract_state s;
    struct unwind_row row;
    rsp_prologue(&s);
    run1(&s, ir_clobber(ABI_RBX));
    run1(&s, ir_clobber(RBP));
    run1(&s, ir_clobber(ABI_R12));
    add_rsp(&s, 40);
    pop(&s, ABI_R12);
    row_of(&s, &row);
    assert_cfa_rule(row, RSP, 24);
    assert_saved_at(row, ABI_R12, -32);              /* restored, still by its slot */
    assert_saved_at(row, RBP, -24);
    pop(&s, RBP);
    pop(&s, ABI_RBX);
    row_of(&s, &row);
    assert_cfa_rule(row, RSP, 8);
    assert_saved_at(row, ABI_RBX, -16);
    assert_saved_at(row, RBP, -24);
    assert_saved_at(row, ABI_R12, -32);
    assert_saved_at(row, ABI_RA, -8);
    assert_rule_kind(row, ABI_R13, REG_RULE_UNREFERENCED);

    /* With a frame pointer: lea -16(%rbp),%rsp; pop %r12; pop %rbx; pop %rbp. */
    fp_prologue(&s);
    run1(&s, ir_clobber(ABI_RBX));
    run1(&s, ir_set(RSP, RBP, -16));                 /* lea -16(%rbp),%rsp */
    assert_cfa(s.reg[RSP], -32);
    pop(&s, ABI_R12);
    pop(&s, ABI_RBX);
    run2(&s, ir_load(RBP, RSP, 0), ir_set(RSP, RSP, 8));   /* pop %rbp */
    row_of(&s, &row);
    assert_cfa_rule(row, RSP, 8);
    assert_saved_at(row, RBP, -16);
    assert_saved_at(row, ABI_RBX, -24);
    assert_saved_at(row, ABI_R12, -32);
}

static void test_row_ra_and_highest_slot(void **state)
{
    (void)state;
    struct abstract_state s;
    struct unwind_row row;
    abstract_state_entry(&s);
    push(&s, ABI_RBX);                               /* [CFA-16] = rbx */
    sub_rsp(&s, 32);                                 /* rsp = CFA-48 */
    store8(&s, RSP, 0, ABI_RBX);                     /* a second copy at CFA-48 */
    row_of(&s, &row);
    assert_saved_at(row, ABI_RBX, -16);              /* the prologue's (highest) one */

    /* Overwrite the push: the copy is what remains. */
    store8(&s, RSP, 32, ABI_RAX);                    /* [CFA-16] = entry(rax) */
    row_of(&s, &row);
    assert_saved_at(row, ABI_RBX, -48);

    /* The return address overwritten: RA becomes unknown (never "unreferenced"). */
    store8(&s, RSP, 40, ABI_RAX);                    /* [CFA-8] = entry(rax) */
    row_of(&s, &row);
    assert_rule_kind(row, ABI_RA, REG_RULE_UNKNOWN);
    assert_cfa_rule(row, RSP, 48);

    /* The return address copied lower: described there. */
    abstract_state_entry(&s);
    run1(&s, ir_load(ABI_RAX, RSP, 0));              /* mov (%rsp),%rax */
    assert_entry(s.reg[ABI_RAX], STATE_RA, 0);
    sub_rsp(&s, 8);
    store8(&s, RSP, 0, ABI_RAX);                     /* [CFA-16] = entry(RA) */
    store8(&s, RSP, 8, ABI_RBX);                     /* [CFA-8] = entry(rbx) */
    row_of(&s, &row);
    assert_saved_at(row, ABI_RA, -16);
    assert_saved_at(row, ABI_RBX, -8);
}

/* ---- stores and loads ---------------------------------------------------- */

static void test_store_8_bytes(void **state)
{
    (void)state;
    struct abstract_state s;
    abstract_state_entry(&s);
    sub_rsp(&s, 32);                                 /* rsp = CFA-40 */
    store8(&s, RSP, 8, ABI_RBX);                     /* mov %rbx,8(%rsp): CFA-32 */
    store8(&s, RSP, 16, ABI_R12);                    /* CFA-24 */
    store8(&s, RSP, 0, RSP);                         /* a frame address: CFA-40 at CFA-40 */
    assert_int_equal(s.nslots, 4);
    assert_entry(abstract_state_slot(&s, -32), ABI_RBX, 0);
    assert_entry(abstract_state_slot(&s, -24), ABI_R12, 0);
    assert_cfa(abstract_state_slot(&s, -40), -40);
    /* Sorted by offset. */
    assert_true(s.slot[0].off == -40);
    assert_true(s.slot[1].off == -32);
    assert_true(s.slot[2].off == -24);
    assert_true(s.slot[3].off == -8);

    struct unwind_row row;
    row_of(&s, &row);
    assert_cfa_rule(row, RSP, 40);
    assert_saved_at(row, ABI_RBX, -32);
    assert_saved_at(row, ABI_R12, -24);

    /* Loads give the values back, through any CFA-based pointer. */
    run1(&s, ir_set(ABI_RCX, RSP, 16));              /* rcx = CFA-24 */
    run1(&s, ir_load(ABI_RAX, ABI_RCX, -8));         /* [CFA-32] */
    assert_entry(s.reg[ABI_RAX], ABI_RBX, 0);
    run1(&s, ir_load(ABI_RDX, RSP, 0));
    assert_cfa(s.reg[ABI_RDX], -40);
    run1(&s, ir_load(ABI_RSI, RSP, 24));             /* [CFA-16]: never written */
    assert_unknown(s.reg[ABI_RSI]);
    run1(&s, ir_load(ABI_RDI, RSP, 4));              /* [CFA-36]: not a slot start */
    assert_unknown(s.reg[ABI_RDI]);

    /* Overwriting a slot replaces it. */
    store8(&s, RSP, 8, ABI_R13);
    assert_int_equal(s.nslots, 4);
    assert_entry(abstract_state_slot(&s, -32), ABI_R13, 0);

    /* Through rbp as a frame pointer: mov %r14,-8(%rbp) is [CFA-24]. */
    abstract_state_entry(&s);
    push(&s, RBP);
    mov_rsp_rbp(&s);
    sub_rsp(&s, 16);
    store8(&s, RBP, -8, ABI_R14);
    assert_entry(abstract_state_slot(&s, -24), ABI_R14, 0);
    row_of(&s, &row);
    assert_saved_at(row, ABI_R14, -24);
}

static void test_store_partial_forgets(void **state)
{
    (void)state;
    struct abstract_state s;
    abstract_state_entry(&s);
    sub_rsp(&s, 32);                                 /* rsp = CFA-40 */
    store8(&s, RSP, 8, ABI_RBX);                     /* [CFA-32, CFA-24) */
    store8(&s, RSP, 16, ABI_R12);                    /* [CFA-24, CFA-16) */
    store8(&s, RSP, 24, ABI_R13);                    /* [CFA-16, CFA-8) */
    assert_int_equal(s.nslots, 4);

    /* movl $0,12(%rsp): [CFA-28, CFA-24) is the upper half of the rbx slot only. */
    run1(&s, ir_store(RSP, 12, NONE, 4));
    assert_unknown(abstract_state_slot(&s, -32));
    assert_entry(abstract_state_slot(&s, -24), ABI_R12, 0);
    assert_entry(abstract_state_slot(&s, -16), ABI_R13, 0);
    assert_int_equal(s.nslots, 3);

    /* movl %eax,16(%rsp): a 4-byte store of a tracked register still forgets. */
    run1(&s, ir_store(RSP, 16, ABI_RAX, 4));
    assert_unknown(abstract_state_slot(&s, -24));
    assert_entry(abstract_state_slot(&s, -16), ABI_R13, 0);
    assert_entry(abstract_state_slot(&s, -8), STATE_RA, 0);
    assert_int_equal(s.nslots, 2);

    /* movb $0,31(%rsp): the last byte of [CFA-16, CFA-8). */
    run1(&s, ir_store(RSP, 31, NONE, 1));
    assert_unknown(abstract_state_slot(&s, -16));
    assert_entry(abstract_state_slot(&s, -8), STATE_RA, 0);
    assert_int_equal(s.nslots, 1);

    struct unwind_row row;
    row_of(&s, &row);
    assert_rule_kind(row, ABI_RBX, REG_RULE_UNREFERENCED);   /* rbx itself untouched */
    assert_saved_at(row, ABI_RA, -8);

    /* An unaligned 8-byte store over two slots forgets both, keeps itself. */
    abstract_state_entry(&s);
    sub_rsp(&s, 32);
    store8(&s, RSP, 8, ABI_RBX);                     /* CFA-32 */
    store8(&s, RSP, 16, ABI_R12);                    /* CFA-24 */
    store8(&s, RSP, 12, ABI_R13);                    /* CFA-28: overlaps both */
    assert_unknown(abstract_state_slot(&s, -32));
    assert_unknown(abstract_state_slot(&s, -24));
    assert_entry(abstract_state_slot(&s, -28), ABI_R13, 0);
    assert_int_equal(s.nslots, 2);

    /* A 16-byte store (movaps) at CFA-40 covers [CFA-40, CFA-24). */
    abstract_state_entry(&s);
    sub_rsp(&s, 32);
    store8(&s, RSP, 0, ABI_RBX);                     /* CFA-40 */
    store8(&s, RSP, 8, ABI_R12);                     /* CFA-32 */
    store8(&s, RSP, 16, ABI_R13);                    /* CFA-24 */
    run1(&s, ir_store(RSP, 0, NONE, 16));
    assert_unknown(abstract_state_slot(&s, -40));
    assert_unknown(abstract_state_slot(&s, -32));
    assert_entry(abstract_state_slot(&s, -24), ABI_R13, 0);
}

static void test_store_untracked_removes(void **state)
{
    (void)state;
    struct abstract_state s;
    abstract_state_entry(&s);
    sub_rsp(&s, 32);                                 /* rsp = CFA-40 */
    store8(&s, RSP, 8, ABI_RBX);                     /* CFA-32 */
    store8(&s, RSP, 16, ABI_R12);                    /* CFA-24 */

    /* movq $0,8(%rsp): src NONE. */
    run1(&s, ir_store(RSP, 8, NONE, 8));
    assert_unknown(abstract_state_slot(&s, -32));
    assert_int_equal(s.nslots, 2);

    /* mov %rax,16(%rsp) with rax unknown. */
    run1(&s, ir_clobber(ABI_RAX));
    store8(&s, RSP, 16, ABI_RAX);
    assert_unknown(abstract_state_slot(&s, -24));
    assert_int_equal(s.nslots, 1);
    assert_entry(abstract_state_slot(&s, -8), STATE_RA, 0);

    /* Overwriting the return address with an unknown value. */
    store8(&s, RSP, 32, ABI_RAX);
    assert_int_equal(s.nslots, 0);
    struct unwind_row row;
    row_of(&s, &row);
    assert_rule_kind(row, ABI_RA, REG_RULE_UNKNOWN);
}

static void test_store_through_non_stack_pointer(void **state)
{
    (void)state;
    struct abstract_state s, before;
    abstract_state_entry(&s);
    push(&s, ABI_RBX);                               /* [CFA-16] = rbx, rsp = CFA-16 */
    sub_rsp(&s, 16);                                 /* rsp = CFA-32 */
    store8(&s, RSP, 0, ABI_R12);                     /* [CFA-32] = r12 */
    before = s;

    store8(&s, ABI_RDI, 0, ABI_R13);                 /* mov %r13,(%rdi): entry(rdi) */
    store8(&s, ABI_RDI, -16, NONE);
    run1(&s, ir_store(ABI_RSI, 8, ABI_RAX, 4));
    run1(&s, ir_clobber(ABI_RAX));
    store8(&s, ABI_RAX, -32, ABI_R14);               /* through an unknown pointer */
    run1(&s, ir_store(NONE, 0x1000, ABI_R15, 8));    /* absolute address */
    run1(&s, ir_clobber(ABI_RAX));                   /* (same as before, for equality) */
    before.reg[ABI_RAX] = s.reg[ABI_RAX];
    assert_true(abstract_state_equal(&s, &before));
    assert_int_equal(s.nslots, 3);
    assert_entry(abstract_state_slot(&s, -16), ABI_RBX, 0);
    assert_entry(abstract_state_slot(&s, -32), ABI_R12, 0);

    /* Loads through them give nothing. */
    run1(&s, ir_load(ABI_RCX, ABI_RDI, 0));
    assert_unknown(s.reg[ABI_RCX]);
}

/* ---- realignment --------------------------------------------------------- */

static void test_and_rsp_realignment(void **state)
{
    (void)state;
    struct abstract_state s;
    struct unwind_row row;

    /* GCC's DRAP: lea 8(%rsp),%r10 (r10 = CFA-8+8 = CFA); and $-16,%rsp. */
    abstract_state_entry(&s);
    run1(&s, ir_set(ABI_R10, RSP, 8));
    assert_cfa(s.reg[ABI_R10], 0);
    run1(&s, ir_and(RSP, -16));
    assert_int_not_equal(s.reg[RSP].kind, AV_CFA);  /* unknown relative to the CFA */
    row_of(&s, &row);
    assert_cfa_rule(row, ABI_R10, 0);
    assert_saved_at(row, ABI_RA, -8);
    assert_rule_kind(row, ABI_RBX, REG_RULE_UNREFERENCED);
    /* Slots and other registers survive the and. */
    assert_entry(abstract_state_slot(&s, -8), STATE_RA, 0);
    assert_entry(s.reg[RBP], RBP, 0);
    /* push -8(%r10); push %rbp; mov %rsp,%rbp; push %r10: r10 still holds
     * CFA, but from now on the CFA is the DRAP slot, as GCC writes it (the
     * slot survives calls, r10 does not): DW_OP_breg6 -8; DW_OP_deref. */
    run2(&s, ir_set(RSP, RSP, -8), ir_store(RSP, 0, NONE, 8));
    push(&s, RBP);
    mov_rsp_rbp(&s);
    push(&s, ABI_R10);
    assert_int_not_equal(s.reg[RSP].kind, AV_CFA);
    assert_int_not_equal(s.reg[RBP].kind, AV_CFA);
    assert_cfa(s.reg[ABI_R10], 0);
    row_of(&s, &row);
    assert_int_equal(row.cfa.kind, CFA_RULE_EXPRESSION);
    assert_int_equal(row.cfa.expr_len, 3);
    assert_memory_equal(row.cfa.expr, ((const uint8_t[]){0x76, 0x78, 0x06}), 3);
    assert_saved_at(row, ABI_RA, -8);

    /* lea 16(%rsp),%r10 at entry: r10 = CFA-8+16 = CFA+8, so CFA = r10-8. */
    abstract_state_entry(&s);
    run1(&s, ir_set(ABI_R10, RSP, 16));
    assert_cfa(s.reg[ABI_R10], 8);
    run1(&s, ir_and(RSP, -32));
    row_of(&s, &row);
    assert_cfa_rule(row, ABI_R10, -8);

    /* After push %rbp, lea 16(%rsp),%r10 is r10 = CFA-16+16 = CFA. */
    abstract_state_entry(&s);
    push(&s, RBP);
    run1(&s, ir_set(ABI_R10, RSP, 16));
    assert_cfa(s.reg[ABI_R10], 0);
    run1(&s, ir_and(RSP, -64));
    row_of(&s, &row);
    assert_cfa_rule(row, ABI_R10, 0);
    assert_saved_at(row, RBP, -16);

    /* Nothing holds the CFA any more: unknown. */
    abstract_state_entry(&s);
    run1(&s, ir_and(RSP, -16));
    assert_int_not_equal(s.reg[RSP].kind, AV_CFA);
    row_of(&s, &row);
    assert_int_equal(row.cfa.kind, CFA_RULE_UNKNOWN);
    assert_saved_at(row, ABI_RA, -8);
}

static void test_and_rsp_with_frame_pointer(void **state)
{
    (void)state;
    struct abstract_state s;
    struct unwind_row row;
    /* push %rbp; mov %rsp,%rbp; and $-32,%rsp; sub $64,%rsp: rbp + 16. */
    abstract_state_entry(&s);
    push(&s, RBP);
    mov_rsp_rbp(&s);
    run1(&s, ir_and(RSP, -32));
    sub_rsp(&s, 64);
    assert_int_not_equal(s.reg[RSP].kind, AV_CFA);
    assert_cfa(s.reg[RBP], -16);
    assert_int_equal(s.frame_pointer, 1);
    row_of(&s, &row);
    assert_cfa_rule(row, RBP, 16);
    assert_saved_at(row, RBP, -16);
    assert_saved_at(row, ABI_RA, -8);
    /* mov %rbp,%rsp; pop %rbp: back to rsp + 8. */
    run1(&s, ir_set(RSP, RBP, 0));
    run2(&s, ir_load(RBP, RSP, 0), ir_set(RSP, RSP, 8));
    assert_cfa(s.reg[RSP], -8);
    assert_entry(s.reg[RBP], RBP, 0);
    row_of(&s, &row);
    assert_cfa_rule(row, RSP, 8);
}

static void test_and_other_register(void **state)
{
    (void)state;
    struct abstract_state s;
    abstract_state_entry(&s);
    run1(&s, ir_set(ABI_RAX, RSP, -100));            /* lea -100(%rsp),%rax */
    run1(&s, ir_and(ABI_RAX, -16));
    assert_unknown(s.reg[ABI_RAX]);
    run1(&s, ir_and(ABI_RCX, 0xff));                 /* entry(rcx) & 0xff */
    assert_unknown(s.reg[ABI_RCX]);
    /* rsp untouched. */
    assert_cfa(s.reg[RSP], -8);
}

/* ---- calls --------------------------------------------------------------- */

static void test_after_call(void **state)
{
    (void)state;
    struct abstract_state s;
    abstract_state_entry(&s);
    push(&s, RBP);                                   /* CFA-16 */
    mov_rsp_rbp(&s);
    push(&s, ABI_RBX);                               /* CFA-24 */
    sub_rsp(&s, 24);                                 /* rsp = CFA-48 */
    run1(&s, ir_set(ABI_RAX, RSP, 0));               /* rax = CFA-48 */
    run1(&s, ir_set(ABI_R12, RSP, 8));               /* r12 = CFA-40 (callee-saved) */
    store8(&s, RSP, 0, ABI_R13);                     /* [CFA-48]: at rsp */
    store8(&s, RSP, 16, ABI_R14);                    /* [CFA-32]: above */
    store8(&s, RSP, -8, ABI_R15);                    /* [CFA-56]: red zone, below */
    store8(&s, RSP, -16, ABI_RDI);                   /* [CFA-64]: below */
    assert_int_equal(s.nslots, 7);

    abstract_state_after_call(&s, 0);
    static const unsigned caller_saved[] = {ABI_RAX, ABI_RDX, ABI_RCX, ABI_RSI, ABI_RDI,
                                            ABI_R8,  ABI_R9,  ABI_R10, ABI_R11};
    for (unsigned i = 0; i < sizeof caller_saved / sizeof caller_saved[0]; i++)
        assert_unknown(s.reg[caller_saved[i]]);
    assert_cfa(s.reg[RSP], -48);
    assert_cfa(s.reg[RBP], -16);
    assert_cfa(s.reg[ABI_R12], -40);
    assert_entry(s.reg[ABI_RBX], ABI_RBX, 0);
    assert_entry(s.reg[ABI_R13], ABI_R13, 0);
    assert_entry(s.reg[ABI_R14], ABI_R14, 0);
    assert_entry(s.reg[ABI_R15], ABI_R15, 0);
    assert_int_equal(s.frame_pointer, 1);

    assert_int_equal(s.nslots, 5);
    assert_entry(abstract_state_slot(&s, -48), ABI_R13, 0);
    assert_entry(abstract_state_slot(&s, -32), ABI_R14, 0);
    assert_entry(abstract_state_slot(&s, -24), ABI_RBX, 0);
    assert_entry(abstract_state_slot(&s, -16), RBP, 0);
    assert_entry(abstract_state_slot(&s, -8), STATE_RA, 0);
    assert_unknown(abstract_state_slot(&s, -56));
    assert_unknown(abstract_state_slot(&s, -64));

    struct unwind_row row;
    row_of(&s, &row);
    assert_cfa_rule(row, RBP, 16);
    assert_saved_at(row, ABI_RBX, -24);
    assert_saved_at(row, ABI_R13, -48);
    assert_saved_at(row, ABI_R14, -32);
    assert_rule_kind(row, ABI_R15, REG_RULE_UNREFERENCED);   /* still entry(r15) */
    assert_rule_kind(row, ABI_R12, REG_RULE_UNKNOWN);

    /* An 8-byte slot straddling rsp is partly below it: forgotten. */
    abstract_state_entry(&s);
    sub_rsp(&s, 24);                                 /* rsp = CFA-32 */
    store8(&s, RSP, -4, ABI_RBX);                    /* [CFA-36, CFA-28) */
    store8(&s, RSP, 8, ABI_R12);                     /* [CFA-24, CFA-16) */
    assert_int_equal(s.nslots, 3);
    abstract_state_after_call(&s, 0);
    assert_unknown(abstract_state_slot(&s, -36));
    assert_entry(abstract_state_slot(&s, -24), ABI_R12, 0);
    assert_int_equal(s.nslots, 2);

    /* At entry (a tail position): nothing below CFA-8 to forget. */
    abstract_state_entry(&s);
    abstract_state_after_call(&s, 0);
    assert_int_equal(s.nslots, 1);
    assert_cfa(s.reg[RSP], -8);
    assert_unknown(s.reg[ABI_RDI]);
    assert_entry(s.reg[ABI_RBX], ABI_RBX, 0);

    /* A callee known to give rax back (a stack probe): rax keeps its value,
     * the other caller-saved registers do not. */
    abstract_state_entry(&s);
    run1(&s, ir_set(ABI_RAX, RSP, 0));               /* rax = CFA-8 */
    run1(&s, ir_set(ABI_RDX, RSP, 0));
    abstract_state_after_call(&s, 1u << ABI_RAX);
    assert_cfa(s.reg[ABI_RAX], -8);
    assert_unknown(s.reg[ABI_RDX]);
    assert_unknown(s.reg[ABI_RDI]);
}

/* ---- join ---------------------------------------------------------------- */

static void test_join_equal_values(void **state)
{
    (void)state;
    struct abstract_state a, b, copy;
    fp_prologue(&a);
    fp_prologue(&b);
    copy = a;
    assert_int_equal(abstract_state_join(&a, &b), 0);
    assert_true(abstract_state_equal(&a, &copy));
    assert_cfa(a.reg[RSP], -56);
    assert_int_equal(a.frame_pointer, 1);
}

static void test_join_different_values(void **state)
{
    (void)state;
    struct abstract_state a, b;
    abstract_state_entry(&a);
    abstract_state_entry(&b);
    sub_rsp(&a, 8);                                  /* rsp: CFA-16 vs CFA-8 */
    run1(&a, ir_set(ABI_RAX, RSP, 0));               /* rax: CFA-16 vs entry(rax) */
    run1(&a, ir_set(ABI_RCX, ABI_RBX, 0));           /* rcx: entry(rbx) ... */
    run1(&b, ir_set(ABI_RCX, ABI_R12, 0));           /*      vs entry(r12): same off */
    run1(&a, ir_set(ABI_RDX, ABI_RDX, 8));           /* rdx: entry(rdx)+8 vs entry(rdx) */
    run1(&a, ir_set(ABI_RSI, RSP, 8));               /* rsi: CFA-8 in both */
    run1(&b, ir_set(ABI_RSI, RSP, 0));
    run1(&a, ir_clobber(ABI_R8));                    /* r8: unknown vs entry(r8) */
    run1(&b, ir_clobber(ABI_R9));                    /* r9: entry(r9) vs unknown */

    assert_int_equal(abstract_state_join(&a, &b), 1);
    assert_unknown(a.reg[RSP]);
    assert_unknown(a.reg[ABI_RAX]);
    assert_unknown(a.reg[ABI_RCX]);
    assert_unknown(a.reg[ABI_RDX]);
    assert_cfa(a.reg[ABI_RSI], -8);
    assert_unknown(a.reg[ABI_R8]);
    assert_unknown(a.reg[ABI_R9]);
    assert_entry(a.reg[ABI_RBX], ABI_RBX, 0);
    assert_entry(a.reg[ABI_R12], ABI_R12, 0);
    assert_entry(abstract_state_slot(&a, -8), STATE_RA, 0);

    /* Joining the same input again changes nothing. */
    assert_int_equal(abstract_state_join(&a, &b), 0);

    /* Unknown into, known from: nothing to lose, no change. */
    struct abstract_state c, d;
    abstract_state_entry(&c);
    abstract_state_entry(&d);
    run1(&c, ir_clobber(ABI_RAX));
    assert_int_equal(abstract_state_join(&c, &d), 0);
    assert_unknown(c.reg[ABI_RAX]);
    /* The other way round it changes. */
    abstract_state_entry(&c);
    run1(&d, ir_clobber(ABI_RAX));
    assert_int_equal(abstract_state_join(&c, &d), 1);
    assert_unknown(c.reg[ABI_RAX]);
}

static void test_join_slots(void **state)
{
    (void)state;
    struct abstract_state a, b;
    abstract_state_entry(&a);
    abstract_state_entry(&b);
    sub_rsp(&a, 32);                                 /* rsp = CFA-40 in both */
    sub_rsp(&b, 32);
    store8(&a, RSP, 24, ABI_RBX);                    /* CFA-16: rbx in both */
    store8(&b, RSP, 24, ABI_RBX);
    store8(&a, RSP, 16, ABI_R12);                    /* CFA-24: r12 vs r13 */
    store8(&b, RSP, 16, ABI_R13);
    store8(&a, RSP, 8, ABI_R14);                     /* CFA-32: only in a */
    store8(&b, RSP, 0, ABI_R15);                     /* CFA-40: only in b */
    store8(&a, RSP, 4, ABI_RDI);                     /* CFA-36 in a ... */
    store8(&b, RSP, 4, ABI_RDI);                     /* ... and b, but b's CFA-40 store came first */
    /* b: CFA-40 (r15) was overlapped by CFA-36, so b's slots are -36 rdi, -24 r13, -16 rbx, -8. */
    assert_unknown(abstract_state_slot(&b, -40));
    /* a: -36 overlaps -32 (r14) too: a's slots are -36 rdi, -24 r12, -16 rbx, -8. */
    assert_unknown(abstract_state_slot(&a, -32));
    assert_int_equal(a.nslots, 4);

    assert_int_equal(abstract_state_join(&a, &b), 1);
    assert_int_equal(a.nslots, 3);
    assert_entry(abstract_state_slot(&a, -36), ABI_RDI, 0);
    assert_entry(abstract_state_slot(&a, -16), ABI_RBX, 0);
    assert_entry(abstract_state_slot(&a, -8), STATE_RA, 0);
    assert_unknown(abstract_state_slot(&a, -24));
    /* Still sorted. */
    assert_true(a.slot[0].off == -36 && a.slot[1].off == -16 && a.slot[2].off == -8);
    assert_int_equal(abstract_state_join(&a, &b), 0);

    /* Slots only FROM has are not added, and do not count as a change. */
    struct abstract_state c, d;
    abstract_state_entry(&c);
    abstract_state_entry(&d);
    push(&c, ABI_RBX);
    push(&d, ABI_RBX);
    store8(&d, RSP, -8, ABI_R12);                    /* d: an extra slot at CFA-24 */
    assert_int_equal(abstract_state_join(&c, &d), 0);
    assert_int_equal(c.nslots, 2);
    assert_unknown(abstract_state_slot(&c, -24));
    /* The other way round, d loses it. */
    assert_int_equal(abstract_state_join(&d, &c), 1);
    assert_int_equal(d.nslots, 2);
    assert_true(abstract_state_equal(&c, &d));
}

/* lea T(%rip),%r (ir_set(r, NONE, T)) makes r the constant T: kept by
 * copies and offsets and by a join with the same constant, forgotten by a
 * join with another and when stored (slots hold the frame's facts). */
static void test_constants(void **state)
{
    (void)state;
    struct abstract_state s, other;
    abstract_state_entry(&s);
    run1(&s, ir_set(ABI_RBX, NONE, 0x4000));
    assert_int_equal(s.reg[ABI_RBX].kind, AV_CONST);
    assert_true(s.reg[ABI_RBX].off == 0x4000);
    run1(&s, ir_set(ABI_RAX, ABI_RBX, 8));            /* lea 8(%rbx),%rax */
    assert_int_equal(s.reg[ABI_RAX].kind, AV_CONST);
    assert_true(s.reg[ABI_RAX].off == 0x4008);

    other = s;
    assert_int_equal(abstract_state_join(&other, &s), 0);
    assert_int_equal(other.reg[ABI_RBX].kind, AV_CONST);
    run1(&other, ir_set(ABI_RBX, NONE, 0x5000));
    abstract_state_join(&other, &s);
    assert_unknown(other.reg[ABI_RBX]);
    assert_int_equal(other.reg[ABI_RAX].kind, AV_CONST);

    push(&s, ABI_RBX);                                /* [CFA-16] := the constant */
    assert_unknown(abstract_state_slot(&s, -16));
    assert_entry(abstract_state_slot(&s, -8), STATE_RA, 0);
}

/* add/sub of a register: a constant moves a known value by its amount
 * (mov $0x2008,%eax; call probe; sub %rax,%rsp allocates a large frame);
 * anything else makes the result unknown; sub %r,%r is 0. */
static void test_add_sub_register(void **state)
{
    (void)state;
    struct abstract_state s;
    abstract_state_entry(&s);
    push(&s, ABI_RBX);                                /* rsp = CFA-16 */
    run1(&s, ir_set(ABI_RAX, NONE, 0x2008));
    run1(&s, ir_add_reg(RSP, ABI_RAX, 1));            /* sub %rax,%rsp */
    assert_cfa(s.reg[RSP], -16 - 0x2008);
    run1(&s, ir_add_reg(RSP, ABI_RAX, 0));            /* add %rax,%rsp */
    assert_cfa(s.reg[RSP], -16);
    run1(&s, ir_set(ABI_RDX, ABI_RDI, 0));            /* rdx = entry(rdi) */
    run1(&s, ir_add_reg(ABI_RAX, ABI_RDX, 0));        /* add %rdx,%rax: constant + known */
    assert_entry(s.reg[ABI_RAX], ABI_RDI, 0x2008);
    run1(&s, ir_add_reg(ABI_RAX, ABI_RDX, 1));        /* known - known: unknown */
    assert_unknown(s.reg[ABI_RAX]);
    run1(&s, ir_add_reg(ABI_RDX, ABI_RAX, 0));        /* known + unknown: unknown */
    assert_unknown(s.reg[ABI_RDX]);
    run1(&s, ir_add_reg(ABI_RCX, ABI_RCX, 1));        /* sub %rcx,%rcx */
    assert_int_equal(s.reg[ABI_RCX].kind, AV_CONST);
    assert_true(s.reg[ABI_RCX].off == 0);
    run1(&s, ir_set(ABI_RSI, NONE, 0x4000));          /* a table's entry does not move */
    s.reg[ABI_R8] = (struct abstract_value){AV_TABLE_ENTRY, 0, 0x4000};
    run1(&s, ir_add_reg(ABI_R8, ABI_RSI, 0));
    assert_unknown(s.reg[ABI_R8]);
}

/* mov T(,%i,8),%r (a load with aux LOAD_ABS64) makes r an entry of the table
 * at T: kept by a plain copy and by a join with an entry of the same table;
 * forgotten by a copy with an offset, a join with another table's entry,
 * and when stored. */
static void test_table_entries(void **state)
{
    (void)state;
    struct abstract_state s, other;
    abstract_state_entry(&s);
    struct ir_insn load = {.aux = IR_AUX_LOAD_ABS64, .aux_reg = {ABI_RAX}, .target = 0x85cac0};
    ir_add(&load, ir_load(ABI_RAX, NONE, 0x85cac0));
    abstract_state_step(&s, &load);
    assert_int_equal(s.reg[ABI_RAX].kind, AV_TABLE_ENTRY);
    assert_true(s.reg[ABI_RAX].off == 0x85cac0);
    run1(&s, ir_set(ABI_RDX, ABI_RAX, 0));            /* mov %rax,%rdx */
    assert_int_equal(s.reg[ABI_RDX].kind, AV_TABLE_ENTRY);
    run1(&s, ir_set(ABI_RCX, ABI_RAX, 8));            /* lea 8(%rax),%rcx: not an entry */
    assert_unknown(s.reg[ABI_RCX]);

    other = s;
    assert_int_equal(abstract_state_join(&other, &s), 0);  /* entries of one table: kept */
    assert_int_equal(other.reg[ABI_RAX].kind, AV_TABLE_ENTRY);
    load.target = 0x900000;
    load.effects[0] = ir_load(ABI_RAX, NONE, 0x900000);
    abstract_state_step(&other, &load);
    abstract_state_join(&other, &s);
    assert_unknown(other.reg[ABI_RAX]);

    run1(&s, ir_set(ABI_RBX, ABI_RAX, 0));
    push(&s, ABI_RBX);                                /* [CFA-16] := the entry */
    assert_unknown(abstract_state_slot(&s, -16));
}

static void test_join_idempotent(void **state)
{
    (void)state;
    struct abstract_state s, copy;
    fp_prologue(&s);
    run1(&s, ir_clobber(ABI_RAX));
    store8(&s, RSP, 0, ABI_RDI);
    store8(&s, RSP, 8, RSP);
    copy = s;
    assert_int_equal(abstract_state_join(&s, &copy), 0);
    assert_true(abstract_state_equal(&s, &copy));
    assert_int_equal(abstract_state_join(&s, &s), 0);
    assert_true(abstract_state_equal(&s, &copy));

    struct abstract_state u, ucopy;
    abstract_state_unknown(&u);
    ucopy = u;
    assert_int_equal(abstract_state_join(&u, &u), 0);
    assert_true(abstract_state_equal(&u, &ucopy));

    /* A realigned state too. */
    abstract_state_entry(&s);
    run1(&s, ir_set(ABI_R10, RSP, 8));
    run1(&s, ir_and(RSP, -16));
    push(&s, RBP);
    copy = s;
    assert_int_equal(abstract_state_join(&s, &copy), 0);
    assert_true(abstract_state_equal(&s, &copy));
}

static void test_join_frame_pointer(void **state)
{
    (void)state;
    struct abstract_state fp, nofp, s;
    /* Same registers and slots; only the way rbp got its value differs. */
    abstract_state_entry(&fp);
    push(&fp, RBP);
    mov_rsp_rbp(&fp);                                /* rbp = CFA-16, frame pointer */
    abstract_state_entry(&nofp);
    push(&nofp, RBP);
    run1(&nofp, ir_set(RBP, RSP, 8));
    run1(&nofp, ir_set(RBP, RBP, -8));               /* rbp = CFA-16, no idiom */
    assert_int_equal(fp.frame_pointer, 1);
    assert_int_equal(nofp.frame_pointer, 0);
    assert_cfa(nofp.reg[RBP], -16);

    s = fp;
    assert_int_equal(abstract_state_join(&s, &fp), 0);
    assert_int_equal(s.frame_pointer, 1);

    s = fp;
    assert_int_equal(abstract_state_join(&s, &nofp), 1);
    assert_int_equal(s.frame_pointer, 0);
    assert_true(abstract_state_equal(&s, &nofp));

    s = nofp;
    assert_int_equal(abstract_state_join(&s, &fp), 0);
    assert_int_equal(s.frame_pointer, 0);
    assert_true(abstract_state_equal(&s, &nofp));
}

/* ---- the slot bound ------------------------------------------------------ */

/* Store register R at CFA - 16 - 8*i for i = FIRST .. LAST (either direction). */
static void store_run(struct abstract_state *s, int first, int last, uint8_t r)
{
    int step = first <= last ? 1 : -1;
    for (int i = first;; i += step) {
        int64_t off = -16 - 8 * (int64_t)i;
        int64_t disp = off - s->reg[RSP].off;
        store8(s, RSP, (int32_t)disp, r);
        if (i == last)
            break;
    }
}

static void assert_nearest_kept(const struct abstract_state *s, int nstored)
{
    /* Kept: CFA-8 (RA) and CFA-16 ... CFA-16-8*(MAX-2). */
    assert_int_equal(s->nslots, STATE_MAX_SLOTS);
    assert_entry(abstract_state_slot(s, -8), STATE_RA, 0);
    for (int i = 0; i < nstored; i++) {
        int64_t off = -16 - 8 * (int64_t)i;
        int kept = abstract_state_slot(s, off).kind != AV_UNKNOWN, want = i <= STATE_MAX_SLOTS - 2;
        if (kept != want)
            print_error("slot CFA%lld: %s, expected %s\n", (long long)off,
                        kept ? "kept" : "dropped", want ? "kept" : "dropped");
        assert_int_equal(kept, want);
    }
    for (unsigned k = 0; k + 1 < s->nslots; k++)
        assert_true(s->slot[k].off < s->slot[k + 1].off);
    assert_true(s->slot[0].off == -16 - 8 * (int64_t)(STATE_MAX_SLOTS - 2));
}

static void test_slot_bound_near_first(void **state)
{
    (void)state;
    struct abstract_state s;
    abstract_state_entry(&s);
    sub_rsp(&s, 8 * 40);                             /* rsp = CFA-328 */
    /* 30 saves at CFA-16 .. CFA-248, nearest first. */
    store_run(&s, 0, 29, ABI_RBX);
    assert_nearest_kept(&s, 30);
    assert_entry(abstract_state_slot(&s, -192), ABI_RBX, 0);
    assert_unknown(abstract_state_slot(&s, -200));

    /* The same with spilled frame addresses (CFA values). */
    abstract_state_entry(&s);
    sub_rsp(&s, 8 * 40);
    store_run(&s, 0, 29, RSP);
    assert_nearest_kept(&s, 30);
    assert_cfa(abstract_state_slot(&s, -16), -328);

    struct unwind_row row;
    row_of(&s, &row);
    assert_saved_at(row, ABI_RA, -8);
    assert_cfa_rule(row, RSP, 328);
}

static void test_slot_bound_far_first_spills(void **state)
{
    (void)state;
    struct abstract_state s;
    abstract_state_entry(&s);
    sub_rsp(&s, 8 * 40);
    /* 30 spills of frame addresses, farthest first: each of the last 7 drops
     * the farthest slot, so CFA-8 .. CFA-192 remain. */
    store_run(&s, 29, 0, RSP);
    assert_nearest_kept(&s, 30);

    /* Full: one more far below is not kept, one above the CFA (an incoming
     * stack argument at CFA+8) is, at the expense of the farthest. */
    store8(&s, RSP, (int32_t)(-400 - s.reg[RSP].off), RSP);
    assert_unknown(abstract_state_slot(&s, -400));
    assert_int_equal(s.nslots, STATE_MAX_SLOTS);
    store8(&s, RSP, (int32_t)(8 - s.reg[RSP].off), RSP);
    assert_cfa(abstract_state_slot(&s, 8), -328);
    assert_unknown(abstract_state_slot(&s, -192));
    assert_cfa(abstract_state_slot(&s, -184), -328);
    assert_int_equal(s.nslots, STATE_MAX_SLOTS);
    assert_true(s.slot[STATE_MAX_SLOTS - 1].off == 8);
}

static void test_slot_bound_far_first_saves(void **state)
{
    (void)state;
    struct abstract_state s;
    abstract_state_entry(&s);
    sub_rsp(&s, 8 * 40);
    /* 30 stores of entry values, farthest first: the nearest 24 are kept
     * (abstract_state.h: "at most STATE_MAX_SLOTS, the ones nearest the CFA
     * kept"). */
    store_run(&s, 29, 0, ABI_RBX);
    assert_nearest_kept(&s, 30);
    struct unwind_row row;
    row_of(&s, &row);
    assert_saved_at(row, ABI_RBX, -16);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_entry_state),
        cmocka_unit_test(test_unknown_state_row),
        cmocka_unit_test(test_push_rbp_mov_sets_frame_pointer),
        cmocka_unit_test(test_mov_rsp_rbp_without_push_is_not_frame_pointer),
        cmocka_unit_test(test_lea_rbp_is_not_frame_pointer),
        cmocka_unit_test(test_frame_pointer_cleared_by_rbp_writes),
        cmocka_unit_test(test_pop_epilogue),
        cmocka_unit_test(test_leave_epilogue),
        cmocka_unit_test(test_row_rsp_based),
        cmocka_unit_test(test_row_frame_pointer_based),
        cmocka_unit_test(test_row_after_pops_keeps_slots),
        cmocka_unit_test(test_row_ra_and_highest_slot),
        cmocka_unit_test(test_store_8_bytes),
        cmocka_unit_test(test_store_partial_forgets),
        cmocka_unit_test(test_store_untracked_removes),
        cmocka_unit_test(test_store_through_non_stack_pointer),
        cmocka_unit_test(test_and_rsp_realignment),
        cmocka_unit_test(test_and_rsp_with_frame_pointer),
        cmocka_unit_test(test_and_other_register),
        cmocka_unit_test(test_after_call),
        cmocka_unit_test(test_join_equal_values),
        cmocka_unit_test(test_join_different_values),
        cmocka_unit_test(test_join_slots),
        cmocka_unit_test(test_constants),
        cmocka_unit_test(test_add_sub_register),
        cmocka_unit_test(test_table_entries),
        cmocka_unit_test(test_join_idempotent),
        cmocka_unit_test(test_join_frame_pointer),
        cmocka_unit_test(test_slot_bound_near_first),
        cmocka_unit_test(test_slot_bound_far_first_spills),
        cmocka_unit_test(test_slot_bound_far_first_saves),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
/* SPDX-License-Identifier: Apache-2.0 */
