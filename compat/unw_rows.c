/* SPDX-License-Identifier: Apache-2.0 */
/*
 * unw_rows: .eh_frame rows kept by address for the steps of objects
 * without an eh_elf (see the header).
 */
#include "compat/unw_rows.h"

#include <stdatomic.h>
#include <string.h>

#include "runtime/dwarf_fallback.h"

#define CACHES 8
#define CACHE_TRIES 3
#define SETS 64              /* a power of two; two rows a set */

struct kept_row {
    uint64_t pc;                         /* 0: empty */
    const struct dwu_object *object;
    unsigned long generation;            /* the object's (dwu_objects_generation) */
    int signal_frame;
    struct unwind_rule cfa;
    struct unwind_rule col[DWU_NREGS];
};

struct row_cache {
    atomic_int taken;
    struct kept_row set[SETS][2];
};
static struct row_cache caches[CACHES];

static struct row_cache *take_cache(void)
{
    uintptr_t self = (uintptr_t)__builtin_thread_pointer();
    size_t first = (size_t)((self >> 12) ^ (self >> 21));
    for (size_t i = 0; i < CACHE_TRIES; i++) {
        struct row_cache *c = &caches[(first + i) % CACHES];
        if (!atomic_exchange_explicit(&c->taken, 1, memory_order_acquire))
            return c;
    }
    return NULL;
}

static void give_back(struct row_cache *c)
{
    if (c)
        atomic_store_explicit(&c->taken, 0, memory_order_release);
}

static inline struct kept_row *set_of(struct row_cache *c, uint64_t pc)
{
    return c->set[(pc ^ (pc >> 9)) & (SETS - 1)];
}

int lu_rows_step(const struct dwu_object *o, uint64_t pc, const struct dwu_regs *in, struct dwu_regs *out,
                 const struct dwu_memory *mem)
{
    struct row_cache *cache = take_cache();
    unsigned long generation = dwu_objects_generation(o);
    struct kept_row *row = NULL, fresh;
    if (cache) {
        struct kept_row *set = set_of(cache, pc);
        for (int i = 0; i < 2 && !row; i++)
            if (set[i].pc == pc && set[i].object == o && set[i].generation == generation)
                row = &set[i];
    }
    if (!row) {
        struct cfi_state st;
        int signal = 0;
        int rc = dwu_dwarf_row(o, pc - o->bias + o->table_bias, &st, &signal);
        if (rc != 0) {
            give_back(cache);
            return rc;
        }
        row = &fresh;
        if (cache) {   /* the newer of the set's two: the older goes */
            struct kept_row *set = set_of(cache, pc);
            set[1] = set[0];
            row = &set[0];
        }
        row->pc = pc;
        row->object = o;
        row->generation = generation;
        row->signal_frame = signal;
        row->cfa = st.cfa;
        memcpy(row->col, st.col, sizeof row->col);
    }
    int rc = dwu_dwarf_apply_rules(&row->cfa, row->col, row->signal_frame, in, out, mem);
    give_back(cache);
    return rc;
}
