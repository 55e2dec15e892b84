/* aligned_locals.c — stack realignment.
 *
 * The x86_64 ABI only guarantees 16-byte stack alignment, so a local with
 * alignas(32) or alignas(64) makes the compiler realign rsp with
 * `and $-N,%rsp` after setting up rbp; the CFA then has to stay on rbp.
 * When a realigned function also has a VLA (or otherwise cannot address its
 * frame from rbp alone), gcc uses a DRAP register (r10): `lea 8(%rsp),%r10;
 * and $-N,%rsp; push -8(%r10); push %rbp; mov %rsp,%rbp; push %r10`, and
 * describes the CFA with DW_CFA_def_cfa_expression (deref of rbp-8) and
 * rbp with DW_CFA_expression.  Covered: aligned locals in leaf functions
 * (no calls) and in functions that call out, 32- and 64-byte alignment
 * through alignas and __attribute__((aligned)), realignment with a VLA
 * (the DRAP shape), stack arguments in a realigned function, and
 * realignment with all callee-saved registers live across calls.
 */
#include <stdalign.h>
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

static volatile unsigned long sink;

NOIPA static unsigned long consume(const void *p, unsigned long n)
{
	const unsigned char *c = p;
	unsigned long s = 0;
	if (((unsigned long)p & 31) != 0 && n >= 32)
		sink = 0xbad; /* checked by main through the alignment tests */
	for (unsigned long i = 0; i < n; i++)
		s += c[i];
	sink += s;
	return s;
}

/* Leaf: no call, but the address of the aligned array is observed. */
NOIPA static unsigned long leaf_aligned64(unsigned seed)
{
	alignas(64) volatile unsigned char buf[128];
	for (unsigned i = 0; i < sizeof buf; i++)
		buf[i] = (unsigned char)(seed + i);
	return ((unsigned long)buf & 63) + buf[seed % sizeof buf];
}

NOIPA static unsigned long leaf_aligned32(unsigned seed)
{
	volatile unsigned char buf[96] __attribute__((aligned(32)));
	for (unsigned i = 0; i < sizeof buf; i++)
		buf[i] = (unsigned char)(seed ^ i);
	return ((unsigned long)buf & 31) + buf[seed % sizeof buf];
}

/* Calls out with the aligned arrays live. */
NOIPA static unsigned long call_aligned(unsigned seed)
{
	alignas(32) unsigned char a[64];
	unsigned char b[256] __attribute__((aligned(64)));
	memset(a, (int)seed, sizeof a);
	memset(b, (int)seed + 1, sizeof b);
	return consume(a, sizeof a) + consume(b, sizeof b) +
	       ((unsigned long)a & 31) + ((unsigned long)b & 63);
}

/* Realignment plus a VLA: gcc needs a DRAP register. */
NOIPA static unsigned long aligned_with_vla(unsigned n)
{
	alignas(64) unsigned char fixed[64];
	unsigned char vla[n];
	memset(fixed, 1, sizeof fixed);
	memset(vla, 2, n);
	return consume(fixed, sizeof fixed) + consume(vla, n) +
	       ((unsigned long)fixed & 63);
}

/* Realignment in a function that receives arguments on the stack. */
NOIPA static unsigned long aligned_stack_args(unsigned long a, unsigned long b,
								   unsigned long c, unsigned long d,
								   unsigned long e, unsigned long f,
								   unsigned long g, unsigned long h)
{
	alignas(64) unsigned long buf[8] = { a, b, c, d, e, f, g, h };
	return consume(buf, sizeof buf) + g * h + ((unsigned long)buf & 63);
}

/* Calls a function that takes stack arguments, from a realigned frame. */
NOIPA static unsigned long aligned_caller(unsigned seed)
{
	alignas(32) unsigned long loc[4] = { seed, seed + 1, seed + 2, seed + 3 };
	unsigned long r = consume(loc, sizeof loc);
	return r + aligned_stack_args(1, 2, 3, 4, 5, 6, seed, loc[3]);
}

/* All six callee-saved registers live across calls, plus realignment. */
NOIPA static unsigned long aligned_many_regs(unsigned long a, unsigned long b,
								  unsigned long c)
{
	alignas(64) unsigned char buf[64];
	unsigned long v1 = a * 3, v2 = b * 5, v3 = c * 7, v4 = a ^ b, v5 = b ^ c;
	unsigned long v6 = a + b + c;
	memset(buf, (int)a, sizeof buf);
	v1 += consume(buf, sizeof buf);
	v2 += consume(buf, 16);
	v3 += consume(buf, 8);
	v4 += consume(buf, 4);
	v5 += consume(buf, 2);
	v6 += consume(buf, 1);
	return v1 * v2 + v3 * v4 + v5 * v6 + v1 + v2 + v3 + v4 + v5 + v6 +
	       ((unsigned long)buf & 63);
}

/* Vector type with 32-byte alignment, as AVX code would spill. */
typedef double v4df __attribute__((vector_size(32), aligned(32)));

NOIPA static double vector_local(double x)
{
	v4df v = { x, x + 1, x + 2, x + 3 };
	v4df w;
	consume(&v, sizeof v);
	w = v * v;
	return w[0] + w[1] + w[2] + w[3];
}

int main(void)
{
	unsigned long acc = 0;
	unsigned long r;

	sink = 0;
	r = leaf_aligned64(3);
	acc += r;
	if ((r & ~0xfful) != 0)
		goto fail;
	acc += leaf_aligned32(5);
	acc += call_aligned(7);
	acc += aligned_with_vla(50);
	acc += aligned_caller(9);
	acc += aligned_many_regs(1, 2, 3);
	acc += (unsigned long)vector_local(1.0);
	if (sink == 0xbad)
		goto fail;
	if (call_aligned(0) != 64 * 0 + 256 * 1 || aligned_with_vla(10) != 64 + 20 ||
	    vector_local(1.0) != 1 + 4 + 9 + 16)
		goto fail;
	sink = acc;
	return 0;
fail:
	fprintf(stderr, "aligned_locals: wrong result\n");
	return 1;
}
/* SPDX-License-Identifier: Apache-2.0 */
