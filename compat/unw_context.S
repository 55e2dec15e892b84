/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The drop-in's entry points that must be assembly: they take or set the
 * machine's registers themselves.
 *
 * _Ux86_64_getcontext(ucontext_t *uc): unw_getcontext.  Fills what
 * libunwind 1.6's fills, the same way: every general register but r10 and
 * r11 (rsp as after the return, rip the return address), the x87
 * environment (fnstenv, which masks x87 exceptions as it does) and MXCSR
 * into the context's own FP area, and the pointer to it; not the signal
 * mask.  Returns 0.
 *
 * _Ux86_64_setcontext(const ucontext_t *uc): libunwind.so.8 exports it
 * (Debian's libunwind-x86_64.so.8 calls it): that context's x87
 * environment, MXCSR and registers, then a jump to its rip.
 *
 * lu_jump(const uint64_t regs[17]): unw_resume's jump to a frame up this
 * stack: rax ... r15 and rip in dwunwind.h's order.  The words are copied
 * below this frame first; rip and rdi are stored just below the target's
 * stack pointer (dead stack at a call site, as a push there would be),
 * every other register is loaded, then rsp points at those two words and
 * pop and ret take them.  Nothing is read below the stack pointer.
 *
 * lu_jump_landing_pad(const uint64_t regs[17]): an exception's landing
 * pad installed (the same order): only the registers live there are
 * loaded, rax and rdx (the personality's arguments) and the callee-saved
 * ones, then rsp, and rip is jumped to through rcx, caller-saved and so
 * dead at the call site a landing pad stands for (libgcc's
 * __builtin_eh_return jumps through it too).  No copy, no return address
 * stored: a ret the return stack cannot predict is saved.
 *
 * lu_sigreturn(uint64_t uc): rt_sigreturn through the ucontext of a signal
 * frame (as its trampoline would): the signal mask, FP state and
 * registers that context holds.
 *
 * unw_backtrace(void **ips, int max), and backtrace (weak, as libunwind
 * exports it): the caller's registers taken at the entry, as dwu_backtrace
 * takes them (runtime/capture.S), then lu_backtrace_from (libunwind.c).
 *
 * _Unwind_RaiseException, _Unwind_ForcedUnwind, _Unwind_Resume and
 * _Unwind_Resume_or_Rethrow (unwind_abi.c's lu_unwind_* bodies): the same,
 * so that a throw's walks start at the caller with no getcontext and no
 * step through the entry's own frame (a table interpreted: the library has
 * no eh_elf).
 */
#include "compat/ucontext_offsets.h"

    .text
    .globl  _Ux86_64_getcontext
    .type   _Ux86_64_getcontext, @function
_Ux86_64_getcontext:
    .cfi_startproc
    movq    %r12, UC_R12(%rdi)
    movq    %r13, UC_R13(%rdi)
    movq    %r14, UC_R14(%rdi)
    movq    %r15, UC_R15(%rdi)
    movq    %rbp, UC_RBP(%rdi)
    movq    %rbx, UC_RBX(%rdi)
    movq    %r8, UC_R8(%rdi)
    movq    %r9, UC_R9(%rdi)
    movq    %rdi, UC_RDI(%rdi)
    movq    %rsi, UC_RSI(%rdi)
    movq    %rdx, UC_RDX(%rdi)
    movq    %rax, UC_RAX(%rdi)
    movq    %rcx, UC_RCX(%rdi)
    leaq    UC_FPREGS_MEM(%rdi), %r8
    movq    %r8, UC_FPREGS_PTR(%rdi)
    fnstenv (%r8)
    stmxcsr FPSTATE_MXCSR(%r8)
    leaq    8(%rsp), %rax
    movq    %rax, UC_RSP(%rdi)
    movq    (%rsp), %rax
    movq    %rax, UC_RIP(%rdi)
    xorl    %eax, %eax
    ret
    .cfi_endproc
    .size   _Ux86_64_getcontext, .-_Ux86_64_getcontext

    .globl  _Ux86_64_setcontext
    .type   _Ux86_64_setcontext, @function
_Ux86_64_setcontext:
    .cfi_startproc
    movq    UC_FPREGS_PTR(%rdi), %r8
    fldenv  (%r8)
    ldmxcsr FPSTATE_MXCSR(%r8)
    movq    UC_R8(%rdi), %r8
    movq    UC_R9(%rdi), %r9
    movq    UC_RBX(%rdi), %rbx
    movq    UC_RBP(%rdi), %rbp
    movq    UC_R12(%rdi), %r12
    movq    UC_R13(%rdi), %r13
    movq    UC_R14(%rdi), %r14
    movq    UC_R15(%rdi), %r15
    movq    UC_RSI(%rdi), %rsi
    movq    UC_RDX(%rdi), %rdx
    movq    UC_RAX(%rdi), %rax
    movq    UC_RSP(%rdi), %rsp
    pushq   UC_RIP(%rdi)
    movq    UC_RCX(%rdi), %rcx
    movq    UC_RDI(%rdi), %rdi
    ret
    .cfi_endproc
    .size   _Ux86_64_setcontext, .-_Ux86_64_setcontext

    .globl  lu_jump
    .hidden lu_jump
    .type   lu_jump, @function
lu_jump:
    .cfi_startproc
    subq    $152, %rsp                  /* the 17 words, and one for the new rsp */
    .cfi_adjust_cfa_offset 152
    movq    %rdi, %rsi
    movq    %rsp, %rdi
    movl    $17, %ecx
    cld
    rep movsq
    movq    %rsp, %rdi
    movq    56(%rdi), %rax              /* the target's rsp */
    subq    $16, %rax
    movq    %rax, 136(%rdi)
    movq    128(%rdi), %rcx             /* rip */
    movq    %rcx, 8(%rax)
    movq    40(%rdi), %rcx              /* rdi */
    movq    %rcx, (%rax)
    movq    0(%rdi), %rax
    movq    8(%rdi), %rdx
    movq    16(%rdi), %rcx
    movq    24(%rdi), %rbx
    movq    32(%rdi), %rsi
    movq    48(%rdi), %rbp
    movq    64(%rdi), %r8
    movq    72(%rdi), %r9
    movq    80(%rdi), %r10
    movq    88(%rdi), %r11
    movq    96(%rdi), %r12
    movq    104(%rdi), %r13
    movq    112(%rdi), %r14
    movq    120(%rdi), %r15
    movq    136(%rdi), %rsp
    popq    %rdi
    ret
    .cfi_endproc
    .size   lu_jump, .-lu_jump

    .globl  lu_jump_landing_pad
    .hidden lu_jump_landing_pad
    .type   lu_jump_landing_pad, @function
lu_jump_landing_pad:
    .cfi_startproc
    movq    128(%rdi), %rcx             /* rip */
    movq    0(%rdi), %rax
    movq    8(%rdi), %rdx
    movq    24(%rdi), %rbx
    movq    48(%rdi), %rbp
    movq    96(%rdi), %r12
    movq    104(%rdi), %r13
    movq    112(%rdi), %r14
    movq    120(%rdi), %r15
    movq    56(%rdi), %rsp
    jmp     *%rcx
    .cfi_endproc
    .size   lu_jump_landing_pad, .-lu_jump_landing_pad

    .globl  lu_sigreturn
    .hidden lu_sigreturn
    .type   lu_sigreturn, @function
lu_sigreturn:
    .cfi_startproc
    movq    %rdi, %rsp
    movl    $15, %eax                   /* SYS_rt_sigreturn */
    syscall
    hlt
    .cfi_endproc
    .size   lu_sigreturn, .-lu_sigreturn

/* CAPTURE_CALLER: the caller's struct dwu_regs at 0(%rsp), taken at an
 * entry that has just done `subq $152, %rsp` (rsp points at the return
 * address + 152; the callee-saved registers are still the caller's):
 * rbx, rbp, rsp (as after the return), r12-r15 and rip (the return
 * address) valid, flags 0.  Clobbers rax. */
.macro CAPTURE_CALLER
    movq    %rbx, 24(%rsp)
    movq    %rbp, 48(%rsp)
    leaq    160(%rsp), %rax             /* the caller's rsp once this returns */
    movq    %rax, 56(%rsp)
    movq    %r12, 96(%rsp)
    movq    %r13, 104(%rsp)
    movq    %r14, 112(%rsp)
    movq    %r15, 120(%rsp)
    movq    152(%rsp), %rax             /* the return address */
    movq    %rax, 128(%rsp)
    movl    $((1 << 3) | (1 << 6) | (1 << 7) | (0xf << 12) | (1 << 16)), 136(%rsp)
    movl    $0, 140(%rsp)
.endm

/* NAME: an entry whose body BODY takes the caller's registers as its
 * argument in REGS_ARG (after the entry's own arguments, which it leaves
 * where they are); BODY's result is NAME's. */
.macro TAKING_CALLER name, body, regs_arg
    .globl  \name
    .type   \name, @function
\name:
    .cfi_startproc
    subq    $152, %rsp                  /* struct dwu_regs (144 bytes); rsp 16-aligned for the call */
    .cfi_adjust_cfa_offset 152
    CAPTURE_CALLER
    movq    %rsp, \regs_arg
    call    \body
    addq    $152, %rsp
    .cfi_adjust_cfa_offset -152
    ret
    .cfi_endproc
    .size   \name, .-\name
.endm

    TAKING_CALLER unw_backtrace, lu_backtrace_from, %rdx          /* (ips, max, &regs) */
    .weak   backtrace
    .set    backtrace, unw_backtrace

    TAKING_CALLER _Unwind_RaiseException, lu_unwind_raise, %rsi              /* (exc, &regs) */
    TAKING_CALLER _Unwind_ForcedUnwind, lu_unwind_forced, %rcx               /* (exc, stop, arg, &regs) */
    TAKING_CALLER _Unwind_Resume, lu_unwind_resume, %rsi                     /* (exc, &regs) */
    TAKING_CALLER _Unwind_Resume_or_Rethrow, lu_unwind_resume_or_rethrow, %rsi

    .section .note.GNU-stack, "", @progbits
