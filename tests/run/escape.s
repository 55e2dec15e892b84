# SPDX-License-Identifier: Apache-2.0
# tests/run: a rule the static audit proves and the run refutes.
# slot_escape saves rbx at CFA-16, as its CFI says, then lets the address
# of that slot escape to a callee, which writes over the saved rbx.  The
# audit assumes a callee leaves its caller's frame alone, so it proves
# rbx's rule after the call; at run time the slot holds the callee's word,
# not rbx's entry value: the run refutes a proof, which dwcheck must
# report as its own internal error (exit 2), never as a finding of the
# program's.  The function restores rbx from a second copy, so its caller
# gets its rbx back.
        .text

        .type   scribble, @function
scribble:                       # void scribble(long *p): *p = 0x5a5a5a5a
        .cfi_startproc
        movq    $0x5a5a5a5a, (%rdi)
        ret
        .cfi_endproc
        .size   scribble, .-scribble

        .globl  slot_escape
        .type   slot_escape, @function
slot_escape:                    # long slot_escape(long n): n + 1
        .cfi_startproc
        pushq   %rbx
        .cfi_def_cfa_offset 16
        .cfi_offset %rbx, -16
        subq    $16, %rsp
        .cfi_def_cfa_offset 32
        movq    %rbx, (%rsp)    # a second copy of rbx, to give back
        movq    %rdi, %rbx
        leaq    16(%rsp), %rdi  # the address of the saved rbx escapes
        call    scribble
        leaq    1(%rbx), %rax
        movq    (%rsp), %rbx
        addq    $24, %rsp
        .cfi_def_cfa_offset 8
        .cfi_restore %rbx
        ret
        .cfi_endproc
        .size   slot_escape, .-slot_escape

        .section .note.GNU-stack,"",@progbits
