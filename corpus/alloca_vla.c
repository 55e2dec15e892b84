/* alloca_vla.c — dynamic stack allocation.
 *
 * alloca and variable-length arrays move rsp by an amount known only at run
 * time, so the compilers must describe the CFA through rbp (even with
 * -fomit-frame-pointer).  Covered: a single alloca, a VLA, alloca inside a
 * loop (rsp keeps moving inside the body), a VLA whose scope ends inside a
 * loop (rsp restored each iteration, clang saves/restores rsp explicitly),
 * and a dynamic allocation in a function that also calls out while the
 * area is live.
 */
#include <alloca.h>
#include <stdio.h>
#include <string.h>

/* gcc would otherwise clone these functions for constant arguments and,
 * through IPA-RA, see which registers a callee really clobbers and keep
 * values in caller-saved registers across the call; noipa keeps every call
 * a full ABI call.  clang does neither by default. */
#if defined(__GNUC__) && !defined(__clang__)
#define NOIPA __attribute__((noipa))
#else
#define NOIPA __attribute__((noinline))
#endif

static volatile unsigned sink;
static volatile unsigned opaque_n = 37;

NOIPA static unsigned consume(const unsigned char *p, unsigned n)
{
	unsigned s = 0;
	for (unsigned i = 0; i < n; i++)
		s += p[i];
	sink += s;
	return s;
}

NOIPA static unsigned one_alloca(unsigned n)
{
	unsigned char *p = alloca(n);
	memset(p, 3, n);
	return consume(p, n);
}

NOIPA static unsigned one_vla(unsigned n)
{
	unsigned char v[n];
	for (unsigned i = 0; i < n; i++)
		v[i] = (unsigned char)i;
	return consume(v, n);
}

/* alloca in a loop: the stack grows every iteration, freed at return. */
NOIPA static unsigned alloca_loop(unsigned iters, unsigned n)
{
	unsigned total = 0;
	for (unsigned i = 0; i < iters; i++) {
		unsigned char *p = alloca(n + i);
		memset(p, (int)i, n + i);
		total += consume(p, n + i);
	}
	return total;
}

/* VLA scoped to the loop body: the stack pointer is restored each time. */
NOIPA static unsigned vla_loop(unsigned iters, unsigned n)
{
	unsigned total = 0;
	for (unsigned i = 1; i <= iters; i++) {
		unsigned char v[n * i];
		memset(v, 1, n * i);
		total += consume(v, n * i);
	}
	return total;
}

/* Two VLAs and callee-saved registers live across the calls. */
NOIPA static unsigned two_vlas(unsigned a, unsigned b)
{
	unsigned char x[a], y[b];
	unsigned r1, r2;
	memset(x, 2, a);
	memset(y, 5, b);
	r1 = consume(x, a);
	r2 = consume(y, b);
	return r1 * 3 + r2 + a + b;
}

int main(void)
{
	unsigned n = opaque_n;
	unsigned ok = 1;

	ok &= one_alloca(n) == 3 * n;
	ok &= one_vla(10) == 45;
	ok &= alloca_loop(8, n) > 0;
	ok &= vla_loop(6, n) == n * 21;
	ok &= two_vlas(n, n + 1) == 2 * n * 3 + 5 * (n + 1) + n + n + 1;
	if (!ok) {
		fprintf(stderr, "alloca_vla: wrong result\n");
		return 1;
	}
	return 0;
}
/* SPDX-License-Identifier: Apache-2.0 */
