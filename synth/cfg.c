/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cfg: basic blocks of one function (see cfg.h).
 */
#include "cfg.h"

#include <stdlib.h>
#include <string.h>

#include "function_index.h"

static int ends_block(const struct cfg *g, size_t i)
{
    switch (g->code->insns[i].flow) {
    case IR_FLOW_JUMP: case IR_FLOW_COND: case IR_FLOW_RET: case IR_FLOW_STOP:
    case IR_FLOW_JUMP_INDIRECT: case IR_FLOW_INVALID:
        return 1;
    default:
        return cfg_never_returns(g, i);
    }
}

/* Whether a pad catches what a call at ADDR throws. */
static int caught(const struct cfg_links *links, uint64_t addr)
{
    for (size_t p = 0; p < links->npads; p++)
        if (addr >= links->pads[p].start && addr < links->pads[p].end)
            return 1;
    return 0;
}

int cfg_build(struct cfg *g, const struct function_code *fc, const struct synth_session *ss,
              const struct cfg_links *links, const struct synth_entry *more, size_t nmore,
              const char **reason)
{
    g->code = fc;
    g->links = *links;
    uint8_t *leader = calloc(fc->n + 1, 1);
    g->call_facts = calloc(fc->n + 1, sizeof *g->call_facts);
    g->block_of = malloc((fc->n + 1) * sizeof *g->block_of);
    if (!leader || !g->call_facts || !g->block_of) {
        free(leader);
        *reason = "out of memory";
        return -1;
    }
    leader[0] = 1;
    for (size_t k = 0; k < links->npads; k++)
        if (links->pads[k].insn != (size_t)-1)
            leader[links->pads[k].insn] = 1;
    for (size_t k = 0; k < links->ntargets; k++)
        leader[links->targets[k]] = 1;
    for (size_t k = 0; k < links->nlabels; k++)
        leader[links->labels[k]] = 1;
    for (size_t k = 0; k < nmore; k++) {
        size_t at = function_code_insn_at(fc, more[k].addr);
        if (at != (size_t)-1)
            leader[at] = 1;
    }
    for (size_t i = 0; i < fc->n; i++) {
        const struct ir_insn *in = &fc->insns[i];
        if (in->flow == IR_FLOW_CALL) {
            uint32_t facts = ss->callee_at ? ss->callee_at(ss->callee_arg, in->target) : 0;
            if (function_index_noreturn_at(ss->index, in->target))
                facts |= SYNTH_NEVER_RETURNS;
            g->call_facts[i] = (uint16_t)facts;
        }
        if (in->flow == IR_FLOW_JUMP || in->flow == IR_FLOW_COND) {
            size_t t = function_code_insn_at(fc, in->target);
            if (t != (size_t)-1)
                leader[t] = 1;
        }
        if (ends_block(g, i) && i + 1 < fc->n)
            leader[i + 1] = 1;
    }
    size_t nblocks = 0;
    for (size_t i = 0; i < fc->n; i++)
        nblocks += leader[i];
    /* Not zeroed: a block's entry state is written when it is first
     * reached, and read only after. */
    g->blocks = malloc(nblocks * sizeof *g->blocks);
    if (!g->blocks) {
        free(leader);
        *reason = "out of memory";
        return -1;
    }
    size_t b = (size_t)-1;
    for (size_t i = 0; i < fc->n; i++) {
        if (leader[i]) {
            b++;
            g->blocks[b].first = i;
            g->blocks[b].reached = g->blocks[b].seeded = g->blocks[b].queued = g->blocks[b].pad_calls = 0;
        }
        g->blocks[b].last = i;
        g->block_of[i] = b;
        if (!g->blocks[b].pad_calls && ir_is_call(&fc->insns[i]))
            g->blocks[b].pad_calls = caught(links, fc->insns[i].addr);
    }
    g->nblocks = nblocks;
    free(leader);
    return 0;
}

void cfg_release(struct cfg *g)
{
    free(g->blocks);
    free(g->block_of);
    free(g->call_facts);
    free(g->every);
    free(g->every_differs);
    g->every = NULL;
    g->every_differs = NULL;
    g->every_lost = 0;
    g->blocks = NULL;
    g->block_of = NULL;
    g->call_facts = NULL;
    g->nblocks = 0;
    g->links = (struct cfg_links){0};
}

int cfg_is_padding_block(const struct cfg *g, size_t b)
{
    for (size_t i = g->blocks[b].first; i <= g->blocks[b].last; i++)
        if (!g->code->insns[i].is_padding)
            return 0;
    return 1;
}

/* No guess is made for such a block: nothing runs there. */
int cfg_is_trap_after_call(const struct cfg *g, size_t b)
{
    if (b == 0 || !ir_is_call(&g->code->insns[g->blocks[b - 1].last]))
        return 0;
    for (size_t i = g->blocks[b].first; i <= g->blocks[b].last; i++)
        if (!g->code->insns[i].is_padding && g->code->insns[i].flow != IR_FLOW_STOP)
            return 0;
    return 1;
}
