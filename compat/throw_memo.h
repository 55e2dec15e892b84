/* SPDX-License-Identifier: Apache-2.0 */
/*
 * throw_memo: the procedures an exception's walks found, by address, kept
 * for the rest of the same throw (compat/unwind_abi's walks).
 *
 * A throw asks the same procedures again and again: phase 1 finds each
 * frame's, phase 2 asks them again from the same start, and each cleanup's
 * _Unwind_Resume starts a walk anew, which asks its frame's and the next
 * one's (often one address for every frame of a recursion).  The memo
 * keeps what a lookup gave (range, LSDA, personality) by address for the
 * throw, and the objects the last walk had found, for the next walk's
 * first steps.
 *
 * Per thread, for the exception it throws now: a throw inside a cleanup
 * takes it over, and the outer exception's walks then look their
 * procedures up again.  Entries carry their throw's serial number, so
 * that a new throw starts with none: between throws objects may be
 * unloaded (and a JIT's registered code replaced); during one, the
 * frames on the stack keep theirs.  A procedure depends on its address
 * alone, so an entry made at a frame serves any frame at that address.
 *
 * The memo is allocated at the thread's first throw (as the exception
 * itself is) and freed when the thread exits; a thread without one throws
 * without a memo.  Not async-signal-safe (a throw is not either).
 */
#ifndef DWUNWIND_COMPAT_THROW_MEMO_H
#define DWUNWIND_COMPAT_THROW_MEMO_H

#include <stdint.h>
#include <unwind.h>

#include "runtime/objects.h"

#define THROW_MEMO_ENTRIES 64   /* a power of two */

struct lu_throw_memo_entry {
    uint64_t serial, pc;        /* its throw, the lookup address */
    uint64_t start_ip, end_ip, lsda, handler;
    int state;                  /* 1: found; -1: no FDE covers the address */
};

struct lu_throw_memo {
    const struct _Unwind_Exception *exc;   /* the throw's, or NULL when it ended */
    uint64_t serial;                       /* the throw's number on this thread */
    const struct dwu_object *objects[2];   /* the last walk's, at its install */
    struct lu_throw_memo_entry entry[THROW_MEMO_ENTRIES];
};

/* The thread's memo, emptied for a throw of EXC (a raise or a rethrow);
 * NULL when the thread has none. */
struct lu_throw_memo *lu_throw_memo_begin(const struct _Unwind_Exception *exc);

/* The thread's memo when it is EXC's throw's (a walk it starts anew, from
 * a cleanup's _Unwind_Resume), else NULL. */
struct lu_throw_memo *lu_throw_memo_of(const struct _Unwind_Exception *exc);

/* The entry for PC in M: its own (check lu_throw_memo_holds), or the one
 * to overwrite.  Chosen by PC's offset in its page alone, so that which
 * addresses share an entry is the same in every run, whatever the load
 * addresses (ASLR): what a throw finds in the memo does not vary by
 * chance. */
static inline struct lu_throw_memo_entry *lu_throw_memo_slot(struct lu_throw_memo *m, uint64_t pc)
{
    return &m->entry[(pc ^ (pc >> 6)) & (THROW_MEMO_ENTRIES - 1)];
}

/* Whether E (lu_throw_memo_slot's) is PC's in this throw. */
static inline int lu_throw_memo_holds(const struct lu_throw_memo *m, const struct lu_throw_memo_entry *e, uint64_t pc)
{
    return e->pc == pc && e->serial == m->serial;
}

/* The throw has found its handler: its memo is not lent to walks of the
 * same exception object any more. */
static inline void lu_throw_memo_end(struct lu_throw_memo *m)
{
    m->exc = NULL;
}

#endif
