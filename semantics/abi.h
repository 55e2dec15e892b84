/*
 * abi: the x86_64 System V facts unwinding depends on, as data.
 *
 * DWARF register numbers; the return address column; the CFA on entry
 * (rsp + 8, the return address at CFA - 8); which registers a callee must
 * preserve.  Every stage asks here rather than repeating the facts.
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
#define ABI_ENTRY_RA_OFFSET (-8)

/* rbx, rbp, r12-r15: the registers a function must restore before it returns. */
static inline int abi_callee_saved(unsigned reg)
{
    return reg == ABI_RBX || reg == ABI_RBP || (reg >= ABI_R12 && reg <= ABI_R15);
}

/* rax, rcx, rdx, rsi, rdi, r8-r11: what a call may change.  Unwinding out
 * of a callee does not recover the caller's values of these. */
static inline int abi_call_clobbered(unsigned reg)
{
    return reg <= ABI_R15 && reg != ABI_RSP && !abi_callee_saved(reg);
}

/* The callee-saved registers, in DWARF order. */
static const unsigned abi_callee_saved_regs[] = {ABI_RBX, ABI_RBP, ABI_R12, ABI_R13, ABI_R14, ABI_R15};
#define ABI_NCALLEE_SAVED 6

#endif
