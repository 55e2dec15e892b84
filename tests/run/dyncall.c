/* SPDX-License-Identifier: Apache-2.0 */
/* tests/run: calls libdynadj.so's dyn_wrong, dyn_right, reg_wrong,
 * drap_wrong, drap_right, slot_escape or with_rbx_zero (argv[1]: wrong,
 * right, reg, drap-wrong, drap-right, escape, zero-slot) with N (argv[2];
 * the DRAP pair, a pointer to N) and prints what it returns; then removes
 * the file argv[3], if given (its library, gone before dwcheck audits
 * it). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

long dyn_wrong(long n);
long dyn_right(long n);
long reg_wrong(long n);
long drap_wrong(long *p);
long drap_right(long *p);
long slot_escape(long n);
long with_rbx_zero(long n);

int main(int argc, char **argv)
{
    if (argc != 3 && argc != 4)
        return 2;
    long n = atol(argv[2]);
    const char *f = argv[1];
    long sum = strcmp(f, "wrong") == 0        ? dyn_wrong(n)
               : strcmp(f, "reg") == 0        ? reg_wrong(n)
               : strcmp(f, "drap-wrong") == 0 ? drap_wrong(&n)
               : strcmp(f, "drap-right") == 0 ? drap_right(&n)
               : strcmp(f, "escape") == 0     ? slot_escape(n)
               : strcmp(f, "zero-slot") == 0  ? with_rbx_zero(n)
                                              : dyn_right(n);
    printf("%s(%ld) = %ld\n", f, n, sum);
    return argc == 4 && unlink(argv[3]) != 0;
}
