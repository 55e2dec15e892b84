/* noreturn.c — calls that never return, and cold code.
 *
 * A call to a noreturn function ends its basic block: the compilers put no
 * epilogue after it, so the next instruction (if any) belongs to another
 * block with a different CFA row, and the return address of the call may
 * point past the end of the function.  Covered: abort, exit,
 * __builtin_unreachable, a user-defined noreturn function called in the
 * middle of functions with frames, and error paths marked unlikely with
 * __builtin_expect / __attribute__((cold)) so that gcc -O2 moves them to
 * separate `.cold` partitions (foo.cold with its own FDE).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile unsigned long sink;
static volatile int never; /* always 0, but the compiler cannot know */
static volatile unsigned long three = 3, four = 4; /* opaque arguments */

__attribute__((noreturn, noinline)) static void die(const char *what, int code)
{
	fprintf(stderr, "noreturn: %s\n", what);
	exit(code);
}

__attribute__((noreturn, noinline, cold)) static void fatal_cold(unsigned long v)
{
	fprintf(stderr, "noreturn: fatal %lu\n", v);
	abort();
}

/* abort in the middle: the code after the branch is a separate block. */
__attribute__((noinline)) static unsigned long checked_div(unsigned long a, unsigned long b)
{
	if (b == 0)
		abort();
	return a / b;
}

/* User noreturn call with callee-saved registers live on the other path. */
__attribute__((noinline)) static unsigned long sum_checked(const unsigned *v, unsigned n)
{
	unsigned long s = 0;
	for (unsigned i = 0; i < n; i++) {
		if (v[i] > 1000000)
			die("value too large", 3);
		s += v[i];
		sink = s;
	}
	return s;
}

/* __builtin_unreachable after a switch: no default epilogue. */
__attribute__((noinline)) static unsigned long pick(unsigned k, unsigned long x)
{
	switch (k & 3) {
	case 0: return x + 1;
	case 1: return x * 2;
	case 2: return x ^ 7;
	case 3: return x - 1;
	}
	__builtin_unreachable();
}

/* Unlikely error paths that gcc moves to with_cold_paths.cold. */
__attribute__((noinline)) static unsigned long with_cold_paths(unsigned long x, unsigned long y)
{
	char buf[128];
	unsigned long r;

	if (__builtin_expect(x == 0xdeadbeef, 0)) {
		snprintf(buf, sizeof buf, "bad x %lu %lu", x, y);
		sink += strlen(buf);
		fatal_cold(x);
	}
	r = x * y + 1;
	if (__builtin_expect(never != 0, 0)) {
		snprintf(buf, sizeof buf, "never %lu", r);
		puts(buf);
		die(buf, 4);
	}
	if (__builtin_expect(r == 12345, 0))
		exit(5);
	return r;
}

/* A frame with locals where the cold path calls exit mid-function. */
__attribute__((noinline)) static unsigned long mid_exit(unsigned n)
{
	unsigned long acc[8];
	for (unsigned i = 0; i < 8; i++)
		acc[i] = n * i;
	if (__builtin_expect(never, 0))
		exit(6);
	sink = acc[n % 8];
	for (unsigned i = 1; i < 8; i++)
		acc[0] += acc[i];
	if (acc[0] == 0 && n != 0)
		die("impossible", 7);
	return acc[0];
}

/* The noreturn call is the last instruction of the function. */
__attribute__((noinline)) static void ends_in_noreturn(unsigned n)
{
	if (n < 100) {
		sink += n;
		return;
	}
	die("ends_in_noreturn", 8);
}

int main(void)
{
	static const unsigned vals[] = { 1, 2, 3, 4, 5 };
	/* Opaque arguments, so that no call is specialised on constants and
	 * the error tests stay in the code. */
	static volatile unsigned long v100 = 100, v7 = 7, v42 = 42;
	static volatile unsigned v5 = 5, v1 = 1;
	unsigned long acc = 0;

	acc += checked_div(v100, v7);
	acc += sum_checked(vals, v5);
	for (unsigned k = 0; k < 8; k++)
		acc += pick(k, v7);
	acc += with_cold_paths(three, four);
	acc += mid_exit(v5);
	ends_in_noreturn((unsigned)v42);
	if (checked_div(v100, v7) != 14 || sum_checked(vals, v5) != 15 ||
	    with_cold_paths(three, four) != 13 || mid_exit(v1) != 28) {
		fprintf(stderr, "noreturn: wrong result\n");
		return 1;
	}
	sink = acc;
	return 0;
}
/* SPDX-License-Identifier: Apache-2.0 */
