/* setjmp_longjmp.c — non-local returns.
 *
 * setjmp is a returns_twice call: the compilers keep locals in memory (or
 * force them to the stack) around it and give up some optimisations, and
 * code after the call is reached both by fall-through and by longjmp.
 * Covered: setjmp/longjmp across several frames, a longjmp from a signal
 * handler through sigsetjmp/siglongjmp (the handler runs on a signal frame
 * whose FDE is the libc restorer), and setjmp in a loop.
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

static jmp_buf env;
static sigjmp_buf senv;
static volatile unsigned long sink;

__attribute__((noinline)) static void thrower(int depth, int code)
{
	volatile char pad[64];
	if (depth < 0)
		return;
	memset((void *)pad, depth, sizeof pad);
	sink += pad[depth % 64];
	if (depth == 0)
		longjmp(env, code);
	thrower(depth - 1, code);
	sink++; /* not reached: keeps the call from being a tail call */
}

__attribute__((noinline)) static int catch_longjmp(int code)
{
	volatile int tries = 0;
	int r = setjmp(env);
	if (r == 0) {
		tries++;
		thrower(10, code);
		return -1;
	}
	return r + tries - 1;
}

/* setjmp in a loop: each iteration re-arms the buffer. */
__attribute__((noinline)) static int setjmp_loop(int n)
{
	volatile int count = 0;
	for (volatile int i = 0; i < n; i++) {
		if (setjmp(env) == 0)
			thrower(i % 4, i + 1);
		else
			count++;
	}
	return count;
}

static void on_signal(int sig)
{
	siglongjmp(senv, sig);
}

__attribute__((noinline)) static void raiser(int depth)
{
	volatile int keep = depth;
	if (depth == 0)
		raise(SIGUSR1);
	else
		raiser(depth - 1);
	sink += keep;
}

__attribute__((noinline)) static int catch_signal(void)
{
	struct sigaction sa, old;
	int r;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGUSR1, &sa, &old) != 0)
		return -1;
	r = sigsetjmp(senv, 1);
	if (r == 0) {
		raiser(5);
		r = -2;
	}
	sigaction(SIGUSR1, &old, NULL);
	return r;
}

int main(void)
{
	if (catch_longjmp(7) != 7 || setjmp_loop(12) != 12 ||
	    catch_signal() != SIGUSR1) {
		fprintf(stderr, "setjmp_longjmp: wrong result\n");
		return 1;
	}
	return 0;
}
/* SPDX-License-Identifier: Apache-2.0 */
