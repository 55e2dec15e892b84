/* SPDX-License-Identifier: Apache-2.0 */
/*
 * abi: the x86_64 System V facts unwinding depends on, as data.
 *
 * DWARF register numbers; the return address column; the CFA on entry
 * (rsp + 8, the return address at CFA - 8); which registers a callee must
 * preserve; what a column an unwind row does not mention means (the policy
 * the DWARF fallback and the compiled tables share, runtime/column_policy.h).
 * Every stage asks here rather than repeating the facts; nothing here is
 * allocated or owned (constants and pure functions only).
 */
#ifndef DWCHECK_ABI_H
#define DWCHECK_ABI_H

enum abi_dwarf_reg {
    ABI_RAX = 0, ABI_RDX = 1, ABI_RCX = 2, ABI_RBX = 3, ABI_RSI = 4, ABI_RDI = 5,
    ABI_RBP = 6, ABI_RSP = 7, ABI_R8 = 8, ABI_R9 = 9, ABI_R10 = 10, ABI_R11 = 11,
    ABI_R12 = 12, ABI_R13 = 13, ABI_R14 = 14, ABI_R15 = 15, ABI_RA = 16,
};

/* On entry the CFA is rsp + ABI_ENTRY_CFA_OFFSET and the return address is
 * saved at CFA + ABI_ENTRY_RA_OFFSET. */
#define ABI_ENTRY_CFA_OFFSET 8

/* Bytes below rsp that signal and interrupt handlers leave alone. */
#define ABI_RED_ZONE 128
#define ABI_ENTRY_RA_OFFSET (-8)

/* rbx, rbp, r12-r15: the registers a function must restore before it
 * returns, one bit per DWARF number. */
#define ABI_CALLEE_SAVED_MASK                                                                 \
    ((1u << ABI_RBX) | (1u << ABI_RBP) | (1u << ABI_R12) | (1u << ABI_R13) | (1u << ABI_R14) | \
     (1u << ABI_R15))

static inline int abi_callee_saved(unsigned reg)
{
    return reg < 32 && (ABI_CALLEE_SAVED_MASK >> reg & 1u);
}

/* rax, rcx, rdx, rsi, rdi, r8-r11: what a call may change.  Unwinding out
 * of a callee does not recover the caller's values of these. */
static inline int abi_call_clobbered(unsigned reg)
{
    return reg <= ABI_R15 && reg != ABI_RSP && !abi_callee_saved(reg);
}

/*
 * What a column that an unwind row does not mention means in the caller:
 * the stack pointer is the CFA (the caller's rsp is the CFA on x86_64), a
 * callee-saved register keeps its value, any other register is unknown.
 */
enum abi_unmentioned { ABI_UNMENTIONED_UNKNOWN, ABI_UNMENTIONED_IS_CFA, ABI_UNMENTIONED_KEEPS_VALUE };

static inline enum abi_unmentioned abi_unmentioned_column(unsigned reg)
{
    if (reg == ABI_RSP)
        return ABI_UNMENTIONED_IS_CFA;
    return abi_callee_saved(reg) ? ABI_UNMENTIONED_KEEPS_VALUE : ABI_UNMENTIONED_UNKNOWN;
}

/* The callee-saved registers, in DWARF order. */
static const unsigned abi_callee_saved_regs[] = {ABI_RBX, ABI_RBP, ABI_R12, ABI_R13, ABI_R14, ABI_R15};
#define ABI_NCALLEE_SAVED 6

#endif
