/* SPDX-License-Identifier: Apache-2.0 */
/*
 * excerpt: the code around a finding, gathered by running synthesis over
 * its function once more.
 */
#include "excerpt.h"

#include <stdio.h>
#include <string.h>

#include "object/elf_file.h"
#include "semantics/abi.h"
#include "semantics/fde_lookup.h"
#include "semantics/print/table_print.h"
#include "synth/program.h"
#include "synth/x86_decode.h"

/* The DWARF columns of EXCERPT_COLUMNS after the CFA. */
static const unsigned excerpt_regs[EXCERPT_NCOLUMNS - 1] = {
    ABI_RBX, ABI_RBP, ABI_R12, ABI_R13, ABI_R14, ABI_R15, ABI_RA,
};

struct capture {
    struct synth_program *prog;
    struct fde_lookup *dw;
    uint64_t address;
    struct excerpt *x;
    size_t after;                   /* rows taken after the finding's */
    int found;
};

static struct excerpt_rule rule_of(const struct unwind_rule *r)
{
    return (struct excerpt_rule){.kind = r->kind, .reg = r->reg, .offset = r->offset};
}

static void take_row(struct excerpt_rule *cells, const struct unwind_rule *cfa, const struct unwind_rule *regs)
{
    cells[0] = rule_of(cfa);
    for (unsigned i = 0; i < EXCERPT_NCOLUMNS - 1; i++)
        cells[i + 1] = rule_of(&regs[excerpt_regs[i]]);
}

void excerpt_insn_text(struct synth_program *prog, const struct ir_insn *in, char *buf, size_t size)
{
    struct elf_section *sec = elf_file_section_at(prog->ef, in->addr);
    uint64_t n;
    char err[ELF_FILE_ERRLEN];
    const uint8_t *bytes = sec ? elf_file_section_bytes(prog->ef, sec, &n, err, sizeof err) : NULL;
    if (bytes)
        x86_disassemble(prog->decoder, bytes + (in->addr - sec->addr), in->len, in->addr, buf, size);
    else
        snprintf(buf, size, "?");
}

/* synth_insn_fn: keep a window of EXCERPT_BEFORE rows until the finding's
 * address, then that row and EXCERPT_AFTER more. */
static void capture(void *arg, const struct ir_insn *in, const struct abstract_state *st, int reached)
{
    struct capture *c = arg;
    struct excerpt *x = c->x;
    if (c->found && c->after >= EXCERPT_AFTER)
        return;
    struct excerpt_row row;
    memset(&row, 0, sizeof row);
    row.address = in->addr;
    excerpt_insn_text(c->prog, in, row.insn, sizeof row.insn);
    const struct eh_frame_fde *fde;
    const struct unwind_row *dw = fde_lookup_row(c->dw, in->addr, &fde);
    if (dw) {
        row.has_dwarf = 1;
        take_row(row.dwarf, &dw->cfa, dw->reg);
    }
    if (reached) {
        struct unwind_row syn;
        struct synth_row_exprs syn_exprs;
        emit_row_from_state(st, &syn, &syn_exprs);
        row.has_synth = 1;
        take_row(row.synth, &syn.cfa, syn.reg);
    }
    row.here = in->addr == c->address;
    if (c->found) {
        c->after++;
    } else if (row.here) {
        c->found = 1;
    } else if (x->nrows == EXCERPT_BEFORE) {
        memmove(&x->rows[0], &x->rows[1], (EXCERPT_BEFORE - 1) * sizeof x->rows[0]);
        x->nrows--;
    }
    x->rows[x->nrows++] = row;
}

void excerpt_gather(struct excerpt *x, struct synth_program *prog, struct fde_lookup *dw, size_t func,
                    uint64_t address)
{
    memset(x, 0, sizeof *x);
    struct capture c = {.prog = prog, .dw = dw, .address = address, .x = x};
    struct synth_outcome out;
    synth_program_observe(prog, func, capture, NULL, &c, &out);
}

void excerpt_rule_text(char *buf, size_t size, const struct excerpt_rule *rule, unsigned column)
{
    /* Expressions print by kind alone: no bytes are needed. */
    struct unwind_rule r = {.kind = rule->kind, .reg = rule->reg, .offset = rule->offset};
    if (column == 0)
        table_print_cfa_rule(buf, size, &r);
    else
        table_print_reg_rule_plain(buf, size, &r);
}
