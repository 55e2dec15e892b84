/*
 * callee_saved: the callee-saved registers of the x86_64 SysV ABI in
 * libunwind's numbering and in dwunwind's, position for position, for the
 * checks that compare the registers the two unwinders restore.
 * Include after <libunwind.h> and "runtime/dwunwind.h".
 */
#ifndef DWCHECK_TESTS_CALLEE_SAVED_H
#define DWCHECK_TESTS_CALLEE_SAVED_H

#define NCALLEE_SAVED 6
static const unw_regnum_t unw_callee_saved[NCALLEE_SAVED] = {
    UNW_X86_64_RBX, UNW_X86_64_RBP, UNW_X86_64_R12, UNW_X86_64_R13, UNW_X86_64_R14, UNW_X86_64_R15};
static const int dwu_callee_saved[NCALLEE_SAVED] = {DWU_RBX, DWU_RBP, DWU_R12, DWU_R13, DWU_R14, DWU_R15};

#endif
/* SPDX-License-Identifier: Apache-2.0 */
