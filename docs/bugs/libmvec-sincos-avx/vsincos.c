/* SPDX-License-Identifier: Apache-2.0 */
/* Calls glibc's libmvec _ZGVcN4vvv_sincos, the AVX ("c") variant of the
   4-lane vector sincos (sysdeps/x86_64/fpu/multiarch/svml_d_sincos4_core_avx.S),
   the way a compiler calls it for a loop over sincos vectorised for AVX:
   x in ymm0, the 4 sin pointers in xmm1/xmm2, the 4 cos pointers in xmm3/xmm4.
   _ZGVcN4vvv_sincos calls the 2-lane SSE variant twice, which calls sincos.

   unwind_probe_install() (../common/unwind_probe.h) makes SIGUSR1 walk the
   stack with libgcc's _Unwind_Backtrace (what glibc's backtrace() and many
   profilers use) and say whether the walk got back to main; reproduce.sh
   sends the signal from gdb at chosen instructions.

   Build: cc -O1 -g -mavx -rdynamic -I../common -o vsincos vsincos.c -lmvec -lm -ldl  */
#include "unwind_probe.h" /* first: it defines _GNU_SOURCE */

#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* The vector-function ABI of the "c" (AVX) variant of
   void sincos(double x, double *sin, double *cos) with 4 lanes and all
   arguments vectors: a vector of 4 pointers is passed as two 128-bit halves. */
void _ZGVcN4vvv_sincos(__m256d x, __m128i sin01, __m128i sin23,
                       __m128i cos01, __m128i cos23);

static __m128i two_pointers(double *p0, double *p1)
{
    return _mm_set_epi64x((long long)(uintptr_t)p1, (long long)(uintptr_t)p0);
}

/* s[i] = sin(x[i]), c[i] = cos(x[i]) for i = 0..3, with one vector call */
__attribute__((noinline)) void sincos4(const double *x, double *s, double *c)
{
    _ZGVcN4vvv_sincos(_mm256_loadu_pd(x), two_pointers(&s[0], &s[1]),
                      two_pointers(&s[2], &s[3]), two_pointers(&c[0], &c[1]),
                      two_pointers(&c[2], &c[3]));
    __asm__ volatile("" ::: "memory"); /* keep the call a call */
}

int main(void)
{
    double x[4] = {0.5, 1.0, 2.0, 3.0}, s[4], c[4];

    unwind_probe_install();

    /* three times: reproduce.sh looks at the first call and raises signals
       in the other two */
    for (int round = 0; round < 3; round++) {
        sincos4(x, s, c);
        if (round == 0)
            for (int i = 0; i < 4; i++)
                printf("sincos(%.1f) = %.6f %.6f\n", x[i], s[i], c[i]);
    }
    return 0;
}
