/* SPDX-License-Identifier: Apache-2.0 */
/* Reaches OpenSSL's bn_gather5 (crypto/bn/asm/x86_64-mont5.pl, in
   libcrypto.so.3) through BN_mod_exp_mont_consttime: with a 768-bit modulus
   and a 700-bit exponent the constant-time exponentiation uses 5-bit windows
   and the x86_64 "mont5" code, which picks the first window's power out of
   the table with bn_gather5.  (RSA and DH private-key operations of similar
   sizes go the same way.)

   unwind_probe_install() (../common/unwind_probe.h) makes SIGUSR1 walk the
   stack with libgcc's _Unwind_Backtrace (what glibc's backtrace() and many
   profilers use) and say whether the walk got back to main; reproduce.sh
   sends the signal from gdb at chosen instructions.

   Build: cc -O1 -g -rdynamic -I../common -o bn_modexp bn_modexp.c -lcrypto -ldl  */
#include "unwind_probe.h" /* first: it defines _GNU_SOURCE */

#include <openssl/bn.h>
#include <stdio.h>
#include <stdlib.h>

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
    BN_CTX *ctx = BN_CTX_new();
    BIGNUM *m = BN_new(), *a = BN_new(), *p = BN_new(), *r = BN_new();
    int ok = ctx && m && a && p && r;

    unwind_probe_install();

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
