/* large_frames.c — big stack frames, with and without stack probes.
 *
 * corpus.mk builds this program with -fstack-clash-protection, so frames
 * over one page are allocated by probing: gcc emits one `sub $4096,%rsp;
 * or $0,(%rsp)` per page for frames up to a few pages and, above that, a
 * probe loop during which the CFA is described relative to r11; clang
 * emits a similar probe loop.  The NO_PROBE functions opt out again (gcc
 * only; clang has no per-function switch) so the plain `sub $N,%rsp` with
 * a 32-bit immediate is covered as well.  Sizes: just over 4 KiB, over
 * 64 KiB, 256 KiB, and a function with many scalar locals live across
 * calls (a large spill area with callee-saved registers).
 */
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

#if defined(__GNUC__) && !defined(__clang__)
#define NO_PROBE __attribute__((optimize("no-stack-clash-protection")))
#else
#define NO_PROBE
#endif

static volatile unsigned long sink;

NOIPA static unsigned long touch(unsigned char *p, unsigned long n)
{
	unsigned long s = 0;
	p[0] = 1;
	p[n / 2] = 2;
	p[n - 1] = 3;
	for (unsigned long i = 0; i < n; i += 512)
		s += p[i];
	sink += s;
	return s + p[n - 1];
}

NOIPA static unsigned long frame_5k(unsigned seed)
{
	unsigned char buf[5000];
	memset(buf, (int)(seed & 0x7f), sizeof buf);
	return touch(buf, sizeof buf) + buf[seed % sizeof buf];
}

NOIPA static unsigned long frame_70k(unsigned seed)
{
	unsigned char buf[70000];
	memset(buf, (int)(seed & 0x7f), sizeof buf);
	return touch(buf, sizeof buf) + buf[seed % sizeof buf];
}

NOIPA static unsigned long frame_256k(unsigned seed)
{
	unsigned char buf[256 * 1024 + 24];
	memset(buf, (int)(seed & 0x7f), sizeof buf);
	return touch(buf, sizeof buf) + buf[seed % sizeof buf];
}

NO_PROBE NOIPA static unsigned long frame_5k_noprobe(unsigned seed)
{
	unsigned char buf[5000];
	memset(buf, (int)(seed & 0x7f), sizeof buf);
	return touch(buf, sizeof buf) + buf[seed % sizeof buf];
}

NO_PROBE NOIPA static unsigned long frame_70k_noprobe(unsigned seed)
{
	unsigned char buf[70000];
	memset(buf, (int)(seed & 0x7f), sizeof buf);
	return touch(buf, sizeof buf) + buf[seed % sizeof buf];
}

/* Big frame plus callee-saved registers holding values across the calls. */
NOIPA static unsigned long frame_70k_saved(unsigned a, unsigned b, unsigned c)
{
	unsigned char buf1[40000], buf2[40000];
	unsigned long x = a * 3ul, y = b * 5ul, z = c * 7ul;
	memset(buf1, 1, sizeof buf1);
	memset(buf2, 2, sizeof buf2);
	x += touch(buf1, sizeof buf1);
	y += touch(buf2, sizeof buf2);
	z += touch(buf1 + 100, 1000);
	return x + y + z + a + b + c;
}

/* Many scalar locals whose addresses escape: all on the stack. */
NOIPA static unsigned long many_locals(unsigned s)
{
	volatile unsigned long l00 = s + 0, l01 = s + 1, l02 = s + 2, l03 = s + 3;
	volatile unsigned long l04 = s + 4, l05 = s + 5, l06 = s + 6, l07 = s + 7;
	volatile unsigned long l08 = s + 8, l09 = s + 9, l10 = s + 10, l11 = s + 11;
	volatile unsigned long l12 = s + 12, l13 = s + 13, l14 = s + 14, l15 = s + 15;
	volatile unsigned long l16 = s + 16, l17 = s + 17, l18 = s + 18, l19 = s + 19;
	volatile unsigned long l20 = s + 20, l21 = s + 21, l22 = s + 22, l23 = s + 23;
	volatile unsigned long l24 = s + 24, l25 = s + 25, l26 = s + 26, l27 = s + 27;
	volatile unsigned long l28 = s + 28, l29 = s + 29, l30 = s + 30, l31 = s + 31;
	unsigned char pad[600];
	unsigned long t;

	memset(pad, 9, sizeof pad);
	t = touch(pad, sizeof pad);
	return t + l00 + l01 + l02 + l03 + l04 + l05 + l06 + l07 + l08 + l09 +
	       l10 + l11 + l12 + l13 + l14 + l15 + l16 + l17 + l18 + l19 +
	       l20 + l21 + l22 + l23 + l24 + l25 + l26 + l27 + l28 + l29 +
	       l30 + l31;
}

/* Deep chain of big frames: about 1.5 MiB of stack in total. */
NOIPA static unsigned long big_chain(unsigned depth)
{
	unsigned char buf[20000];
	unsigned long r;
	memset(buf, (int)depth, sizeof buf);
	r = depth ? big_chain(depth - 1) : 0;
	return r + touch(buf, sizeof buf);
}

int main(void)
{
	unsigned long acc = 0;

	acc += frame_5k(3) + frame_70k(4) + frame_256k(5);
	acc += frame_5k_noprobe(6) + frame_70k_noprobe(7);
	acc += frame_70k_saved(1, 2, 3);
	acc += big_chain(75);
	/* touch() sees p[0] = 1, p[512] = seed byte, returns that + 3. */
	if (many_locals(1) != (1 + 9 + 3) + 32 + 496 ||
	    frame_5k(0) != (1 + 0 + 3) + 1) {
		fprintf(stderr, "large_frames: wrong result\n");
		return 1;
	}
	sink = acc;
	return 0;
}
/* SPDX-License-Identifier: Apache-2.0 */
