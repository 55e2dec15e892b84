/*
 * dwu_capture(struct dwu_regs *regs): the caller's registers as they are
 * when this returns (see dwunwind.h).  struct dwu_regs: r[17] at 8 * n,
 * valid at 136, flags at 140.
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
    .section .note.GNU-stack, "", @progbits
