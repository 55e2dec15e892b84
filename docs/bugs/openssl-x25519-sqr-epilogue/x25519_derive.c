/* Reaches the shared epilogue of OpenSSL's x25519_fe64_sqr / x25519_fe51_sqr
   (crypto/ec/asm/x25519-x86_64.pl, in libcrypto.so.3) with an X25519 key
   derivation.  On a CPU with BMI2 and ADX the radix-2^64 code is used
   (x25519_fe64_mul/sqr, sharing .Lreduce64 and its epilogue); without them,
   or with OPENSSL_ia32cap=":~0x80100", the radix-2^51 code is used
   (x25519_fe51_mul/sqr/mul121666, sharing .Lreduce51 and its epilogue).

   SIGUSR1 runs a handler that walks the stack with libgcc's _Unwind_Backtrace
   (what glibc's backtrace() and many profilers use), starting from the
   interrupted instruction, and says whether the walk got back to main.
   reproduce.sh sends the signal from gdb at chosen instructions.

   Build: cc -O1 -g -rdynamic -o x25519_derive x25519_derive.c -lcrypto -ldl  */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <openssl/evp.h>
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

/* X25519 shared secret of our key and the peer's key. */
__attribute__((noinline)) size_t derive(EVP_PKEY *ours, EVP_PKEY *peer,
                                        unsigned char *out, size_t outlen)
{
    size_t len = outlen;
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new(ours, NULL);

    if (ctx == NULL || EVP_PKEY_derive_init(ctx) <= 0
        || EVP_PKEY_derive_set_peer(ctx, peer) <= 0
        || EVP_PKEY_derive(ctx, out, &len) <= 0)
        len = 0;
    EVP_PKEY_CTX_free(ctx);
    __asm__ volatile("" ::: "memory"); /* keep the call a call */
    return len;
}

int main(void)
{
    struct sigaction sa;
    unsigned char secret[32];
    EVP_PKEY *ours, *peer;
    size_t n;

    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigusr1;
    sigaction(SIGUSR1, &sa, NULL);

    ours = EVP_PKEY_Q_keygen(NULL, NULL, "X25519");
    peer = EVP_PKEY_Q_keygen(NULL, NULL, "X25519");
    if (ours == NULL || peer == NULL) {
        fprintf(stderr, "X25519 key generation failed\n");
        return 1;
    }
    n = derive(ours, peer, secret, sizeof secret);
    printf("X25519 derive: %zu bytes\n", n);
    EVP_PKEY_free(ours);
    EVP_PKEY_free(peer);
    return n == sizeof secret ? 0 : 1;
}
