/* SPDX-License-Identifier: Apache-2.0 */
/*
 * row_memo: interpreted rows kept by address (see row_memo.h).
 */
#include "row_memo.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "dwarf_fallback.h"

struct kept_row {
    uint64_t pc;                             /* 0: an empty slot (no code at address 0) */
    int status;                              /* dwu_dwarf_row's */
    int signal;
    struct unwind_rule cfa;
    struct unwind_rule col[UNWIND_COLUMNS];
};

struct dwu_row_memo {
    pthread_mutex_t lock;
    struct kept_row *rows;                   /* open addressing, CAP a power of two */
    size_t count, cap;
};

struct dwu_row_memo *dwu_row_memo_new(void)
{
    struct dwu_row_memo *m = calloc(1, sizeof *m);
    if (m)
        pthread_mutex_init(&m->lock, NULL);
    return m;
}

void dwu_row_memo_free(struct dwu_row_memo *memo)
{
    if (!memo)
        return;
    pthread_mutex_destroy(&memo->lock);
    free(memo->rows);
    free(memo);
}

static size_t slot_of(uint64_t pc, size_t cap)
{
    return (size_t)((pc * 0x9e3779b97f4a7c15u) >> 32) & (cap - 1);
}

static struct kept_row *find(const struct dwu_row_memo *m, uint64_t pc)
{
    for (size_t i = m->cap ? slot_of(pc, m->cap) : 0, n = 0; n < m->cap; i = (i + 1) & (m->cap - 1), n++) {
        if (m->rows[i].pc == pc)
            return &m->rows[i];
        if (!m->rows[i].pc)
            return NULL;
    }
    return NULL;
}

/* Room for one more row at half the table's size at most; 0, or -1. */
static int make_room(struct dwu_row_memo *m)
{
    if (m->count + 1 <= m->cap / 2)
        return 0;
    if (m->count >= ROW_MEMO_MAX)
        return -1;
    size_t cap = m->cap ? m->cap * 2 : 256;
    struct kept_row *rows = calloc(cap, sizeof *rows);
    if (!rows)
        return -1;
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->rows[i].pc)
            continue;
        size_t j = slot_of(m->rows[i].pc, cap);
        while (rows[j].pc)
            j = (j + 1) & (cap - 1);
        rows[j] = m->rows[i];
    }
    free(m->rows);
    m->rows = rows;
    m->cap = cap;
    return 0;
}

int dwu_row_memo_step(struct dwu_row_memo *memo, const struct dwu_object *obj, uint64_t lookup_pc,
                      const struct dwu_regs *in, struct dwu_regs *out, const struct dwu_memory *mem)
{
    struct kept_row row;
    pthread_mutex_lock(&memo->lock);
    const struct kept_row *kept = lookup_pc ? find(memo, lookup_pc) : NULL;
    if (kept)
        row = *kept;
    pthread_mutex_unlock(&memo->lock);
    if (!kept) {
        struct cfi_state state;
        row.pc = lookup_pc;
        row.signal = 0;
        row.status = dwu_dwarf_row(obj, lookup_pc, &state, &row.signal);
        row.cfa = state.cfa;
        memcpy(row.col, state.col, sizeof row.col);
        pthread_mutex_lock(&memo->lock);
        if (lookup_pc && !find(memo, lookup_pc) && make_room(memo) == 0) {
            size_t i = slot_of(lookup_pc, memo->cap);
            while (memo->rows[i].pc)
                i = (i + 1) & (memo->cap - 1);
            memo->rows[i] = row;
            memo->count++;
        }
        pthread_mutex_unlock(&memo->lock);
    }
    if (row.status != 0)
        return row.status;
    return dwu_dwarf_apply_rules(&row.cfa, row.col, row.signal, in, out, mem);
}
