/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sframe_tables: the .sframe section read into sorted tables (see the header).
 */
#include "sframe_tables.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/sorted_search.h"

/* Malformed parts reported one by one before the rest are only counted: a
 * section whose every FDE is broken says so in a few findings, not in
 * thousands. */
#define SFRAME_MAX_REPORTS 16

struct reader {
    sframe_malformed_fn fn;
    void *arg;
    size_t reported, unreported;
};

static void report(struct reader *rd, uint64_t func_addr, uint64_t offset, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void report(struct reader *rd, uint64_t func_addr, uint64_t offset, const char *fmt, ...)
{
    if (rd->reported == SFRAME_MAX_REPORTS) {
        rd->unreported++;
        return;
    }
    rd->reported++;
    char message[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    rd->fn(rd->arg, func_addr, offset, message);
}

/* Is [LO, LO + SIZE) code of EF (inside one executable section)?  An SFrame
 * FDE elsewhere describes nothing that runs, and its size alone (a PCMASK
 * FDE repeats its rows over all of it) would decide how much is built. */
static int is_code(struct elf_file *ef, uint64_t lo, uint64_t size)
{
    struct elf_section *sec = elf_file_section_at(ef, lo);
    return sec && (sec->flags & SHF_EXECINSTR) && size <= sec->size && lo - sec->addr <= sec->size - size;
}

/* FDE I of the section into T->funcs, its table built once to check it,
 * or reported.  Returns 0; 1 when the FDE itself does not read; -1 when out
 * of memory. */
static int read_function(struct sframe_tables *t, struct elf_file *ef, uint32_t i, struct reader *rd)
{
    struct sframe_function *f = &t->funcs[t->n];
    struct sframe_error e = {0};
    memset(f, 0, sizeof *f);
    if (sframe_fde_read(&t->view, &t->header, i, &f->fde, &e) != 0) {
        report(rd, 0, e.offset, ".sframe at offset 0x%llx: %s (FDE %u)", (unsigned long long)e.offset, e.reason, i);
        return 1;
    }
    uint64_t pc = f->fde.pc, size = f->fde.size;
    if (size && !is_code(ef, pc, size)) {
        report(rd, 0, f->fde.offset, ".sframe at offset 0x%llx: FDE %u covers [0x%llx, 0x%llx), which is not code",
               (unsigned long long)f->fde.offset, i, (unsigned long long)pc, (unsigned long long)(pc + size));
        return 0;
    }
    f->start = pc;
    f->end = pc + size;   /* no wrap: inside a section */
    struct unwind_table table;
    int rc = sframe_fde_table(&t->view, &t->header, &f->fde, &table, &e);
    if (rc == 0 && table.nrows) {
        f->rows_start = table.rows[0].start;
        f->rows_end = table.rows[table.nrows - 1].end;
    }
    unwind_table_release(&table);
    if (rc != 0) {
        if (strcmp(e.reason, "out of memory") == 0)
            return -1;
        report(rd, pc, e.offset, ".sframe at offset 0x%llx: %s (FDE %u)", (unsigned long long)e.offset, e.reason, i);
        /* Kept, without rows: none is checked, and it is said once. */
        f->malformed = 1;
    }
    t->n++;
    return 0;
}

static int by_start(const void *a, const void *b)
{
    const struct sframe_function *x = a, *y = b;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return x->fde.index < y->fde.index ? -1 : x->fde.index > y->fde.index;
}

/* An unwinder looks an address up by binary search over the FDEs' starts:
 * two FDEs that cover one address make its answer depend on the search. */
static void report_overlaps(const struct sframe_tables *t, struct reader *rd)
{
    const struct sframe_function *prev = NULL;
    for (size_t i = 0; i < t->n; i++) {
        const struct sframe_function *f = &t->funcs[i];
        if (f->start == f->end)
            continue;
        if (prev && f->start < prev->end)
            report(rd, f->start, f->fde.offset, ".sframe at offset 0x%llx: FDEs %u and %u both cover 0x%llx",
                   (unsigned long long)f->fde.offset, prev->fde.index, f->fde.index, (unsigned long long)f->start);
        if (!prev || f->end > prev->end)
            prev = f;
    }
}

/* The header, every FDE, the checks across FDEs.  Returns -1 when out of memory. */
static int read_section(struct sframe_tables *t, struct elf_file *ef, struct reader *rd)
{
    struct sframe_error e = {0};
    if (sframe_header_read(&t->view, &t->header, &e) != 0) {
        report(rd, 0, e.offset, ".sframe at offset 0x%llx: %s", (unsigned long long)e.offset, e.reason);
        return 0;
    }
    t->header_ok = 1;
    t->fdes = t->header.num_fdes;
    /* The header's check bounds the count by the section's size. */
    t->funcs = t->fdes ? malloc(t->fdes * sizeof *t->funcs) : NULL;
    if (t->fdes && !t->funcs)
        return -1;
    int unreadable = 0;
    for (uint32_t i = 0; i < t->header.num_fdes; i++) {
        int rc = read_function(t, ef, i, rd);
        if (rc < 0)
            return -1;
        unreadable |= rc;
    }
    /* (It reads every FDE again: one that does not is reported already.) */
    if (!unreadable && sframe_section_check(&t->view, &t->header, &e) != 0)
        report(rd, 0, e.offset, ".sframe at offset 0x%llx: %s", (unsigned long long)e.offset, e.reason);
    qsort(t->funcs, t->n, sizeof *t->funcs, by_start);
    report_overlaps(t, rd);
    return 0;
}

int sframe_tables_read(struct sframe_tables *t, struct elf_file *ef, sframe_malformed_fn fn, void *arg)
{
    memset(t, 0, sizeof *t);
    t->current = (size_t)-1;
    struct elf_section *sec = elf_file_section(ef, ".sframe");
    if (!sec)
        return 0;
    t->present = 1;
    t->section_addr = sec->addr;
    struct reader rd = {fn, arg, 0, 0};
    char err[ELF_FILE_ERRLEN];
    uint64_t n = 0;
    const uint8_t *bytes = elf_file_section_bytes(ef, sec, &n, err, sizeof err);
    int rc = 0;
    t->view = (struct sframe_view){bytes, n, sec->addr};
    if (!bytes)
        report(&rd, 0, 0, ".sframe: %s", err);
    else
        rc = read_section(t, ef, &rd);
    if (rd.unreported) {
        rd.reported--;   /* room for the count */
        report(&rd, 0, 0, ".sframe: %zu more malformed parts, not reported one by one", rd.unreported);
    }
    return rc;
}

void sframe_tables_release(struct sframe_tables *t)
{
    if (t->current != (size_t)-1)
        unwind_table_release(&t->table);
    free(t->funcs);
    memset(t, 0, sizeof *t);
}

/* The index of the last function starting at or before ADDR, or (size_t)-1. */
static uint64_t start_key(const void *funcs, size_t i)
{
    return ((const struct sframe_function *)funcs)[i].start;
}

static size_t last_starting_by(const struct sframe_tables *t, uint64_t addr)
{
    return sorted_count_at_most(t->funcs, t->n, start_key, addr) - 1;
}

static int covers(const struct sframe_function *f, uint64_t addr)
{
    return addr >= f->start && addr < f->end;
}

/* T->table made function I's.  Returns 0, or -1 when it cannot be built
 * (out of memory: it was built once before). */
static int load(struct sframe_tables *t, size_t i)
{
    if (t->current == i)
        return 0;
    if (t->current != (size_t)-1)
        unwind_table_release(&t->table);
    struct sframe_error e;
    if (sframe_fde_table(&t->view, &t->header, &t->funcs[i].fde, &t->table, &e) != 0) {
        unwind_table_release(&t->table);
        t->current = (size_t)-1;
        return -1;
    }
    t->current = i;
    return 0;
}

const struct unwind_row *sframe_tables_row_at(struct sframe_tables *t, uint64_t addr,
                                              const struct sframe_function **func)
{
    size_t i = t->current;
    if (i == (size_t)-1 || !covers(&t->funcs[i], addr)) {
        i = t->n ? last_starting_by(t, addr) : (size_t)-1;
        if (i == (size_t)-1 || !covers(&t->funcs[i], addr) || t->funcs[i].malformed || load(t, i) != 0)
            return NULL;
    }
    if (func)
        *func = &t->funcs[i];
    return unwind_table_row_at(&t->table, addr);
}

/* The addresses F's rows cover, [*A, *B); 0 when it has none.  (One
 * reported malformed counts as covering its range: it is said once.) */
static int rows_span(const struct sframe_function *f, uint64_t *a, uint64_t *b)
{
    *a = f->malformed ? f->start : f->rows_start;
    *b = f->malformed ? f->end : f->rows_end;
    return *a < *b;
}

enum sframe_coverage sframe_tables_coverage(const struct sframe_tables *t, uint64_t lo, uint64_t hi,
                                            uint64_t *gap_lo, uint64_t *gap_hi)
{
    size_t i = last_starting_by(t, lo);
    int overlapped = 0, gap = 0;
    uint64_t to = lo;   /* rows cover [LO, TO) so far */
    for (i = i == (size_t)-1 ? 0 : i; i < t->n && t->funcs[i].start < hi; i++) {
        const struct sframe_function *f = &t->funcs[i];
        uint64_t a, b;
        if (f->end <= lo || f->start == f->end)
            continue;
        overlapped = 1;
        if (!rows_span(f, &a, &b))
            continue;
        if (a > to && !gap) {
            *gap_lo = to, *gap_hi = a < hi ? a : hi;
            gap = 1;
        }
        if (b > to)
            to = b;
    }
    if (!overlapped)
        return SFRAME_UNCOVERED;
    if (!gap && to < hi)
        *gap_lo = to, *gap_hi = hi, gap = 1;
    return gap ? SFRAME_GAP : SFRAME_COVERED;
}
