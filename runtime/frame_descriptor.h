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
 * rip, rsp and rbp, since no other rule can change them.  Anything else
 * (expressions, another register's CFA, a signal frame) is 0: the full step.
 */
#ifndef DWUNWIND_FRAME_DESCRIPTOR_H
#define DWUNWIND_FRAME_DESCRIPTOR_H

#include <stdint.h>

#include "dwunwind.h"
#include "semantics/abi.h"
#include "semantics/unwind_table.h"

static inline int dwu_fits16(int64_t v)
{
    return v >= INT16_MIN && v <= INT16_MAX;
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
    if (cfa->kind != CFA_RULE_REG_OFFSET || (cfa->reg != ABI_RSP && cfa->reg != ABI_RBP) ||
        !dwu_fits16(cfa->offset) || ra->kind != REG_RULE_OFFSET || !dwu_fits16(ra->offset) ||
        rsp->kind != REG_RULE_UNREFERENCED)
        return 0;
    for (unsigned c = 0; c < UNWIND_COLUMNS; c++) {
        enum reg_rule_kind k = col[c].kind;
        if (k != REG_RULE_UNREFERENCED && k != REG_RULE_UNDEFINED && k != REG_RULE_SAME_VALUE &&
            k != REG_RULE_OFFSET && k != REG_RULE_VAL_OFFSET)
            return 0;
    }
    uint64_t d = DWU_FRAME_SIMPLE | (cfa->reg == ABI_RBP ? DWU_FRAME_CFA_RBP : 0) |
                 (uint64_t)(uint16_t)cfa->offset << 16 | (uint64_t)(uint16_t)ra->offset << 32;
    if (rbp->kind == REG_RULE_OFFSET && dwu_fits16(rbp->offset))
        return d | DWU_FRAME_RBP_SAVED | (uint64_t)(uint16_t)rbp->offset << 48;
    if (rbp->kind == REG_RULE_UNREFERENCED || rbp->kind == REG_RULE_SAME_VALUE)
        return d;
    return 0;
}

#endif
