/* SPDX-License-Identifier: Apache-2.0 */
/*
 * loop_entry: the state on entry to a loop (see loop_entry.h).
 */
#include "loop_entry.h"

#include <stdlib.h>

#include "dataflow.h"

/* Successor lists of the reached blocks, as one array. */
struct edges {
    size_t *first;      /* per block: its successors start here in TO (nblocks + 1 entries) */
    size_t *to;
    size_t n, cap;
    int indirect;       /* some reached block ends with an indirect jump */
};

static void add_edge(void *arg, size_t successor, const struct abstract_state *st)
{
    (void)st;
    struct edges *e = arg;
    if (e->n == e->cap) {
        size_t cap = e->cap ? 2 * e->cap : 64;
        size_t *p = realloc(e->to, cap * sizeof *p);
        if (!p) {
            e->indirect = 1;   /* out of memory: give up as for an edge not listed */
            return;
        }
        e->to = p;
        e->cap = cap;
    }
    e->to[e->n++] = successor;
}

/* The blocks reachable from FROM's successors (SEEN[b] set), by a walk over E. */
static void reach(const struct edges *e, size_t from, unsigned char *seen, size_t *stack)
{
    size_t top = 0;
    for (size_t k = e->first[from]; k < e->first[from + 1]; k++)
        if (!seen[e->to[k]]) {
            seen[e->to[k]] = 1;
            stack[top++] = e->to[k];
        }
    while (top > 0) {
        size_t b = stack[--top];
        for (size_t k = e->first[b]; k < e->first[b + 1]; k++)
            if (!seen[e->to[k]]) {
                seen[e->to[k]] = 1;
                stack[top++] = e->to[k];
            }
    }
}

/* Join into E->state what edges into HEAD carry (set E->have on the first). */
struct entering {
    size_t head;
    struct abstract_state state;
    int have;
};

static void join_entering(void *arg, size_t successor, const struct abstract_state *st)
{
    struct entering *en = arg;
    if (successor != en->head)
        return;
    if (!en->have)
        abstract_state_copy(&en->state, st);
    else
        abstract_state_join(&en->state, st);
    en->have = 1;
}

/* Whether block B's last instruction but padding is a call, or B is all
 * padding (what follows a call: nothing else falls into it). */
static int ends_in_a_call(const struct cfg *g, size_t b)
{
    size_t i = g->blocks[b].last;
    while (i > g->blocks[b].first && g->code->insns[i].is_padding)
        i--;
    return ir_is_call(&g->code->insns[i]) || g->code->insns[i].is_padding;
}

int loop_entry_state(const struct cfg *g, size_t i, struct abstract_state *out)
{
    if (i >= g->code->n)
        return 0;
    size_t head = g->block_of[i];
    const struct block *h = &g->blocks[head];
    if (h->first != i || head == 0 || !h->reached || h->seeded != 0)
        return 0;
    struct edges e = {.first = calloc(g->nblocks + 1, sizeof *e.first)};
    unsigned char *seen = calloc(g->nblocks, 1);
    size_t *stack = malloc(g->nblocks * sizeof *stack);
    struct entering *en = malloc(sizeof *en);
    int found = 0;
    if (!e.first || !seen || !stack || !en)
        goto done;
    for (size_t b = 0; b < g->nblocks && !e.indirect; b++) {
        e.first[b] = e.n;
        if (g->blocks[b].reached && (g->blocks[b].pad_calls || dataflow_direct_edges(g, b, add_edge, &e) != 0))
            e.indirect = 1;
    }
    e.first[g->nblocks] = e.n;
    if (e.indirect)
        goto done;
    reach(&e, head, seen, stack);
    if (!seen[head])
        goto done;   /* not in a loop */
    /* The edges from blocks the head does not reach enter the loop; but
     * not the way on after a call, which may be a call that does not
     * return and that synthesis does not know for one (glib's
     * g_assertion_message_expr), nor through the padding after one: its
     * state is no path's. */
    en->head = head;
    en->have = 0;
    for (size_t b = 0; b < g->nblocks; b++)
        if (g->blocks[b].reached && !seen[b] && b != head && g->blocks[b].seeded == 0 && !ends_in_a_call(g, b))
            dataflow_direct_edges(g, b, join_entering, en);
    if (!en->have)
        goto done;
    for (unsigned r = 0; r < STATE_GPRS && !found; r++)
        found = h->in.reg[r].kind == AV_UNKNOWN && en->state.reg[r].kind != AV_UNKNOWN;
    if (found)
        abstract_state_copy(out, &en->state);
done:
    free(e.first);
    free(e.to);
    free(seen);
    free(stack);
    free(en);
    return found;
}
