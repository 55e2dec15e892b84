/* Reaches OpenSSL's bn_gather5 (crypto/bn/asm/x86_64-mont5.pl, in
   libcrypto.so.3) through BN_mod_exp_mont_consttime: with a 768-bit modulus
   and a 700-bit exponent the constant-time exponentiation uses 5-bit windows
   and the x86_64 "mont5" code, which picks the first window's power out of
   the table with bn_gather5.  (RSA and DH private-key operations of similar
   sizes go the same way.)

   SIGUSR1 runs a handler that walks the stack with libgcc's _Unwind_Backtrace
   (what glibc's backtrace() and many profilers use), starting from the
   interrupted instruction, and says whether the walk got back to main.
   reproduce.sh sends the signal from gdb at chosen instructions.

   Build: cc -O1 -g -rdynamic -o bn_modexp bn_modexp.c -lcrypto -ldl  */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <openssl/bn.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <unwind.h>

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

/* r = a^p mod m, in constant time */
__attribute__((noinline)) int modexp(BIGNUM *r, const BIGNUM *a,
                                     const BIGNUM *p, const BIGNUM *m,
                                     BN_CTX *ctx)
{
    int ok = BN_mod_exp_mont_consttime(r, a, p, m, ctx, NULL);
    __asm__ volatile("" ::: "memory"); /* keep the call a call */
    return ok;
}

int main(void)
{
    struct sigaction sa;
    BN_CTX *ctx = BN_CTX_new();
    BIGNUM *m = BN_new(), *a = BN_new(), *p = BN_new(), *r = BN_new();
    int ok = ctx && m && a && p && r;

    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigusr1;
    sigaction(SIGUSR1, &sa, NULL);

    /* m = 2^767 + 0x1234567 (odd, 768 bits), p = 2^699 + 12345 (700 bits) */
    ok = ok && BN_set_bit(m, 767) && BN_add_word(m, 0x1234567)
         && BN_set_bit(p, 699) && BN_add_word(p, 12345)
         && BN_set_word(a, 0x987654321);
    /* twice: reproduce.sh looks at the first call and signals the second */
    for (int i = 0; ok && i < 2; i++) {
        ok = modexp(r, a, p, m, ctx);
        if (ok) {
            char *hex = BN_bn2hex(r);
            printf("a^p mod m = %.16s... (%d bits)\n", hex ? hex : "?",
                   BN_num_bits(r));
            OPENSSL_free(hex);
        }
    }
    BN_free(m);
    BN_free(a);
    BN_free(p);
    BN_free(r);
    BN_CTX_free(ctx);
    if (!ok)
        fprintf(stderr, "BN_mod_exp_mont_consttime failed\n");
    return ok ? 0 : 1;
}
