/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dwu_capture(struct dwu_regs *regs): the caller's registers as they are
 * when this returns (see dwunwind.h).  struct dwu_regs: r[17] at 8 * n,
 * valid at 136, flags at 140.
 *
 * dwu_backtrace(void **ips, int max): the caller's registers taken at the
 * entry (rsp points at the return address, the callee-saved registers are
 * still the caller's), then dwu_backtrace_walk (unwind.c) walks from them.
 * No step through a frame of this library is needed, whose table would be
 * interpreted (it has no eh_elf): that step was the fixed cost of a call.
 */
    .text
    .globl  dwu_capture
    .type   dwu_capture, @function
dwu_capture:
    .cfi_startproc
    movq    %rbx, 24(%rdi)
    movq    %rbp, 48(%rdi)
    leaq    8(%rsp), %rax
    movq    %rax, 56(%rdi)
    movq    %r12, 96(%rdi)
    movq    %r13, 104(%rdi)
    movq    %r14, 112(%rdi)
    movq    %r15, 120(%rdi)
    movq    (%rsp), %rax
    movq    %rax, 128(%rdi)
    /* rbx, rbp, rsp, r12-r15, rip */
    movl    $((1 << 3) | (1 << 6) | (1 << 7) | (0xf << 12) | (1 << 16)), 136(%rdi)
    movl    $0, 140(%rdi)
    xorl    %eax, %eax
    ret
    .cfi_endproc
    .size   dwu_capture, .-dwu_capture

    .globl  dwu_backtrace
    .type   dwu_backtrace, @function
dwu_backtrace:
    .cfi_startproc
    subq    $152, %rsp                  /* struct dwu_regs (144 bytes); rsp 16-aligned for the call */
    .cfi_adjust_cfa_offset 152
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
    movq    %rsp, %rdx                  /* dwu_backtrace_walk(ips, max, &regs, &no_info) */
    leaq    144(%rsp), %rcx             /* no_info: the 8 bytes past regs */
    call    dwu_backtrace_walk
    addq    $152, %rsp
    .cfi_adjust_cfa_offset -152
    ret
    .cfi_endproc
    .size   dwu_backtrace, .-dwu_backtrace

    .section .note.GNU-stack, "", @progbits
