/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libunwind_user: unw_step walks as a libunwind user writes them — the
 * context taken, a cursor started on it, and each frame's ip and sp read
 * after each step — from the bottom of two stacks of tests/unwind/frames.c:
 * a chain (DEPTH calls of varied shapes, and libc's qsort) and a recursion
 * (RECURSION frames of small functions calling themselves and each other).
 * Built against Debian's <libunwind.h> with -lunwind: the same binary runs
 * on Debian's libunwind.so.8 or on the drop-in (bench/libunwind_dropin.sh
 * sets LD_LIBRARY_PATH).  ROUNDS rounds of REPS walks after one to warm
 * up; prints the median round's ns per frame, for each stack:
 *   libunwind_user: STACK: F frames, unw_step N ns per frame
 */
#define _GNU_SOURCE
#define UNW_LOCAL_ONLY
#include <libunwind.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench/bench_stats.h"
#include "tests/unwind/frames.h"

#define DEPTH 34
#define RECURSION 40
#define ROUNDS 15
#define REPS 200

static volatile unw_word_t sink;

/* One walk: the frames it went through. */
static __attribute__((noinline)) int walk(void)
{
    unw_context_t uc;
    unw_cursor_t c;
    unw_word_t ip, sp;
    int n = 1;
    unw_getcontext(&uc);
    unw_init_local(&c, &uc);
    while (unw_step(&c) > 0) {
        unw_get_reg(&c, UNW_REG_IP, &ip);
        unw_get_reg(&c, UNW_REG_SP, &sp);
        sink += ip ^ sp;
        n++;
    }
    return n;
}

static int bottom(void *arg)
{
    double per_frame[ROUNDS];
    int frames = walk();
    for (int r = 0; r < ROUNDS; r++) {
        double start = now_ns();
        for (int i = 0; i < REPS; i++)
            frames = walk();
        per_frame[r] = (now_ns() - start) / REPS / frames;
    }
    printf("libunwind_user: %s: %d frames, unw_step %.2f ns per frame\n", (const char *)arg, frames,
           median(per_frame, ROUNDS));
    return 1;
}

int main(void)
{
    return chain(DEPTH, bottom, "chain") > 0 && chain_recursive(RECURSION, bottom, "recursion") > 0 ? 0 : 1;
}
