// SPDX-License-Identifier: Apache-2.0
// A C++ throw caught DEPTH frames up (1, 5, 20, 100 ...), timed: what
// bench/unwind_abi.sh runs with libgcc_s's _Unwind_RaiseException and
// with the drop-in's (LD_PRELOAD).  Each frame holds an object with a
// destructor (a cleanup for phase 2), as real code does; DEPTH counts the
// catching frame (main's), so that 1 is a throw caught where it is thrown.
//   throw_catch [THROWS [DEPTH]]   (20000, 20)
// prints
//   throw_catch: DEPTH frames, N throws, X ns per throw
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

// DEPTH - 1 frames of frame(), the last throwing; or, for 1, the throw here.
static void throw_from(int depth)
{
    if (depth <= 1)
        throw 0;
    frame(depth - 2);
}

int main(int argc, char **argv)
{
    const int throws = argc > 1 ? std::atoi(argv[1]) : 20000, depth = argc > 2 ? std::atoi(argv[2]) : 20;
    if (throws <= 0 || depth <= 0) {
        std::fprintf(stderr, "usage: throw_catch [THROWS [DEPTH]]\n");
        return 2;
    }
    for (int i = 0; i < throws / 10; i++)   // warm: objects found, rows kept
        try { Guard g{i}; throw_from(depth); } catch (int) {}
    auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < throws; i++)
        try {
            Guard g{i};
            throw_from(depth);
        } catch (int) {
        }
    double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
    std::printf("throw_catch: %d frames, %d throws, %.1f ns per throw\n", depth, throws, ns / throws);
    return 0;
}
