/* SPDX-License-Identifier: Apache-2.0 */
/* tests/run: calls libdynadj.so's dyn_wrong, dyn_right or reg_wrong
 * (argv[1]: wrong, right, reg) with N (argv[2]) and prints what it returns. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

long dyn_wrong(long n);
long dyn_right(long n);
long reg_wrong(long n);

int main(int argc, char **argv)
{
    if (argc != 3)
        return 2;
    long n = atol(argv[2]);
    long sum = strcmp(argv[1], "wrong") == 0 ? dyn_wrong(n) : strcmp(argv[1], "reg") == 0 ? reg_wrong(n)
                                                                                         : dyn_right(n);
    printf("%s(%ld) = %ld\n", argv[1], n, sum);
    return 0;
}
