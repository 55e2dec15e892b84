/* varargs.c — variadic functions.
 *
 * A function that calls va_start on x86_64 spills the six argument
 * registers (and, when al != 0, xmm0-xmm7 behind a test of al) into a
 * register save area of 176 bytes in its own frame, so even a small
 * variadic function gets a frame with a large fixed size.  Covered:
 * integer-only and mixed integer/double va_arg, va_copy, forwarding a
 * va_list to a v* function, a variadic function that calls itself, and
 * many variadic arguments so that some arrive on the stack.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static volatile unsigned long sink;

__attribute__((noinline)) static long sum_ints(int n, ...)
{
	va_list ap;
	long s = 0;
	va_start(ap, n);
	for (int i = 0; i < n; i++)
		s += va_arg(ap, int);
	va_end(ap);
	return s;
}

__attribute__((noinline)) static double sum_mixed(const char *fmt, ...)
{
	va_list ap;
	double s = 0;
	va_start(ap, fmt);
	for (const char *p = fmt; *p; p++) {
		if (*p == 'i')
			s += va_arg(ap, int);
		else if (*p == 'l')
			s += (double)va_arg(ap, long);
		else if (*p == 'd')
			s += va_arg(ap, double);
	}
	va_end(ap);
	return s;
}

/* va_copy: walk the list twice. */
__attribute__((noinline)) static long twice(int n, ...)
{
	va_list ap, aq;
	long first = 0, second = 0;
	va_start(ap, n);
	va_copy(aq, ap);
	for (int i = 0; i < n; i++)
		first += va_arg(ap, long);
	for (int i = 0; i < n; i++)
		second += 2 * va_arg(aq, long);
	va_end(aq);
	va_end(ap);
	return first + second;
}

/* Forward the list to vsnprintf (a call with the save area live). */
__attribute__((noinline)) static int format(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;
	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	sink += (unsigned long)n;
	return n;
}

/* Variadic recursion: consume one argument per level. */
__attribute__((noinline)) static long count_down(int n, ...)
{
	va_list ap;
	long first, rest;
	if (n == 0)
		return 0;
	va_start(ap, n);
	first = va_arg(ap, long);
	va_end(ap);
	rest = n > 1 ? count_down(n - 1, first - 1, first - 2) : 0;
	return first + rest;
}

int main(void)
{
	char buf[128];
	unsigned ok = 1;

	ok &= sum_ints(3, 1, 2, 3) == 6;
	ok &= sum_ints(12, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12) == 78;
	ok &= sum_mixed("idldidid" "ddddddddd", 1, 0.5, 2L, 0.25, 3, 0.125, 4, 1.0, 1.0,
			1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0) == 10 + 0.875 + 10.0;
	ok &= twice(4, 1L, 2L, 3L, 4L) == 30;
	ok &= format(buf, sizeof buf, "%d-%s-%.2f", 42, "x", 1.5) == 9 &&
	      strcmp(buf, "42-x-1.50") == 0;
	ok &= count_down(4, 10L) == 10 + 9 + 8 + 7;
	if (!ok) {
		fprintf(stderr, "varargs: wrong result\n");
		return 1;
	}
	return 0;
}
/* SPDX-License-Identifier: Apache-2.0 */
