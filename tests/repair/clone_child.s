# Three ways code follows a clone system call (rax 56).  The tests read
# what dwcheck finds and what dwsynth repair writes (tests/repair/run.sh).
    .text

# clone_wrong: the child's path (rax == 0 after a clone onto the stack in
# rsi) keeps the parent's rules, as GCC's table of libasan's
# internal_clone does: the child runs on its new stack, where neither this
# frame nor a return address is.  Its rows must end the stack.
    .globl clone_wrong
    .type clone_wrong, @function
clone_wrong:
    .cfi_startproc
    push %rbx
    .cfi_adjust_cfa_offset 8
    .cfi_rel_offset %rbx, 0
    mov %rdi, %rbx
    mov $56, %eax
    syscall
    test %rax, %rax
    jnz 1f
    xor %ebp, %ebp
    call *%rbx
    mov %eax, %edi
    mov $60, %eax
    syscall
    hlt
1:  pop %rbx
    .cfi_adjust_cfa_offset -8
    .cfi_restore %rbx
    ret
    .cfi_endproc
    .size clone_wrong, .-clone_wrong

# clone_right: the same, its child's rows saying so (glibc's clone).
    .globl clone_right
    .type clone_right, @function
clone_right:
    .cfi_startproc
    push %rbx
    .cfi_adjust_cfa_offset 8
    .cfi_rel_offset %rbx, 0
    mov %rdi, %rbx
    mov $56, %eax
    syscall
    test %rax, %rax
    jl 1f
    je 2f
1:  pop %rbx
    .cfi_adjust_cfa_offset -8
    .cfi_restore %rbx
    ret
2:  .cfi_adjust_cfa_offset 8
    .cfi_undefined %rip
    xor %ebp, %ebp
    call *%rbx
    mov %eax, %edi
    mov $60, %eax
    syscall
    hlt
    .cfi_endproc
    .size clone_right, .-clone_right

# fork_like: clone with no stack of its own (rsi 0, as glibc's _Fork): the
# child goes on in a copy of this frame, whose rules hold for both.
    .globl fork_like
    .type fork_like, @function
fork_like:
    .cfi_startproc
    push %rbx
    .cfi_adjust_cfa_offset 8
    .cfi_rel_offset %rbx, 0
    xor %esi, %esi
    mov $0x11, %edi
    mov $56, %eax
    syscall
    test %eax, %eax
    jne 1f
    mov $1, %ebx
    mov %ebx, %eax
1:  pop %rbx
    .cfi_adjust_cfa_offset -8
    .cfi_restore %rbx
    ret
    .cfi_endproc
    .size fork_like, .-fork_like
    .section .note.GNU-stack,"",@progbits
# SPDX-License-Identifier: Apache-2.0
