/* SPDX-License-Identifier: Apache-2.0 */
/*
 * remote_copy: libunwind's remote API as a profiler drives it (perf's
 * util/unwind-libunwind-local.c): a copy of a stack and the registers
 * taken with it, unwound later through an address space whose accessors
 * read the copy (access_mem), the registers (access_reg), and find each
 * object's .eh_frame_hdr table (find_proc_info, handed to
 * dwarf_search_unwind_table).  The stack is this process's own, copied at
 * the bottom of a chain, so that it is unwound as another process's
 * would be.  Built without UNW_LOCAL_ONLY (libunwind-x86_64.so.8's
 * names); tests/libunwind/run.sh runs it with Debian's libunwind and with
 * the drop-in, which hands the remote API to Debian's, and compares.
 */
#define _GNU_SOURCE
#include <libunwind.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/libunwind/show.h"
#include "tests/unwind/frames.h"

extern int _Ux86_64_dwarf_search_unwind_table(unw_addr_space_t as, unw_word_t ip, unw_dyn_info_t *di,
                                              unw_proc_info_t *pi, int need_unwind_info, void *arg);

#define COPY_SIZE (64 * 1024)

struct sample {
    unw_context_t regs;
    uint64_t base;                 /* the copy's address in the stack */
    uint8_t stack[COPY_SIZE];
    size_t size;
};
static struct sample sample;

/* ---- the accessors ---------------------------------------------------------- */

/* N bytes of this stack at FROM (its redzones among them: out of the
 * address sanitizer's view, as the runtime's stack reads are). */
static __attribute__((noinline, no_sanitize("address"))) void copy_stack(uint8_t *to, uint64_t from, size_t n)
{
    const volatile uint8_t *p = (const volatile uint8_t *)(uintptr_t)from;
    for (size_t i = 0; i < n; i++)
        to[i] = p[i];
}

struct table {
    uint64_t ip, lo, hi, hdr;
};

static int find_table(struct dl_phdr_info *info, size_t size, void *arg)
{
    struct table *t = arg;
    (void)size;
    uint64_t lo = UINT64_MAX, hi = 0, hdr = 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uint64_t at = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type == PT_LOAD) {
            lo = at < lo ? at : lo;
            hi = at + ph->p_memsz > hi ? at + ph->p_memsz : hi;
        } else if (ph->p_type == PT_GNU_EH_FRAME) {
            hdr = at;
        }
    }
    if (t->ip < lo || t->ip >= hi || !hdr)
        return 0;
    t->lo = lo, t->hi = hi, t->hdr = hdr;
    return 1;
}

static int find_proc_info(unw_addr_space_t as, unw_word_t ip, unw_proc_info_t *pi, int need_unwind_info,
                          void *arg)
{
    struct table t = {ip, 0, 0, 0};
    if (!dl_iterate_phdr(find_table, &t))
        return -UNW_ENOINFO;
    const uint8_t *hdr = (const uint8_t *)(uintptr_t)t.hdr;
    uint32_t count;
    memcpy(&count, hdr + 8, 4);   /* version, encodings, eh_frame_ptr (sdata4), fde_count (udata4) */
    unw_dyn_info_t di;
    memset(&di, 0, sizeof di);
    di.format = UNW_INFO_FORMAT_REMOTE_TABLE;
    di.start_ip = t.lo;
    di.end_ip = t.hi;
    di.u.rti.segbase = t.hdr;
    di.u.rti.table_data = t.hdr + 12;
    di.u.rti.table_len = count * 8 / sizeof(unw_word_t);
    return _Ux86_64_dwarf_search_unwind_table(as, ip, &di, pi, need_unwind_info, arg);
}

static void put_unwind_info(unw_addr_space_t as, unw_proc_info_t *pi, void *arg)
{
    (void)as, (void)arg;
    free(pi->unwind_info);
    pi->unwind_info = NULL;
}

static int get_dyn_info_list_addr(unw_addr_space_t as, unw_word_t *addr, void *arg)
{
    (void)as, (void)addr, (void)arg;
    return -UNW_ENOINFO;
}

/* The copy for stack addresses; the objects' own memory for the rest
 * (their tables and code, the same in the "other" process). */
static int access_mem(unw_addr_space_t as, unw_word_t addr, unw_word_t *value, int write, void *arg)
{
    const struct sample *s = arg;
    (void)as;
    if (write)
        return -UNW_EINVAL;
    if (addr >= s->base && addr + 8 <= s->base + s->size) {
        memcpy(value, s->stack + (addr - s->base), 8);
        return 0;
    }
    if (addr - stack_ref + (1u << 23) < (1u << 24))
        return -UNW_EINVAL;   /* the stack beyond the copy */
    memcpy(value, (const void *)(uintptr_t)addr, 8);
    return 0;
}

static int access_reg(unw_addr_space_t as, unw_regnum_t reg, unw_word_t *value, int write, void *arg)
{
    static const int greg[] = {REG_RAX, REG_RDX, REG_RCX, REG_RBX, REG_RSI, REG_RDI, REG_RBP, REG_RSP, REG_R8,
                               REG_R9,  REG_R10, REG_R11, REG_R12, REG_R13, REG_R14, REG_R15, REG_RIP};
    const struct sample *s = arg;
    (void)as;
    if (write || reg < 0 || reg > UNW_X86_64_RIP)
        return -UNW_EBADREG;
    *value = (unw_word_t)s->regs.uc_mcontext.gregs[greg[reg]];
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

static int get_proc_name(unw_addr_space_t as, unw_word_t ip, char *buf, size_t len, unw_word_t *off, void *arg)
{
    (void)as, (void)ip, (void)buf, (void)len, (void)off, (void)arg;
    return -UNW_ENOINFO;
}

static unw_accessors_t accessors = {find_proc_info, put_unwind_info, get_dyn_info_list_addr, access_mem,
                                    access_reg,     access_fpreg,    resume,                 get_proc_name};

/* ---- the sample, and its walk ----------------------------------------------- */

static __attribute__((noinline)) int take_sample(void *arg)
{
    (void)arg;
    unw_getcontext(&sample.regs);
    sample.base = (uint64_t)sample.regs.uc_mcontext.gregs[REG_RSP];
    sample.size = COPY_SIZE;
    for (int i = 0; i < nregions; i++)   /* not past the stack's top */
        if (strcmp(regions[i].name, "[stack]") == 0 && regions[i].hi - sample.base < sample.size)
            sample.size = regions[i].hi - sample.base;
    copy_stack(sample.stack, sample.base, sample.size);
    return 1;
}

static void walk(unw_addr_space_t as, const char *what)
{
    unw_cursor_t c;
    char b1[96], b2[96], b3[96];
    int r = unw_init_remote(&c, as, &sample);
    printf("== %s: unw_init_remote %d\n", what, r);
    int n = 0;
    do {
        unw_word_t ip = 0, sp = 0, rbx = 0, rbp = 0;
        unw_proc_info_t pi;
        memset(&pi, 0, sizeof pi);
        unw_get_reg(&c, UNW_REG_IP, &ip);
        unw_get_reg(&c, UNW_REG_SP, &sp);
        int rb = unw_get_reg(&c, UNW_X86_64_RBX, &rbx), rp = unw_get_reg(&c, UNW_X86_64_RBP, &rbp);
        int ri = unw_get_proc_info(&c, &pi);
        printf("  #%-2d ip=%s sp=%s rbx(%d)=%s rbp(%d)=%s proc(%d) start=%s signal=%d\n", n, show(ip, b1),
               show(sp, b2), rb, show(rbx, b3), rp, show(rbp, b3 + 48), ri, show(pi.start_ip, b1 + 48),
               unw_is_signal_frame(&c));
        r = unw_step(&c);
    } while (r > 0 && ++n < 128);
    printf("  last step %d\n", r);
}

int main(void)
{
    volatile char here = 0;
    stack_ref = (uint64_t)(uintptr_t)&here;
    setvbuf(stdout, NULL, _IOLBF, 0);
    read_maps();
    chain(12, take_sample, NULL);
    unw_addr_space_t as = unw_create_addr_space(&accessors, 0);
    if (!as) {
        printf("unw_create_addr_space failed\n");
        return 1;
    }
    unw_set_caching_policy(as, UNW_CACHE_GLOBAL);
    walk(as, "the copied stack");
    walk(as, "again, from the cache");
    unw_flush_cache(as, 0, 0);
    walk(as, "after unw_flush_cache");
    unw_destroy_addr_space(as);
    return 0;
}
