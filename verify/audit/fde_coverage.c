/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fde_coverage: FDE faults, overlaps and gaps (see the header).
 */
#include "fde_coverage.h"

#include <stdarg.h>
#include <stdio.h>

#include "semantics/cfi_eval.h"
#include "synth/x86_decode.h"

static void report(coverage_fn fn, void *arg, enum finding_kind kind, uint64_t addr, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static void report(coverage_fn fn, void *arg, enum finding_kind kind, uint64_t addr, const char *fmt, ...)
{
    char message[sizeof ((struct finding *)0)->message];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    fn(arg, kind, addr, message);
}

/* FDEs whose range is not code of the file (cfi_reader.h): the lookup and
 * synthesis leave them out, so they are reported here, in section order. */
static void fde_faults(const struct cfi_section *s, coverage_fn fn, void *arg)
{
    for (size_t i = 0; i < s->nfdes; i++) {
        const struct eh_frame_fde *f = &s->fdes[i];
        unsigned long long off = f->offset, lo = f->pc_begin, range = f->pc_range, hi = lo + range;
        if (f->fault == FDE_RANGE_WRAPS)
            report(fn, arg, FINDING_MALFORMED_CFI, lo,
                   "FDE at offset 0x%llx: its range, 0x%llx bytes from 0x%llx, wraps around the "
                   "address space", off, range, lo);
        else if (f->fault == FDE_PAST_SEGMENT)
            report(fn, arg, FINDING_MALFORMED_CFI, lo,
                   "FDE at offset 0x%llx covers [0x%llx, 0x%llx), 0x%llx bytes, past the end of "
                   "the executable segment it starts in", off, lo, hi, range);
        else if (f->fault == FDE_NOT_CODE)
            report(fn, arg, FINDING_FDE_NO_CODE, lo,
                   "FDE at offset 0x%llx covers [0x%llx, 0x%llx), which is not code", off, lo, hi);
    }
}

void fde_coverage_table(struct fde_lookup *l, struct elf_file *ef, coverage_fn fn, void *arg)
{
    fde_faults(l->ev.section, fn, arg);
    for (size_t i = 0; i < l->n; i++) {
        const struct eh_frame_fde *f = l->by_pc[i];
        struct elf_section *sec = elf_file_section_at(ef, f->pc_begin);
        if (!sec || !(sec->flags & SHF_EXECINSTR) || f->pc_range > sec->size ||
            f->pc_begin - sec->addr > sec->size - f->pc_range)
            report(fn, arg, FINDING_FDE_NO_CODE, f->pc_begin,
                   "FDE at offset 0x%llx covers [0x%llx, 0x%llx), which is not code",
                   (unsigned long long)f->offset, (unsigned long long)f->pc_begin,
                   (unsigned long long)(f->pc_begin + f->pc_range));
        if (i > 0) {
            const struct eh_frame_fde *p = l->by_pc[i - 1];
            if (f->pc_begin < p->pc_begin + p->pc_range)
                report(fn, arg, FINDING_FDE_OVERLAP, f->pc_begin, "FDEs at offsets 0x%llx and 0x%llx both cover 0x%llx",
                       (unsigned long long)p->offset, (unsigned long long)f->offset,
                       (unsigned long long)f->pc_begin);
        }
        struct unwind_table t;
        struct cfa_error e;
        if (cfi_eval_fde_table(&l->ev, f, &t, &e) == 0)
            unwind_table_release(&t);
        else
            report(fn, arg, FINDING_MALFORMED_CFI, f->pc_begin, "FDE at offset 0x%llx: %s (instruction byte %zu)",
                   (unsigned long long)f->offset, e.reason ? e.reason : "malformed", e.offset);
    }
}

void fde_coverage_function(struct fde_lookup *dw, const struct function_range *f, coverage_fn fn, void *arg)
{
    if (f->source != FUNC_FROM_SYMBOL || f->flaw)
        return;
    for (uint64_t a = f->lo; a < f->hi;) {
        const struct eh_frame_fde *fde = fde_lookup_fde(dw, a);
        if (!fde) {
            report(fn, arg, FINDING_FDE_GAP, a, "code of %s from 0x%llx has no FDE: unwinding through it fails",
                   f->name[0] ? f->name : "this function", (unsigned long long)a);
            return;
        }
        a = fde->pc_begin + fde->pc_range;
    }
}

/* The first instruction in [A, END) that is not padding (nop, int3), or END. */
static uint64_t skip_padding(const struct synth_program *p, uint64_t a, uint64_t end)
{
    struct elf_section *sec = elf_file_section_at(p->ef, a);
    uint64_t n;
    char err[ELF_FILE_ERRLEN];
    const uint8_t *bytes = sec && sec->type != SHT_NOBITS ? elf_file_section_bytes(p->ef, sec, &n, err, sizeof err)
                                                          : NULL;
    if (!bytes || end - sec->addr > n)
        return end;
    while (a < end) {
        struct ir_insn in;
        unsigned len = x86_decode(p->decoder, bytes + (a - sec->addr), end - a, a, &in);
        if (!len || !in.is_padding)
            return a;
        a += len;
    }
    return end;
}

/* Does the code of the function that ends at A run into [A, END): its last
 * instruction falling through, or a jump of it landing there? */
static int runs_into(const struct synth_program *p, uint64_t a, uint64_t end)
{
    size_t fi = function_index_at(&p->index, a - 1);
    struct function_code code;
    if (fi == (size_t)-1 || synth_program_code(p, fi, &code) != 0)
        return 0;
    int into = 0;
    for (size_t k = 0; k < code.n && !into; k++) {
        const struct ir_insn *in = &code.insns[k];
        int jumps = in->flow == IR_FLOW_JUMP || in->flow == IR_FLOW_COND;
        int falls = in->flow == IR_FLOW_NEXT || in->flow == IR_FLOW_COND || in->flow == IR_FLOW_CALL ||
                    in->flow == IR_FLOW_CALL_INDIRECT;
        into = (jumps && in->target >= a && in->target < end) || (falls && in->addr + in->len == a);
    }
    synth_program_code_release(p, fi, &code);
    return into;
}

void fde_coverage_tails(const struct synth_program *p, struct fde_lookup *dw, coverage_fn fn, void *arg)
{
    const struct function_index *ix = &p->index;
    uint64_t reported = 0;
    for (size_t k = 0; k < ix->nnames; k++) {
        const struct named_address *na = &ix->names[k];
        uint64_t end = na->addr + na->size;
        if (!na->size || end < na->addr || !fde_lookup_fde(dw, na->addr))
            continue;   /* (a symbol no FDE starts is fde_coverage_function's) */
        for (uint64_t a = na->addr; a < end;) {
            const struct eh_frame_fde *fde = fde_lookup_fde(dw, a);
            if (fde) {
                a = fde->pc_begin + fde->pc_range;
                continue;
            }
            if (!runs_into(p, a, end))
                break;
            uint64_t code = skip_padding(p, a, end);
            if (code < end && fde_lookup_fde(dw, code)) {
                a = code;   /* padding, then the next part's FDE */
                continue;
            }
            if (code < end && code != reported) {
                report(fn, arg, FINDING_FDE_GAP, code,
                       "code of %s from 0x%llx has no FDE (its FDEs end at 0x%llx): unwinding through it fails",
                       na->name[0] ? na->name : "this function", (unsigned long long)code, (unsigned long long)a);
                reported = code;
            }
            break;
        }
    }
}
