/* SPDX-License-Identifier: Apache-2.0 */
/*
 * frame_descriptor: an unwind row as the 64-bit descriptor (DWU_FRAME_*,
 * dwunwind.h) that dwu_backtrace's walk applies to rip, rsp and rbp alone.
 *
 * One rule for the compiled tables (compile/eh_elf_gen writes it into each
 * eh_elf's frame entry) and for the DWARF fallback (runtime/unwind.c keeps
 * the descriptors of rows it interpreted), so that a row cached from either
 * walks the same.  A row is simple when its CFA is rsp or rbp plus a 16-bit
 * offset, the return address is saved at the CFA plus a 16-bit offset (or
 * undefined: the outermost frame), rsp becomes the CFA, rbp is unchanged or
 * saved at the CFA plus an offset, and every other column's rule cannot
 * fail (a save slot, a value, unchanged, undefined): such a walk needs only
 * rip, rsp and rbp, since no other rule can change them.
 *
 * GCC's DRAP frames (a function that realigns its stack keeps the CFA in a
 * slot: CFA = [rbp - 8], rbp saved at [rbp], other registers at rbp - N)
 * are simple too: a CFA rule DW_OP_bregN K; DW_OP_deref (N rsp or rbp) is
 * DWU_FRAME_CFA_DEREF, a save slot DW_OP_breg6 K (rbp + K) cannot fail
 * once rbp is known, and is DWU_FRAME_RBP_AT_RBP for rbp's.  Anything else
 * (other expressions, another register's CFA, a signal frame) is 0: the
 * full step.
 */
#ifndef DWUNWIND_FRAME_DESCRIPTOR_H
#define DWUNWIND_FRAME_DESCRIPTOR_H

#include <stdint.h>

#include "dwunwind.h"
#include "semantics/abi.h"
#include "semantics/byte_reader.h"
#include "semantics/dwarf_constants.h"
#include "semantics/unwind_table.h"

static inline int dwu_fits16(int64_t v)
{
    return v >= INT16_MIN && v <= INT16_MAX;
}

/* Whether RULE's expression is exactly DW_OP_bregN K (N rsp or rbp; rbp
 * alone unless ANY_BASE), then DW_OP_deref when DEREF: *BASE_RBP says
 * which register, *K its 16-bit offset. */
static inline int dwu_register_expression(const struct unwind_rule *rule, int deref, int any_base, int *base_rbp,
                                          int64_t *k)
{
    struct byte_reader r;
    uint64_t reg, op;
    if (!rule->expr)
        return 0;
    byte_reader_init(&r, rule->expr, rule->expr_len);
    if (read_uint(&r, 1, &reg) != 0 || (reg != DW_OP_breg6 && (reg != DW_OP_breg7 || !any_base)) ||
        read_sleb128(&r, k) != 0 || !dwu_fits16(*k))
        return 0;
    if (deref && (read_uint(&r, 1, &op) != 0 || op != DW_OP_deref))
        return 0;
    *base_rbp = reg == DW_OP_breg6;
    return byte_reader_left(&r) == 0;
}

/* Whether column rule RULE cannot fail in a walk that knows rbp: a save
 * slot, a value, unchanged, undefined, or saved at rbp + K. */
static inline int dwu_rule_cannot_fail(const struct unwind_rule *rule)
{
    int base_rbp;
    int64_t k;
    switch (rule->kind) {
    case REG_RULE_UNREFERENCED: case REG_RULE_UNDEFINED: case REG_RULE_SAME_VALUE:
    case REG_RULE_OFFSET: case REG_RULE_VAL_OFFSET:
        return 1;
    case REG_RULE_EXPRESSION:
        return dwu_register_expression(rule, 0, 0, &base_rbp, &k);
    default:
        return 0;
    }
}

/* The descriptor of the row whose CFA rule is CFA and whose columns are COL
 * (UNWIND_COLUMNS of them); SIGNAL_FRAME when its CIE has "S".  0 when the
 * row is not simple. */
static inline uint64_t dwu_frame_descriptor(const struct unwind_rule *cfa, const struct unwind_rule *col,
                                            int signal_frame)
{
    const struct unwind_rule *ra = &col[ABI_RA], *rbp = &col[ABI_RBP], *rsp = &col[ABI_RSP];
    if (signal_frame)
        return 0;
    if (ra->kind == REG_RULE_UNDEFINED)
        return DWU_FRAME_SIMPLE | DWU_FRAME_END;
    int64_t cfa_offset = cfa->offset, rbp_offset;
    int cfa_rbp = cfa->reg == ABI_RBP, base_rbp;
    uint64_t d = DWU_FRAME_SIMPLE;
    if (cfa->kind == CFA_RULE_EXPRESSION && dwu_register_expression(cfa, 1, 1, &cfa_rbp, &cfa_offset))
        d |= DWU_FRAME_CFA_DEREF;
    else if (cfa->kind != CFA_RULE_REG_OFFSET || (cfa->reg != ABI_RSP && cfa->reg != ABI_RBP) ||
             !dwu_fits16(cfa->offset))
        return 0;
    if (ra->kind != REG_RULE_OFFSET || !dwu_fits16(ra->offset) || rsp->kind != REG_RULE_UNREFERENCED)
        return 0;
    for (unsigned c = 0; c < UNWIND_COLUMNS; c++)
        if (!dwu_rule_cannot_fail(&col[c]))
            return 0;
    d |= (cfa_rbp ? DWU_FRAME_CFA_RBP : 0) | (uint64_t)(uint16_t)cfa_offset << 16 |
         (uint64_t)(uint16_t)ra->offset << 32;
    if (rbp->kind == REG_RULE_OFFSET && dwu_fits16(rbp->offset))
        return d | DWU_FRAME_RBP_SAVED | (uint64_t)(uint16_t)rbp->offset << 48;
    if (rbp->kind == REG_RULE_EXPRESSION && dwu_register_expression(rbp, 0, 0, &base_rbp, &rbp_offset))
        return d | DWU_FRAME_RBP_SAVED | DWU_FRAME_RBP_AT_RBP | (uint64_t)(uint16_t)rbp_offset << 48;
    if (rbp->kind == REG_RULE_UNREFERENCED || rbp->kind == REG_RULE_SAME_VALUE)
        return d;
    return 0;
}

#endif
