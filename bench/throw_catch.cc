// SPDX-License-Identifier: Apache-2.0
// A C++ throw caught 20 frames up, timed: what bench/unwind_abi.sh runs
// with libgcc_s's _Unwind_RaiseException and with the drop-in's
// (LD_PRELOAD).  Each of the 20 frames holds an object with a destructor
// (a cleanup for phase 2), as real code does.  Prints
//   throw_catch: 20 frames, N throws, X ns per throw
#include <chrono>
#include <cstdio>
#include <cstdlib>

static volatile int sink;

struct Guard {
    int n;
    ~Guard() { sink = sink + n; }
};

__attribute__((noinline)) static void frame(int n)
{
    Guard g{n};
    if (n == 0)
        throw n;
    frame(n - 1);
    asm volatile("");
}

int main(int argc, char **argv)
{
    const int depth = 20, throws = argc > 1 ? std::atoi(argv[1]) : 20000;
    for (int i = 0; i < throws / 10; i++)   // warm: objects found, rows kept
        try { frame(depth - 2); } catch (int) {}
    auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < throws; i++)
        try {
            frame(depth - 2);   // main's and this loop's frame make 20
        } catch (int) {
        }
    double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
    std::printf("throw_catch: %d frames, %d throws, %.1f ns per throw\n", depth, throws, ns / throws);
    return 0;
}
