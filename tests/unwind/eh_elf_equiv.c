/*
 * eh_elf_equiv: a compiled eh_elf agrees with its table, row by row.
 *
 *   eh_elf_equiv FILE EH_ELF
 *
 * For every row of every FDE of FILE's .eh_frame, at the row's first and
 * last address and at one address in every 64 bytes between, three unwinders
 * unwind the same registers (random values, all known) over the same
 * synthetic memory (each 8-byte read returns a hash of its address, and
 * one read in eight fails, as a read outside a stack copy does): the
 * eh_elf's dwu_eh_elf_step; the runtime's interpreter of the analysis's row
 * (dwu_dwarf_apply_rules, the DWARF fallback's rule application); and the DWARF
 * fallback itself (dwu_dwarf_step), which finds the FDE through
 * .eh_frame_hdr and runs its program within the runtime's own bounds, over
 * a copy of FILE's segments laid out as the loader lays them out.  Their
 * status, registers, validity bits and flags must be identical: same table,
 * same answer, whichever path unwinds it; and where the eh_elf describes a
 * row for dwu_backtrace's IP-only walk (dwu_eh_elf_frame), the rip, rsp and
 * rbp that walk computes from the descriptor, and that the eh_elf's trace
 * entry computes (dwu_eh_elf_trace, on a real stack), are the step's (the provenance flags of an eh_elf
 * compiled by dwcompile --repair aside: FILE is then the copy dwsynth repair
 * wrote, whose DWARF has no provenance).  A PC between FDEs must give
 * DWU_ENOINFO.  Prints a summary; exit status 1 on any difference, 2 when
 * FILE or EH_ELF cannot be read.
 */
#include <dlfcn.h>
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "object/elf_file.h"
#include "runtime/dwarf_fallback.h"
#include "runtime/dwunwind.h"
#include "synthetic_memory.h"
#include "semantics/cfi_eval.h"
#include "semantics/cfi_reader.h"


static long differences, fallback_differences, frame_differences, simple_rows, drap_rows;
static dwu_eh_elf_frame_fn frame;   /* the eh_elf's descriptors for IP-only walks */
static dwu_eh_elf_trace_fn trace;   /* and those rows applied: dwu_backtrace's walk */
static long trace_differences;

/* A stack for the trace entry, which reads memory directly: rsp and rbp
 * point into its middle, every CFA offset a descriptor holds (16 bits) and
 * the slots around it stay inside. */
static uint64_t trace_stack[3 * 8192];

/* The trace entry against the full step reading the same memory directly:
 * the same rip, rsp and rbp after a simple row, DWU_END for an outermost
 * one; nothing taken where the descriptor is not simple. */
static void compare_trace(dwu_eh_elf_step_fn step, uint64_t pc, uint64_t d, uint64_t seed)
{
    struct dwu_regs in = {.valid = (1u << DWU_NREGS) - 1}, out;
    for (unsigned r = 0; r < DWU_NREGS; r++)
        in.r[r] = mix(seed * 17 + r);
    uint64_t middle = (uint64_t)(uintptr_t)&trace_stack[3 * 8192 / 2];
    in.r[DWU_RSP] = middle + (mix(seed) & 0xff8);
    in.r[DWU_RBP] = middle + (mix(seed + 1) & 0xff8);
    in.r[DWU_RIP] = pc;
    uint64_t rip = pc, rsp = in.r[DWU_RSP], rbp = in.r[DWU_RBP];
    int t = trace(pc, &rip, &rsp, &rbp);
    /* the trace entry takes the simple rows but DRAP frames' */
    int takes = (d & (DWU_FRAME_SIMPLE | DWU_FRAME_CFA_DEREF | DWU_FRAME_RBP_AT_RBP)) == DWU_FRAME_SIMPLE;
    int same = (t != 0) == takes;
    if (same && t != 0) {
        int a = step(pc, &in, &out, NULL);
        same = t == 2 ? a == DWU_END
                      : a == DWU_OK && out.r[DWU_RIP] == rip && out.r[DWU_RSP] == rsp && out.r[DWU_RBP] == rbp;
    }
    if (!same && trace_differences++ < 10)
        fprintf(stderr, "eh_elf_equiv: 0x%llx: the trace entry (%d) disagrees with the step\n",
                (unsigned long long)pc, t);
}
static long statuses[DWU_END - DWU_ELOOP + 1];   /* the eh_elf's, by status */

/* FILE's object as the runtime sees a loaded one: its PT_LOAD segments
 * copied into one mapping at their addresses plus *BIAS, .eh_frame_hdr
 * found through PT_GNU_EH_FRAME.  Returns 0, or -1 (no such header, or a
 * file that is not a 64-bit ELF file). */
static int load_object(const char *path, struct dwu_object *obj, uint64_t *bias)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    uint8_t *file = NULL;
    size_t size = 0, cap = 0, n;
    do {
        if (size == cap) {
            cap = cap ? 2 * cap : 1 << 20;
            uint8_t *p = realloc(file, cap);
            if (!p)
                break;
            file = p;
        }
        n = fread(file + size, 1, cap - size, f);
        size += n;
    } while (n > 0);
    fclose(f);
    int rc = -1;
    Elf64_Ehdr eh;
    if (!file || size < sizeof eh)
        goto out;
    memcpy(&eh, file, sizeof eh);
    if (memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
        eh.e_phoff > size || (size - eh.e_phoff) / sizeof(Elf64_Phdr) < eh.e_phnum)
        goto out;
    uint64_t lo = UINT64_MAX, hi = 0;
    Elf64_Phdr ph;
    for (unsigned i = 0; i < eh.e_phnum; i++) {
        memcpy(&ph, file + eh.e_phoff + i * sizeof ph, sizeof ph);
        if (ph.p_type == PT_LOAD && ph.p_vaddr < lo)
            lo = ph.p_vaddr & ~(uint64_t)0xfff;
        if (ph.p_type == PT_LOAD && ph.p_vaddr + ph.p_memsz > hi)
            hi = ph.p_vaddr + ph.p_memsz;
    }
    if (lo >= hi)
        goto out;
    uint8_t *map = mmap(NULL, hi - lo, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map == MAP_FAILED)
        goto out;
    *bias = (uint64_t)(uintptr_t)map - lo;
    memset(obj, 0, sizeof *obj);
    for (unsigned i = 0; i < eh.e_phnum; i++) {
        memcpy(&ph, file + eh.e_phoff + i * sizeof ph, sizeof ph);
        if (ph.p_type == PT_LOAD && ph.p_offset <= size && ph.p_filesz <= size - ph.p_offset &&
            ph.p_filesz <= ph.p_memsz)
            memcpy(map + (ph.p_vaddr - lo), file + ph.p_offset, ph.p_filesz);
    }
    for (unsigned i = 0; i < eh.e_phnum; i++) {
        memcpy(&ph, file + eh.e_phoff + i * sizeof ph, sizeof ph);
        if (ph.p_type != PT_GNU_EH_FRAME)
            continue;
        obj->eh_frame_hdr = map + (ph.p_vaddr - lo);
        for (unsigned j = 0; j < eh.e_phnum; j++) {
            Elf64_Phdr load;
            memcpy(&load, file + eh.e_phoff + j * sizeof load, sizeof load);
            if (load.p_type == PT_LOAD && ph.p_vaddr >= load.p_vaddr &&
                ph.p_vaddr < load.p_vaddr + load.p_memsz) {
                obj->readable_start = map + (load.p_vaddr - lo);
                obj->readable_end = map + (load.p_vaddr + load.p_memsz - lo);
            }
        }
        rc = obj->readable_end ? 0 : -1;
    }
out:
    free(file);
    return rc;
}

static const struct dwu_object *object;   /* FILE, for the DWARF fallback */
static uint64_t object_bias;

/* What dwu_backtrace's fast walk computes from the row's descriptor D
 * (dwu_eh_elf_frame) agrees with the full step's A, OUT: rip, rsp and rbp. */
static void compare_frame(uint64_t pc, uint64_t d, const struct dwu_regs *in, int a, const struct dwu_regs *out)
{
    if (!(d & DWU_FRAME_SIMPLE))
        return;
    simple_rows++;
    drap_rows += (d & DWU_FRAME_CFA_DEREF) != 0;
    int same;
    uint64_t cfa = (d & DWU_FRAME_CFA_RBP ? in->r[DWU_RBP] : in->r[DWU_RSP]) + (uint64_t)DWU_FRAME_CFA_OFFSET(d);
    uint64_t ra, rbp = in->r[DWU_RBP];
    int rbp_known = 1;
    if (d & DWU_FRAME_END) {
        same = a == DWU_END;
    } else if (((d & DWU_FRAME_CFA_DEREF) && synthetic_read(NULL, cfa, &cfa) != 0) ||
               synthetic_read(NULL, cfa + (uint64_t)DWU_FRAME_RA_OFFSET(d), &ra) != 0) {
        same = a == DWU_EMEM;
    } else {
        uint64_t rbp_base = d & DWU_FRAME_RBP_AT_RBP ? in->r[DWU_RBP] : cfa;
        if (d & DWU_FRAME_RBP_SAVED)
            rbp_known = synthetic_read(NULL, rbp_base + (uint64_t)DWU_FRAME_RBP_OFFSET(d), &rbp) == 0;
        same = a == DWU_OK && out->r[DWU_RSP] == cfa && out->r[DWU_RIP] == ra &&
               !(out->valid & (1u << DWU_RBP)) == !rbp_known && (!rbp_known || out->r[DWU_RBP] == rbp);
    }
    if (!same && frame_differences++ < 10)
        fprintf(stderr, "eh_elf_equiv: 0x%llx: the frame descriptor 0x%llx disagrees with the step (status %d)\n",
                (unsigned long long)pc, (unsigned long long)d, a);
}

static void compare(dwu_eh_elf_step_fn step, uint64_t pc, const struct unwind_row *row, int signal,
                    uint64_t seed)
{
    struct dwu_regs in = {.valid = (1u << DWU_NREGS) - 1};
    for (unsigned r = 0; r < DWU_NREGS; r++)
        in.r[r] = mix(seed * 31 + r);
    in.r[DWU_RIP] = pc;
    struct dwu_memory mem = {synthetic_read, NULL};
    struct dwu_regs compiled, interpreted;
    memset(&compiled, 0, sizeof compiled);
    int a = step(pc, &in, &compiled, &mem);
    compiled.flags &= ~(DWU_FLAG_SYNTHESISED | DWU_FLAG_UNCHECKED);   /* provenance: not the table's */
    uint64_t d = frame(pc);
    if (!row && d != 0 && frame_differences++ < 10)
        fprintf(stderr, "eh_elf_equiv: 0x%llx: a descriptor where no row is\n", (unsigned long long)pc);
    compare_frame(pc, d, &in, a, &compiled);
    compare_trace(step, pc, d, seed);
    if (a >= DWU_ELOOP && a <= DWU_END)
        statuses[a - DWU_ELOOP]++;
    int b = row ? dwu_dwarf_apply_rules(&row->cfa, row->reg, signal, &in, &interpreted, &mem) : DWU_ENOINFO;
    int same = a == b;
    if (same && a == DWU_OK) {
        same = compiled.valid == interpreted.valid && compiled.flags == interpreted.flags;
        for (unsigned r = 0; same && r < DWU_NREGS; r++)
            if (compiled.valid & (1u << r))
                same = compiled.r[r] == interpreted.r[r];
    }
    if (!same && differences++ < 10)
        fprintf(stderr, "eh_elf_equiv: 0x%llx: compiled status %d, interpreted %d%s\n",
                (unsigned long long)pc, a, b, a == b ? " (registers differ)" : "");
    /* The DWARF fallback, from the file's own bytes. */
    struct dwu_regs fallback;
    memset(&fallback, 0, sizeof fallback);
    int c = dwu_dwarf_step(object, pc + object_bias, &in, &fallback, &mem);
    same = a == c;
    if (same && a == DWU_OK) {
        same = compiled.valid == fallback.valid && compiled.flags == fallback.flags;
        for (unsigned r = 0; same && r < DWU_NREGS; r++)
            if (compiled.valid & (1u << r))
                same = compiled.r[r] == fallback.r[r];
    }
    if (!same && fallback_differences++ < 10)
        fprintf(stderr, "eh_elf_equiv: 0x%llx: compiled status %d, DWARF fallback %d%s\n",
                (unsigned long long)pc, a, c, a == c ? " (registers differ)" : "");
}

static int by_start(const void *a, const void *b)
{
    const struct unwind_table *x = a, *y = b;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return x->end < y->end ? -1 : x->end > y->end;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: eh_elf_equiv FILE EH_ELF\n");
        return 2;
    }
    char err[256];
    struct elf_file ef;
    struct cfi_section eh;
    struct cfi_eval ev;
    if (elf_file_open(&ef, argv[1], err, sizeof err) != 0 ||
        cfi_section_read(&ef, ".eh_frame", &eh, err, sizeof err) <= 0 || cfi_eval_init(&ev, &eh) != 0) {
        fprintf(stderr, "eh_elf_equiv: %s: %s\n", argv[1], err);
        return 2;
    }
    void *h = dlopen(argv[2], RTLD_NOW | RTLD_LOCAL);
    void *sym = h ? dlsym(h, DWU_EH_ELF_STEP) : NULL;
    if (!sym) {
        fprintf(stderr, "eh_elf_equiv: %s: %s\n", argv[2], dlerror());
        return 2;
    }
    dwu_eh_elf_step_fn step;
    memcpy(&step, &sym, sizeof step);
    void *fsym = dlsym(h, DWU_EH_ELF_FRAME);
    if (!fsym) {
        fprintf(stderr, "eh_elf_equiv: %s: %s\n", argv[2], dlerror());
        return 2;
    }
    memcpy(&frame, &fsym, sizeof frame);
    void *tsym = dlsym(h, DWU_EH_ELF_TRACE);
    if (!tsym) {
        fprintf(stderr, "eh_elf_equiv: %s: %s\n", argv[2], dlerror());
        return 2;
    }
    memcpy(&trace, &tsym, sizeof trace);
    static struct dwu_object obj;
    if (load_object(argv[1], &obj, &object_bias) != 0) {
        fprintf(stderr, "eh_elf_equiv: %s: no .eh_frame_hdr in a loadable segment\n", argv[1]);
        return 2;
    }
    object = &obj;
    long rows = 0, addresses = 0, gaps = 0;
    uint64_t seed = 1;
    struct unwind_table *t;
    size_t n;
    struct cfa_error ce = {0};
    const struct eh_frame_fde *bad = NULL;
    if (cfi_eval_all_tables(&ev, &t, &n, &ce, &bad) != 0) {
        fprintf(stderr, "eh_elf_equiv: %s: FDE for 0x%llx: %s\n", argv[1],
                bad ? (unsigned long long)bad->pc_begin : 0ull, ce.reason ? ce.reason : "out of memory");
        return 2;
    }
    /* In address order, as dwcompile lays them out: a later FDE's part that
     * an earlier one covers is not in the eh_elf. */
    qsort(t, n, sizeof *t, by_start);
    uint64_t covered = 0;
    for (size_t i = 0; i < n; i++) {
        int ambiguous = (i > 0 && t[i - 1].start == t[i].start) || (i + 1 < n && t[i + 1].start == t[i].start);
        if (i > 0 && t[i].start > covered && covered) {
            compare(step, covered, NULL, 0, seed++);   /* between FDEs */
            gaps++;
        }
        for (size_t r = 0; r < t[i].nrows && !ambiguous; r++) {
            const struct unwind_row *row = &t[i].rows[r];
            uint64_t lo = row->start > covered ? row->start : covered;
            if (lo >= row->end)
                continue;
            rows++;
            compare(step, lo, row, t[i].signal_frame, seed++);
            compare(step, row->end - 1, row, t[i].signal_frame, seed++);
            addresses += 2;
            /* One address in each 64 bytes between: every page of the
             * eh_elf's index that the row spans, the pages it covers
             * whole among them. */
            for (uint64_t pc = lo + 64; pc < row->end - 1; pc += 64, addresses++)
                compare(step, pc, row, t[i].signal_frame, seed++);
        }
        if (t[i].end > covered && t[i].start < t[i].end)
            covered = t[i].end;
    }
    printf("%s: %ld rows (%ld addresses) and %ld gaps between FDEs: %ld differences, %ld with the DWARF "
           "fallback, %ld with the frame descriptors of %ld simple addresses (%ld of DRAP frames), %ld with the trace entry "
           "(statuses: ok %ld, end %ld, "
           "enoinfo %ld, emem %ld, ereg %ld, ebadrule %ld)\n",
           argv[1], rows, addresses, gaps, differences, fallback_differences, frame_differences, simple_rows,
           drap_rows, trace_differences,
           statuses[DWU_OK - DWU_ELOOP],
           statuses[DWU_END - DWU_ELOOP], statuses[DWU_ENOINFO - DWU_ELOOP], statuses[DWU_EMEM - DWU_ELOOP],
           statuses[DWU_EREG - DWU_ELOOP], statuses[DWU_EBADRULE - DWU_ELOOP]);
    cfi_eval_tables_release(t, n);
    cfi_eval_release(&ev);
    cfi_section_release(&eh);
    elf_file_close(&ef);
    dlclose(h);
    return differences || fallback_differences || frame_differences || trace_differences ? 1 : 0;
}
/* SPDX-License-Identifier: Apache-2.0 */
