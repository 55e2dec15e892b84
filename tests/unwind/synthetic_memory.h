/*
 * synthetic_memory: the memory the compiled-table tests unwind over.
 *
 * Each 8-byte word is a hash of its address (mix), and one read in eight
 * fails, as a read outside a stack copy does: two unwinders given the
 * same registers read the same values, and meet the same failures.
 */
#ifndef DWUNWIND_TEST_SYNTHETIC_MEMORY_H
#define DWUNWIND_TEST_SYNTHETIC_MEMORY_H

#include <stdint.h>

/* A 64-bit hash (splitmix64's finaliser). */
static inline uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* A dwu_memory reader: the word at ADDR, or -1 for one address in eight. */
static inline int synthetic_read(void *arg, uint64_t addr, uint64_t *value)
{
    (void)arg;
    *value = mix(addr);
    return (mix(addr ^ 0x5a5a) & 7) == 0 ? -1 : 0;
}

#endif
/* SPDX-License-Identifier: Apache-2.0 */
