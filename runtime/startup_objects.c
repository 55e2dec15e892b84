/* SPDX-License-Identifier: Apache-2.0 */
/*
 * startup_objects: the objects glibc never unloads (see the header).
 */
#include "startup_objects.h"

#include <elf.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>

#define STARTUP_MAX 512

/* Their first segments' starts, sorted; written once, before any walk can
 * ask (the library's constructor). */
static uint64_t starts[STARTUP_MAX];
static size_t nstarts;

struct candidate {
    uint64_t map_start;
    const char *name, *soname;         /* name: the path dl_iterate_phdr gives */
    const ElfW(Dyn) *dynamic;
    uint64_t bias;
    int startup;
};

struct candidates {
    struct candidate item[STARTUP_MAX];
    size_t count;
};

/* A dynamic entry's address: glibc relocates them in place, but not in
 * every object (the vDSO's dynamic section is read-only). */
static const char *string_table(const struct candidate *c)
{
    for (const ElfW(Dyn) *d = c->dynamic; d && d->d_tag != DT_NULL; d++)
        if (d->d_tag == DT_STRTAB)
            return (const char *)(uintptr_t)(d->d_un.d_ptr < c->bias ? d->d_un.d_ptr + c->bias : d->d_un.d_ptr);
    return NULL;
}

static int gather(struct dl_phdr_info *info, size_t size, void *arg)
{
    struct candidates *cs = arg;
    (void)size;
    if (cs->count == STARTUP_MAX)
        return 1;
    struct candidate *c = &cs->item[cs->count];
    memset(c, 0, sizeof *c);
    uint64_t lowest = UINT64_MAX;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_LOAD && ph->p_vaddr < lowest)
            lowest = ph->p_vaddr;
        if (ph->p_type == PT_DYNAMIC)
            c->dynamic = (const ElfW(Dyn) *)(uintptr_t)(info->dlpi_addr + ph->p_vaddr);
    }
    if (lowest == UINT64_MAX)
        return 0;
    c->map_start = (info->dlpi_addr + lowest) & ~(uint64_t)4095;
    c->bias = info->dlpi_addr;
    c->name = info->dlpi_name ? info->dlpi_name : "";
    const char *strtab = string_table(c);
    for (const ElfW(Dyn) *d = c->dynamic; strtab && d && d->d_tag != DT_NULL; d++)
        if (d->d_tag == DT_SONAME)
            c->soname = strtab + d->d_un.d_val;
    cs->count++;
    return 0;
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* Whether C is the library NEEDED names. */
static int is_named(const struct candidate *c, const char *needed)
{
    return (c->soname && strcmp(c->soname, needed) == 0) || strcmp(base_name(c->name), needed) == 0;
}

/* Mark what the startup objects need; returns how many were marked. */
static size_t mark_needed(struct candidates *cs)
{
    size_t marked = 0;
    for (size_t i = 0; i < cs->count; i++) {
        const struct candidate *c = &cs->item[i];
        const char *strtab = c->startup ? string_table(c) : NULL;
        for (const ElfW(Dyn) *d = c->dynamic; strtab && d->d_tag != DT_NULL; d++) {
            if (d->d_tag != DT_NEEDED)
                continue;
            for (size_t k = 0; k < cs->count; k++)
                if (!cs->item[k].startup && is_named(&cs->item[k], strtab + d->d_un.d_val)) {
                    cs->item[k].startup = 1;
                    marked++;
                }
        }
    }
    return marked;
}

/* Whether NAME is one of LD_PRELOAD's (separated by spaces or colons). */
static int preloaded(const char *name)
{
    const char *list = getenv("LD_PRELOAD");
    size_t len = strlen(name);
    while (list && *list && len) {
        size_t n = strcspn(list, " :");
        if ((n == len && memcmp(list, name, n) == 0) ||
            (n >= len && memcmp(list + n - len, name, len) == 0 && (n == len || list[n - len - 1] == '/')))
            return 1;
        list += n + (list[n] != 0);
    }
    return 0;
}

static int by_value(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

void dwu_startup_objects_find(void)
{
    struct candidates *cs = calloc(1, sizeof *cs);
    if (!cs)
        return;
    dl_iterate_phdr(gather, cs);
    uint64_t vdso = getauxval(AT_SYSINFO_EHDR), interp = getauxval(AT_BASE);
    for (size_t i = 0; i < cs->count; i++) {
        struct candidate *c = &cs->item[i];
        /* the program is the first object; the vDSO and ld.so by their addresses */
        c->startup = i == 0 || c->map_start == (vdso & ~(uint64_t)4095) || c->map_start == (interp & ~(uint64_t)4095) ||
                     (c->name[0] && preloaded(c->name));
    }
    while (mark_needed(cs))
        ;
    size_t n = 0;
    for (size_t i = 0; i < cs->count; i++)
        if (cs->item[i].startup)
            starts[n++] = cs->item[i].map_start;
    qsort(starts, n, sizeof starts[0], by_value);
    __atomic_store_n(&nstarts, n, __ATOMIC_RELEASE);
    free(cs);
}

int dwu_startup_object(uint64_t map_start)
{
    size_t lo = 0, hi = __atomic_load_n(&nstarts, __ATOMIC_ACQUIRE);
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (starts[mid] < map_start)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < nstarts && starts[lo] == map_start;
}
