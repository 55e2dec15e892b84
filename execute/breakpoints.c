/* SPDX-License-Identifier: Apache-2.0 */
#include "breakpoints.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>

void breakpoints_init(struct breakpoints *b)
{
    memset(b, 0, sizeof *b);
}

void breakpoints_forget(struct breakpoints *b)
{
    for (size_t i = 0; i < b->n; i++)
        free(b->bps[i].waits);
    b->n = 0;
}

void breakpoints_release(struct breakpoints *b)
{
    breakpoints_forget(b);
    free(b->bps);
    breakpoints_init(b);
}

struct breakpoint *breakpoints_at(struct breakpoints *b, uint64_t addr)
{
    for (size_t i = 0; i < b->n; i++)
        if (b->bps[i].addr == addr)
            return &b->bps[i];
    return NULL;
}

/* The byte at ADDR of thread TID's memory set to BYTE; the old one in *OLD. */
static int poke_byte(pid_t tid, uint64_t addr, uint8_t byte, uint8_t *old)
{
    uint64_t word_at = addr & ~(uint64_t)7;
    unsigned shift = (unsigned)(addr & 7) * 8;
    errno = 0;
    long word = ptrace(PTRACE_PEEKTEXT, tid, (void *)(uintptr_t)word_at, NULL);
    if (errno)
        return -1;
    uint64_t w = (uint64_t)word;
    if (old)
        *old = (uint8_t)(w >> shift);
    w = (w & ~((uint64_t)0xff << shift)) | (uint64_t)byte << shift;
    return ptrace(PTRACE_POKETEXT, tid, (void *)(uintptr_t)word_at, (void *)(uintptr_t)w) == 0 ? 0 : -1;
}

static struct breakpoint *lay(struct breakpoints *b, pid_t tid, uint64_t addr)
{
    struct breakpoint *bp = breakpoints_at(b, addr);
    if (bp)
        return bp;
    if (b->n == b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 16;
        struct breakpoint *grown = realloc(b->bps, cap * sizeof *grown);
        if (!grown)
            return NULL;
        b->bps = grown;
        b->cap = cap;
    }
    bp = &b->bps[b->n];
    memset(bp, 0, sizeof *bp);
    bp->addr = addr;
    if (poke_byte(tid, addr, 0xcc, &bp->orig) != 0)
        return NULL;
    b->n++;
    return bp;
}

int breakpoints_add(struct breakpoints *b, pid_t tid, uint64_t addr, int loader)
{
    struct breakpoint *bp = lay(b, tid, addr);
    if (!bp)
        return -1;
    if (loader)
        bp->loader = 1;
    else
        bp->entry = 1;
    return 0;
}

int breakpoints_await(struct breakpoints *b, pid_t tid, uint64_t addr, pid_t waiter, uint64_t rsp)
{
    struct breakpoint *bp = lay(b, tid, addr);
    if (!bp)
        return -1;
    if (bp->nwaits == bp->capwaits) {
        size_t cap = bp->capwaits ? bp->capwaits * 2 : 4;
        struct breakpoint_wait *grown = realloc(bp->waits, cap * sizeof *grown);
        if (!grown) {
            if (!bp->nwaits && !bp->entry && !bp->loader)
                breakpoints_take(b, tid, addr, -1, 0);
            return -1;
        }
        bp->waits = grown;
        bp->capwaits = cap;
    }
    bp->waits[bp->nwaits++] = (struct breakpoint_wait){waiter, rsp};
    return 0;
}

/* Remove BP when it serves nothing more: its byte written back. */
static void settle(struct breakpoints *b, pid_t tid, struct breakpoint *bp)
{
    if (bp->nwaits || bp->entry || bp->loader)
        return;
    poke_byte(tid, bp->addr, bp->orig, NULL);
    free(bp->waits);
    *bp = b->bps[--b->n];
}

int breakpoints_take(struct breakpoints *b, pid_t tid, uint64_t addr, pid_t waiter, uint64_t rsp)
{
    struct breakpoint *bp = breakpoints_at(b, addr);
    if (!bp)
        return 0;
    int taken = 0;
    for (size_t i = 0; i < bp->nwaits; i++)
        if (bp->waits[i].tid == waiter && bp->waits[i].rsp == rsp) {
            bp->waits[i] = bp->waits[--bp->nwaits];
            taken = 1;
            break;
        }
    settle(b, tid, bp);
    return taken;
}

size_t breakpoints_drop_gone(struct breakpoints *b, pid_t tid, pid_t waiter, uint64_t rsp)
{
    size_t dropped = 0;
    for (size_t i = b->n; i-- > 0;) {
        struct breakpoint *bp = &b->bps[i];
        size_t before = bp->nwaits;
        for (size_t j = bp->nwaits; j-- > 0;)
            if (bp->waits[j].tid == waiter && bp->waits[j].rsp - 8 < rsp)
                bp->waits[j] = bp->waits[--bp->nwaits];
        if (bp->nwaits != before) {
            dropped += before - bp->nwaits;
            settle(b, tid, bp);
        }
    }
    return dropped;
}

size_t breakpoints_waits(const struct breakpoints *b)
{
    size_t n = 0;
    for (size_t i = 0; i < b->n; i++)
        n += b->bps[i].nwaits;
    return n;
}

int breakpoints_awaiting(const struct breakpoints *b, pid_t waiter, uint64_t lo, uint64_t hi)
{
    for (size_t i = 0; i < b->n; i++)
        for (size_t j = 0; j < b->bps[i].nwaits; j++) {
            const struct breakpoint_wait *w = &b->bps[i].waits[j];
            if (w->tid == waiter && w->rsp > lo && w->rsp <= hi)
                return 1;
        }
    return 0;
}

int breakpoints_lift(struct breakpoints *b, pid_t tid, uint64_t addr, int lift)
{
    struct breakpoint *bp = breakpoints_at(b, addr);
    if (!bp)
        return -1;
    return poke_byte(tid, addr, lift ? bp->orig : 0xcc, NULL);
}

void breakpoints_unlay(const struct breakpoints *b, pid_t tid)
{
    for (size_t i = 0; i < b->n; i++)
        poke_byte(tid, b->bps[i].addr, b->bps[i].orig, NULL);
}
