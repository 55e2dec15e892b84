# SPDX-License-Identifier: Apache-2.0
# tests/run: stack realignment through a DRAP register, as GCC emits it
# (-mstackrealign, or a local aligned beyond 16): r10 = CFA, rsp aligned
# down to 32, the return address and rbp pushed again, r10 kept in the
# slot at rbp-8, and the CFA described by a DWARF expression that reads
# it: DW_CFA_def_cfa_expression DW_OP_breg6 (rbp) -8; DW_OP_deref.
# drap_right is that.  drap_wrong is its twin whose expression reads
# rbp-16, the slot where the function keeps a word loaded through its
# argument: a value neither the code nor the table knows, so static
# analysis cannot decide the rule, and at run time it is no CFA.  Both
# take a pointer P to a word, keep *P in that slot, call a helper
# (so that the body runs in a frame with the rule), and return *P + 1.
        .text

        .type   drap_helper, @function
drap_helper:                    # long drap_helper(long v): v + 1
        .cfi_startproc
        leaq    1(%rdi), %rax
        ret
        .cfi_endproc
        .size   drap_helper, .-drap_helper

        .globl  drap_right
        .type   drap_right, @function
drap_right:                     # long drap_right(long *p)
        .cfi_startproc
        leaq    8(%rsp), %r10
        .cfi_def_cfa %r10, 0
        andq    $-32, %rsp
        pushq   -8(%r10)
        pushq   %rbp
        movq    %rsp, %rbp
        .cfi_escape 0x10,0x6,0x2,0x76,0         # rbp saved at rbp+0
        pushq   %r10
        .cfi_escape 0xf,0x3,0x76,0x78,0x6       # CFA = *(rbp - 8)
        subq    $8, %rsp
        movq    (%rdi), %rax
        movq    %rax, -16(%rbp)                 # a word from memory, at rbp-16
        movq    %rax, %rdi
        call    drap_helper
        movq    -8(%rbp), %r10
        .cfi_def_cfa %r10, 0
        leave
        .cfi_restore %rbp
        leaq    -8(%r10), %rsp
        .cfi_def_cfa %rsp, 8
        ret
        .cfi_endproc
        .size   drap_right, .-drap_right

        .globl  drap_wrong
        .type   drap_wrong, @function
drap_wrong:                     # long drap_wrong(long *p)
        .cfi_startproc
        leaq    8(%rsp), %r10
        .cfi_def_cfa %r10, 0
        andq    $-32, %rsp
        pushq   -8(%r10)
        pushq   %rbp
        movq    %rsp, %rbp
        .cfi_escape 0x10,0x6,0x2,0x76,0         # rbp saved at rbp+0
        pushq   %r10
        .cfi_escape 0xf,0x3,0x76,0x70,0x6       # WRONG: CFA = *(rbp - 16), the word's slot
        subq    $8, %rsp
        movq    (%rdi), %rax
        movq    %rax, -16(%rbp)
        movq    %rax, %rdi
        call    drap_helper
        movq    -8(%rbp), %r10
        .cfi_def_cfa %r10, 0
        leave
        .cfi_restore %rbp
        leaq    -8(%r10), %rsp
        .cfi_def_cfa %rsp, 8
        ret
        .cfi_endproc
        .size   drap_wrong, .-drap_wrong

        .section .note.GNU-stack,"",@progbits
