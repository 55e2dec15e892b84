/*
 * ip_lists: comparing the instruction pointers two unwinders walked, as
 * the unwinding benchmark's live and recorded stacks both do.
 */
#ifndef BENCH_IP_LISTS_H
#define BENCH_IP_LISTS_H

#include <stdint.h>
#include <string.h>

#include "runtime/objects.h"   /* dwu_objects_at: is an IP in loaded code */

#define MAX_FRAMES 512          /* the longest walk the benchmark asks for */

/* How many leading IPs are in loaded code, counting the first that is not.
 * Past a return address that points nowhere (a frame whose CFI does not
 * hold at the interrupted instruction), unwinders legitimately part ways:
 * they are compared up to there, and the first IP after it must be the
 * same. */
static inline int ips_in_code(const uint64_t *ips, int n)
{
    int k = 0;
    while (k < n && dwu_objects_at(ips[k] - (k > 0)))
        k++;
    return k < n ? k + 1 : n;
}

/* A and B agree: the same IPs up to where either leaves loaded code, and as
 * many when both are wholly in code and both walks reached the outermost
 * frame (A_DONE, B_DONE). */
static inline int ips_agree(const uint64_t *a, int na, int a_done, const uint64_t *b, int nb, int b_done)
{
    int la = ips_in_code(a, na), lb = ips_in_code(b, nb);
    if (a_done && b_done && la == na && lb == nb && la != lb)
        return 0;
    return memcmp(a, b, (size_t)(la < lb ? la : lb) * sizeof *a) == 0;
}

#endif
/* SPDX-License-Identifier: Apache-2.0 */
