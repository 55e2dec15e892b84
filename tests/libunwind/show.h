/* SPDX-License-Identifier: Apache-2.0 */
/*
 * show: addresses printed so that two runs of a program compare — one
 * with Debian's libunwind, one with the drop-in, whose libraries differ in
 * size so that the objects loaded after them lie elsewhere, and whose
 * environments move the stack.  An address is printed as the mapping it
 * lies in (from /proc/self/maps, read once by read_maps) and its offset
 * from the object's first mapping; a stack address relative to
 * stack_ref (a local of main, which the program sets).  Header-only, for
 * the test programs of tests/libunwind.
 */
#ifndef DWUNWIND_TESTS_LIBUNWIND_SHOW_H
#define DWUNWIND_TESTS_LIBUNWIND_SHOW_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct region {
    uint64_t lo, hi, base;
    char name[64];
};
static struct region regions[512];
static int nregions;
static uint64_t stack_ref;

static void read_maps(void)
{
    FILE *f = fopen("/proc/self/maps", "r");
    char line[512];
    nregions = 0;
    while (f && fgets(line, sizeof line, f) && nregions < 512) {
        unsigned long lo, hi;
        char path[400] = "";
        if (sscanf(line, "%lx-%lx %*s %*s %*s %*s %399s", &lo, &hi, path) < 2)
            continue;
        struct region *r = &regions[nregions++];
        const struct region *before = nregions > 1 ? r - 1 : NULL;
        r->lo = lo, r->hi = hi;
        const char *base = strrchr(path, '/');
        snprintf(r->name, sizeof r->name, "%s", base ? base + 1 : path[0] ? path : "anon");
        r->base = lo;
        /* An object's mappings, and the anonymous one right after them
         * (its .bss), are named from its first; any other anonymous
         * mapping (a thread's stack, a JIT's code) from itself. */
        if (before && before->hi == lo && before->name[0] != '[' && strcmp(before->name, "anon") != 0 &&
            (strcmp(before->name, r->name) == 0 || !path[0])) {
            snprintf(r->name, sizeof r->name, "%s", before->name);
            r->base = before->base;
        }
    }
    if (f)
        fclose(f);
}

/* V as a string that does not depend on where things were loaded: in a
 * mapping but the stack's (the one stack_ref lies in, which grows), as
 * that mapping's; else near stack_ref, relative to it. */
static const char *show(uint64_t v, char *buf)
{
    for (int i = 0; i < nregions; i++)
        if (v >= regions[i].lo && v < regions[i].hi && strcmp(regions[i].name, "[stack]") != 0 &&
            !(stack_ref >= regions[i].lo && stack_ref < regions[i].hi)) {
            sprintf(buf, "%s+%#llx", regions[i].name, (unsigned long long)(v - regions[i].base));
            return buf;
        }
    if (v - stack_ref + (1u << 23) < (1u << 24))
        sprintf(buf, "s%+lld", (long long)(v - stack_ref));
    else
        sprintf(buf, "%#llx", (unsigned long long)v);
    return buf;
}

#endif
