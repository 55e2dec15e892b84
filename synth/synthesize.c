/* SPDX-License-Identifier: Apache-2.0 */
/*
 * synthesize: the driver of one function's synthesis (see synthesize.h).
 *
 * The rooms, in the order they run:
 *   function_code   decode the function into IR
 *   landing_pads    where its calls' exceptions land (.gcc_except_table)
 *   jump_tables     the targets of its indirect jumps (tables, computed gotos)
 *   cfg             its basic blocks
 *   dataflow        the abstract states, to a fixpoint
 *   emit_table      the rows, each built by emit_row
 * A pass builds the last four again when the states explain jump tables
 * or labels the code did not (at most MAX_TABLE_PASSES more times).
 */
#include "synthesize.h"

#include <stdlib.h>
#include <string.h>

#include "cfg.h"
#include "dataflow.h"
#include "emit_table.h"
#include "function_code.h"
#include "jump_tables.h"
#include "landing_pads.h"
#include "loop_entry.h"
#include "semantics/abi.h"

#define MAX_TABLE_PASSES 3

/* What one pass over the block graph builds (released before the next). */
struct pass {
    struct landing_pads pads;
    struct jump_tables tables;
    struct cfg cfg;
    struct dataflow flow;        /* borrows the three above: a pass does not move */
};

/* What lives across passes. */
struct function_work {
    struct function_code code;
    struct known_tables known;
    struct address_taken_labels labels;
    struct pass pass;
};

static void pass_release(struct pass *p)
{
    dataflow_release(&p->flow);
    cfg_release(&p->cfg);
    jump_tables_release(&p->tables);
    landing_pads_release(&p->pads);
}

static int pass_build(struct pass *p, struct synth_session *ss, const struct function_work *w,
                      const struct synth_request *rq, const char **reason)
{
    memset(p, 0, sizeof *p);
    if (landing_pads_find(&p->pads, ss->ef, &w->code) != 0 ||
        jump_tables_resolve(&p->tables, &w->code, ss->ef, ss->index, &w->known) != 0) {
        *reason = "out of memory";
        return -1;
    }
    /* What the two found reaches the blocks and the fixpoint as data. */
    struct cfg_links links = {
        .pads = p->pads.site, .npads = p->pads.n,
        .targets = p->tables.targets, .first = p->tables.first, .count = p->tables.count,
        .ntargets = p->tables.ntargets, .exits = p->tables.exits, .nexits = p->tables.nexits,
        .labels = w->labels.at, .nlabels = w->labels.n,
    };
    if (cfg_build(&p->cfg, &w->code, ss, &links, rq->more_entries, rq->nmore_entries, reason) != 0)
        return -1;
    if (dataflow_init(&p->flow, &p->cfg, rq) != 0) {
        *reason = "out of memory";
        return -1;
    }
    return 0;
}

static void function_work_release(struct function_work *w, const struct synth_request *rq)
{
    pass_release(&w->pass);
    free(w->known.table);
    free(w->labels.at);
    if (!rq->insns && !rq->keep_insns)
        free(w->code.insns);
}

/* Give up on the function: release what W holds and, when a table was
 * asked for, make T one unknown row.  Returns -1. */
static int abandon(struct function_work *w, const struct synth_request *rq, struct unwind_table *t)
{
    function_work_release(w, rq);
    if (rq->emit && !rq->no_table)
        emit_unknown_table(t, rq->func);
    return -1;
}

/* The landing pads' flows, which dataflow_every_path runs again. */
static void landing_pad_flows(void *pads, struct dataflow *df)
{
    landing_pads_flow_until_stable(pads, df);
}

/* The flows from what is known to enter the function: its entry, the
 * landing pads of its calls, and jumps from other fragments of its frame. */
static void run_known_flows(struct function_work *w, const struct synth_request *rq)
{
    struct pass *p = &w->pass;
    struct dataflow *df = &p->flow;
    struct abstract_state entry;
    abstract_state_entry(&entry);
    /* Jumps from other fragments of the frame reach what the entry does not;
     * where both reach, the function's own paths decide — unless nothing is
     * known to enter at its start, when those jumps are its real entries. */
    df->seeding = rq->entry_is_guess ? SEED_INNER : 0;
    dataflow_flow_into(df, 0, rq->entry ? rq->entry : &entry);
    if (!rq->entry_is_guess) {
        dataflow_fixpoint(df);
        landing_pads_flow_until_stable(&p->pads, df);
    }
    df->seeding = rq->entry_is_guess ? 0 : SEED_INNER;
    for (size_t k = 0; k < rq->nmore_entries; k++) {
        size_t at = function_code_insn_at(&w->code, rq->more_entries[k].addr);
        if (at != (size_t)-1 && p->cfg.blocks[p->cfg.block_of[at]].first == at)
            dataflow_flow_into(df, p->cfg.block_of[at], &rq->more_entries[k].state);
    }
    dataflow_fixpoint(df);
    /* The landing pads of calls that only those jumps reach (a .cold part
     * whose path from its start ends in a call that never returns). */
    if (rq->entry_is_guess)
        df->seeding = 0;
    if (rq->nmore_entries)
        landing_pads_flow_until_stable(&p->pads, df);
}

int synthesize_function(struct synth_session *ss, const struct synth_request *rq,
                        struct unwind_table *t, struct synth_outcome *out)
{
    const struct function_range *f = rq->func;
    struct function_work w = {.code = {.func = f}};
    memset(out, 0, sizeof *out);
    if (f->flaw) {
        out->reason = f->flaw;
        if (rq->emit && !rq->no_table)
            emit_unknown_table(t, f);
        return -1;
    }
    int decoded = 0;
    if (rq->insns) {
        w.code.insns = rq->insns;
        w.code.n = rq->ninsns;
    } else {
        decoded = function_code_decode(&w.code, ss->ef, ss->decoder, rq->more_entries, rq->nmore_entries,
                                       &out->reason);
    }
    if (rq->keep_insns && !rq->insns) {
        out->kept_insns = w.code.insns;
        out->nkept_insns = w.code.n;
    }
    /* Again when a pass's values explain jump tables the patterns did not:
     * the blocks are cut again with their targets (which may reach more
     * tables: a switch inside a case), at most MAX_TABLE_PASSES times. */
    for (int pass = 0;; pass++) {
        if (decoded != 0 || pass_build(&w.pass, ss, &w, rq, &out->reason) != 0)
            return abandon(&w, rq, t);
        run_known_flows(&w, rq);
        size_t found = pass < MAX_TABLE_PASSES && ss->ef
                           ? jump_tables_from_values(&w.known, &w.pass.tables, &w.pass.cfg) : 0;
        size_t labels = !found && !w.labels.sought
                            ? jump_tables_find_labels(&w.labels, &w.pass.tables, &w.pass.cfg, ss->ef) : 0;
        if (found == (size_t)-1 || labels == (size_t)-1) {
            out->reason = "out of memory";
            return abandon(&w, rq, t);
        }
        if (!found && !labels)
            break;
        /* Again, the blocks cut at the new targets and labels too. */
        pass_release(&w.pass);
    }
    struct dataflow *df = &w.pass.flow;
    const struct cfg *g = &w.pass.cfg;
    df->seeding = SEED_GUESS;
    for (int round = 0; round < 4; round++) {
        size_t seeded = dataflow_seed_unreached(df);
        out->seeded_blocks += seeded;
        if (!seeded)
            break;
        dataflow_fixpoint(df);
    }
    dataflow_hand_on_exits(df);
    out->returns = df->returns;
    /* Registers given back only when every way out is a return that the
     * analysis saw (no tail call, no code reached only by a guess) of a leaf;
     * only a run that builds no table (synth_program's first pass) hands
     * this summary on. */
    if (!rq->emit && df->returns && !out->seeded_blocks && !dataflow_reaches_a_call(df))
        for (unsigned r = 0; r < STATE_GPRS; r++)
            if (abi_call_clobbered(r) && !(df->clobbered & (1u << r)))
                out->preserved |= 1u << r;
    out->insns = w.code.n;
    /* A reachable instruction that does not decode makes the function unknown. */
    for (size_t b = 0; b < g->nblocks; b++) {
        const struct block *blk = &g->blocks[b];
        if (blk->reached && w.code.insns[blk->last].flow == IR_FLOW_INVALID) {
            out->reason = "invalid instruction on a reachable path";
            return abandon(&w, rq, t);
        }
    }
    if (!rq->emit) {
        function_work_release(&w, rq);
        return 0;
    }
    /* What holds on every path, where surer flows kept others out: what a
     * fix or a repair may use (synthesize_every_path). */
    dataflow_every_path(df, landing_pad_flows, &w.pass.pads);
    if (!rq->no_table)
        unwind_table_init(t, f->lo, f->hi);
    struct unwind_table *table = rq->no_table ? NULL : t;
    ss->observed = &w.code;
    ss->observed_cfg = g;
    int emitted = emit_table(g, table, rq->observe, rq->observe_arg, &out->unreached);
    ss->observed = NULL;
    ss->observed_cfg = NULL;
    function_work_release(&w, rq);
    if (emitted != 0) {
        out->reason = "out of memory";
        if (table) {
            unwind_table_release(t);
            emit_unknown_table(t, f);
        }
        return -1;
    }
    return 0;
}

int synthesize_loop_entry(const struct synth_session *ss, const struct ir_insn *in, struct abstract_state *out)
{
    const struct function_code *code = ss->observed;
    if (!code || !ss->observed_cfg || in < code->insns || in >= code->insns + code->n)
        return 0;
    return loop_entry_state(ss->observed_cfg, (size_t)(in - code->insns), out);
}

int synthesize_every_path(const struct synth_session *ss, const struct ir_insn *in, struct abstract_state *out)
{
    const struct function_code *code = ss->observed;
    if (!code || !ss->observed_cfg || in < code->insns || in >= code->insns + code->n)
        return 0;
    return dataflow_every_path_at(ss->observed_cfg, (size_t)(in - code->insns), out);
}

const struct ir_insn *synthesize_previous_insn(const struct synth_session *ss, const struct ir_insn *in)
{
    const struct function_code *code = ss->observed;
    const struct cfg *g = ss->observed_cfg;
    if (!code || !g || in <= code->insns || in >= code->insns + code->n)
        return NULL;
    size_t i = (size_t)(in - code->insns);
    const struct ir_insn *prev = in - 1;
    /* In one block: no jump (direct, of a table, to a label) lands on IN. */
    return prev->flow == IR_FLOW_NEXT && prev->addr + prev->len == in->addr && g->block_of[i] == g->block_of[i - 1]
               ? prev : NULL;
}
