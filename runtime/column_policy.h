/*
 * column_policy: what a column the unwind row does not mention means.
 *
 * One rule for the compiled tables (compile/eh_elf_gen) and the DWARF
 * fallback (runtime/dwarf_fallback), so both restore the same registers:
 * the stack pointer becomes the CFA (the caller's rsp is the CFA on x86_64),
 * a callee-saved register (rbx, rbp, r12-r15) keeps its value, and any other
 * register is unknown in the caller.
 */
#ifndef DWUNWIND_COLUMN_POLICY_H
#define DWUNWIND_COLUMN_POLICY_H

enum unmentioned_column { COLUMN_BECOMES_CFA, COLUMN_KEEPS_VALUE, COLUMN_UNKNOWN };

static inline enum unmentioned_column unmentioned_column(unsigned column)
{
    switch (column) {
    case 7:                              /* rsp */
        return COLUMN_BECOMES_CFA;
    case 3: case 6: case 12: case 13: case 14: case 15:   /* rbx, rbp, r12-r15 */
        return COLUMN_KEEPS_VALUE;
    default:
        return COLUMN_UNKNOWN;
    }
}

#endif
