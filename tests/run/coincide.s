# SPDX-License-Identifier: Apache-2.0
# tests/run: a static error a run does not see.  zero_slot's CFI says rbx
# is saved at CFA-16, but the function pushes 0 there, not rbx: the
# static audit finds the rule wrong (reg-mismatch).  with_rbx_zero calls
# it with rbx 0, so at run time the rule gives rbx's entry value all the
# same and holds: the report lists the address as a static error that
# ran and held, never as a refutation.
        .text

        .type   zero_slot, @function
zero_slot:                      # long zero_slot(long n): n + 1
        .cfi_startproc
        pushq   $0
        .cfi_def_cfa_offset 16
        .cfi_offset %rbx, -16   # WRONG: the slot holds 0, not rbx
        leaq    1(%rdi), %rax
        addq    $8, %rsp
        .cfi_def_cfa_offset 8
        .cfi_restore %rbx
        ret
        .cfi_endproc
        .size   zero_slot, .-zero_slot

        .globl  with_rbx_zero
        .type   with_rbx_zero, @function
with_rbx_zero:                  # long with_rbx_zero(long n): zero_slot(n), rbx 0 in it
        .cfi_startproc
        pushq   %rbx
        .cfi_def_cfa_offset 16
        .cfi_offset %rbx, -16
        xorl    %ebx, %ebx
        call    zero_slot
        popq    %rbx
        .cfi_def_cfa_offset 8
        .cfi_restore %rbx
        ret
        .cfi_endproc
        .size   with_rbx_zero, .-with_rbx_zero

        .section .note.GNU-stack,"",@progbits
