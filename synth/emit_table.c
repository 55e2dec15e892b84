/* SPDX-License-Identifier: Apache-2.0 */
/*
 * emit_table: one function's rows from its block states (see emit_table.h).
 */
#include "emit_table.h"

#include <string.h>

#include "dataflow.h"
#include "emit_row.h"
#include "function_index.h"
#include "semantics/abi.h"

struct emitter {
    int how;                     /* what dataflow_run_block's "reached" means: 1 or SYNTH_GUESSED */
    const struct cfg *g;
    size_t prev;                 /* index of the instruction emitted last, or (size_t)-1 */
    int prev_reached;
    int prev_keeps_row;          /* the last instruction cannot change the row */
    struct unwind_table *t;
    int oom;
    synth_insn_fn observe;
    void *arg;
};

/* ROW over IN: the last row extended when its rules are the same, else a new one. */
static void append_row(struct emitter *em, const struct ir_insn *in, const struct unwind_row *row)
{
    struct unwind_table *t = em->t;
    if (t->nrows > 0) {
        struct unwind_row *prev = &t->rows[t->nrows - 1];
        if (prev->end == in->addr && unwind_row_rules_equal(prev, row)) {
            prev->end = in->addr + in->len;
            return;
        }
    }
    struct unwind_row *r = unwind_table_append(t, in->addr, in->addr + in->len);
    if (!r) {
        em->oom = 1;
        return;
    }
    r->cfa = row->cfa;
    memcpy(r->reg, row->reg, sizeof r->reg);
    /* ROW's expressions live in emit_observer's buffer: T keeps copies. */
    struct unwind_rule *rules[UNWIND_COLUMNS + 1];
    rules[0] = &r->cfa;
    for (unsigned c = 0; c < UNWIND_COLUMNS; c++)
        rules[c + 1] = &r->reg[c];
    for (unsigned c = 0; c <= UNWIND_COLUMNS; c++)
        if (rules[c]->expr_len && !(rules[c]->expr = unwind_table_keep_expr(t, rules[c]->expr,
                                                                            rules[c]->expr_len)))
            em->oom = 1;
}

/* Whether executing IN in state PRE leaves the row emit_row_from_state
 * builds unchanged: it only writes registers that are neither rsp, rbp nor
 * callee-saved, that held no frame address and get none. */
static int keeps_row(const struct ir_insn *in, const struct abstract_state *pre)
{
    if (ir_is_call(in))
        return 0;
    for (unsigned k = 0; k < in->neffects; k++) {
        const struct ir_effect *e = &in->effects[k];
        if (e->kind == IR_STORE || e->dst >= STATE_GPRS || e->dst == ABI_RSP || e->dst == ABI_RBP ||
            abi_callee_saved(e->dst))
            return 0;
        uint8_t old = pre->reg[e->dst].kind;
        if (old == AV_CFA || old == AV_ALIGNED)
            return 0;
        if (e->kind == IR_SET && e->src < STATE_GPRS &&
            (pre->reg[e->src].kind == AV_CFA || pre->reg[e->src].kind == AV_ALIGNED))
            return 0;
        if (e->kind == IR_LOAD)
            return 0;   /* may load a frame address from a slot */
    }
    return 1;
}

static void emit_observer(void *arg, const struct ir_insn *in, const struct abstract_state *st, int reached)
{
    struct emitter *em = arg;
    if (reached == 1)
        reached = em->how;
    if (em->observe)
        em->observe(em->arg, in, st, reached);
    if (!em->t)
        return;   /* observing only */
    /* Within a block, after an instruction that cannot change the row, the
     * row is the same: extend it instead of building it again. */
    const struct cfg *g = em->g;
    size_t i = (size_t)(in - g->code->insns);
    size_t prev = em->prev;
    int prev_reached = em->prev_reached, prev_keeps_row = em->prev_keeps_row;
    em->prev = i;
    em->prev_reached = reached;
    em->prev_keeps_row = reached && keeps_row(in, st);
    struct unwind_table *t = em->t;
    if (prev != (size_t)-1 && prev + 1 == i && prev_reached == reached && prev_keeps_row &&
        g->block_of[i] == g->block_of[prev] && t->nrows > 0 &&
        t->rows[t->nrows - 1].end == in->addr) {
        t->rows[t->nrows - 1].end = in->addr + in->len;
        return;
    }
    struct unwind_row row;
    struct synth_row_exprs exprs;
    if (reached) {
        emit_row_from_state(st, &row, &exprs);
    } else {
        memset(&row, 0, sizeof row);
        row.cfa.kind = CFA_RULE_UNKNOWN;
        for (unsigned c = 0; c < UNWIND_COLUMNS; c++)
            row.reg[c].kind = REG_RULE_UNKNOWN;
    }
    append_row(em, in, &row);
}

void emit_unknown_table(struct unwind_table *t, const struct function_range *f)
{
    unwind_table_init(t, f->lo, f->hi);
    struct unwind_row *r = unwind_table_append(t, f->lo, f->hi);
    if (r) {
        r->cfa.kind = CFA_RULE_UNKNOWN;
        for (unsigned c = 0; c < ABI_NCALLEE_SAVED; c++)
            r->reg[abi_callee_saved_regs[c]].kind = REG_RULE_UNKNOWN;
        r->reg[ABI_RA].kind = REG_RULE_UNKNOWN;
    }
}

int emit_table(const struct cfg *g, struct unwind_table *t, synth_insn_fn observe, void *arg,
               size_t *unreached)
{
    struct emitter em = {.t = t, .observe = observe, .arg = arg, .g = g, .prev = (size_t)-1};
    struct abstract_state last;
    for (size_t b = 0; b < g->nblocks; b++) {
        const struct block *blk = &g->blocks[b];
        if (blk->reached) {
            em.how = blk->seeded == SEED_GUESS ? SYNTH_GUESSED : 1;
            dataflow_run_block(g, b, &last, emit_observer, &em, NULL, NULL);
        } else if ((cfg_is_padding_block(g, b) || cfg_is_trap_after_call(g, b)) && b > 0 && g->blocks[b - 1].reached) {
            /* Alignment padding, and the ud2 after a call that does not
             * return, carry on the row of the instruction before them: the
             * compiler's CFI for the next block starts at its label. */
            for (size_t i = blk->first; i <= blk->last; i++)
                emit_observer(&em, &g->code->insns[i], &last, SYNTH_PADDING);
        } else if (cfg_is_padding_block(g, b) && b + 1 < g->nblocks && g->blocks[b + 1].reached) {
            struct abstract_state next = g->blocks[b + 1].in;
            for (size_t i = blk->first; i <= blk->last; i++)
                emit_observer(&em, &g->code->insns[i], &next, SYNTH_PADDING);
        } else {
            for (size_t i = blk->first; i <= blk->last; i++)
                emit_observer(&em, &g->code->insns[i], &last, 0);
            *unreached += blk->last - blk->first + 1;
        }
    }
    return em.oom ? -1 : 0;
}
