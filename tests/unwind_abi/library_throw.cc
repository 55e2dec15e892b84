// SPDX-License-Identifier: Apache-2.0
// A library that exceptions.cc dlopens: library_throw(N) throws from N
// frames down, a destructor in each frame (their lines show they ran).
#include <cstdio>
#include <stdexcept>

struct LibraryGuard {
    int n;
    ~LibraryGuard() { std::printf("~LibraryGuard %d\n", n); }
};

__attribute__((noinline)) static void down(int n)
{
    LibraryGuard guard{n};
    if (n == 0)
        throw std::runtime_error("thrown in the dlopen'ed library");
    down(n - 1);
    asm volatile("");
}

extern "C" void library_throw(int n)
{
    down(n);
}
