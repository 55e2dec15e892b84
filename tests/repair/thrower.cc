// main calls the C library, which calls back, which throws: caught in main
// with main's callee-saved registers as they were (kept in registers across
// the call by the compiler, and checked after the catch).
#include <cstdio>
#include <stdexcept>

extern "C" {
typedef void (*callback_fn)(long);
long saves_registers(callback_fn cb, long a, long b, long c);
}

extern "C" __attribute__((noinline)) void innermost(long n)
{
    if (n > 0)
        throw std::runtime_error("through C code without tables");
}

__attribute__((noinline)) static long work(long seed)
{
    // Values live across the call: the compiler keeps them in callee-saved registers.
    long a = seed * 11, b = seed * 13, c = seed * 17, d = seed * 19, e = seed * 23;
    try {
        saves_registers(innermost, seed, seed + 1, seed + 2);
    } catch (const std::exception &ex) {
        std::printf("caught: %s\n", ex.what());
        return a + b + c + d + e;
    }
    return -1;
}

int main(int argc, char **argv)
{
    (void)argv;
    long seed = argc + 6;
    long got = work(seed);
    long want = seed * (11 + 13 + 17 + 19 + 23);
    std::printf("registers %s (%ld, expected %ld)\n", got == want ? "intact" : "CORRUPTED", got, want);
    return got == want ? 0 : 3;
}
/* SPDX-License-Identifier: Apache-2.0 */
