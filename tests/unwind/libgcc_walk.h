/*
 * libgcc_walk: libgcc's unwinder as a reference, for the unwinding tests
 * and benchmark.
 *
 * _Unwind_Backtrace and _Unwind_GetIP are taken from libgcc_s itself with
 * dlsym: libunwind exports the same names, and whichever the dynamic linker
 * binds first would otherwise stand in for libgcc.
 */
#ifndef DWUNWIND_TEST_LIBGCC_WALK_H
#define DWUNWIND_TEST_LIBGCC_WALK_H

#include <stdint.h>

/* Find libgcc's functions; 0, or -1 after printing why. */
int libgcc_walk_init(void);

/* The IPs of the calling thread's stack by _Unwind_Backtrace, from the
 * caller of libgcc_walk on, at most MAX.  libgcc reports the outermost
 * frame's undefined return address as 0; that is not listed. */
int libgcc_walk(uint64_t *ips, int max);

/* An address inside libgcc_s (to tell samples that interrupt it). */
uint64_t libgcc_address(void);

#endif
/* SPDX-License-Identifier: Apache-2.0 */
