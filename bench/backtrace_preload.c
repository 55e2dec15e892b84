/*
 * backtrace_preload: dwu_backtrace timed as a user calls it, inside programs
 * the benchmark did not write (the corpus), against libunwind's
 * unw_backtrace on the same stacks.
 *
 * Preloaded (LD_PRELOAD) into a program, it wraps memset: at each call the
 * program makes (through its PLT; libc's own calls do not come here), it
 * takes the stack there and times dwu_backtrace (libdwunwind.so, the
 * library a user links) and unw_backtrace, REPS calls each, in alternating
 * order; at exit it prints one line to stderr: the samples, their median
 * depth, and the median nanoseconds per call of each (bench/backtrace.sh
 * reads it).  Both must find the same frames, or the line says so.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define UNW_LOCAL_ONLY
#include <libunwind.h>

#include "runtime/dwunwind.h"

#define MAX_FRAMES 256
#define MAX_SAMPLES 4096
#ifndef REPS
#define REPS 64   /* calls timed per sample; tests/unwind/run.sh builds it with 1 */
#endif
#define WARM_UP 2   /* calls whose walks load the eh_elfs and fill the caches: not counted */

static void *(*real_memset)(void *, int, size_t);
static __thread int inside;
static double dwu_ns[MAX_SAMPLES], unw_ns[MAX_SAMPLES], depth[MAX_SAMPLES];
static int nsamples, mismatches, warmed;

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* Nanoseconds per call of dwu_backtrace (WHICH 0) or unw_backtrace (1)
 * over REPS calls; the frames of the last in IPS, their count in *N. */
__attribute__((noinline)) static double time_walks(int which, void **ips, int *n)
{
    double start = now_ns();
    for (int r = 0; r < REPS; r++)
        *n = which == 0 ? dwu_backtrace(ips, MAX_FRAMES) : unw_backtrace(ips, MAX_FRAMES);
    return (now_ns() - start) / REPS;
}

__attribute__((noinline)) static void sample(void)
{
    void *mine[MAX_FRAMES], *theirs[MAX_FRAMES];
    int nm = 0, nt = 0;
    int first = nsamples & 1;   /* alternate which goes first */
    double a = time_walks(first, first ? theirs : mine, first ? &nt : &nm);
    double b = time_walks(!first, first ? mine : theirs, first ? &nm : &nt);
    dwu_ns[nsamples] = first ? b : a;
    unw_ns[nsamples] = first ? a : b;
    depth[nsamples] = nm;
    /* The first two return addresses are into time_walks and into this
     * function, at the call that timed each: the frames from there on are
     * the program's, the same for both. */
    int same = nm == nt && nm > 2;
    for (int i = 2; same && i < nm; i++)
        same = mine[i] == theirs[i];
    mismatches += !same;
    nsamples++;
}

static void sample_and_forget(void)
{
    sample();
    nsamples--;
    mismatches = 0;
}

void *memset(void *s, int c, size_t n)
{
    if (!real_memset)
        real_memset = (void *(*)(void *, int, size_t))dlsym(RTLD_NEXT, "memset");
    if (!inside && nsamples < MAX_SAMPLES) {
        inside = 1;
        if (warmed++ < WARM_UP)
            sample_and_forget();
        else
            sample();
        inside = 0;
    }
    return real_memset(s, c, n);
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, by_value);
    return n ? v[n / 2] : 0;
}

__attribute__((destructor)) static void report(void)
{
    if (!nsamples)
        return;
    fprintf(stderr, "backtrace_preload: %s: %d samples, %.0f frames, dwu_backtrace %.1f ns, unw_backtrace %.1f ns, "
            "%d mismatches\n", program_invocation_short_name, nsamples, median(depth, nsamples),
            median(dwu_ns, nsamples), median(unw_ns, nsamples), mismatches);
}
/* SPDX-License-Identifier: Apache-2.0 */
