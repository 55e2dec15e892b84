/* A small program whose .eh_frame the bad-input tests corrupt. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int depth(int n, char *buf)
{
    char local[64];
    snprintf(local, sizeof local, "%d", n);
    strcat(buf, local);
    return n > 0 ? depth(n - 1, buf) + (int)strlen(local) : 0;
}

long many_registers(long a, long b, long c, long d, long e, long f)
{
    long x = a * b, y = c * d, z = e * f;
    for (long i = 0; i < a; i++) {
        x += y ^ i;
        y += z ^ x;
        z += x ^ y;
        printf("%ld %ld %ld\n", x, y, z);
    }
    return x + y + z;
}

int main(int argc, char **argv)
{
    char *buf = calloc(4096, 1);
    int n = depth(argc + 3, buf);
    printf("%s %d %ld\n", buf, n, many_registers(argc, 2, 3, 4, 5, 6));
    free(buf);
    return argv[0] == NULL;
}
/* SPDX-License-Identifier: Apache-2.0 */
