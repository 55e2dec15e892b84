/* SPDX-License-Identifier: Apache-2.0 */
/*
 * walk: one step and the walk of a stack, over any set of objects — this
 * process's (unwind.c) or an address space's (space.c).
 *
 * Both are inline and take the object lookup as a function the compiler
 * sees, so that each user gets a walk specialised to its lookup: the
 * in-process walk is the runtime's hot loop, a few nanoseconds per frame.
 */
#ifndef DWUNWIND_WALK_H
#define DWUNWIND_WALK_H

#include "dwarf_fallback.h"
#include "dwunwind.h"
#include "objects.h"
#include "row_memo.h"

#define DWU_WALK_NEEDED ((1u << DWU_RIP) | (1u << DWU_RSP))

/* The object that holds PC in the set CTX describes, or NULL. */
typedef const struct dwu_object *(*dwu_lookup_fn)(void *ctx, uint64_t pc);

/* Unwind IN into OUT. */
static inline __attribute__((always_inline)) int dwu_walk_step(const struct dwu_regs *in, struct dwu_regs *out,
                                                               const struct dwu_memory *mem,
                                                               dwu_lookup_fn lookup, void *ctx)
{
    if ((in->valid & DWU_WALK_NEEDED) != DWU_WALK_NEEDED)
        return DWU_EREG;
    uint64_t ip = in->r[DWU_RIP];
    /* A return address may be just past the function (a call that does not
     * return): the row of the call is at ip - 1, unless the frame was
     * interrupted at ip. */
    uint64_t pc = in->flags & DWU_FLAG_EXACT_IP ? ip : ip - 1;
    const struct dwu_object *o = lookup(ctx, pc);
    if (!o)
        return DWU_ENOINFO;
    /* (dwu_init may give an object its eh_elf meanwhile: one load) */
    dwu_eh_elf_step_fn step = __atomic_load_n(&o->step, __ATOMIC_ACQUIRE);
    int rc = step      ? step(pc - o->bias, in, out, mem)
             : o->memo ? dwu_row_memo_step(o->memo, o, pc - o->bias + o->table_bias, in, out, mem)
                       : dwu_dwarf_step(o, pc - o->bias + o->table_bias, in, out, mem);
    if (rc == DWU_OK && (out->valid & DWU_WALK_NEEDED) != DWU_WALK_NEEDED)
        return DWU_EREG;
    return rc;
}

/* dwu_unwind's walk (see dwunwind.h) over the objects LOOKUP finds. */
static inline __attribute__((always_inline)) int dwu_walk(struct dwu_regs *regs, const struct dwu_memory *mem,
                                                          uint64_t *ips, int max, int *status,
                                                          dwu_lookup_fn lookup, void *ctx)
{
    struct dwu_regs other;
    struct dwu_regs *cur = regs, *next = &other;
    int n = 0, rc = DWU_OK;
    while (n < max) {
        ips[n++] = cur->r[DWU_RIP];
        rc = dwu_walk_step(cur, next, mem, lookup, ctx);
        if (rc != DWU_OK)
            break;
        /* A caller's frame is above its callee's, except across a signal
         * frame (the interrupted code may run on another stack). */
        if (next->r[DWU_RSP] <= cur->r[DWU_RSP] && !(next->flags & DWU_FLAG_EXACT_IP)) {
            rc = DWU_ELOOP;
            break;
        }
        struct dwu_regs *t = cur;
        cur = next;
        next = t;
        if (cur->r[DWU_RIP] == 0) {
            rc = DWU_END;
            break;
        }
    }
    if (cur != regs)
        *regs = *cur;
    if (status)
        *status = rc;
    return n;
}

#endif
