/*
 * same_address: a library unloaded, and another loaded at its address,
 * must be unwound with its own table, not with the first one's.
 *
 *   same_address --libs DIR [--attempts N]
 *
 * DIR holds same_address_a.so and same_address_b.so (same_address_a.c and
 * _b.c): twins of the same size and segments whose lib_enter(CB, ARG) calls
 * CB from frames of different shapes at the same offsets (A: 4 KiB from
 * rsp; B: a frame pointer), and whose .eh_frame_hdr are at different
 * offsets.  After a first walk (the objects are listed), the program loads
 * A (and calls dwu_init, when the runtime has it), walks through A's
 * lib_enter (A is listed, with its eh_elf if it has one), unloads A and
 * loads B (no dwu_init).  When dlinfo says B's base is A's, it walks through
 * B's lib_enter; otherwise it unloads B and tries again, up to N times (5).
 * Each walk is dwu_backtrace and libgcc's _Unwind_Backtrace taken one after
 * the other in one frame (walk_here, called by lib_enter): their IPs must
 * be equal from walk_here's caller on.  The program also checks that the
 * trap is set: that B's call returns inside A's lib_enter (dladdr1's symbol
 * of A), where A's rows say another frame.
 *
 * Prints what it does as it goes (a crash is then placed), and how many of
 * the objects listed after A's walk have an eh_elf; exits 0 when both walks
 * agree with libgcc, 1 when one differs, 3 when B was never loaded at A's
 * address or the layout sets no trap, 2 on usage or set-up errors.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <getopt.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libgcc_walk.h"
#include "runtime/dwunwind.h"

#ifdef __clang__
#define KEEP __attribute__((noinline))
#else
#define KEEP __attribute__((noinline, noclone))
#endif
#define MAX_FRAMES 64

/* The runtime's count of its objects and of those with an eh_elf
 * (runtime/objects.h, not the public API): weak, and printed only when the
 * runtime has it. */
size_t dwu_objects_count(size_t *with_eh_elf) __attribute__((weak));
/* A runtime that loads the eh_elfs of objects loaded since only when asked
 * has dwu_init: called after A is loaded (A's walk then uses A's eh_elf),
 * never after B. */
void dwu_init(void) __attribute__((weak));

typedef int (*enter_fn)(int (*cb)(void *), void *arg);

struct walk {
    void *dwu[MAX_FRAMES];
    uint64_t gcc[MAX_FRAMES];
    int ndwu, ngcc;
};

struct lib {
    const char *name;               /* "A" or "B" */
    char path[4096];
    void *handle;
    uintptr_t base;                 /* dlinfo's l_addr */
    enter_fn enter;
    uintptr_t enter_lo, enter_hi;   /* lib_enter's offsets in the library */
    const char *description;
};

/* Both walks from one frame: their lists differ only in frame 0 (the
 * return addresses of the two calls). */
KEEP static int walk_here(void *arg)
{
    struct walk *w = arg;
    w->ndwu = dwu_backtrace(w->dwu, MAX_FRAMES);
    w->ngcc = libgcc_walk(w->gcc, MAX_FRAMES);
    return w->ndwu;
}

static void print_frame(const char *who, int i, uint64_t ip)
{
    Dl_info d;
    int known = dladdr((void *)(uintptr_t)ip, &d);
    printf("    %s #%-2d 0x%llx %s+0x%llx (%s)\n", who, i, (unsigned long long)ip,
           known && d.dli_sname ? d.dli_sname : "?",
           known && d.dli_saddr ? (unsigned long long)(ip - (uintptr_t)d.dli_saddr) : 0ULL,
           known && d.dli_fname ? d.dli_fname : "?");
}

/* 0 when the walks agree from frame 1 on; else prints both. */
static int compare(const char *what, const struct walk *w)
{
    int same = w->ndwu == w->ngcc;
    for (int i = 1; same && i < w->ndwu; i++)
        same = (uint64_t)(uintptr_t)w->dwu[i] == w->gcc[i];
    if (same) {
        printf("same_address: walk through %s: %d frames, identical to libgcc's\n", what, w->ndwu);
        return 0;
    }
    printf("same_address: walk through %s: dwunwind %d frames, libgcc %d: they differ\n", what, w->ndwu,
           w->ngcc);
    for (int i = 1; i < w->ndwu; i++)
        print_frame("dwunwind", i, (uint64_t)(uintptr_t)w->dwu[i]);
    for (int i = 1; i < w->ngcc; i++)
        print_frame("libgcc  ", i, w->gcc[i]);
    return 1;
}

static int open_lib(struct lib *l)
{
    l->handle = dlopen(l->path, RTLD_NOW | RTLD_LOCAL);
    void *enter = l->handle ? dlsym(l->handle, "lib_enter") : NULL;
    struct link_map *map = NULL;
    Dl_info info;
    const ElfW(Sym) *sym = NULL;
    if (!enter || dlinfo(l->handle, RTLD_DI_LINKMAP, &map) != 0 || !map ||
        !dladdr1(enter, &info, (void **)&sym, RTLD_DL_SYMENT) || !sym) {
        fprintf(stderr, "same_address: %s: %s\n", l->path, dlerror());
        return -1;
    }
    l->base = map->l_addr;
    memcpy(&l->enter, &enter, sizeof enter);
    l->enter_lo = sym->st_value;
    l->enter_hi = sym->st_value + sym->st_size;
    l->description = dlsym(l->handle, "lib_description");
    printf("same_address: %s at 0x%lx (%s)\n", l->name, (unsigned long)l->base,
           l->description ? l->description : "?");
    return 0;
}

/* B's call site (its return address - 1) lies inside A's lib_enter: A's
 * rows cover it. */
static int trap_is_set(const struct lib *a, const struct lib *b, const struct walk *w)
{
    uintptr_t ret = w->ngcc > 1 ? (uintptr_t)w->gcc[1] - b->base : 0;
    int set = ret > a->enter_lo && ret <= a->enter_hi;
    printf("same_address: B's call returns to offset 0x%lx: its call site is %s A's lib_enter [0x%lx, 0x%lx)\n",
           (unsigned long)ret, set ? "inside" : "NOT inside", (unsigned long)a->enter_lo,
           (unsigned long)a->enter_hi);
    return set;
}

/* One try: 0 or 1 (compare's), -1 when B did not land at A's address, 3
 * when it did but the layout sets no trap, 2 on errors. */
static int attempt(struct lib *a, struct lib *b)
{
    struct walk w;
    if (open_lib(a) != 0)
        return 2;
    if (dwu_init)
        dwu_init();
    a->enter(walk_here, &w);
    int bad = compare("A", &w);
    if (dwu_objects_count) {
        size_t with_eh_elf, segments = dwu_objects_count(&with_eh_elf);
        printf("same_address: %zu code segments listed, %zu with an eh_elf\n", segments, with_eh_elf);
    }
    dlclose(a->handle);
    if (open_lib(b) != 0)
        return 2;
    if (b->base != a->base) {
        printf("same_address: B is not at A's address\n");
        dlclose(b->handle);
        return -1;
    }
    printf("same_address: B is at A's address; walking through B\n");
    fflush(stdout);
    b->enter(walk_here, &w);
    bad |= compare("B", &w);
    int set = trap_is_set(a, b, &w);
    dlclose(b->handle);
    return set ? bad : 3;
}

int main(int argc, char **argv)
{
    static const struct option long_options[] = {
        {"libs", required_argument, NULL, 'l'}, {"attempts", required_argument, NULL, 'a'}, {NULL, 0, NULL, 0}};
    const char *dir = NULL;
    int attempts = 5, c, bad = 0;
    while ((c = getopt_long(argc, argv, "", long_options, NULL)) != -1) {
        if (c == 'l')
            dir = optarg;
        else if (c == 'a')
            attempts = atoi(optarg);
        else
            bad = 1;
    }
    if (bad || !dir || optind != argc || attempts < 1) {
        fprintf(stderr, "usage: same_address --libs DIR [--attempts N]\n");
        return 2;
    }
    if (libgcc_walk_init() != 0)
        return 2;
    /* An absolute name: the runtime looks for eh_elfs only of those. */
    char *abs_dir = realpath(dir, NULL);
    if (!abs_dir) {
        perror(dir);
        return 2;
    }
    struct lib a = {.name = "A"}, b = {.name = "B"};
    snprintf(a.path, sizeof a.path, "%s/same_address_a.so", abs_dir);
    snprintf(b.path, sizeof b.path, "%s/same_address_b.so", abs_dir);
    free(abs_dir);
    void *first[MAX_FRAMES];
    dwu_backtrace(first, MAX_FRAMES);   /* the objects listed before A is loaded */
    for (int k = 1; k <= attempts; k++) {
        printf("same_address: attempt %d\n", k);
        int rc = attempt(&a, &b);
        if (rc >= 0)
            return rc;
    }
    printf("same_address: the loader never put B at A's address (%d attempts): nothing shown\n", attempts);
    return 3;
}
/* SPDX-License-Identifier: Apache-2.0 */
