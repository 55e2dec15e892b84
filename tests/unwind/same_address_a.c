/*
 * same_address_a: library A of same_address.c, the twin of
 * same_address_b.c: the same size and segments, so that the loader puts B
 * where A was once A is unloaded, but other frames at the same offsets.
 *
 * lib_enter(CB, ARG) calls CB(ARG) from a 4 KiB frame addressed from rsp
 * (no frame pointer: CFA = rsp + 4112 at the call).  It is the first
 * function of the library (built with -nostartfiles), as B's is.
 */
#ifdef __clang__
#define KEEP __attribute__((noinline))
#else
#define KEEP __attribute__((noinline, noclone))
#endif

int lib_enter(int (*cb)(void *), void *arg);

KEEP int lib_enter(int (*cb)(void *), void *arg)
{
    volatile char block[4096];
    block[0] = 1;
    int r = cb(arg);
    return r + block[0];
}

/* Read-only data before .eh_frame_hdr: A's is shorter than B's, so that
 * their .eh_frame_hdr are at different offsets. */
const char lib_description[] = "A: 4 KiB frame from rsp";
/* SPDX-License-Identifier: Apache-2.0 */
