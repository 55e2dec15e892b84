/* SPDX-License-Identifier: Apache-2.0 */
/*
 * function_code: decoding one function into IR (see function_code.h).
 */
#include "function_code.h"

#include <stdlib.h>
#include <string.h>

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/*
 * Decode [f->lo, f->hi) linearly, but start an instruction at every address
 * of MUST (sorted): where the sweep would run across one, the bytes up to it
 * become a stop (code reached there overlaps code decoded from elsewhere).
 * Returns 0, or -1 when out of memory.
 */
static int decode_linear(struct x86_decoder *dec, const uint8_t *bytes, uint64_t base,
                         const struct function_range *f, const uint64_t *must, size_t nmust,
                         struct function_code *fc)
{
    size_t cap = (size_t)(f->hi - f->lo) / 3 + 4, m = 0;
    struct ir_insn *insns = malloc(cap * sizeof *insns);
    if (!insns)
        return -1;
    size_t n = 0;
    for (uint64_t addr = f->lo; addr < f->hi;) {
        if (n == cap) {
            cap *= 2;
            struct ir_insn *p = realloc(insns, cap * sizeof *p);
            if (!p) {
                free(insns);
                return -1;
            }
            insns = p;
        }
        while (m < nmust && must[m] <= addr)
            m++;
        struct ir_insn *in = &insns[n++];
        x86_decode(dec, bytes + (addr - base), (size_t)(f->hi - addr), addr, in);
        if (m < nmust && addr + in->len > must[m]) {
            memset(in, 0, sizeof *in);
            in->addr = addr;
            in->len = (uint8_t)(must[m] - addr);
            in->flow = IR_FLOW_STOP;
            in->cmp_a = in->cmp_b = IR_REG_NONE;
        }
        addr += in->len;
    }
    free(fc->insns);
    fc->insns = insns;
    fc->n = n;
    return 0;
}

int function_code_decode(struct function_code *fc, struct elf_file *ef, struct x86_decoder *dec,
                         const struct synth_entry *more, size_t nmore, const char **reason)
{
    const struct function_range *f = fc->func;
    struct elf_section *sec = elf_file_section_at(ef, f->lo);
    if (!sec || sec->type == SHT_NOBITS || f->hi <= f->lo || f->lo < sec->addr || f->hi - sec->addr > sec->size) {
        *reason = "function lies outside the file's sections";
        return -1;
    }
    uint64_t nbytes;
    char err[ELF_FILE_ERRLEN];
    const uint8_t *bytes = elf_file_section_bytes(ef, sec, &nbytes, err, sizeof err);
    if (!bytes || f->hi - sec->addr > nbytes) {
        *reason = "function bytes cannot be read";
        return -1;
    }
    /* Instructions must start where jumps land: entries from other fragments
     * first, then the function's own jump targets, which a plain sweep can
     * miss after bytes it decoded out of step (data, or code jumped into
     * the middle of what the sweep took for one instruction). */
    size_t nmust = 0, cap = nmore + 16;
    uint64_t *must = malloc(cap * sizeof *must);
    if (!must) {
        *reason = "out of memory";
        return -1;
    }
    for (size_t k = 0; k < nmore; k++)
        if (more[k].addr > f->lo && more[k].addr < f->hi)
            must[nmust++] = more[k].addr;
    int rc = 0;
    for (int round = 0; round < 3 && rc == 0; round++) {
        qsort(must, nmust, sizeof *must, cmp_u64);
        if (decode_linear(dec, bytes, sec->addr, f, must, nmust, fc) != 0) {
            rc = -1;
            break;
        }
        size_t before = nmust;
        for (size_t i = 0; i < fc->n; i++) {
            const struct ir_insn *in = &fc->insns[i];
            if ((in->flow != IR_FLOW_JUMP && in->flow != IR_FLOW_COND) || in->target <= f->lo ||
                in->target >= f->hi || function_code_insn_at(fc, in->target) != (size_t)-1)
                continue;
            if (nmust == cap) {
                cap *= 2;
                uint64_t *p = realloc(must, cap * sizeof *p);
                if (!p) {
                    rc = -1;
                    break;
                }
                must = p;
            }
            must[nmust++] = in->target;
        }
        if (nmust == before)
            break;
    }
    free(must);
    if (rc != 0)
        *reason = "out of memory";
    return rc;
}

int function_code_bounds_a_switch(const struct function_code *fc, size_t i)
{
    if (i >= fc->n || fc->insns[i].flow != IR_FLOW_COND)
        return 0;
    for (size_t k = i + 1; k < fc->n && k <= i + 6; k++) {
        if (fc->insns[k].flow == IR_FLOW_JUMP_INDIRECT)
            return 1;
        if (fc->insns[k].flow != IR_FLOW_NEXT)
            return 0;
    }
    return 0;
}
