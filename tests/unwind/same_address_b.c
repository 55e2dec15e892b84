/*
 * same_address_b: library B of same_address.c, the twin of
 * same_address_a.c (see there): the same size and segments, other frames.
 *
 * lib_enter(CB, ARG) calls CB(ARG) from a small frame with a frame pointer
 * (built with -fno-omit-frame-pointer: CFA = rbp + 16 at the call), at
 * nearly the offset of A's call, where A's table says CFA = rsp + 4112.
 * Its read-only data is longer than A's: its .eh_frame_hdr is further on,
 * where A's holds other bytes.
 */
#ifdef __clang__
#define KEEP __attribute__((noinline))
#else
#define KEEP __attribute__((noinline, noclone))
#endif

int lib_enter(int (*cb)(void *), void *arg);

KEEP int lib_enter(int (*cb)(void *), void *arg)
{
    volatile char block[24];
    block[0] = 1;
    int r = cb(arg);
    return r + block[0];
}

const char lib_description[] =
    "B: small frame with a frame pointer, at A's offsets; its read-only data pushes .eh_frame_hdr on";
/* SPDX-License-Identifier: Apache-2.0 */
