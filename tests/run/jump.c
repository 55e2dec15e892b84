/* SPDX-License-Identifier: Apache-2.0 */
/* tests/run: longjmp out of nested calls, cutting their frames. */
#include <setjmp.h>
#include <stdio.h>

static jmp_buf back;

__attribute__((noinline)) static void deepest(int depth)
{
    if (depth == 0)
        longjmp(back, 42);
    deepest(depth - 1);
    __asm__ volatile("" ::: "memory");   /* no tail call */
}

int main(void)
{
    int rounds = 0;
    for (int i = 0; i < 3; i++) {
        int v = setjmp(back);
        if (v == 0)
            deepest(5 + i);
        else
            rounds += v;
    }
    printf("longjmp: %d\n", rounds);
    return 0;
}
