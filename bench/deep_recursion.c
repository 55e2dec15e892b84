/*
 * deep_recursion: dwu_backtrace from the bottom of a deep recursion of small
 * functions, the shape the in-process bar names: two functions that call
 * each other DEPTH times, built -O2 -fomit-frame-pointer (bench/backtrace.sh
 * builds it so, against the installed libdwunwind.so, and gives it eh_elfs
 * for itself and libc).  At the bottom, ROUNDS times in alternating order,
 * it times REPS calls each of dwu_backtrace and of libunwind's warm
 * unw_backtrace, and one walk with unw_step over the same stack; it prints
 * the medians in ns per frame, and whether the two backtraces returned the
 * same frames:
 *   deep_recursion: F frames, dwu_backtrace D ns, unw_backtrace U ns, unw_step S ns, M mismatches
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define UNW_LOCAL_ONLY
#include <libunwind.h>

#include "runtime/dwunwind.h"

#define DEPTH 100
#define MAX_FRAMES 256
#define ROUNDS 31
#define REPS 2000

static volatile unsigned long sink;

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, by_value);
    return v[n / 2];
}

/* ns per call of dwu_backtrace (WHICH 0) or unw_backtrace (1), REPS calls;
 * the frames of the last in IPS, their count in *N. */
__attribute__((noinline)) static double time_backtraces(int which, void **ips, int *n)
{
    double start = now_ns();
    for (int r = 0; r < REPS; r++)
        *n = which == 0 ? dwu_backtrace(ips, MAX_FRAMES) : unw_backtrace(ips, MAX_FRAMES);
    return (now_ns() - start) / REPS;
}

/* ns per walk with unw_step to the outermost frame; frames in *N. */
__attribute__((noinline)) static double time_unw_step(int *n)
{
    double start = now_ns();
    unw_context_t uc;
    unw_cursor_t c;
    unw_getcontext(&uc);
    unw_init_local(&c, &uc);
    *n = 1;
    while (unw_step(&c) > 0)
        ++*n;
    return now_ns() - start;
}

__attribute__((noinline)) static unsigned long bottom(void)
{
    static void *mine[MAX_FRAMES], *theirs[MAX_FRAMES];
    static int warmed;
    double dwu[ROUNDS], unw[ROUNDS], step[ROUNDS];
    int nm = 0, nt = 0, ns = 0, mismatches = 0;
    if (!warmed++)   /* the first descent: eh_elfs loaded, caches filled */
        return (unsigned long)(dwu_backtrace(mine, MAX_FRAMES) + unw_backtrace(theirs, MAX_FRAMES));
    for (int k = 0; k < ROUNDS; k++) {
        int first = k & 1;   /* alternate which goes first */
        double a = time_backtraces(first, first ? theirs : mine, first ? &nt : &nm);
        double b = time_backtraces(!first, first ? mine : theirs, first ? &nm : &nt);
        dwu[k] = (first ? b : a) / nm;
        unw[k] = (first ? a : b) / nt;
        step[k] = time_unw_step(&ns) / ns;
        /* The first two return addresses are into time_backtraces and into
         * this function, at the calls that timed each: the frames from
         * there on are the same. */
        int same = nm == nt && nm > 2;
        for (int i = 2; same && i < nm; i++)
            same = mine[i] == theirs[i];
        mismatches += !same;
    }
    printf("deep_recursion: %d frames, dwu_backtrace %.2f ns, unw_backtrace %.2f ns, unw_step %.2f ns, "
           "%d mismatches\n", nm, median(dwu, ROUNDS), median(unw, ROUNDS), median(step, ROUNDS), mismatches);
    return (unsigned long)nm;
}

__attribute__((noinline)) static unsigned long odd(unsigned n);

__attribute__((noinline)) static unsigned long even(unsigned n)
{
    if (n == 0)
        return bottom();
    sink += n;
    return odd(n - 1) + 1;
}

__attribute__((noinline)) static unsigned long odd(unsigned n)
{
    if (n == 0)
        return bottom();
    sink ^= n;
    return even(n - 1) + 1;
}

int main(void)
{
    sink = even(DEPTH);
    sink = even(DEPTH);
    return 0;
}
/* SPDX-License-Identifier: Apache-2.0 */
