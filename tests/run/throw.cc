// SPDX-License-Identifier: Apache-2.0
// tests/run: a C++ exception thrown through frames and caught: the
// unwinder's own frames (libgcc's _Unwind_RaiseException rewrites its
// return to land in the handler) and the cut frames leave no finding.
#include <cstdio>
#include <stdexcept>

__attribute__((noinline)) static int down(int n)
{
    if (n == 0)
        throw std::runtime_error("bottom");
    return down(n - 1) + 1;
}

int main()
{
    try {
        down(4);
    } catch (const std::exception &e) {
        std::printf("caught: %s\n", e.what());
    }
    return 0;
}
