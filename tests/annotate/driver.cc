// The C++ side of tests/annotate: calls the chain of hand-written functions
// (frames.s) twice, first with a callback that returns, then with one that
// throws through every function; the exception must be caught here, and the
// values this frame keeps in callee-saved registers across the call must
// survive it (the unwinder restores them from each frame's CFI).
#include <cstdio>
#include <stdexcept>

extern "C" long ann_pushes(long x);

static volatile int throwing;

extern "C" long callback(long x)
{
    if (throwing)
        throw std::runtime_error("thrown by the callback");
    return x + 40;
}

__attribute__((noinline)) static long opaque(long v)
{
    asm volatile("" : "+r"(v));
    return v;
}

int main()
{
    long normal = ann_pushes(2);
    if (normal != 42) {
        std::fprintf(stderr, "driver: the chain returned %ld, not 42\n", normal);
        return 1;
    }
    // Six values live across the throwing call: the compiler keeps them in
    // the six callee-saved registers, which every function of the chain
    // saves and overwrites.
    long a = opaque(1), b = opaque(2), c = opaque(3), d = opaque(4), e = opaque(5), f = opaque(6);
    throwing = 1;
    const char *caught = nullptr;
    try {
        ann_pushes(2);
    } catch (const std::runtime_error &ex) {
        caught = ex.what();
    }
    if (!caught) {
        std::fprintf(stderr, "driver: the exception was not caught\n");
        return 1;
    }
    long sum = opaque(a) + 10 * opaque(b) + 100 * opaque(c) + 1000 * opaque(d) + 10000 * opaque(e) +
               100000 * opaque(f);
    if (sum != 654321) {
        std::fprintf(stderr, "driver: callee-saved registers not restored (%ld, not 654321)\n", sum);
        return 1;
    }
    std::printf("caught: %s; callee-saved registers restored\n", caught);
    return 0;
}
/* SPDX-License-Identifier: Apache-2.0 */
