/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ucontext_offsets: where glibc's x86_64 ucontext_t keeps what
 * unw_getcontext fills and unw_resume reads, for the assembly of
 * compat/unw_context.S (compat/libunwind.c checks each against
 * <ucontext.h> at compile time).
 */
#ifndef DWUNWIND_COMPAT_UCONTEXT_OFFSETS_H
#define DWUNWIND_COMPAT_UCONTEXT_OFFSETS_H

#define UC_GREGS 40                       /* uc_mcontext.gregs[] */
#define UC_GREG(n) (UC_GREGS + 8 * (n))   /* REG_* of <sys/ucontext.h> */
#define UC_R8 UC_GREG(0)
#define UC_R9 UC_GREG(1)
#define UC_R10 UC_GREG(2)
#define UC_R11 UC_GREG(3)
#define UC_R12 UC_GREG(4)
#define UC_R13 UC_GREG(5)
#define UC_R14 UC_GREG(6)
#define UC_R15 UC_GREG(7)
#define UC_RDI UC_GREG(8)
#define UC_RSI UC_GREG(9)
#define UC_RBP UC_GREG(10)
#define UC_RBX UC_GREG(11)
#define UC_RDX UC_GREG(12)
#define UC_RAX UC_GREG(13)
#define UC_RCX UC_GREG(14)
#define UC_RSP UC_GREG(15)
#define UC_RIP UC_GREG(16)
#define UC_FPREGS_PTR 224                 /* uc_mcontext.fpregs */
#define UC_FPREGS_MEM 424                 /* __fpregs_mem */
#define FPSTATE_MXCSR 24                  /* struct _libc_fpstate's mxcsr */

#endif
