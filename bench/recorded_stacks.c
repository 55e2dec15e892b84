/*
 * recorded_stacks: see recorded_stacks.h.  Built without UNW_LOCAL_ONLY:
 * libunwind's remote API (unw_init_remote over an address space whose
 * accessors are ours), as perf uses it to unwind what it recorded.
 */
#define _GNU_SOURCE
#include "bench/recorded_stacks.h"

#include <libunwind.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "bench/bench_stats.h"
#include "bench/ip_lists.h"

#define DUMP_MAX 65528u                 /* perf's largest stack dump */
#define ARENA_BYTES (64u << 20)
#define MAX_RECORDS 8192
#define MAX_SEGMENTS 512
#define MAX_OBJECTS 128
#define REPEATS 3                       /* walks of a stack after its first */

/* libunwind's binary search of an .eh_frame_hdr table it reads through
 * access_mem (not in its headers; perf declares it the same way). */
extern int _Ux86_64_dwarf_search_unwind_table(unw_addr_space_t as, unw_word_t ip, unw_dyn_info_t *di,
                                              unw_proc_info_t *pi, int need_unwind_info, void *arg);

/* ---- recording ---------------------------------------------------------- */

enum unwinder { EH_ELF, REMOTE_CACHE, REMOTE_NOCACHE, NUNWINDERS };

/* A sample: its registers, the IPs eh_elf walked on the live stack, and
 * the stack copied once per unwinder (each reads its own copies, which
 * come to it from memory as a recording's do, whichever unwinder goes
 * first). */
struct record {
    struct dwu_regs start;
    struct dwu_stack_copy copy[NUNWINDERS];   /* data in the arenas */
    const uint64_t *live_ips;                 /* in the first arena */
    int nlive;
};

static uint8_t *arena[NUNWINDERS];
static size_t arena_used;                     /* the same in each */
static struct record records[MAX_RECORDS];
static size_t nrecords, dropped;
static uint64_t stack_lo, stack_hi;

void recorded_stacks_add(const struct dwu_regs *start, const uint64_t *live_ips, int nlive)
{
    uint64_t rsp = start->r[DWU_RSP];
    if (!arena[0] || rsp < stack_lo || rsp >= stack_hi || nlive < 0)
        return;
    uint64_t size = stack_hi - rsp < DUMP_MAX ? stack_hi - rsp : DUMP_MAX;
    size_t need = (size_t)size + (size_t)nlive * sizeof *live_ips;
    need = (need + 63) & ~(size_t)63;
    if (nrecords == MAX_RECORDS || arena_used + need > ARENA_BYTES) {
        dropped++;
        return;
    }
    struct record *r = &records[nrecords++];
    r->start = *start;
    for (int u = 0; u < NUNWINDERS; u++) {
        uint8_t *at = arena[u] + arena_used;
        memcpy(at, (const void *)(uintptr_t)rsp, size);
        r->copy[u] = (struct dwu_stack_copy){rsp, at, size};
    }
    uint64_t *ips = (uint64_t *)(arena[0] + arena_used + size);
    memcpy(ips, live_ips, (size_t)nlive * sizeof *live_ips);
    r->live_ips = ips;
    r->nlive = nlive;
    arena_used += need;
}

/* ---- what libunwind's accessors serve ------------------------------------- */

struct segment { uint64_t lo, hi; };      /* a loaded segment, readable */
struct object {
    uint64_t lo, hi;                      /* executable segment */
    uint64_t eh_frame_hdr, table, nfdes;  /* its binary-search table */
};
static struct segment segments[MAX_SEGMENTS];
static struct object objects[MAX_OBJECTS];
static size_t nsegments, nobjects;

/* The table of an .eh_frame_hdr in the encodings every linker writes
 * (pc-relative eh_frame_ptr, 4-byte count, data-relative 4-byte entries). */
static int read_eh_frame_hdr(uint64_t hdr, struct object *o)
{
    const uint8_t *h = (const uint8_t *)(uintptr_t)hdr;
    if (h[0] != 1 || h[1] != 0x1b || h[2] != 0x03 || h[3] != 0x3b)
        return -1;
    uint32_t n;
    memcpy(&n, h + 8, 4);
    o->eh_frame_hdr = hdr;
    o->table = hdr + 12;
    o->nfdes = n;
    return 0;
}

static int add_object(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    (void)arg;
    struct object o = {0};
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *p = &info->dlpi_phdr[i];
        uint64_t lo = info->dlpi_addr + p->p_vaddr, hi = lo + p->p_memsz;
        if (p->p_type == PT_LOAD && nsegments < MAX_SEGMENTS) {
            segments[nsegments++] = (struct segment){lo, hi};
            if (p->p_flags & PF_X)
                o.lo = lo, o.hi = hi;
        } else if (p->p_type == PT_GNU_EH_FRAME && read_eh_frame_hdr(lo, &o) != 0) {
            o.eh_frame_hdr = 0;
        }
    }
    if (o.hi && o.eh_frame_hdr && nobjects < MAX_OBJECTS)
        objects[nobjects++] = o;
    return 0;
}

static int by_lo(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The entry of SORTED (N entries of SIZE bytes, each starting with lo, hi)
 * that holds ADDR, or NULL. */
static const void *holding(const void *sorted, size_t n, size_t size, uint64_t addr)
{
    size_t a = 0, b = n;
    while (a < b) {
        size_t m = (a + b) / 2;
        const uint64_t *e = (const uint64_t *)((const char *)sorted + m * size);
        if (addr < e[0])
            b = m;
        else if (addr >= e[1])
            a = m + 1;
        else
            return e;
    }
    return NULL;
}

int recorded_stacks_init(void)
{
    pthread_attr_t attr;
    void *addr;
    size_t size;
    if (pthread_getattr_np(pthread_self(), &attr) != 0) {
        fprintf(stderr, "unwind_bench: cannot find the stack's bounds\n");
        return -1;
    }
    int rc = pthread_attr_getstack(&attr, &addr, &size);
    pthread_attr_destroy(&attr);
    if (rc != 0) {
        fprintf(stderr, "unwind_bench: cannot find the stack's bounds\n");
        return -1;
    }
    stack_lo = (uint64_t)(uintptr_t)addr;
    stack_hi = stack_lo + size;
    for (int u = 0; u < NUNWINDERS; u++) {
        void *at = mmap(NULL, ARENA_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (at == MAP_FAILED) {
            perror("unwind_bench: mmap");
            return -1;
        }
        arena[u] = at;
    }
    dl_iterate_phdr(add_object, NULL);
    qsort(segments, nsegments, sizeof *segments, by_lo);
    qsort(objects, nobjects, sizeof *objects, by_lo);
    return 0;
}

/* ---- libunwind's accessors, as perf writes them ------------------------------ */

/* What a walk reads: the sample's registers and one of its copies. */
struct sample_view {
    const struct dwu_regs *start;
    const struct dwu_stack_copy *copy;
};

static int find_proc_info(unw_addr_space_t as, unw_word_t ip, unw_proc_info_t *pi, int need_unwind_info,
                          void *arg)
{
    const struct object *o = holding(objects, nobjects, sizeof *objects, ip);
    if (!o)
        return -UNW_ENOINFO;
    unw_dyn_info_t di = {.start_ip = o->lo, .end_ip = o->hi, .format = UNW_INFO_FORMAT_REMOTE_TABLE};
    di.u.rti.segbase = o->eh_frame_hdr;
    di.u.rti.table_data = o->table;
    di.u.rti.table_len = o->nfdes * 8 / sizeof(unw_word_t);
    return _Ux86_64_dwarf_search_unwind_table(as, ip, &di, pi, need_unwind_info, arg);
}

/* libunwind hands back the unwind info it allocated for find_proc_info
 * without a way to free it from outside (perf leaves it too): a few dozen
 * bytes per lookup, which the cache makes rare. */
static void put_unwind_info(unw_addr_space_t as, unw_proc_info_t *pi, void *arg)
{
    (void)as, (void)pi, (void)arg;
}

static int get_dyn_info_list_addr(unw_addr_space_t as, unw_word_t *addr, void *arg)
{
    (void)as, (void)addr, (void)arg;
    return -UNW_ENOINFO;
}

/* A word of a stack copy, as perf's accessor reads one (plain, where
 * dwu_read_stack_copy also prefetches for eh_elf). */
static int read_copy(const struct dwu_stack_copy *c, uint64_t addr, unw_word_t *value)
{
    if (addr < c->base || c->size < 8 || addr - c->base > c->size - 8)
        return -UNW_EINVAL;
    memcpy(value, c->data + (addr - c->base), 8);
    return 0;
}

/* The stack from the copy only; code and tables of the loaded objects
 * directly (perf reads those from the files). */
static int access_mem(unw_addr_space_t as, unw_word_t addr, unw_word_t *value, int write, void *arg)
{
    (void)as;
    const struct sample_view *v = arg;
    if (write)
        return -UNW_EINVAL;
    if (addr >= stack_lo && addr < stack_hi)
        return read_copy(v->copy, addr, value);
    const struct segment *s = holding(segments, nsegments, sizeof *segments, addr);
    if (!s || addr > s->hi - 8)
        return -UNW_EINVAL;
    memcpy(value, (const void *)(uintptr_t)addr, 8);
    return 0;
}

/* libunwind numbers x86_64's registers as DWARF does, like dwu_regs. */
static int access_reg(unw_addr_space_t as, unw_regnum_t reg, unw_word_t *value, int write, void *arg)
{
    (void)as;
    const struct sample_view *v = arg;
    if (write || reg < 0 || reg >= DWU_NREGS || !(v->start->valid & (1u << reg)))
        return -UNW_EBADREG;
    *value = v->start->r[reg];
    return 0;
}

static int access_fpreg(unw_addr_space_t as, unw_regnum_t reg, unw_fpreg_t *value, int write, void *arg)
{
    (void)as, (void)reg, (void)value, (void)write, (void)arg;
    return -UNW_EBADREG;
}

static int resume(unw_addr_space_t as, unw_cursor_t *cursor, void *arg)
{
    (void)as, (void)cursor, (void)arg;
    return -UNW_EINVAL;
}

static int get_proc_name(unw_addr_space_t as, unw_word_t ip, char *buf, size_t len, unw_word_t *offset, void *arg)
{
    (void)as, (void)ip, (void)buf, (void)len, (void)offset, (void)arg;
    return -UNW_ENOINFO;
}

static unw_accessors_t accessors = {
    .find_proc_info = find_proc_info,
    .put_unwind_info = put_unwind_info,
    .get_dyn_info_list_addr = get_dyn_info_list_addr,
    .access_mem = access_mem,
    .access_reg = access_reg,
    .access_fpreg = access_fpreg,
    .resume = resume,
    .get_proc_name = get_proc_name,
};

/* ---- the unwinders over a recorded stack --------------------------------------- */

static const char *const unwinder_name[NUNWINDERS] = {
    "eh_elf (dwu_unwind, reading the copy)",
    "libunwind remote unw_step, default cache",
    "libunwind remote unw_step, UNW_CACHE_NONE",
};

/* The IPs U walked from R's registers over its copy of R's stack;
 * *COMPLETE says the walk reached the outermost frame (rather than the end
 * of the copy, or an error). */
static int walk(enum unwinder u, unw_addr_space_t as, const struct record *r, uint64_t *ips, int *complete)
{
    if (u == EH_ELF) {
        struct dwu_regs regs = r->start;
        struct dwu_memory mem = {dwu_read_stack_copy, (void *)&r->copy[u]};
        int status;
        int n = dwu_unwind(&regs, &mem, ips, MAX_FRAMES, &status);
        *complete = status == DWU_END;
        return n;
    }
    struct sample_view view = {&r->start, &r->copy[u]};
    unw_cursor_t cur;
    *complete = 0;
    if (unw_init_remote(&cur, as, &view) != 0)
        return 0;
    int n = 0, step = 0;
    do {
        unw_word_t ip;
        if (unw_get_reg(&cur, UNW_REG_IP, &ip) != 0)
            return n;
        ips[n++] = ip;
    } while (n < MAX_FRAMES && (step = unw_step(&cur)) > 0);
    *complete = n < MAX_FRAMES && step == 0;
    return n;
}

static void report_mismatch(const char *what, const struct record *r, const uint64_t *a, int na,
                            const uint64_t *b, int nb)
{
    fprintf(stderr, "recorded stack at 0x%llx: %s\n", (unsigned long long)r->start.r[DWU_RIP], what);
    for (int i = 0; i < na || i < nb; i++)
        fprintf(stderr, "  %2d %16llx %16llx\n", i, i < na ? (unsigned long long)a[i] : 0ull,
                i < nb ? (unsigned long long)b[i] : 0ull);
}

enum walk_kind { FIRST_WALK, REPEAT_WALKS, NKINDS };

long recorded_stacks_report(const char *title)
{
    static uint64_t ips[NUNWINDERS][MAX_FRAMES];
    static double ns[NUNWINDERS][NKINDS][MAX_RECORDS], ratio[NUNWINDERS][NKINDS][MAX_RECORDS];
    static int count[NUNWINDERS][MAX_RECORDS];
    unw_addr_space_t space[NUNWINDERS] = {NULL};
    long mismatches = 0, truncated = 0, frames = 0;
    for (int u = REMOTE_CACHE; u < NUNWINDERS; u++) {
        if (!(space[u] = unw_create_addr_space(&accessors, 0))) {
            fprintf(stderr, "unwind_bench: unw_create_addr_space failed\n");
            return 1;
        }
        unw_set_caching_policy(space[u], u == REMOTE_CACHE ? UNW_CACHE_GLOBAL : UNW_CACHE_NONE);
    }
    /* One unwinder after the other over every stack, as a report walks
     * them: each stack's first walk timed alone, then REPEATS more walks of
     * it (its copy and the unwinder's state for it now in the cache). */
    for (int u = 0; u < NUNWINDERS; u++)
        for (size_t i = 0; i < nrecords; i++) {
            double t0 = now_ns();
            int done, n = walk((enum unwinder)u, space[u], &records[i], ips[u], &done);
            double t1 = now_ns();
            for (int k = 0; k < REPEATS; k++)
                walk((enum unwinder)u, space[u], &records[i], ips[u], &done);
            double t2 = now_ns(), per = n > 0 ? n : 1;
            ns[u][FIRST_WALK][i] = (t1 - t0) / per;
            ns[u][REPEAT_WALKS][i] = (t2 - t1) / REPEATS / per;
            count[u][i] = n;
        }
    /* The IPs of the last walks, compared. */
    for (size_t i = 0; i < nrecords; i++) {
        const struct record *r = &records[i];
        int c[NUNWINDERS], n[NUNWINDERS];
        for (int u = 0; u < NUNWINDERS; u++)
            n[u] = walk((enum unwinder)u, space[u], r, ips[u], &c[u]);
        frames += n[EH_ELF];
        truncated += !c[EH_ELF];
        /* The copy walked as the live stack was, up to where the copy ends. */
        int common = n[EH_ELF] < r->nlive ? n[EH_ELF] : r->nlive;
        if ((c[EH_ELF] ? n[EH_ELF] != r->nlive : n[EH_ELF] > r->nlive) ||
            memcmp(ips[EH_ELF], r->live_ips, (size_t)common * sizeof *r->live_ips) != 0)
            if (mismatches++ < 5)
                report_mismatch("eh_elf's walk of the copy differs from its walk of the live stack", r, ips[EH_ELF],
                                n[EH_ELF], r->live_ips, r->nlive);
        for (int u = REMOTE_CACHE; u < NUNWINDERS; u++)
            if (!ips_agree(ips[EH_ELF], n[EH_ELF], c[EH_ELF], ips[u], n[u], c[u]) && mismatches++ < 5)
                report_mismatch(unwinder_name[u], r, ips[EH_ELF], n[EH_ELF], ips[u], n[u]);
    }
    size_t nratios[NUNWINDERS] = {0};
    for (int u = 0; u < NUNWINDERS; u++)
        for (size_t i = 0; i < nrecords; i++)
            if (count[u][i] > 0 && count[EH_ELF][i] > 0) {
                for (int k = 0; k < NKINDS; k++)
                    ratio[u][k][nratios[u]] = ns[u][k][i] / ns[EH_ELF][k][i];
                nratios[u]++;
            }
    printf("\nrecorded stacks: %s (%zu stacks, as perf records them: the registers and up to %u bytes of stack, "
           "one copy per unwinder; unwound after the run, each unwinder over all of them; %ld frames, %ld copies "
           "ending above the outermost frame%s)\n", title, nrecords, DUMP_MAX, frames, truncated,
           dropped ? ", some samples not recorded: the arena was full" : "");
    printf("  %-42s %-18s   %s\n", "", "first walk", "repeated walks");
    printf("  %-42s %9s %8s %9s %8s\n", "unwinder", "ns/frame", "eh_elf x", "ns/frame", "eh_elf x");
    static double walked[MAX_RECORDS];   /* the stacks the unwinder walked at all */
    for (int u = 0; u < NUNWINDERS; u++) {
        printf("  %-42s", unwinder_name[u]);
        for (int k = 0; k < NKINDS; k++) {
            size_t nw = 0;
            for (size_t i = 0; i < nrecords; i++)
                if (count[u][i] > 0)
                    walked[nw++] = ns[u][k][i];
            printf(" %9.2f %8.1f", median(walked, nw), median(ratio[u][k], nratios[u]));
        }
        printf("\n");
    }
    printf("  IP sequences: %ld mismatches (eh_elf's walk of each copy against its walk of the live stack, "
           "and against libunwind's)\n", mismatches);
    for (int u = REMOTE_CACHE; u < NUNWINDERS; u++)
        unw_destroy_addr_space(space[u]);
    nrecords = arena_used = dropped = 0;
    return mismatches;
}
/* SPDX-License-Identifier: Apache-2.0 */
