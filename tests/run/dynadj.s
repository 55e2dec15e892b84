# SPDX-License-Identifier: Apache-2.0
# tests/run: two functions that move rsp by an amount known only at run time
# (`sub %reg,%rsp` with no frame register kept for it), so that static
# analysis cannot say the CFA after it (dwcheck counts those addresses
# cfa-unknown).  dyn_wrong's CFI forgets the adjustment: from the `sub` to
# the `add` its CFA rule rsp+16 is wrong by N*16.  dyn_right is its twin
# with rbp as the frame register, its CFI right.  Both take N, reserve N*16
# bytes, call a helper that sums them, and return the sum.  With N = 0,
# dyn_wrong's rule is right where the audit cannot say so: the run decides
# those addresses, which held.  reg_wrong saves
# rbx where its CFI does not say (a wrong callee-saved rule, which the
# static audit finds too): the run must see it as well.
        .text

        .type   sum_words, @function
sum_words:                      # long sum_words(long *p, long n): a local callee
        .cfi_startproc
        xorl    %eax, %eax
1:      testq   %rsi, %rsi
        je      2f
        addq    (%rdi), %rax
        addq    $16, %rdi
        decq    %rsi
        jmp     1b
2:      ret
        .cfi_endproc
        .size   sum_words, .-sum_words

        .globl  dyn_wrong
        .type   dyn_wrong, @function
dyn_wrong:                      # long dyn_wrong(long n)
        .cfi_startproc
        pushq   %rbx
        .cfi_def_cfa_offset 16
        .cfi_offset %rbx, -16
        movq    %rdi, %rsi
        movq    %rdi, %rbx
        shlq    $4, %rbx
        subq    %rbx, %rsp      # the CFA is now rsp + 16 + N*16: no directive says so
        movq    %rsp, %rdi
        movq    %rsi, %rcx
        testq   %rcx, %rcx      # N = 0: no word, and the rule is right
        je      2f
1:      movq    %rcx, (%rdi)    # the words: N, N-1, ... 1
        addq    $16, %rdi
        decq    %rcx
        jne     1b
2:      movq    %rsp, %rdi
        call    sum_words
        addq    %rbx, %rsp
        popq    %rbx
        .cfi_def_cfa_offset 8
        ret
        .cfi_endproc
        .size   dyn_wrong, .-dyn_wrong

        .globl  dyn_right
        .type   dyn_right, @function
dyn_right:                      # long dyn_right(long n)
        .cfi_startproc
        pushq   %rbp
        .cfi_def_cfa_offset 16
        .cfi_offset %rbp, -16
        movq    %rsp, %rbp
        .cfi_def_cfa_register %rbp
        pushq   %rbx
        .cfi_offset %rbx, -24
        subq    $8, %rsp
        movq    %rdi, %rsi
        movq    %rdi, %rbx
        shlq    $4, %rbx
        subq    %rbx, %rsp      # the CFA stays rbp + 16
        movq    %rsp, %rdi
        movq    %rsi, %rcx
1:      movq    %rcx, (%rdi)
        addq    $16, %rdi
        decq    %rcx
        jne     1b
        movq    %rsp, %rdi
        call    sum_words
        movq    -8(%rbp), %rbx
        leave
        .cfi_def_cfa %rsp, 8
        ret
        .cfi_endproc
        .size   dyn_right, .-dyn_right

        .globl  reg_wrong
        .type   reg_wrong, @function
reg_wrong:                      # long reg_wrong(long n): saves rbx, says it lies 8 bytes off
        .cfi_startproc
        pushq   %rbx
        .cfi_def_cfa_offset 16
        .cfi_offset %rbx, -24   # WRONG: rbx is saved at CFA-16
        subq    $8, %rsp
        .cfi_def_cfa_offset 24
        movq    %rdi, %rbx
        leaq    1(%rbx), %rax
        addq    $8, %rsp
        .cfi_def_cfa_offset 16
        popq    %rbx
        .cfi_def_cfa_offset 8
        ret
        .cfi_endproc
        .size   reg_wrong, .-reg_wrong

        .section .note.GNU-stack,"",@progbits
