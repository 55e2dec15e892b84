/* C functions built without unwind tables (-fno-asynchronous-unwind-tables
 * -fno-unwind-tables): callee-saved registers pushed, alloca, a frame over
 * 4 KiB (a stack probe), a variable-length array with a frame pointer.  The
 * innermost calls back into C++, which throws through all of them. */
#include <alloca.h>
#include <string.h>

typedef void (*callback_fn)(long);

__attribute__((noinline)) long vla_frame(callback_fn cb, long n)
{
    volatile char vla[n + 16];
    memset((char *)vla, 1, (size_t)n + 16);
    cb(n + vla[3]);
    return vla[n];
}

__attribute__((noinline)) long big_frame(callback_fn cb, long n)
{
    volatile char big[6000];
    memset((char *)big, 2, sizeof big);
    long r = vla_frame(cb, n + big[100]);
    return r + big[n % 6000];
}

__attribute__((noinline)) long alloca_frame(callback_fn cb, long n)
{
    char *p = alloca((size_t)n + 32);
    memset(p, 3, (size_t)n + 32);
    long r = big_frame(cb, n + p[5]);
    return r + p[n];
}

__attribute__((noinline)) long saves_registers(callback_fn cb, long a, long b, long c)
{
    long x = a * 3, y = b * 5, z = c * 7;
    long r = alloca_frame(cb, a + b + c);
    return r + x + y + z;
}
/* SPDX-License-Identifier: Apache-2.0 */
