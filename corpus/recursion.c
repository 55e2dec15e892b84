/* recursion.c — frame shapes of recursive code.
 *
 * Plain self recursion (a frame per level, the return address of each
 * caller live in the middle of the function), mutual recursion between two
 * non-inlined functions, tail recursion (which gcc/clang turn into a loop or
 * a sibling jump at -O2), and deep recursion with a local array per frame so
 * that every level has a real stack frame with stores below the CFA.
 */
#include <stdio.h>
#include <string.h>

static volatile unsigned long sink;

__attribute__((noinline)) static unsigned long fib(unsigned n)
{
	if (n < 2)
		return n;
	return fib(n - 1) + fib(n - 2);
}

__attribute__((noinline)) static int is_odd(unsigned n);

__attribute__((noinline)) static int is_even(unsigned n)
{
	if (n == 0)
		return 1;
	sink += n;
	return is_odd(n - 1);
}

__attribute__((noinline)) static int is_odd(unsigned n)
{
	if (n == 0)
		return 0;
	sink ^= n;
	return is_even(n - 1);
}

/* Tail call to itself: a loop at -O2, a real recursion at -O0. */
__attribute__((noinline)) static unsigned long sum_to(unsigned n, unsigned long acc)
{
	if (n == 0)
		return acc;
	return sum_to(n - 1, acc + n);
}

/* Tail call to a different function: a sibling call (jmp) when optimised. */
__attribute__((noinline)) static unsigned long finish(unsigned long v)
{
	sink = v;
	return v * 3;
}

__attribute__((noinline)) static unsigned long tail_to_other(unsigned n)
{
	unsigned long v = n * 7ul;
	if (n & 1)
		return finish(v + 1);
	return finish(v);
}

/* Deep recursion with a local buffer kept alive across the call. */
__attribute__((noinline)) static unsigned long deep(unsigned depth, unsigned seed)
{
	volatile unsigned char buf[96];
	unsigned long below;

	memset((void *)buf, (int)(seed & 0xff), sizeof buf);
	if (depth == 0)
		return buf[seed % sizeof buf];
	below = deep(depth - 1, seed * 1103515245u + 12345u);
	return below + buf[depth % sizeof buf];
}

/* Recursion through a function pointer the compiler cannot see through. */
static unsigned long (*volatile walk_ptr)(unsigned);

__attribute__((noinline)) static unsigned long walk(unsigned n)
{
	if (n == 0)
		return 1;
	return 2 * walk_ptr(n - 1) + n;
}

int main(void)
{
	unsigned long acc = 0;

	walk_ptr = walk;
	acc += fib(20);
	acc += (unsigned long)is_even(1001) + (unsigned long)is_odd(1001);
	acc += sum_to(10000, 0);
	acc += tail_to_other(5) + tail_to_other(6);
	acc += deep(2000, 42);
	acc += walk(20);

	if (fib(20) != 6765 || is_even(1000) != 1 || is_odd(1000) != 0 ||
	    sum_to(100, 0) != 5050 || walk(3) != 19) {
		fprintf(stderr, "recursion: wrong result\n");
		return 1;
	}
	sink = acc;
	return 0;
}
/* SPDX-License-Identifier: Apache-2.0 */
