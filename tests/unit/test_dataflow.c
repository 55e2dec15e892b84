/*
 * Unit tests for synth/dataflow (with synth/cfg): the transfer function,
 * flows along edges, join at merges, the fixpoint on a loop, calls that
 * never return, control leaving the function, the refinement on an
 * equality edge, the ranking of guessed flows, and the states on every
 * path, the flows a surer one kept out joined back in.
 *
 * Functions are written in IR (no bytes): instruction k is at BASE + k,
 * one byte long, and jumps name their target's address.  Push and pop are
 * lowered as the decoder does:
 *   push %r    ir_set(rsp, rsp, -8); ir_store(rsp, 0, r, 8)
 *   pop  %r    ir_load(r, rsp, 0);   ir_set(rsp, rsp, 8)
 * Expected states are derived by hand from entry: rsp = CFA - 8, [CFA - 8]
 * = entry(RA), every other register R = entry(R).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "semantics/abi.h"
#include "synth/cfg.h"
#include "synth/dataflow.h"
#include "synth/function_code.h"
#include "tests/unit/synth_asserts.h"

#define BASE 0x1000
#define MAX_INSNS 16
#define RETURNS_RAX 0x2000        /* a callee that gives rax back */
#define NEVER_RETURNS 0x3000      /* a callee that never returns */

/* ---- a function in IR, and its analysis ----------------------------------- */

struct exit_seen {
    uint64_t target;
    int kind;
    struct abstract_state state;
};

struct fn {
    struct ir_insn insns[MAX_INSNS];
    size_t n;
    struct function_range range;
    struct function_index index;
    struct synth_session ss;
    struct synth_request rq;
    struct function_code code;
    struct cfg_links links;      /* none: no landing pad, jump table or label */
    struct cfg cfg;
    struct dataflow df;
    struct exit_seen exits[8];
    size_t nexits;
};

static uint32_t callee_at(void *arg, uint64_t target)
{
    (void)arg;
    return target == RETURNS_RAX ? 1u << ABI_RAX : target == NEVER_RETURNS ? SYNTH_NEVER_RETURNS : 0;
}

static void on_exit_seen(void *arg, uint64_t from, uint64_t target, int kind, const struct abstract_state *st)
{
    struct fn *f = arg;
    (void)from;
    assert_true(f->nexits < 8);
    f->exits[f->nexits++] = (struct exit_seen){target, kind, *st};
}

/* Append an instruction: FLOW to TARGET, with up to two effects (kind 0xff: none). */
static struct ir_insn *add(struct fn *f, uint8_t flow, uint64_t target)
{
    assert_true(f->n < MAX_INSNS);
    struct ir_insn *in = &f->insns[f->n];
    memset(in, 0, sizeof *in);
    in->addr = BASE + f->n;
    in->len = 1;
    in->flow = flow;
    in->target = target;
    in->cmp_a = in->cmp_b = IR_REG_NONE;
    f->n++;
    return in;
}

static void push(struct fn *f, uint8_t r)
{
    struct ir_insn *in = add(f, IR_FLOW_NEXT, 0);
    ir_add(in, ir_set(ABI_RSP, ABI_RSP, -8));
    ir_add(in, ir_store(ABI_RSP, 0, r, 8));
}

static void pop(struct fn *f, uint8_t r)
{
    struct ir_insn *in = add(f, IR_FLOW_NEXT, 0);
    ir_add(in, ir_load(r, ABI_RSP, 0));
    ir_add(in, ir_set(ABI_RSP, ABI_RSP, 8));
}

static void effect(struct fn *f, struct ir_effect e)
{
    ir_add(add(f, IR_FLOW_NEXT, 0), e);
}

/* The blocks, then the flows from the entry to the fixpoint. */
static void analyse(struct fn *f)
{
    f->range = (struct function_range){.lo = BASE, .hi = BASE + f->n, .name = "f"};
    f->ss = (struct synth_session){.index = &f->index, .callee_at = callee_at};
    f->rq = (struct synth_request){.func = &f->range, .exits = on_exit_seen, .exits_arg = f};
    f->code = (struct function_code){&f->range, f->insns, f->n};
    const char *reason = NULL;
    assert_int_equal(cfg_build(&f->cfg, &f->code, &f->ss, &f->links, NULL, 0, &reason), 0);
    assert_int_equal(dataflow_init(&f->df, &f->cfg, &f->rq), 0);
    struct abstract_state entry;
    abstract_state_entry(&entry);
    dataflow_flow_into(&f->df, 0, &entry);
    dataflow_fixpoint(&f->df);
}

static void release(struct fn *f)
{
    dataflow_release(&f->df);
    cfg_release(&f->cfg);
}

/* The block that starts at instruction K. */
static const struct block *block_at(const struct fn *f, size_t k)
{
    const struct block *b = &f->cfg.blocks[f->cfg.block_of[k]];
    assert_int_equal(b->first, k);
    return b;
}

static struct fn *new_fn(void)
{
    static struct fn f;
    memset(&f, 0, sizeof f);
    return &f;
}

/* ---- tests ---------------------------------------------------------------- */

/* The transfer function applies a call's effect after the instruction's:
 * caller-saved registers are lost, but for those the callee gives back. */
static void test_transfer_applies_call_effect(void **state)
{
    (void)state;
    struct fn *f = new_fn();
    add(f, IR_FLOW_CALL, RETURNS_RAX);     /* 0: call (gives rax back) */
    add(f, IR_FLOW_CALL_INDIRECT, 0);      /* 1: call *%r11 (nothing known) */
    add(f, IR_FLOW_RET, 0);                /* 2: ret */
    analyse(f);
    struct abstract_state st;
    abstract_state_entry(&st);
    dataflow_transfer(&f->cfg, 0, &st);
    assert_entry(st.reg[ABI_RAX], ABI_RAX, 0);
    assert_unknown(st.reg[ABI_RCX]);
    assert_unknown(st.reg[ABI_R11]);
    assert_entry(st.reg[ABI_RBX], ABI_RBX, 0);
    assert_cfa(st.reg[ABI_RSP], -8);
    dataflow_transfer(&f->cfg, 1, &st);
    assert_unknown(st.reg[ABI_RAX]);
    assert_entry(st.reg[ABI_R12], ABI_R12, 0);
    /* The fixpoint uses the same transfer: the return after both calls
     * gives back neither rax nor rcx, and every callee-saved register. */
    assert_true(f->df.returns);
    assert_true(f->df.clobbered & (1u << ABI_RAX));
    assert_true(f->df.clobbered & (1u << ABI_RCX));
    assert_false(f->df.clobbered & (1u << ABI_RBX));
    release(f);
}

/* Two paths meet: what they agree on is kept, the rest becomes unknown. */
static void test_join_at_merge(void **state)
{
    (void)state;
    struct fn *f = new_fn();
    push(f, ABI_RBX);                             /* 0 */
    add(f, IR_FLOW_COND, BASE + 4);               /* 1: jcc 4 */
    effect(f, ir_set(ABI_RBX, IR_REG_NONE, 5));   /* 2: mov $5,%rbx */
    add(f, IR_FLOW_JUMP, BASE + 4);               /* 3: jmp 4 */
    pop(f, ABI_RBX);                              /* 4 */
    add(f, IR_FLOW_RET, 0);                       /* 5 */
    analyse(f);
    assert_int_equal(f->cfg.nblocks, 3);
    const struct block *fall = block_at(f, 2), *merge = block_at(f, 4);
    assert_true(fall->reached && merge->reached);
    assert_entry(fall->in.reg[ABI_RBX], ABI_RBX, 0);
    assert_unknown(merge->in.reg[ABI_RBX]);
    assert_cfa(merge->in.reg[ABI_RSP], -16);
    assert_entry(abstract_state_slot(&merge->in, -16), ABI_RBX, 0);
    assert_entry(merge->in.reg[ABI_R12], ABI_R12, 0);
    release(f);
}

/* A loop whose counter changes on every turn: the fixpoint makes it
 * unknown at the head and stops; the frame stays known. */
static void test_loop_reaches_fixpoint(void **state)
{
    (void)state;
    struct fn *f = new_fn();
    push(f, ABI_RBP);                             /* 0 */
    effect(f, ir_set(ABI_RAX, ABI_RAX, 1));       /* 1: loop: add $1,%rax */
    add(f, IR_FLOW_COND, BASE + 1);               /* 2: jcc loop */
    pop(f, ABI_RBP);                              /* 3 */
    add(f, IR_FLOW_RET, 0);                       /* 4 */
    analyse(f);
    const struct block *head = block_at(f, 1);
    assert_true(head->reached);
    assert_unknown(head->in.reg[ABI_RAX]);
    assert_cfa(head->in.reg[ABI_RSP], -16);
    assert_entry(abstract_state_slot(&head->in, -16), ABI_RBP, 0);
    assert_int_equal(f->df.nwork, 0);
    assert_false(f->df.clobbered & (1u << ABI_RBP));
    release(f);
}

/* A call that never returns ends its block, and nothing flows past it. */
static void test_noreturn_call_ends_the_path(void **state)
{
    (void)state;
    struct fn *f = new_fn();
    add(f, IR_FLOW_CALL, NEVER_RETURNS);          /* 0: call abort */
    add(f, IR_FLOW_RET, 0);                       /* 1 */
    analyse(f);
    assert_int_equal(f->cfg.nblocks, 2);
    assert_false(block_at(f, 1)->reached);
    assert_false(f->df.returns);
    /* The call that ends its block is control leaving, held until handed on. */
    assert_int_equal(f->nexits, 0);
    dataflow_hand_on_exits(&f->df);
    assert_int_equal(f->nexits, 1);
    assert_true(f->exits[0].target == NEVER_RETURNS);
    assert_int_equal(f->exits[0].kind, SYNTH_EXIT_CALL);
    assert_cfa(f->exits[0].state.reg[ABI_RSP], -8);
    release(f);

    f = new_fn();
    add(f, IR_FLOW_CALL, RETURNS_RAX);            /* 0: a call that returns */
    add(f, IR_FLOW_RET, 0);                       /* 1 */
    analyse(f);
    assert_int_equal(f->cfg.nblocks, 1);
    assert_true(f->df.returns);
    release(f);
}

/* A jump out of the function (a tail call) hands on its state: the frame
 * popped, rsp at the return address. */
static void test_tail_call_leaves_with_its_state(void **state)
{
    (void)state;
    struct fn *f = new_fn();
    push(f, ABI_RBX);                             /* 0 */
    pop(f, ABI_RBX);                              /* 1 */
    add(f, IR_FLOW_JUMP, 0x5000);                 /* 2: jmp other */
    analyse(f);
    assert_true(f->df.returns);
    assert_true(f->df.clobbered == ~0u);
    dataflow_hand_on_exits(&f->df);
    assert_int_equal(f->nexits, 1);
    assert_true(f->exits[0].target == 0x5000);
    assert_int_equal(f->exits[0].kind, 0);
    assert_cfa(f->exits[0].state.reg[ABI_RSP], -8);
    assert_entry(f->exits[0].state.reg[ABI_RBX], ABI_RBX, 0);
    release(f);
}

/* On the edge where cmp %rcx,%rbx found them equal, the unknown one takes
 * the known one's value; the other edge learns nothing. */
static void test_equal_edge_refines(void **state)
{
    (void)state;
    struct fn *f = new_fn();
    effect(f, ir_clobber(ABI_RCX));               /* 0: rcx unknown */
    struct ir_insn *cmp = add(f, IR_FLOW_NEXT, 0);   /* 1: cmp %rcx,%rbx */
    cmp->cmp_a = ABI_RCX;
    cmp->cmp_b = ABI_RBX;
    add(f, IR_FLOW_COND, BASE + 4)->cond = IR_COND_EQ;   /* 2: je 4 */
    add(f, IR_FLOW_RET, 0);                       /* 3 */
    add(f, IR_FLOW_RET, 0);                       /* 4 */
    analyse(f);
    assert_unknown(block_at(f, 3)->in.reg[ABI_RCX]);
    assert_entry(block_at(f, 4)->in.reg[ABI_RCX], ABI_RBX, 0);
    release(f);
}

/* A block nothing reaches is given the state before it, as a guess; a
 * guess never changes what a surer flow set, and a surer flow replaces it. */
static void test_guess_ranks_below_known_flows(void **state)
{
    (void)state;
    struct fn *f = new_fn();
    push(f, ABI_RBX);                             /* 0 */
    add(f, IR_FLOW_RET, 0);                       /* 1 */
    effect(f, ir_set(ABI_RAX, IR_REG_NONE, 1));   /* 2: reached from nowhere */
    add(f, IR_FLOW_RET, 0);                       /* 3 */
    analyse(f);
    const struct block *dead = block_at(f, 2);
    assert_false(dead->reached);
    f->df.seeding = SEED_GUESS;
    assert_int_equal(dataflow_seed_unreached(&f->df), 1);
    assert_true(dead->reached);
    assert_int_equal(dead->seeded, SEED_GUESS);
    assert_cfa(dead->in.reg[ABI_RSP], -16);
    /* A guess does not touch the entry block. */
    struct abstract_state other;
    abstract_state_unknown(&other);
    assert_int_equal(dataflow_flow_into(&f->df, f->cfg.block_of[0], &other), 0);
    assert_cfa(block_at(f, 0)->in.reg[ABI_RSP], -8);
    /* A known flow replaces the guess rather than joining with it. */
    f->df.seeding = 0;
    struct abstract_state entry;
    abstract_state_entry(&entry);
    assert_int_equal(dataflow_flow_into(&f->df, f->cfg.block_of[2], &entry), 1);
    assert_int_equal(dead->seeded, 0);
    assert_cfa(dead->in.reg[ABI_RSP], -8);
    release(f);
}

/* What a surer flow keeps out of a block's state is kept apart, and the
 * states on every path join it back in: a rule read from the surer state
 * alone holds on the surer paths only, which is not enough for a fix or a
 * repair (a .cold part's jump back with another frame).  Without the kept
 * flows (dataflow_keep_out), the states on every path would be the
 * surer ones: the asserts on EVERY below fail. */
static void test_flows_kept_out_join_on_every_path(void **state)
{
    (void)state;
    struct fn *f = new_fn();
    push(f, ABI_RBX);                             /* 0 */
    pop(f, ABI_RBX);                              /* 1 */
    add(f, IR_FLOW_RET, 0);                       /* 2 */
    effect(f, ir_set(ABI_RSP, ABI_RSP, -8));      /* 3: reached from nowhere: sub $8,%rsp */
    add(f, IR_FLOW_RET, 0);                       /* 4 */
    analyse(f);
    /* Nothing kept out yet: the fixpoint's states hold on every path. */
    assert_int_equal(dataflow_every_path(&f->df, NULL, NULL), 0);
    assert_null(f->cfg.every);
    struct abstract_state st;
    assert_int_equal(dataflow_every_path_at(&f->cfg, 1, &st), 0);
    /* A guess into the entry block, arriving with rsp at CFA-16: kept out. */
    struct abstract_state other;
    abstract_state_entry(&other);
    other.reg[ABI_RSP].off = -16;
    f->df.seeding = SEED_GUESS;
    assert_int_equal(dataflow_flow_into(&f->df, f->cfg.block_of[0], &other), 0);
    assert_cfa(block_at(f, 0)->in.reg[ABI_RSP], -8);
    /* A guess into the dead block, then a surer flow that replaces it. */
    assert_int_equal(dataflow_flow_into(&f->df, f->cfg.block_of[3], &other), 1);
    dataflow_fixpoint(&f->df);
    f->df.seeding = 0;
    struct abstract_state entry;
    abstract_state_entry(&entry);
    assert_int_equal(dataflow_flow_into(&f->df, f->cfg.block_of[3], &entry), 1);
    dataflow_fixpoint(&f->df);
    assert_cfa(block_at(f, 3)->in.reg[ABI_RSP], -8);
    /* On every path: rsp is unknown in both blocks, and after the push. */
    assert_int_equal(dataflow_every_path(&f->df, NULL, NULL), 1);
    assert_non_null(f->cfg.every);
    assert_unknown(f->cfg.every[f->cfg.block_of[0]].reg[ABI_RSP]);
    assert_unknown(f->cfg.every[f->cfg.block_of[3]].reg[ABI_RSP]);
    assert_int_equal(dataflow_every_path_at(&f->cfg, 1, &st), 1);
    assert_unknown(st.reg[ABI_RSP]);
    /* The fixpoint's own states are as they were. */
    assert_cfa(block_at(f, 0)->in.reg[ABI_RSP], -8);
    assert_cfa(block_at(f, 3)->in.reg[ABI_RSP], -8);
    assert_int_equal(block_at(f, 3)->seeded, 0);
    release(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_transfer_applies_call_effect),
        cmocka_unit_test(test_join_at_merge),
        cmocka_unit_test(test_loop_reaches_fixpoint),
        cmocka_unit_test(test_noreturn_call_ends_the_path),
        cmocka_unit_test(test_tail_call_leaves_with_its_state),
        cmocka_unit_test(test_equal_edge_refines),
        cmocka_unit_test(test_guess_ranks_below_known_flows),
        cmocka_unit_test(test_flows_kept_out_join_on_every_path),
    };
    return cmocka_run_group_tests_name("test_dataflow", tests, NULL, NULL);
}
/* SPDX-License-Identifier: Apache-2.0 */
