/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fde_lookup: address to FDE to row.
 */
#include "fde_lookup.h"

#include <stdlib.h>
#include <string.h>

#include "kit/sorted_search.h"

static int by_pc(const void *x, const void *y)
{
    const struct eh_frame_fde *a = *(const struct eh_frame_fde *const *)x, *b = *(const struct eh_frame_fde *const *)y;
    return a->pc_begin < b->pc_begin ? -1 : a->pc_begin > b->pc_begin;
}

int fde_lookup_init(struct fde_lookup *l, const struct cfi_section *s)
{
    memset(l, 0, sizeof *l);
    l->current = (size_t)-1;
    if (cfi_eval_init(&l->ev, s) != 0)
        return -1;
    l->by_pc = malloc((s->nfdes + 1) * sizeof *l->by_pc);
    if (!l->by_pc) {
        cfi_eval_release(&l->ev);
        return -1;
    }
    for (size_t i = 0; i < s->nfdes; i++)
        if (s->fdes[i].pc_range > 0 && s->fdes[i].fault == FDE_SOUND)
            l->by_pc[l->n++] = &s->fdes[i];
    qsort(l->by_pc, l->n, sizeof *l->by_pc, by_pc);
    return 0;
}

void fde_lookup_release(struct fde_lookup *l)
{
    if (l->table_ok)
        unwind_table_release(&l->table);
    free(l->by_pc);
    if (l->ev.cies)
        cfi_eval_release(&l->ev);
    memset(l, 0, sizeof *l);
}

static uint64_t pc_begin_key(const void *by_pc, size_t i)
{
    return ((const struct eh_frame_fde *const *)by_pc)[i]->pc_begin;
}

static size_t index_at(const struct fde_lookup *l, uint64_t addr)
{
    size_t n = sorted_count_at_most(l->by_pc, l->n, pc_begin_key, addr);
    if (n == 0 || addr - l->by_pc[n - 1]->pc_begin >= l->by_pc[n - 1]->pc_range)
        return (size_t)-1;
    return n - 1;
}

const struct eh_frame_fde *fde_lookup_fde(struct fde_lookup *l, uint64_t addr)
{
    size_t i = index_at(l, addr);
    return i == (size_t)-1 ? NULL : l->by_pc[i];
}

const struct unwind_row *fde_lookup_row(struct fde_lookup *l, uint64_t addr,
                                        const struct eh_frame_fde **fde)
{
    size_t i;
    if (l->current != (size_t)-1 && addr >= l->by_pc[l->current]->pc_begin &&
        addr - l->by_pc[l->current]->pc_begin < l->by_pc[l->current]->pc_range)
        i = l->current;
    else
        i = index_at(l, addr);
    *fde = i == (size_t)-1 ? NULL : l->by_pc[i];
    if (i == (size_t)-1)
        return NULL;
    if (i != l->current) {
        if (l->table_ok)
            unwind_table_release(&l->table);
        l->table_ok = cfi_eval_fde_table(&l->ev, l->by_pc[i], &l->table, &l->table_error) == 0;
        l->current = i;
    }
    return l->table_ok ? unwind_table_row_at(&l->table, addr) : NULL;
}
