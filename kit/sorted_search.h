/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sorted_search: the "last entry at or below a key" search over a sorted
 * array, for every stage (an address's function, row, line, CIE, symbol).
 *
 * The array is the caller's: N entries whose keys, KEY(ARRAY, i), do not
 * decrease with i (equal keys allowed).  sorted_count_at_most returns how
 * many entries have a key <= K: the last such entry is that count less
 * one, and there is none when it is 0.  sorted_count_below, how many have
 * a key < K: the index of the first entry at or past K (N when none is).
 * Each reads O(log N) keys and nothing else.  Header only: with KEY a static function the compiler inlines it.
 */
#ifndef DWCHECK_KIT_SORTED_SEARCH_H
#define DWCHECK_KIT_SORTED_SEARCH_H

#include <stddef.h>
#include <stdint.h>

typedef uint64_t (*sorted_key_fn)(const void *array, size_t i);

static inline size_t sorted_count_at_most(const void *array, size_t n, sorted_key_fn key, uint64_t k)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (key(array, mid) <= k)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static inline size_t sorted_count_below(const void *array, size_t n, sorted_key_fn key, uint64_t k)
{
    return k == 0 ? 0 : sorted_count_at_most(array, n, key, k - 1);
}

#endif
