/* SPDX-License-Identifier: Apache-2.0 */
/*
 * column_policy: what a column the unwind row does not mention means.
 *
 * One rule for the compiled tables (compile/eh_elf_gen) and the DWARF
 * fallback (runtime/dwarf_fallback), so both restore the same registers.
 * The facts are the ABI's and live in semantics/abi.h
 * (abi_unmentioned_column): the stack pointer becomes the CFA, a
 * callee-saved register keeps its value, and any other register is unknown
 * in the caller.
 */
#ifndef DWUNWIND_COLUMN_POLICY_H
#define DWUNWIND_COLUMN_POLICY_H

#include "semantics/abi.h"

enum unmentioned_column {
    COLUMN_BECOMES_CFA = ABI_UNMENTIONED_IS_CFA,
    COLUMN_KEEPS_VALUE = ABI_UNMENTIONED_KEEPS_VALUE,
    COLUMN_UNKNOWN = ABI_UNMENTIONED_UNKNOWN,
};

static inline enum unmentioned_column unmentioned_column(unsigned column)
{
    return (enum unmentioned_column)abi_unmentioned_column(column);
}

#endif
