/*
 * thread_churn: dwu_backtrace on many threads at once while other threads
 * load and unload libraries, checked walk by walk against libgcc.
 *
 *   thread_churn --libs DIR [--walks N] [--unwinders T] [--churners C]
 *                [--through L] [--round R] [--pause US] [--dwu-init]
 *
 * T threads (16) make about N walks (100000) in all.  A walk goes down a
 * chain of random depth of tests/unwind/frames.c's frame shapes
 * (callee-saved registers, alloca, a realigned frame, a large frame,
 * varargs, a detour through libc's qsort) and, at the bottom (leaf), takes
 * dwu_backtrace and then libgcc's _Unwind_Backtrace from that one frame:
 * from the leaf's caller on, the two lists must be equal.  Each unwinder
 * makes turns of R walks (16): in the program only, and every other turn
 * down a library of its own that it loads for the turn and unloads after
 * (churn_work of DIR/churn_lib(C + t % L).so, L = 16 by default, which
 * calls back into the chain; L = 0: no library).  --dwu-init: the
 * unwinder calls dwu_init after loading it, when the runtime has dwu_init
 * (one that loads the eh_elfs of objects loaded since only then).
 * C threads (4) meanwhile load, call (churn_work, back into this program:
 * malloc) and unload their own library, DIR/churn_libK.so for K < C
 * (churn_lib.c), pausing US microseconds (1000) between two loads, until
 * the unwinders are done.  A walk through an unwinder's library just loaded
 * is what today's runtime sometimes stops short at (a lookup that misses
 * while another thread rebuilds the list of objects).
 *
 * Prints the walks that were identical, truncated (dwunwind's list a strict
 * prefix of libgcc's) and otherwise different, the first few bad ones with
 * their frames (the first missing one named while its library was loaded),
 * and how many objects have an eh_elf; exits 0 when every walk agreed, 1
 * otherwise, 2 on usage or set-up errors.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <getopt.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "frames.h"
#include "libgcc_walk.h"
#include "runtime/dwunwind.h"

#ifdef __clang__
#define KEEP __attribute__((noinline))
#else
#define KEEP __attribute__((noinline, noclone))
#endif
#define MAX_FRAMES 128
#define MAX_THREADS 256
#define MAX_DEPTH 24
#define EXAMPLES 3

/* The runtime's count of its objects and of those with an eh_elf
 * (runtime/objects.h, not the public API): weak, and printed only when the
 * runtime has it. */
size_t dwu_objects_count(size_t *with_eh_elf) __attribute__((weak));
/* A runtime that loads the eh_elfs of objects loaded since only when asked
 * has dwu_init (--dwu-init: the unwinders call it after each dlopen). */
void dwu_init(void) __attribute__((weak));

typedef int (*churn_callback)(int);
typedef int (*churn_work_fn)(int depth, churn_callback cb);

enum outcome { IDENTICAL, TRUNCATED, DIFFERENT, NOUTCOMES };
static const char *const outcome_names[NOUTCOMES] = {"identical", "truncated", "different"};

struct example {
    enum outcome kind;
    int n, ngcc;
    uint64_t dwu[MAX_FRAMES], gcc[MAX_FRAMES];
    int at;              /* the first frame that differs */
    char where[160];     /* libgcc's frame there, named while its object was loaded */
};

struct config {
    int unwinders, churners;
    int through_libs;   /* libraries the unwinders walk through (0: none) */
    int round;          /* walks in a row through a library, or not */
    int pause_us;       /* the churners' pause between two loads */
    int init;           /* dwu_init after an unwinder's dlopen */
};

static atomic_long counts[NOUTCOMES], loads;
static atomic_int walking;   /* unwinders still running */
static pthread_mutex_t examples_lock = PTHREAD_MUTEX_INITIALIZER;
static struct example examples[EXAMPLES];
static int nexamples;

/* ---- the unwinders ---------------------------------------------------------- */

static enum outcome classify(const uint64_t *dwu, int n, const uint64_t *gcc, int ngcc)
{
    int common = n < ngcc ? n : ngcc;
    for (int i = 1; i < common; i++)
        if (dwu[i] != gcc[i])
            return DIFFERENT;
    return n == ngcc ? IDENTICAL : n < ngcc ? TRUNCATED : DIFFERENT;
}

/* Where IP is: its object's file name and symbol. */
static void name_address(uint64_t ip, char *buf, size_t size)
{
    Dl_info d;
    if (!dladdr((void *)(uintptr_t)ip, &d) || !d.dli_fname) {
        snprintf(buf, size, "0x%llx (no object)", (unsigned long long)ip);
        return;
    }
    const char *base = strrchr(d.dli_fname, '/');
    snprintf(buf, size, "0x%llx %s+0x%llx in %s", (unsigned long long)ip, d.dli_sname ? d.dli_sname : "?",
             d.dli_saddr ? (unsigned long long)(ip - (uintptr_t)d.dli_saddr) : 0ULL, base ? base + 1 : d.dli_fname);
}

static void keep_example(enum outcome kind, const uint64_t *dwu, int n, const uint64_t *gcc, int ngcc)
{
    pthread_mutex_lock(&examples_lock);
    if (nexamples < EXAMPLES) {
        struct example *e = &examples[nexamples++];
        e->kind = kind;
        e->n = n;
        e->ngcc = ngcc;
        memcpy(e->dwu, dwu, (size_t)n * sizeof *dwu);
        memcpy(e->gcc, gcc, (size_t)ngcc * sizeof *gcc);
        for (e->at = 1; e->at < n && e->at < ngcc && dwu[e->at] == gcc[e->at]; e->at++)
            ;
        if (e->at < ngcc)
            name_address(gcc[e->at], e->where, sizeof e->where);
        else
            snprintf(e->where, sizeof e->where, "(none: dwunwind's walk is longer)");
    }
    pthread_mutex_unlock(&examples_lock);
}

/* The bottom of a chain: both walks from this frame. */
KEEP static int leaf(void *arg)
{
    (void)arg;
    void *ips[MAX_FRAMES];
    uint64_t dwu[MAX_FRAMES], gcc[MAX_FRAMES];
    int n = dwu_backtrace(ips, MAX_FRAMES);
    int ngcc = libgcc_walk(gcc, MAX_FRAMES);
    for (int i = 0; i < n; i++)
        dwu[i] = (uint64_t)(uintptr_t)ips[i];
    enum outcome kind = classify(dwu, n, gcc, ngcc);
    atomic_fetch_add(&counts[kind], 1);
    if (kind != IDENTICAL)
        keep_example(kind, dwu, n, gcc, ngcc);
    return n;
}

static __thread unsigned seed;

/* Called back from a library's churn_work: a chain, and the walks there. */
static int walk_from_library(int id)
{
    return chain(1 + rand_r(&seed) % 8, leaf, NULL) + id;
}

static int round_walks, turns, pause_us, init_after_dlopen;   /* from the config */

/* The library at PATH loaded, round_walks walks through its frames, unloaded. */
static void round_through_library(const char *path)
{
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    void *sym = h ? dlsym(h, "churn_work") : NULL;
    if (!sym) {
        fprintf(stderr, "thread_churn: %s\n", dlerror());
        exit(2);
    }
    if (init_after_dlopen && dwu_init)
        dwu_init();
    churn_work_fn work;
    memcpy(&work, &sym, sizeof work);
    for (int k = 0; k < round_walks; k++)
        work(1 + (int)(rand_r(&seed) % 12), walk_from_library);
    dlclose(h);
}

/* ARG: the library to walk through, or NULL.  Turns of round_walks walks,
 * every other one through the library. */
static void *unwinder(void *arg)
{
    const char *path = arg;
    seed = (unsigned)(uintptr_t)pthread_self() * 7919u + 1;
    for (int turn = 0; turn < turns; turn++) {
        if (path && turn % 2) {
            round_through_library(path);
        } else {
            for (int k = 0; k < round_walks; k++)
                chain(1 + rand_r(&seed) % MAX_DEPTH, leaf, NULL);
        }
    }
    atomic_fetch_sub(&walking, 1);
    return NULL;
}

/* ---- the churners ------------------------------------------------------------ */

static int on_callback(int id)
{
    char *p = malloc(64 + (size_t)id * 32);
    if (!p)
        abort();
    memset(p, id, 64);
    int r = p[7];
    free(p);
    return r;
}

/* ARG: the library's path.  Loads, calls and unloads it until the walks are
 * done. */
static void *churner(void *arg)
{
    const char *path = arg;
    for (int i = 0; atomic_load(&walking) > 0; i++) {
        void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        void *sym = h ? dlsym(h, "churn_work") : NULL;
        if (!sym) {
            fprintf(stderr, "thread_churn: %s\n", dlerror());
            exit(2);
        }
        churn_work_fn work;
        memcpy(&work, &sym, sizeof work);
        work(2 + i % 8, on_callback);
        dlclose(h);
        atomic_fetch_add(&loads, 1);
        if (pause_us)
            usleep((useconds_t)pause_us);
    }
    return NULL;
}

/* ---- the run ------------------------------------------------------------------- */

static void print_frames(const char *who, const uint64_t *ips, int n)
{
    for (int i = 1; i < n; i++) {
        Dl_info d;
        int known = dladdr((void *)(uintptr_t)ips[i], &d);
        fprintf(stderr, "    %s #%-2d 0x%llx %s+0x%llx (%s)\n", who, i, (unsigned long long)ips[i],
                known && d.dli_sname ? d.dli_sname : "?",
                known && d.dli_saddr ? (unsigned long long)(ips[i] - (uintptr_t)d.dli_saddr) : 0ULL,
                known && d.dli_fname ? d.dli_fname : "?");
    }
}

static void report(long walks, const struct config *cf)
{
    printf("thread_churn: %ld walks on %d threads (half through %d libraries they load and unload) "
           "while %d threads loaded and unloaded libraries %ld times: "
           "%ld identical to libgcc's, %ld truncated, %ld different\n",
           walks, cf->unwinders, cf->through_libs, cf->churners, atomic_load(&loads),
           atomic_load(&counts[IDENTICAL]), atomic_load(&counts[TRUNCATED]), atomic_load(&counts[DIFFERENT]));
    if (dwu_objects_count) {
        size_t with_eh_elf, segments = dwu_objects_count(&with_eh_elf);
        printf("thread_churn: %zu code segments, %zu with an eh_elf\n", segments, with_eh_elf);
    }
    for (int k = 0; k < nexamples; k++) {
        fprintf(stderr, "bad walk %d (%s): dwunwind %d frames, libgcc %d; libgcc's frame %d: %s\n", k + 1,
                outcome_names[examples[k].kind], examples[k].n, examples[k].ngcc, examples[k].at,
                examples[k].where);
        print_frames("dwunwind", examples[k].dwu, examples[k].n);
        print_frames("libgcc  ", examples[k].gcc, examples[k].ngcc);
    }
}

/* DIR/churn_libK.so, absolute (eh_elfs are looked for only for absolute
 * names), in PATH; exits when there is none. */
static void library(const char *abs_dir, int k, char *path, size_t size)
{
    snprintf(path, size, "%s/churn_lib%d.so", abs_dir, k);
    if (access(path, R_OK) != 0) {
        fprintf(stderr, "thread_churn: no %s\n", path);
        exit(2);
    }
}

static long run(const char *dir, long total, const struct config *cf)
{
    static char paths[2 * MAX_THREADS][4096];
    pthread_t threads[2 * MAX_THREADS];
    char *abs_dir = realpath(dir, NULL);
    if (!abs_dir) {
        perror(dir);
        exit(2);
    }
    atomic_store(&walking, cf->unwinders);
    round_walks = cf->round;
    turns = (int)((total + (long)cf->unwinders * cf->round - 1) / ((long)cf->unwinders * cf->round));
    pause_us = cf->pause_us;
    init_after_dlopen = cf->init;
    int n = 0;
    for (int t = 0; t < cf->churners; t++) {
        library(abs_dir, t, paths[n], sizeof paths[n]);
        if (pthread_create(&threads[n], NULL, churner, paths[n]) != 0)
            exit(2);
        n++;
    }
    for (int t = 0; t < cf->unwinders; t++) {
        /* The libraries after the churners' (shared when T > L). */
        if (cf->through_libs)
            library(abs_dir, cf->churners + t % cf->through_libs, paths[n], sizeof paths[n]);
        if (pthread_create(&threads[n], NULL, unwinder, cf->through_libs ? paths[n] : NULL) != 0)
            exit(2);
        n++;
    }
    free(abs_dir);
    for (int t = 0; t < n; t++)
        pthread_join(threads[t], NULL);
    long walks = 0;
    for (int k = 0; k < NOUTCOMES; k++)
        walks += atomic_load(&counts[k]);
    return walks;
}

int main(int argc, char **argv)
{
    static const struct option long_options[] = {
        {"libs", required_argument, NULL, 'l'},      {"walks", required_argument, NULL, 'w'},
        {"unwinders", required_argument, NULL, 'u'}, {"churners", required_argument, NULL, 'c'},
        {"through", required_argument, NULL, 't'},   {"round", required_argument, NULL, 'r'},
        {"pause", required_argument, NULL, 'p'},     {"dwu-init", no_argument, NULL, 'i'},
        {NULL, 0, NULL, 0}};
    const char *dir = NULL;
    long total = 100000;
    struct config cf = {16, 4, 16, 16, 1000, 0};
    int c, bad = 0;
    while ((c = getopt_long(argc, argv, "", long_options, NULL)) != -1) {
        switch (c) {
        case 'l': dir = optarg; break;
        case 'w': total = atol(optarg); break;
        case 'u': cf.unwinders = atoi(optarg); break;
        case 'c': cf.churners = atoi(optarg); break;
        case 't': cf.through_libs = atoi(optarg); break;
        case 'r': cf.round = atoi(optarg); break;
        case 'p': cf.pause_us = atoi(optarg); break;
        case 'i': cf.init = 1; break;
        default: bad = 1;
        }
    }
    if (bad || !dir || optind != argc || total < 1 || cf.unwinders < 1 || cf.unwinders > MAX_THREADS ||
        cf.churners < 0 || cf.churners > MAX_THREADS || cf.through_libs < 0 || cf.round < 1) {
        fprintf(stderr, "usage: thread_churn --libs DIR [--walks N] [--unwinders T] [--churners C] "
                        "[--through L] [--round R] [--pause US] [--dwu-init]\n");
        return 2;
    }
    if (libgcc_walk_init() != 0)
        return 2;
    long walks = run(dir, total, &cf);
    report(walks, &cf);
    return atomic_load(&counts[IDENTICAL]) == walks ? 0 : 1;
}
/* SPDX-License-Identifier: Apache-2.0 */
