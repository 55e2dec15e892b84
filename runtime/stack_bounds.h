/* SPDX-License-Identifier: Apache-2.0 */
/*
 * stack_bounds: which stack memory this process's walks may read, so that
 * a corrupted stack or a wrong table ends a walk with a status instead of
 * a fault.
 *
 * A walk starts on a stack pointer; the memory it may read is that
 * pointer's mapping, from the pointer up to the mapping's end (a stack's
 * callers are above it), and, once a signal frame moves it to another
 * stack (a handler on an alternate stack interrupting the thread's own),
 * that stack's mapping.  Mappings are found in /proc/self/maps with raw
 * open and read, which are async-signal-safe, and the last two found are
 * kept per thread (initial-exec TLS: no allocation, no lock), so a thread
 * scans the file once for its own stack and once for an alternate one.
 * Without /proc, a walk reads only from its starting pointer to the end of
 * the page it is in, and only when that is the page the walk itself runs
 * on; a stack pointer in no anonymous read-write mapping gives a walk
 * nothing to read.
 */
#ifndef DWUNWIND_STACK_BOUNDS_H
#define DWUNWIND_STACK_BOUNDS_H

#include <stdint.h>

struct dwu_stack_range {
    uint64_t lo, hi;   /* [lo, hi) may be read */
};

/* What one walk may read: the range it started in (from its stack pointer
 * up), and one other stack it reached through a signal frame. */
struct dwu_stack_bounds {
    struct dwu_stack_range start, other;
    unsigned reaches;   /* how many times OTHER was looked up */
};

/* The bounds of a walk that starts with stack pointer SP.  Async-signal-safe. */
void dwu_stack_bounds_init(struct dwu_stack_bounds *b, uint64_t sp);

static inline int dwu_stack_in_range(const struct dwu_stack_range *r, uint64_t addr)
{
    return addr >= r->lo && r->hi >= 8 && addr <= r->hi - 8;
}

/* Whether the 8 bytes at ADDR may be read. */
static inline int dwu_stack_readable(const struct dwu_stack_bounds *b, uint64_t addr)
{
    return dwu_stack_in_range(&b->start, addr) || dwu_stack_in_range(&b->other, addr);
}

/* ADDR lies outside B (a signal frame took the walk to another stack):
 * make ADDR's mapping B's other range, if it is anonymous read-write
 * memory (a stack; never a file, which a read past its end would fault
 * on).  Returns 1 when ADDR may then be read.  A walk reaches at most
 * DWU_STACK_REACHES other stacks.  Async-signal-safe. */
#define DWU_STACK_REACHES 2
int dwu_stack_bounds_reach(struct dwu_stack_bounds *b, uint64_t addr);

/* A dwu_memory.read over this process's memory within the bounds ARG (a
 * struct dwu_stack_bounds): what dwu_step and dwu_unwind read through when
 * given no reader. */
int dwu_stack_read_within_bounds(void *arg, uint64_t addr, uint64_t *value);

#endif
