/* Calls glibc's libmvec _ZGVcN4vvv_sincos, the AVX ("c") variant of the
   4-lane vector sincos (sysdeps/x86_64/fpu/multiarch/svml_d_sincos4_core_avx.S),
   the way a compiler calls it for a loop over sincos vectorised for AVX:
   x in ymm0, the 4 sin pointers in xmm1/xmm2, the 4 cos pointers in xmm3/xmm4.
   _ZGVcN4vvv_sincos calls the 2-lane SSE variant twice, which calls sincos.

   SIGUSR1 runs a handler that walks the stack with libgcc's _Unwind_Backtrace
   (what glibc's backtrace() and many profilers use), starting from the
   interrupted instruction, and says whether the walk got back to main.
   reproduce.sh sends the signal from gdb at chosen instructions.

   Build: cc -O1 -g -mavx -rdynamic -o vsincos vsincos.c -lmvec -lm -ldl  */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <immintrin.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <unwind.h>

/* The vector-function ABI of the "c" (AVX) variant of
   void sincos(double x, double *sin, double *cos) with 4 lanes and all
   arguments vectors: a vector of 4 pointers is passed as two 128-bit halves. */
void _ZGVcN4vvv_sincos(__m256d x, __m128i sin01, __m128i sin23,
                       __m128i cos01, __m128i cos23);

struct walk {
    int n;
    int reached_main;
};

static void say(const char *s) { (void)!write(2, s, strlen(s)); }

static _Unwind_Reason_Code step(struct _Unwind_Context *ctx, void *arg)
{
    struct walk *w = arg;
    uintptr_t ip = _Unwind_GetIP(ctx);
    char line[256];
    Dl_info di;
    const char *where = "?";
    uintptr_t off = ip;
    const char *sym = NULL;
    uintptr_t soff = 0;

    if (ip && dladdr((void *)ip, &di) && di.dli_fname) {
        where = strrchr(di.dli_fname, '/') ? strrchr(di.dli_fname, '/') + 1
                                          : di.dli_fname;
        off = ip - (uintptr_t)di.dli_fbase;
        /* Only the program's own symbols: for a library, dladdr knows the
           exported symbols only and would name the wrong function. */
        if (di.dli_sname && di.dli_saddr && !strstr(where, ".so")) {
            sym = di.dli_sname;
            soff = ip - (uintptr_t)di.dli_saddr;
            if (strcmp(sym, "main") == 0)
                w->reached_main = 1;
        }
    }
    if (sym)
        snprintf(line, sizeof line, "  unwind #%d 0x%016lx %s+0x%lx (%s+0x%lx)\n",
                 w->n, (unsigned long)ip, where, (unsigned long)off, sym,
                 (unsigned long)soff);
    else
        snprintf(line, sizeof line, "  unwind #%d 0x%016lx %s+0x%lx\n", w->n,
                 (unsigned long)ip, where, (unsigned long)off);
    say(line);
    if (++w->n >= 24)
        return _URC_END_OF_STACK;
    return _URC_NO_REASON;
}

static void on_sigusr1(int sig)
{
    struct walk w = {0, 0};
    (void)sig;
    say("_Unwind_Backtrace from a SIGUSR1 handler:\n");
    _Unwind_Backtrace(step, &w);
    say(w.reached_main ? "_Unwind_Backtrace: reached main\n"
                       : "_Unwind_Backtrace: did NOT reach main\n");
}

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
    struct sigaction sa;
    double x[4] = {0.5, 1.0, 2.0, 3.0}, s[4], c[4];

    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigusr1;
    sigaction(SIGUSR1, &sa, NULL);

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
