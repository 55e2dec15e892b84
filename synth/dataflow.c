/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dataflow: the fixpoint over one function's blocks (see dataflow.h).
 */
#include "dataflow.h"

#include <stdlib.h>
#include <string.h>

#include "function_index.h"
#include "semantics/abi.h"

int dataflow_init(struct dataflow *df, struct cfg *g, const struct synth_request *rq)
{
    memset(df, 0, sizeof *df);
    df->cfg = g;
    df->func = rq->func;
    df->exits = rq->exits;
    df->exits_arg = rq->exits_arg;
    df->worklist = malloc((g->nblocks + 1) * sizeof *df->worklist);
    return df->worklist ? 0 : -1;
}

void dataflow_release(struct dataflow *df)
{
    if (df->kept_out)
        for (size_t b = 0; b < df->cfg->nblocks; b++)
            free(df->kept_out[b]);
    free(df->kept_out);
    free(df->worklist);
    free(df->leaving);
    df->worklist = NULL;
    df->leaving = NULL;
    df->kept_out = NULL;
    df->nwork = df->nleaving = df->leaving_cap = 0;
}

void dataflow_keep_out(struct dataflow *df, size_t b, const struct abstract_state *st)
{
    if (b >= df->cfg->nblocks)
        return;
    const struct block *blk = &df->cfg->blocks[b];
    struct abstract_state joined;
    abstract_state_copy(&joined, &blk->in);
    if (blk->reached && !abstract_state_join(&joined, st))
        return;   /* it says nothing the state does not */
    if (!df->kept_out && !(df->kept_out = calloc(df->cfg->nblocks, sizeof *df->kept_out))) {
        df->kept_out_lost = 1;
        return;
    }
    if (df->kept_out[b]) {
        abstract_state_join(df->kept_out[b], st);
        return;
    }
    if (!(df->kept_out[b] = malloc(sizeof *df->kept_out[b]))) {
        df->kept_out_lost = 1;
        return;
    }
    abstract_state_copy(df->kept_out[b], st);
}

void dataflow_leave(struct dataflow *df, uint64_t from, uint64_t target, int kind, const struct abstract_state *st)
{
    if (!df->exits)
        return;
    if (df->nleaving == df->leaving_cap) {
        size_t cap = df->leaving_cap ? 2 * df->leaving_cap : 16;
        struct leaving *p = realloc(df->leaving, cap * sizeof *p);
        if (!p) {
            df->exits(df->exits_arg, from, target, kind, st);
            return;
        }
        df->leaving = p;
        df->leaving_cap = cap;
    }
    df->leaving[df->nleaving++] = (struct leaving){from, target, kind, *st};
}

void dataflow_hand_on_exits(const struct dataflow *df)
{
    for (size_t k = 0; k < df->nleaving; k++)
        df->exits(df->exits_arg, df->leaving[k].from, df->leaving[k].target, df->leaving[k].kind,
                  &df->leaving[k].state);
}

/* The frame is gone (rsp at the return address, as for a tail call), or
 * where rsp is is not known. */
static int frame_popped(const struct abstract_state *st)
{
    return st->reg[ABI_RSP].kind != AV_CFA || st->reg[ABI_RSP].off >= -8;
}

int dataflow_flow_into(struct dataflow *df, size_t b, const struct abstract_state *st)
{
    /* A function that decodes to no instruction has no block 0 to enter. */
    if (b >= df->cfg->nblocks)
        return 0;
    struct block *blk = &df->cfg->blocks[b];
    int changed;
    /* A guess never changes what surer paths established, and they replace
     * what it gave (dataflow_every_path joins both: both are kept). */
    if (!df->every_path && df->seeding && blk->reached && blk->seeded < df->seeding) {
        dataflow_keep_out(df, b, st);
        return 0;
    }
    if (!df->every_path && blk->reached && df->seeding < blk->seeded) {
        struct abstract_state replaced;
        abstract_state_copy(&replaced, &blk->in);
        abstract_state_copy(&blk->in, st);
        blk->seeded = df->seeding;
        dataflow_keep_out(df, b, &replaced);
        changed = 1;
    } else if (!blk->reached) {
        abstract_state_copy(&blk->in, st);
        blk->reached = 1;
        blk->seeded = df->seeding;
        changed = 1;
    } else {
        changed = abstract_state_join(&blk->in, st);
    }
    if (changed && !blk->queued) {
        blk->queued = 1;
        df->worklist[df->nwork++] = b;
    }
    return changed;
}

void dataflow_transfer(const struct cfg *g, size_t i, struct abstract_state *st)
{
    const struct ir_insn *in = &g->code->insns[i];
    abstract_state_step(st, in);
    if (ir_is_call(in))
        abstract_state_after_call(st, cfg_registers_given_back(g, i));
}

/* dataflow_run_block, inlined where the fixpoint and the guesses call it. */
static inline void run_block(const struct cfg *g, size_t b, struct abstract_state *out, synth_insn_fn observe,
                             void *arg, struct abstract_state *after_call, int *have_call)
{
    const struct block *blk = &g->blocks[b];
    abstract_state_copy(out, &blk->in);
    for (size_t i = blk->first; i <= blk->last; i++) {
        const struct ir_insn *in = &g->code->insns[i];
        if (observe)
            observe(arg, in, out, 1);
        dataflow_transfer(g, i, out);
        if (after_call && ir_is_call(in)) {
            abstract_state_copy(after_call, out);
            *have_call = 1;
        }
    }
}

void dataflow_run_block(const struct cfg *g, size_t b, struct abstract_state *out, synth_insn_fn observe,
                        void *arg, struct abstract_state *after_call, int *have_call)
{
    run_block(g, b, out, observe, arg, after_call, have_call);
}

/*
 * The state where the registers CMP compared are equal.  Returns 1 with *EQ
 * refined (what is known of one is known of the other), -1 when they cannot
 * be equal (same symbolic base, different offsets: that edge is never taken
 * in this state), 0 when the comparison tells nothing.
 */
static int equal_edge_state(const struct ir_insn *cmp, const struct abstract_state *st,
                            struct abstract_state *eq)
{
    uint8_t a = cmp->cmp_a, b = cmp->cmp_b;
    if (a >= STATE_GPRS || b >= STATE_GPRS)
        return 0;
    struct abstract_value va = st->reg[a], vb = st->reg[b];
    if (va.kind != AV_UNKNOWN && vb.kind != AV_UNKNOWN)   /* entries of one table may be equal */
        return va.kind == vb.kind && va.kind != AV_TABLE_ENTRY && va.reg == vb.reg && va.off != vb.off ? -1 : 0;
    if (va.kind == AV_UNKNOWN && vb.kind == AV_UNKNOWN)
        return 0;
    *eq = *st;
    if (va.kind == AV_UNKNOWN)
        eq->reg[a] = vb;
    else
        eq->reg[b] = va;
    return 1;
}

/*
 * Whether the conditional jump at LAST branches on clone's answer being 0
 * (test %rax,%rax, then jumps: they write no flags) in state ST.  Returns
 * 1 when its EQ edge is the child's path, else 0.
 */
static int branches_to_clone_child(const struct function_code *fc, size_t last, const struct abstract_state *st)
{
    size_t i = last;
    while (i > 0 && fc->insns[i - 1].flow == IR_FLOW_COND && last - i < 4)
        i--;
    if (i == 0)
        return 0;
    unsigned tested = fc->insns[i - 1].zero_tested;
    return tested && tested - 1 < STATE_GPRS && st->reg[tested - 1].kind == AV_CLONE_RESULT;
}

/* Where block B's out-state OUT flows inside the function, as the fixpoint
 * sends it: *TAKEN to block *TARGET (a direct jump's, (size_t)-1 when there
 * is none or it leaves the function), *FALL to block B + 1 (either NULL where
 * that edge is not taken: no fall-through, or an equality the state rules
 * out).  EQ holds the state refined on the edge where a `cmp` found its
 * registers equal. */
static void direct_edges(const struct cfg *g, size_t b, const struct abstract_state *out, struct abstract_state *eq,
                         const struct abstract_state **taken, size_t *target, const struct abstract_state **fall)
{
    const struct function_code *fc = g->code;
    size_t last = g->blocks[b].last;
    const struct ir_insn *in = &fc->insns[last];
    *taken = *fall = out;
    *target = (size_t)-1;
    int refined = 0;
    if (in->flow == IR_FLOW_COND && in->cond && branches_to_clone_child(fc, last, out)) {
        abstract_state_outermost(eq);   /* 0: the child's path, on its own stack */
        refined = 1;
    } else if (in->flow == IR_FLOW_COND && in->cond && last > g->blocks[b].first) {
        refined = equal_edge_state(&fc->insns[last - 1], out, eq);
    }
    if (refined) {
        const struct abstract_state *eq_state = refined > 0 ? eq : NULL;
        if (in->cond == IR_COND_EQ)
            *taken = eq_state;
        else
            *fall = eq_state;
    }
    if (in->flow == IR_FLOW_COND || in->flow == IR_FLOW_JUMP) {
        size_t t = function_code_insn_at(fc, in->target);
        if (t != (size_t)-1)
            *target = g->block_of[t];
    }
    int falls = in->flow == IR_FLOW_COND ||
                ((in->flow == IR_FLOW_NEXT || in->flow == IR_FLOW_CALL || in->flow == IR_FLOW_CALL_INDIRECT) &&
                 !cfg_never_returns(g, last));
    if (!falls || last + 1 >= fc->n)
        *fall = NULL;
    if (*target == (size_t)-1)
        *taken = NULL;
}

int dataflow_direct_edges(const struct cfg *g, size_t b, dataflow_edge_fn fn, void *arg)
{
    if (g->code->insns[g->blocks[b].last].flow == IR_FLOW_JUMP_INDIRECT)
        return -1;
    struct abstract_state out, eq;
    const struct abstract_state *taken, *fall;
    size_t target;
    run_block(g, b, &out, NULL, NULL, NULL, NULL);
    direct_edges(g, b, &out, &eq, &taken, &target, &fall);
    if (taken)
        fn(arg, target, taken);
    if (fall)
        fn(arg, g->block_of[g->blocks[b].last + 1], fall);
    return 0;
}

/* Whether a call is reachable.  Only a leaf's returns are trusted to give
 * registers back: across a call, a register kept in the frame may be
 * written through a pointer to it, which the states do not follow. */
int dataflow_reaches_a_call(const struct dataflow *df)
{
    const struct cfg *g = df->cfg;
    for (size_t b = 0; b < g->nblocks; b++)
        for (size_t i = g->blocks[b].first; g->blocks[b].reached && i <= g->blocks[b].last; i++)
            if (ir_is_call(&g->code->insns[i]))
                return 1;
    return 0;
}

/* The registers (bit R) that hold their own entry value in ST. */
static uint32_t registers_as_entered(const struct abstract_state *st)
{
    uint32_t m = 0;
    for (unsigned r = 0; r < STATE_GPRS; r++)
        if (st->reg[r].kind == AV_ENTRY && st->reg[r].reg == r && st->reg[r].off == 0)
            m |= 1u << r;
    return m;
}

void dataflow_fixpoint(struct dataflow *df)
{
    const struct cfg *g = df->cfg;
    const struct function_code *fc = g->code;
    const struct cfg_links *ln = &g->links;
    struct abstract_state out;
    int phase = df->seeding;
    while (df->nwork > 0) {
        size_t b = df->worklist[--df->nwork];
        g->blocks[b].queued = 0;
        /* What a block hands on is no surer than how it was reached. */
        df->seeding = g->blocks[b].seeded > phase ? g->blocks[b].seeded : phase;
        run_block(g, b, &out, NULL, NULL, NULL, NULL);
        size_t last = g->blocks[b].last;
        const struct ir_insn *in = &fc->insns[last];
        /* On the edge where a `cmp %a,%b` found them equal, what is known of
         * one is known of the other. */
        struct abstract_state equal;
        const struct abstract_state *taken, *fallthrough;
        size_t target;
        direct_edges(g, b, &out, &equal, &taken, &target, &fallthrough);
        if (taken)
            dataflow_flow_into(df, target, taken);
        switch (in->flow) {
        case IR_FLOW_COND:
        case IR_FLOW_JUMP:
            if (target == (size_t)-1 && (in->target < df->func->lo || in->target >= df->func->hi)) {
                /* A tail call, or a jump to another fragment of this function
                 * (GCC's .cold parts): either continues this frame. */
                df->returns = 1;
                df->clobbered = ~0u;
                dataflow_leave(df, in->addr, in->target,
                               function_code_bounds_a_switch(fc, last) ? SYNTH_EXIT_SWITCH_DEFAULT : 0, &out);
            }
            break;
        case IR_FLOW_JUMP_INDIRECT:
            for (size_t k = 0; k < ln->nexits; k++)
                if (ln->exits[k].jump == last)
                    dataflow_leave(df, in->addr, ln->exits[k].target, SYNTH_EXIT_TABLE_CASE, &out);
            if (cfg_jump_count(g, last)) {
                for (uint32_t k = 0; k < ln->count[last]; k++)
                    dataflow_flow_into(df, g->block_of[ln->targets[ln->first[last] + k]], &out);
                break;
            }
            /* Unresolved: a computed goto to any of the function's
             * address-taken labels, or an indirect tail call (the frame
             * popped: its state goes to no label, which may be a handler
             * or a return address other code resumes at). */
            for (size_t k = 0; k < ln->nlabels && !frame_popped(&out); k++)
                dataflow_flow_into(df, g->block_of[ln->labels[k]], &out);
            df->returns = 1;
            df->clobbered = ~0u;
            /* A lazy-binding PLT stub (jmp *GOT; push $n; jmp PLT0): until
             * the symbol is bound, its GOT entry holds the address just
             * after this jump.  (Padding follows the others.) */
            if (df->func->source == FUNC_FROM_PLT && last + 1 < fc->n && !fc->insns[last + 1].is_padding)
                dataflow_flow_into(df, g->block_of[last + 1], &out);
            break;
        case IR_FLOW_RET:
            df->returns = 1;
            df->clobbered |= ~registers_as_entered(&out);
            break;
        default:
            break;
        }
        if (in->flow == IR_FLOW_CALL)
            dataflow_leave(df, in->addr, in->target, SYNTH_EXIT_CALL, &out);
        if (fallthrough)
            dataflow_flow_into(df, g->block_of[last + 1], fallthrough);
    }
    df->seeding = phase;
}

size_t dataflow_seed_unreached(struct dataflow *df)
{
    const struct cfg *g = df->cfg;
    struct abstract_state indirect, out, after_call;
    int have_indirect = 0, have_call = 0;
    size_t seeded = 0;
    /* Jump tables may sit before or after their targets: join every
     * indirect jump's state first. */
    for (size_t b = 0; b < g->nblocks; b++) {
        if (!g->blocks[b].reached || g->code->insns[g->blocks[b].last].flow != IR_FLOW_JUMP_INDIRECT)
            continue;
        int unused = 0;
        run_block(g, b, &out, NULL, NULL, &after_call, &unused);
        if (!have_indirect)
            indirect = out;
        else
            abstract_state_join(&indirect, &out);
        have_indirect = 1;
    }
    have_call = 0;
    for (size_t b = 0; b < g->nblocks; b++) {
        struct block *blk = &g->blocks[b];
        if (blk->reached) {
            if (!have_indirect)
                run_block(g, b, &out, NULL, NULL, &after_call, &have_call);
            continue;
        }
        if (cfg_is_padding_block(g, b) || cfg_is_trap_after_call(g, b))
            continue;
        if (have_indirect) {
            dataflow_flow_into(df, b, &indirect);
        } else if (have_call) {
            dataflow_flow_into(df, b, &after_call);
        } else if (b > 0 && g->blocks[b - 1].reached) {
            /* Nothing better: carry on the state before it, as CFI does. */
            run_block(g, b - 1, &out, NULL, NULL, &after_call, &have_call);
            have_call = 0;
            dataflow_flow_into(df, b, &out);
        } else {
            continue;
        }
        seeded++;
    }
    return seeded;
}

int dataflow_every_path(struct dataflow *df, dataflow_more_fn more, void *arg)
{
    struct cfg *g = df->cfg;
    if (!df->kept_out && !df->kept_out_lost)
        return 0;
    size_t n = g->nblocks;
    struct block *ranked = df->kept_out_lost ? NULL : malloc(n * sizeof *ranked);
    g->every = ranked ? malloc(n * sizeof *g->every) : NULL;
    g->every_differs = g->every ? calloc(n, 1) : NULL;
    if (!g->every_differs) {
        free(ranked);
        free(g->every);
        g->every = NULL;
        g->every_lost = 1;
        return -1;
    }
    for (size_t b = 0; b < n; b++)
        ranked[b] = g->blocks[b];
    /* The flows kept out joined in, and every flow from there on joined
     * whatever its kind; no control leaving the function is told again. */
    synth_exit_fn exits = df->exits;
    int phase = df->seeding;
    df->exits = NULL;
    df->every_path = 1;
    for (size_t b = 0; b < n; b++)
        if (df->kept_out[b])
            dataflow_flow_into(df, b, df->kept_out[b]);
    dataflow_fixpoint(df);
    if (more)
        more(arg, df);
    df->every_path = 0;
    df->exits = exits;
    df->seeding = phase;
    int differs = 0;
    for (size_t b = 0; b < n; b++) {
        struct block *blk = &g->blocks[b];
        if (blk->reached)
            abstract_state_copy(&g->every[b], &blk->in);
        g->every_differs[b] = blk->reached && ranked[b].reached && !abstract_state_equal(&blk->in, &ranked[b].in);
        differs |= g->every_differs[b];
        *blk = ranked[b];
    }
    free(ranked);
    if (!differs) {
        free(g->every);
        free(g->every_differs);
        g->every = NULL;
        g->every_differs = NULL;
    }
    return differs;
}

int dataflow_every_path_at(const struct cfg *g, size_t i, struct abstract_state *out)
{
    if (i >= g->code->n)
        return 0;
    size_t b = g->block_of[i];
    if (g->every_lost) {
        abstract_state_unknown(out);   /* what held on every path was lost: nothing is known */
        return 1;
    }
    if (!g->every || !g->every_differs[b])
        return 0;
    abstract_state_copy(out, &g->every[b]);
    for (size_t k = g->blocks[b].first; k < i; k++)
        dataflow_transfer(g, k, out);
    return 1;
}
