/*
 * Unit tests for synth/emit_row (the H row of a state, built into the
 * caller's buffer) and synth/emit_table (a function's rows, through
 * synthesize_function on instructions given in IR, without bytes).
 *
 * IR as the decoder lowers it:
 *   push %r    ir_set(rsp, rsp, -8); ir_store(rsp, 0, r, 8)
 *   pop  %r    ir_load(r, rsp, 0);   ir_set(rsp, rsp, 8)
 *   mov %rsp,%rbp                    ir_set(rbp, rsp, 0)
 *   leave      ir_set(rsp, rbp, 0); ir_load(rbp, rsp, 0); ir_set(rsp, rsp, 8)
 *   and $-32,%rsp                    ir_and(rsp, -32)
 * Expected rows are written as GCC writes the same code's CFI.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "semantics/abi.h"
#include "semantics/unwind_table.h"
#include "synth/emit_row.h"
#include "synth/synthesize.h"
#include "tests/unit/synth_asserts.h"

#define BASE 0x1000
#define MAX_INSNS 16

static void apply(struct abstract_state *s, struct ir_effect e)
{
    abstract_state_apply(s, &e);
}

static void push_state(struct abstract_state *s, uint8_t r)
{
    apply(s, ir_set(ABI_RSP, ABI_RSP, -8));
    apply(s, ir_store(ABI_RSP, 0, r, 8));
}

/* lea 8(%rsp),%r10; and $-32,%rsp; push -8(%r10); push %rbp; mov %rsp,%rbp;
 * push %r10: GCC's DRAP prologue (the CFA in r10, then in its slot). */
static void drap_prologue(struct abstract_state *s)
{
    abstract_state_entry(s);
    apply(s, ir_set(ABI_R10, ABI_RSP, 8));
    apply(s, ir_and(ABI_RSP, -32));
    push_state(s, IR_REG_NONE);
    push_state(s, ABI_RBP);
    apply(s, ir_set(ABI_RBP, ABI_RSP, 0));
    push_state(s, ABI_R10);
}

/* ---- emit_row ------------------------------------------------------------- */

/* On entry: CFA = rsp + 8, RA at CFA - 8, callee-saved registers untouched. */
static void test_entry_row(void **state)
{
    (void)state;
    struct abstract_state s;
    struct unwind_row row;
    struct synth_row_exprs exprs;
    abstract_state_entry(&s);
    memset(&row, 0xa5, sizeof row);
    emit_row_from_state(&s, &row, &exprs);
    assert_cfa_rule(row, ABI_RSP, 8);
    assert_saved_at(row, ABI_RA, -8);
    for (unsigned c = 0; c < ABI_NCALLEE_SAVED; c++)
        assert_int_equal(row.reg[abi_callee_saved_regs[c]].kind, REG_RULE_UNREFERENCED);
    assert_int_equal(row.reg[ABI_RAX].kind, REG_RULE_UNREFERENCED);
}

/* After the DRAP register's push the CFA is an expression on its slot
 * (DW_OP_breg6 -8; DW_OP_deref), in the caller's buffer. */
static void test_drap_row_expression_in_callers_buffer(void **state)
{
    (void)state;
    struct abstract_state s;
    struct unwind_row row;
    struct synth_row_exprs exprs;
    drap_prologue(&s);
    emit_row_from_state(&s, &row, &exprs);
    assert_int_equal(row.cfa.kind, CFA_RULE_EXPRESSION);
    assert_int_equal(row.cfa.expr_len, 3);
    assert_memory_equal(row.cfa.expr, ((const uint8_t[]){0x76, 0x78, 0x06}), 3);
    assert_true(row.cfa.expr >= (const uint8_t *)&exprs && row.cfa.expr < (const uint8_t *)(&exprs + 1));
}

/* Two rows built into two buffers keep their own expressions: building the
 * second does not overwrite the first (no storage shared between calls). */
static void test_rows_keep_their_own_expressions(void **state)
{
    (void)state;
    struct abstract_state a, b;
    struct unwind_row ra, rb;
    struct synth_row_exprs ea, eb;
    drap_prologue(&a);
    drap_prologue(&b);
    push_state(&b, ABI_RBX);
    apply(&b, ir_set(ABI_RBP, ABI_RSP, 0));   /* the anchor moves: another offset */
    emit_row_from_state(&a, &ra, &ea);
    uint8_t first[SYNTH_EXPR_MAX];
    assert_int_equal(ra.cfa.kind, CFA_RULE_EXPRESSION);
    memcpy(first, ra.cfa.expr, ra.cfa.expr_len);
    emit_row_from_state(&b, &rb, &eb);
    assert_int_equal(rb.cfa.kind, CFA_RULE_EXPRESSION);
    assert_memory_not_equal(rb.cfa.expr, first, ra.cfa.expr_len);
    assert_memory_equal(ra.cfa.expr, first, ra.cfa.expr_len);
    /* rbx, saved in the realigned frame, by an expression on rbp. */
    assert_int_equal(rb.reg[ABI_RBX].kind, REG_RULE_EXPRESSION);
    assert_memory_equal(rb.reg[ABI_RBX].expr, ((const uint8_t[]){0x76, 0x00}), 2);
}

/* ---- emit_table (through synthesize_function, in IR) ------------------------ */

struct observed {
    int reached[MAX_INSNS];
};

static void observe(void *arg, const struct ir_insn *in, const struct abstract_state *st, int reached)
{
    (void)st;
    struct observed *o = arg;
    o->reached[in->addr - BASE] = reached;
}

static struct ir_insn *add(struct ir_insn *insns, size_t *n, uint8_t flow)
{
    struct ir_insn *in = &insns[*n];
    memset(in, 0, sizeof *in);
    in->addr = BASE + *n;
    in->len = 1;
    in->flow = flow;
    in->cmp_a = in->cmp_b = IR_REG_NONE;
    (*n)++;
    return in;
}

/*
 *  0 push %rbp         CFA rsp+8
 *  1 mov %rsp,%rbp     CFA rsp+16  rbp c-16
 *  2 push %rbx         CFA rbp+16  rbp c-16
 *  3 mov $1,%eax       CFA rbp+16  rbp c-16  rbx c-24
 *  4 mov $2,%ecx       (the same row, extended)
 *  5 pop %rbx          (the same)
 *  6 leave             (the same: the slot still holds rbx's entry value)
 *  7 ret               CFA rsp+8   rbp c-16  (rsp-based again after leave)
 *  8 nop, 9 nop        alignment padding: the row before it, carried on
 */
static void test_table_of_a_frame_pointer_function(void **state)
{
    (void)state;
    struct ir_insn insns[MAX_INSNS];
    size_t n = 0;
    struct ir_insn *in;
    in = add(insns, &n, IR_FLOW_NEXT);
    ir_add(in, ir_set(ABI_RSP, ABI_RSP, -8));
    ir_add(in, ir_store(ABI_RSP, 0, ABI_RBP, 8));
    ir_add(add(insns, &n, IR_FLOW_NEXT), ir_set(ABI_RBP, ABI_RSP, 0));
    in = add(insns, &n, IR_FLOW_NEXT);
    ir_add(in, ir_set(ABI_RSP, ABI_RSP, -8));
    ir_add(in, ir_store(ABI_RSP, 0, ABI_RBX, 8));
    ir_add(add(insns, &n, IR_FLOW_NEXT), ir_set(ABI_RAX, IR_REG_NONE, 1));
    ir_add(add(insns, &n, IR_FLOW_NEXT), ir_set(ABI_RCX, IR_REG_NONE, 2));
    in = add(insns, &n, IR_FLOW_NEXT);
    ir_add(in, ir_load(ABI_RBX, ABI_RSP, 0));
    ir_add(in, ir_set(ABI_RSP, ABI_RSP, 8));
    in = add(insns, &n, IR_FLOW_NEXT);
    ir_add(in, ir_set(ABI_RSP, ABI_RBP, 0));
    ir_add(in, ir_load(ABI_RBP, ABI_RSP, 0));
    ir_add(in, ir_set(ABI_RSP, ABI_RSP, 8));
    add(insns, &n, IR_FLOW_RET);
    add(insns, &n, IR_FLOW_NEXT)->is_padding = 1;
    add(insns, &n, IR_FLOW_NEXT)->is_padding = 1;

    struct function_range range = {.lo = BASE, .hi = BASE + n, .name = "f"};
    struct function_index index = {0};
    struct synth_session ss = {.index = &index};
    struct observed seen = {{0}};
    struct synth_request rq = {.func = &range, .emit = 1, .insns = insns, .ninsns = n,
                               .observe = observe, .observe_arg = &seen};
    struct unwind_table t;
    struct synth_outcome out;
    assert_int_equal(synthesize_function(&ss, &rq, &t, &out), 0);
    assert_null(out.reason);
    assert_int_equal(out.unreached, 0);
    assert_true(out.returns);

    assert_int_equal(t.nrows, 5);
    const uint64_t bounds[][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 7}, {7, 10}};
    for (size_t r = 0; r < 5; r++) {
        assert_true(t.rows[r].start == BASE + bounds[r][0]);
        assert_true(t.rows[r].end == BASE + bounds[r][1]);
        assert_saved_at(t.rows[r], ABI_RA, -8);
    }
    assert_cfa_rule(t.rows[0], ABI_RSP, 8);
    assert_int_equal(t.rows[0].reg[ABI_RBP].kind, REG_RULE_UNREFERENCED);
    assert_cfa_rule(t.rows[1], ABI_RSP, 16);
    assert_saved_at(t.rows[1], ABI_RBP, -16);
    assert_cfa_rule(t.rows[2], ABI_RBP, 16);
    assert_int_equal(t.rows[2].reg[ABI_RBX].kind, REG_RULE_UNREFERENCED);
    assert_cfa_rule(t.rows[3], ABI_RBP, 16);
    assert_saved_at(t.rows[3], ABI_RBX, -24);
    /* The row after leave: rsp-based. */
    assert_cfa_rule(t.rows[4], ABI_RSP, 8);
    assert_saved_at(t.rows[4], ABI_RBP, -16);

    for (size_t i = 0; i < 8; i++)
        assert_int_equal(seen.reached[i], 1);
    assert_int_equal(seen.reached[8], SYNTH_PADDING);
    assert_int_equal(seen.reached[9], SYNTH_PADDING);
    unwind_table_release(&t);
}

/* A function that cannot be synthesised (a reachable invalid instruction)
 * gets one row of unknown rules over its whole range. */
static void test_unknown_table(void **state)
{
    (void)state;
    struct ir_insn insns[MAX_INSNS];
    size_t n = 0;
    add(insns, &n, IR_FLOW_NEXT);
    add(insns, &n, IR_FLOW_INVALID);
    struct function_range range = {.lo = BASE, .hi = BASE + n, .name = "f"};
    struct function_index index = {0};
    struct synth_session ss = {.index = &index};
    struct synth_request rq = {.func = &range, .emit = 1, .insns = insns, .ninsns = n};
    struct unwind_table t;
    struct synth_outcome out;
    assert_int_equal(synthesize_function(&ss, &rq, &t, &out), -1);
    assert_non_null(out.reason);
    assert_int_equal(t.nrows, 1);
    assert_true(t.rows[0].start == BASE && t.rows[0].end == BASE + n);
    assert_int_equal(t.rows[0].cfa.kind, CFA_RULE_UNKNOWN);
    assert_int_equal(t.rows[0].reg[ABI_RA].kind, REG_RULE_UNKNOWN);
    assert_int_equal(t.rows[0].reg[ABI_RBX].kind, REG_RULE_UNKNOWN);
    unwind_table_release(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_entry_row),
        cmocka_unit_test(test_drap_row_expression_in_callers_buffer),
        cmocka_unit_test(test_rows_keep_their_own_expressions),
        cmocka_unit_test(test_table_of_a_frame_pointer_function),
        cmocka_unit_test(test_unknown_table),
    };
    return cmocka_run_group_tests_name("test_emit_row", tests, NULL, NULL);
}
/* SPDX-License-Identifier: Apache-2.0 */
