/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cfi_text: row transitions as GAS directives.
 */
#include "cfi_text.h"

#include <string.h>

#include "kit/byte_writer.h"
#include "semantics/abi.h"
#include "semantics/dwarf_expr.h"

/* DW_CFA opcodes written through .cfi_escape. */
#define DW_CFA_DEF_CFA_EXPRESSION 0x0f
#define DW_CFA_EXPRESSION 0x10
#define DW_CFA_VAL_EXPRESSION 0x16

void cfi_entry_row(struct unwind_row *row)
{
    memset(row, 0, sizeof *row);
    row->cfa = (struct unwind_rule){.kind = CFA_RULE_REG_OFFSET, .reg = ABI_RSP,
                                    .offset = ABI_ENTRY_CFA_OFFSET};
    row->reg[ABI_RA] = (struct unwind_rule){.kind = REG_RULE_OFFSET, .offset = ABI_ENTRY_RA_OFFSET};
}

/* A register as the directive spells it: "%rbx" or "rbx" (the RA column is rip). */
static const char *reg_text(char *buf, size_t size, unsigned reg, enum cfi_reg_style style)
{
    const char *name = reg == ABI_RA ? "rip" : dwarf_reg_name(reg);
    if (!name)
        snprintf(buf, size, "%u", reg);   /* DWARF numbers always parse */
    else
        snprintf(buf, size, "%s%s", style == CFI_REGS_PERCENT ? "%" : "", name);
    return buf;
}

/* ", 0x.." for each byte of a ULEB128 value. */
static void write_uleb(FILE *out, uint64_t v)
{
    uint8_t b[10];
    size_t n = uleb128_encode(v, b);
    for (size_t i = 0; i < n; i++)
        fprintf(out, ", 0x%02x", b[i]);
}

/* `.cfi_escape OPCODE[, REG], LEN, BYTES...` for an expression rule. */
static void write_escape(FILE *out, const char *prefix, const char *eol, unsigned opcode, int reg,
                         const struct unwind_rule *rule)
{
    fprintf(out, "%s.cfi_escape 0x%02x", prefix, opcode);
    if (reg >= 0)
        write_uleb(out, (uint64_t)reg);
    write_uleb(out, rule->expr_len);
    for (uint32_t i = 0; i < rule->expr_len; i++)
        fprintf(out, ", 0x%02x", rule->expr[i]);
    fputs(eol, out);
}

static size_t write_cfa(FILE *out, const char *prefix, const char *eol, const struct unwind_rule *pc,
                        const struct unwind_rule *cc, enum cfi_reg_style style)
{
    char reg[16];
    if (unwind_cfa_rule_equal(pc, cc))
        return 0;
    if (cc->kind == CFA_RULE_EXPRESSION) {
        write_escape(out, prefix, eol, DW_CFA_DEF_CFA_EXPRESSION, -1, cc);
        return 0;
    }
    if (cc->kind != CFA_RULE_REG_OFFSET) {
        fprintf(out, "%s# CFA unknown here%s", prefix, eol);
        return 1;
    }
    reg_text(reg, sizeof reg, cc->reg, style);
    if (pc->kind == CFA_RULE_REG_OFFSET && pc->reg == cc->reg)
        fprintf(out, "%s.cfi_def_cfa_offset %lld%s", prefix, (long long)cc->offset, eol);
    else if (pc->kind == CFA_RULE_REG_OFFSET && pc->offset == cc->offset)
        fprintf(out, "%s.cfi_def_cfa_register %s%s", prefix, reg, eol);
    else
        fprintf(out, "%s.cfi_def_cfa %s, %lld%s", prefix, reg, (long long)cc->offset, eol);
    return 0;
}

size_t cfi_write_transition(FILE *out, const char *prefix, const char *eol,
                            const struct unwind_row *from, const struct unwind_row *to,
                            enum cfi_reg_style style)
{
    size_t unknown = write_cfa(out, prefix, eol, &from->cfa, &to->cfa, style);
    for (unsigned c = 0; c < UNWIND_COLUMNS; c++) {
        const struct unwind_rule *p = &from->reg[c], *r = &to->reg[c];
        if (unwind_rule_equal(p, r))
            continue;
        char reg[16], other[16];
        reg_text(reg, sizeof reg, c, style);
        switch (r->kind) {
        case REG_RULE_OFFSET:
            fprintf(out, "%s.cfi_offset %s, %lld%s", prefix, reg, (long long)r->offset, eol);
            break;
        case REG_RULE_UNREFERENCED:
        case REG_RULE_SAME_VALUE:
            /* Back to the CIE's rule: for a callee-saved register, its own value. */
            fprintf(out, "%s.cfi_restore %s%s", prefix, reg, eol);
            break;
        case REG_RULE_UNDEFINED:
            fprintf(out, "%s.cfi_undefined %s%s", prefix, reg, eol);
            break;
        case REG_RULE_VAL_OFFSET:
            fprintf(out, "%s.cfi_val_offset %s, %lld%s", prefix, reg, (long long)r->offset, eol);
            break;
        case REG_RULE_REGISTER:
            fprintf(out, "%s.cfi_register %s, %s%s", prefix, reg,
                    reg_text(other, sizeof other, r->reg, style), eol);
            break;
        case REG_RULE_EXPRESSION:
            write_escape(out, prefix, eol, DW_CFA_EXPRESSION, (int)c, r);
            break;
        case REG_RULE_VAL_EXPRESSION:
            write_escape(out, prefix, eol, DW_CFA_VAL_EXPRESSION, (int)c, r);
            break;
        default:
            fprintf(out, "%s# %s unknown here%s", prefix, reg, eol);
            unknown++;
            break;
        }
    }
    return unknown;
}
