/* many_registers.c — callee-saved registers and shrink-wrapping.
 *
 * Functions with more values live across calls than there are caller-saved
 * registers to hold them, so the prologue pushes all of rbx, rbp (when it
 * is not the frame pointer), r12, r13, r14 and r15, and the CFI records a
 * save slot for each; the epilogue pops them in reverse, with a CFA row
 * change after every pop.  The shrink-wrapping candidates have a cheap
 * early-exit path that needs no registers: gcc and clang place the
 * prologue after the test, so the early `ret` runs at CFA = rsp+8 in the
 * middle of a function whose other rows save six registers.  Several
 * exits with separate epilogues (each followed by DW_CFA_remember_state /
 * restore_state) are covered too.
 */
#include <stdio.h>

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

NOIPA static unsigned long opaque(unsigned long v)
{
	sink += v;
	return v + 1;
}

/* Eight values live across eight calls. */
NOIPA static unsigned long all_saved(unsigned long a, unsigned long b,
							 unsigned long c, unsigned long d)
{
	unsigned long v1 = opaque(a), v2 = opaque(b), v3 = opaque(c);
	unsigned long v4 = opaque(d), v5 = opaque(a + b), v6 = opaque(c + d);
	unsigned long v7 = opaque(a ^ d), v8 = opaque(b ^ c);
	return v1 * v2 + v3 * v4 + v5 * v6 + v7 * v8 + v1 + v2 + v3 + v4 + v5 +
	       v6 + v7 + v8;
}

/* Shrink-wrap: the fast path returns before any register is saved. */
NOIPA static unsigned long shrink_wrapped(const unsigned long *p, unsigned n)
{
	unsigned long v1, v2, v3, v4, v5, v6;

	if (p == NULL || n < 6)
		return 0;
	v1 = opaque(p[0]);
	v2 = opaque(p[1]);
	v3 = opaque(p[2]);
	v4 = opaque(p[3]);
	v5 = opaque(p[4]);
	v6 = opaque(p[5]);
	return v1 * v6 + v2 * v5 + v3 * v4 + v1 + v2 + v3 + v4 + v5 + v6 + n;
}

/* Two early exits and two full exits with different values in flight. */
NOIPA static unsigned long multi_exit(unsigned long x, unsigned long y)
{
	unsigned long a, b, c, d, e, f;

	if (x == 0)
		return y;
	if (y == 0)
		return x * 2;
	a = opaque(x);
	b = opaque(y);
	c = opaque(a + b);
	if (c & 1) {
		d = opaque(c);
		return a + b + c + d;
	}
	d = opaque(a * b);
	e = opaque(d);
	f = opaque(e);
	return a + b + c + d + e + f;
}

/* A loop that keeps six values in callee-saved registers. */
NOIPA static unsigned long loop_saved(unsigned n)
{
	unsigned long s1 = 1, s2 = 2, s3 = 3, s4 = 4, s5 = 5;
	for (unsigned i = 0; i < n; i++) {
		s1 = opaque(s1 + s2);
		s2 = s2 * 3 + s3;
		s3 ^= s4 + i;
		s4 += s5;
		s5 = s5 * 7 + i;
	}
	return s1 + s2 + s3 + s4 + s5;
}

/* Recursion where the early exit is the base case. */
NOIPA static unsigned long tree(unsigned depth, unsigned long seed)
{
	unsigned long l, r, m;
	if (depth == 0)
		return seed & 0xff;
	m = opaque(seed);
	l = tree(depth - 1, seed * 31 + 7);
	r = tree(depth - 1, seed * 17 + 3);
	return l + r + (m & 0xf);
}

int main(void)
{
	static const unsigned long vals[6] = { 1, 2, 3, 4, 5, 6 };
	unsigned long acc = 0;

	acc += all_saved(1, 2, 3, 4);
	acc += shrink_wrapped(NULL, 0) + shrink_wrapped(vals, 3) + shrink_wrapped(vals, 6);
	acc += multi_exit(0, 5) + multi_exit(5, 0) + multi_exit(3, 4) + multi_exit(2, 4);
	acc += loop_saved(100);
	acc += tree(10, 1);
	/* opaque(v) = v + 1: v1..v6 = 2..7 in shrink_wrapped. */
	if (shrink_wrapped(vals, 6) != 2 * 7 + 3 * 6 + 4 * 5 + 27 + 6 ||
	    shrink_wrapped(vals, 5) != 0 || multi_exit(0, 9) != 9 ||
	    multi_exit(4, 0) != 8) {
		fprintf(stderr, "many_registers: wrong result\n");
		return 1;
	}
	sink = acc;
	return 0;
}
/* SPDX-License-Identifier: Apache-2.0 */
