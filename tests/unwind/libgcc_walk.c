/*
 * libgcc_walk: libgcc's unwinder as a reference (see libgcc_walk.h).
 */
#define _GNU_SOURCE
#include "libgcc_walk.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <unwind.h>

static _Unwind_Reason_Code (*gcc_backtrace)(_Unwind_Trace_Fn, void *);
static _Unwind_Ptr (*gcc_get_ip)(struct _Unwind_Context *);

int libgcc_walk_init(void)
{
    void *h = dlopen("libgcc_s.so.1", RTLD_NOW);
    void *bt = h ? dlsym(h, "_Unwind_Backtrace") : NULL, *ip = h ? dlsym(h, "_Unwind_GetIP") : NULL;
    if (!bt || !ip) {
        fprintf(stderr, "cannot find libgcc's unwinder: %s\n", dlerror());
        return -1;
    }
    memcpy(&gcc_backtrace, &bt, sizeof bt);
    memcpy(&gcc_get_ip, &ip, sizeof ip);
    return 0;
}

struct walk {
    uint64_t *ips;
    int n, max;
    int skip;      /* libgcc_walk's own frame */
};

static _Unwind_Reason_Code frame(struct _Unwind_Context *ctx, void *arg)
{
    struct walk *w = arg;
    if (w->n == w->max)
        return _URC_END_OF_STACK;
    uint64_t ip = gcc_get_ip(ctx);
    if (ip == 0)
        return _URC_END_OF_STACK;
    if (w->skip) {
        w->skip = 0;
        return _URC_NO_REASON;
    }
    w->ips[w->n++] = ip;
    return _URC_NO_REASON;
}

__attribute__((noinline)) int libgcc_walk(uint64_t *ips, int max)
{
    struct walk w = {ips, 0, max, 1};
    gcc_backtrace(frame, &w);
    return w.n;
}

uint64_t libgcc_address(void)
{
    return (uint64_t)(uintptr_t)gcc_get_ip;
}
/* SPDX-License-Identifier: Apache-2.0 */
