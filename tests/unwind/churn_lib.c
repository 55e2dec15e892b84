/*
 * churn_lib: a small library that signal_harness and thread_churn dlopen,
 * call into and dlclose again and again (tests/unwind/harness.sh).
 *
 * It is built several times, with -DCHURN_ID=N, into libraries of the same
 * size and layout but different contents (and so different build-ids):
 * unloading one and loading another may put the second at the first's
 * address.  churn_work(DEPTH, CB) goes down DEPTH frames of two shapes (a
 * large frame without a frame pointer, and one with a frame pointer and a
 * variable-length array), calls CB (the program's code: malloc, stdio) at
 * the bottom, and returns a value that depends on every frame, so that no
 * call is a tail call.
 */
#include <alloca.h>
#include <string.h>

#ifndef CHURN_ID
#define CHURN_ID 0
#endif

#ifdef __clang__
#define KEEP __attribute__((noinline))
#else
#define KEEP __attribute__((noinline, noclone))
#endif

typedef int (*churn_callback)(int);

int churn_work(int depth, churn_callback cb);
int churn_id(void);

static int churn_down(int depth, churn_callback cb);

/* A 1 KiB frame addressed from rsp. */
KEEP static int big_frame(int depth, churn_callback cb)
{
    volatile char block[1024];
    block[depth % 1024] = (char)(depth + CHURN_ID);
    int r = churn_down(depth - 1, cb);
    return r + block[depth % 1024];
}

/* rbp is the frame pointer (the array's size is known only at run time). */
KEEP static int framed(int depth, churn_callback cb)
{
    char *buf = alloca(32 + (size_t)(depth % 5) * 16);
    memset(buf, depth + CHURN_ID, 32);
    int r = churn_down(depth - 1, cb);
    return r + buf[7];
}

static int churn_down(int depth, churn_callback cb)
{
    if (depth <= 0)
        return cb(CHURN_ID) + 1;
    return depth % 2 ? big_frame(depth, cb) : framed(depth, cb);
}

KEEP int churn_work(int depth, churn_callback cb)
{
    return churn_down(depth, cb) + 1;
}

int churn_id(void)
{
    return CHURN_ID;
}
/* SPDX-License-Identifier: Apache-2.0 */
