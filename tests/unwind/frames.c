/*
 * frames: a chain of varied frame shapes, used by the unwinding tests and
 * benchmarks.  chain(depth, leaf) calls through DEPTH frames of six shapes
 * (callee-saved pushes, a frame pointer with alloca, a realigned frame, a
 * large frame, varargs, and a detour through libc's qsort) and calls LEAF
 * at the bottom; its result goes back up, so no call is a tail call.
 * Built with -DFRAMES_NO_LIBC (for the frame-pointer walk, which libc's
 * frames would break), the detour is one more register-heavy frame.
 */
#include "frames.h"

#include <alloca.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define KEEP __attribute__((noinline, noclone))

static int step(int depth, leaf_fn leaf, void *arg);

/* Keeps many values live across the call: every callee-saved register. */
KEEP static int many_registers(int depth, leaf_fn leaf, void *arg)
{
    volatile int v[6] = {depth, depth * 3, depth * 5, depth * 7, depth * 11, depth * 13};
    int a = v[0], b = v[1], c = v[2], d = v[3], e = v[4], f = v[5];
    int r = step(depth - 1, leaf, arg);
    return r + a * b + c * d + e * f + (a ^ f);
}

/* A variable-length array: rbp is the frame pointer. */
KEEP static int with_alloca(int depth, leaf_fn leaf, void *arg)
{
    char *buf = alloca(16 + (size_t)(depth % 7) * 32);
    memset(buf, depth, 16);
    int r = step(depth - 1, leaf, arg);
    return r + buf[3];
}

/* An over-aligned local: the stack is realigned. */
KEEP static int realigned(int depth, leaf_fn leaf, void *arg)
{
    _Alignas(64) volatile char block[64];
    block[0] = (char)depth;
    int r = step(depth - 1, leaf, arg);
    return r + block[0];
}

/* A large frame. */
KEEP static int large_frame(int depth, leaf_fn leaf, void *arg)
{
    volatile char big[8192];
    big[depth % 8192] = 1;
    int r = step(depth - 1, leaf, arg);
    return r + big[depth % 8192];
}

KEEP static int varargs(int depth, leaf_fn leaf, void *arg, ...)
{
    va_list ap;
    va_start(ap, arg);
    int extra = va_arg(ap, int);
    va_end(ap);
    int r = step(depth - 1, leaf, arg);
    return r + extra;
}

#ifndef FRAMES_NO_LIBC
/* Through libc: qsort calls the comparator, which goes on down. */
struct through_libc {
    int depth;
    leaf_fn leaf;
    void *arg;
    int result;
    int done;
};

static int compare(const void *a, const void *b)
{
    struct through_libc *t = *(struct through_libc *const *)a;
    if (!t->done) {
        t->done = 1;
        t->result = step(t->depth - 1, t->leaf, t->arg);
    }
    return a < b ? -1 : a > b;
}

KEEP static int via_qsort(int depth, leaf_fn leaf, void *arg)
{
    struct through_libc t = {depth, leaf, arg, 0, 0};
    struct through_libc *items[2] = {&t, &t};
    qsort(items, 2, sizeof items[0], compare);
    return t.result + 1;
}
#endif

static int step(int depth, leaf_fn leaf, void *arg)
{
    if (depth <= 0)
        return leaf(arg);
    switch (depth % 6) {
    case 0: return many_registers(depth, leaf, arg);
    case 1: return with_alloca(depth, leaf, arg);
    case 2: return realigned(depth, leaf, arg);
    case 3: return large_frame(depth, leaf, arg);
    case 4: return varargs(depth, leaf, arg, depth);
#ifdef FRAMES_NO_LIBC
    default: return many_registers(depth, leaf, arg);
#else
    default: return via_qsort(depth, leaf, arg);
#endif
    }
}

#ifdef FRAMES_NO_LIBC
#define chain chain_without_libc
#define chain_recursive chain_recursive_without_libc
#endif

/* Recursions, which dwu_backtrace walks without looking rows up (a frame
 * that returns where the frame two or one before it did has its row): a
 * function calling itself, two calling each other, now and then a third
 * between them (called from where the second is), after which the pattern
 * starts again. */
KEEP static int mutual_even(int depth, leaf_fn leaf, void *arg);

KEEP static int mutual_between(int depth, leaf_fn leaf, void *arg)
{
    volatile int keep = depth;
    int r = mutual_even(depth - 1, leaf, arg);
    return r + keep;
}

/* Keeps every callee-saved register (rbp among them) live: its rows
 * restore rbp. */
KEEP static int mutual_odd(int depth, leaf_fn leaf, void *arg)
{
    volatile int v[6] = {depth, depth * 3, depth * 5, depth * 7, depth * 11, depth * 13};
    int a = v[0], b = v[1], c = v[2], d = v[3], e = v[4], f = v[5];
    int r = depth <= 0 ? step(0, leaf, arg) : mutual_even(depth - 1, leaf, arg);
    return r + a * b + c * d + e * f + (a ^ f);
}

KEEP static int mutual_even(int depth, leaf_fn leaf, void *arg)
{
    if (depth <= 0)
        return step(0, leaf, arg);
    /* One call site for both: the frames that return to it have one row,
     * whichever function was called. */
    int (*volatile next)(int, leaf_fn, void *) = depth % 11 == 0 ? mutual_between : mutual_odd;
    int r = next(depth - 1, leaf, arg);
    return r + 1;
}

KEEP static int self_recursive(int depth, int own, leaf_fn leaf, void *arg)
{
    volatile int keep = depth;
    int r = own > 0 ? self_recursive(depth - 1, own - 1, leaf, arg) : mutual_even(depth - 1, leaf, arg);
    return r + keep;
}

KEEP int chain_recursive(int depth, leaf_fn leaf, void *arg)
{
    return self_recursive(depth, depth / 3, leaf, arg) + 1;
}

KEEP int chain(int depth, leaf_fn leaf, void *arg)
{
    return step(depth, leaf, arg) + 1;
}
/* SPDX-License-Identifier: Apache-2.0 */
