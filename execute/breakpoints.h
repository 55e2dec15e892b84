/* SPDX-License-Identifier: Apache-2.0 */
/*
 * breakpoints: int3 bytes laid in a traced process's code, for `dwcheck
 * --run --only` (execute/selective).
 *
 * A breakpoint is an address whose first byte is replaced by 0xCC, the
 * original byte kept.  One breakpoint serves up to three purposes at once:
 * the first instruction of a selected function (`entry`), the dynamic
 * loader's r_brk, run each time it has mapped or unmapped objects
 * (`loader`), and the return address of calls a selected function made,
 * each return awaited by one thread at one rsp (the rsp just after the
 * return: a recursive call's return is told from its caller's by it).  A
 * breakpoint left with no purpose is removed, its byte written back.
 *
 * Bytes are read and written with PTRACE_PEEKTEXT/POKETEXT through a
 * stopped thread the caller names (the threads of a process share its
 * memory: one table serves them all).  A forked child has a copy of the
 * bytes: breakpoints_unlay writes the original ones back in it before it is
 * let go.  After an exec the image is new: breakpoints_forget drops the
 * table without writing.
 */
#ifndef DWCHECK_BREAKPOINTS_H
#define DWCHECK_BREAKPOINTS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* A return awaited: thread TID, rsp RSP after the return. */
struct breakpoint_wait {
    pid_t tid;
    uint64_t rsp;
};

struct breakpoint {
    uint64_t addr;                 /* load address */
    uint8_t orig;                  /* the byte the int3 replaced */
    uint8_t entry;                 /* a selected function's first instruction */
    uint8_t loader;                /* the dynamic loader's r_brk */
    struct breakpoint_wait *waits;
    size_t nwaits, capwaits;
};

struct breakpoints {
    struct breakpoint *bps;
    size_t n, cap;
};

void breakpoints_init(struct breakpoints *b);
void breakpoints_release(struct breakpoints *b);
/* Drop every breakpoint without writing (an exec replaced the image). */
void breakpoints_forget(struct breakpoints *b);

/* The breakpoint at ADDR, or NULL.  The pointer lives until the next call
 * that adds or removes one. */
struct breakpoint *breakpoints_at(struct breakpoints *b, uint64_t addr);

/* Lay (or reuse) the breakpoint at ADDR, through stopped thread TID, as a
 * function's entry (LOADER 0) or the loader's r_brk (LOADER 1).  0, or -1
 * when the byte cannot be read or written. */
int breakpoints_add(struct breakpoints *b, pid_t tid, uint64_t addr, int loader);

/* Await the return of thread WAITER to ADDR with rsp RSP.  0, or -1. */
int breakpoints_await(struct breakpoints *b, pid_t tid, uint64_t addr, pid_t waiter, uint64_t rsp);

/* Thread WAITER stopped at ADDR with rsp RSP: 1 when that return was
 * awaited (the wait is gone, and the breakpoint with it when it has no
 * purpose left), else 0. */
int breakpoints_take(struct breakpoints *b, pid_t tid, uint64_t addr, pid_t waiter, uint64_t rsp);

/* Thread WAITER's rsp is RSP: drop its waits whose frame is gone (their
 * return slot, RSP - 8 of the wait, lies below RSP: a longjmp or a throw
 * cut the stack past them).  Returns how many. */
size_t breakpoints_drop_gone(struct breakpoints *b, pid_t tid, pid_t waiter, uint64_t rsp);

/* How many returns are awaited, by every thread. */
size_t breakpoints_waits(const struct breakpoints *b);

/* Whether thread WAITER awaits a return with an rsp in (LO, HI]. */
int breakpoints_awaiting(const struct breakpoints *b, pid_t waiter, uint64_t lo, uint64_t hi);

/* Write the original byte at ADDR (LIFT 1) or the int3 again (LIFT 0), for
 * one step over it. */
int breakpoints_lift(struct breakpoints *b, pid_t tid, uint64_t addr, int lift);

/* Write every original byte back through thread TID (of this process, or
 * of a forked copy of it); the table is kept. */
void breakpoints_unlay(const struct breakpoints *b, pid_t tid);

#endif
