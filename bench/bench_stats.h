/*
 * bench_stats: the clock and the median the unwinding benchmark's parts
 * share.
 */
#ifndef BENCH_STATS_H
#define BENCH_STATS_H

#include <stdlib.h>
#include <time.h>

static inline double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

static inline int by_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The median of V[0..N) (sorted in place); 0 when N is 0. */
static inline double median(double *v, size_t n)
{
    if (!n)
        return 0;
    qsort(v, n, sizeof *v, by_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

#endif
/* SPDX-License-Identifier: Apache-2.0 */
