/* SPDX-License-Identifier: Apache-2.0 */
/*
 * checked_math: sums and roundings of sizes and offsets read from files,
 * which fail instead of wrapping (object/elf_rewrite, object/debug_file).
 */
#ifndef DWCHECK_CHECKED_MATH_H
#define DWCHECK_CHECKED_MATH_H

#include <stdint.h>

/* *SUM = A + B; 0 when that overflows. */
static inline int checked_add(uint64_t a, uint64_t b, uint64_t *sum)
{
    return !__builtin_add_overflow(a, b, sum);
}

/* *OUT = A rounded up to ALIGN (a power of two); 0 when that overflows. */
static inline int checked_align(uint64_t a, uint64_t align, uint64_t *out)
{
    if (!checked_add(a, align - 1, out))
        return 0;
    *out &= ~(align - 1);
    return 1;
}

#endif
