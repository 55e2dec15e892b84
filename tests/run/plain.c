/* SPDX-License-Identifier: Apache-2.0 */
/* tests/run: an ordinary -O2 program: sorting, recursion, stdio. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int by_value(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return x < y ? -1 : x > y;
}

static long fib(long n)
{
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

int main(void)
{
    long v[64];
    for (int i = 0; i < 64; i++)
        v[i] = (i * 7919) % 101;
    qsort(v, 64, sizeof v[0], by_value);
    char text[64];
    snprintf(text, sizeof text, "%ld %ld %ld", v[0], v[63], fib(12));
    printf("%s %zu\n", text, strlen(text));
    return 0;
}
