/* A program built against the installed dwunwind (pkg-config): its
 * backtrace through three frames must reach main's caller. */
#include <dwunwind.h>
#include <stdio.h>

__attribute__((noinline)) static int inner(void)
{
    void *ips[64];
    return dwu_backtrace(ips, 64);
}

__attribute__((noinline)) static int middle(void)
{
    return inner() + 0;
}

int main(void)
{
    int n = middle();
    printf("%d frames\n", n);
    /* inner's caller, middle, main, and libc's start-up frames. */
    return n >= 4 ? 0 : 1;
}
/* SPDX-License-Identifier: Apache-2.0 */
