// A call that pushes its stack arguments (clang -O2) inside a try range:
// the unwinder pops DW_CFA_GNU_args_size bytes before the landing pad.
__attribute__((noinline)) long many(long a, long b, long c, long d, long e, long f, long g, long h)
{
    if (a + h == 42)
        throw a;
    return a + b + c + d + e + f + g + h;
}
struct Guard { ~Guard(); };
__attribute__((noinline)) Guard::~Guard() { asm volatile(""); }
long caller(long x)
{
    Guard g;
    return many(x, 1, 2, 3, 4, 5, x * 3, x + 7) + 1;
}
/* SPDX-License-Identifier: Apache-2.0 */
