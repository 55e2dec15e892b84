/* SPDX-License-Identifier: Apache-2.0 */
/* Reaches glibc's __mpn_addmul_1 and __mpn_submul_1 (sysdeps/x86_64/addmul_1.S)
   through strtod.

   strtod("1e300")  multiplies multi-limb numbers: __mpn_mul -> __mpn_addmul_1
   strtod("1e-300") divides them:                   strtod   -> __mpn_submul_1

   unwind_probe_install() (../common/unwind_probe.h) makes SIGUSR1 walk the
   stack with libgcc's _Unwind_Backtrace (what glibc's backtrace() and many
   profilers use) and say whether the walk got back to main; reproduce.sh
   sends the signal from gdb at chosen instructions.

   Build: cc -O1 -g -rdynamic -I../common -o strtod_mpn strtod_mpn.c -ldl  */
#include "unwind_probe.h" /* first: it defines _GNU_SOURCE */

#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) double parse(const char *s)
{
    double d = strtod(s, NULL);
    __asm__ volatile("" ::: "memory"); /* keep the call a call */
    return d;
}

int main(int argc, char **argv)
{
    unwind_probe_install();

    for (int i = 1; i < argc; i++)
        printf("strtod(\"%s\") = %g\n", argv[i], parse(argv[i]));
    return 0;
}
