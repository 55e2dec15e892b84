/* SPDX-License-Identifier: Apache-2.0 */
/* Reaches the shared epilogue of OpenSSL's x25519_fe64_sqr / x25519_fe51_sqr
   (crypto/ec/asm/x25519-x86_64.pl, in libcrypto.so.3) with an X25519 key
   derivation.  On a CPU with BMI2 and ADX the radix-2^64 code is used
   (x25519_fe64_mul/sqr, sharing .Lreduce64 and its epilogue); without them,
   or with OPENSSL_ia32cap=":~0x80100", the radix-2^51 code is used
   (x25519_fe51_mul/sqr/mul121666, sharing .Lreduce51 and its epilogue).

   unwind_probe_install() (../common/unwind_probe.h) makes SIGUSR1 walk the
   stack with libgcc's _Unwind_Backtrace (what glibc's backtrace() and many
   profilers use) and say whether the walk got back to main; reproduce.sh
   sends the signal from gdb at chosen instructions.

   Build: cc -O1 -g -rdynamic -I../common -o x25519_derive x25519_derive.c -lcrypto -ldl  */
#include "unwind_probe.h" /* first: it defines _GNU_SOURCE */

#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>

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
    unsigned char secret[32];
    EVP_PKEY *ours, *peer;
    size_t n;

    unwind_probe_install();

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
