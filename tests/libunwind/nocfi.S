/* SPDX-License-Identifier: Apache-2.0 */
/*
 * nocfi_call(fn, arg): fn(arg) through a frame that has no unwind
 * information (no .cfi directives, so no FDE), as hand-written assembly
 * or a JIT's code has none.  A frame pointer and nothing below it:
 * libunwind's frame-chain guess finds the caller.  walk.c also copies
 * these bytes outside every object (up to nocfi_call_end).
 */
    .text
    .globl  nocfi_call
    .type   nocfi_call, @function
nocfi_call:
    pushq   %rbp
    movq    %rsp, %rbp
    movq    %rdi, %rax
    movq    %rsi, %rdi
    call    *%rax
    popq    %rbp
    ret
    .size   nocfi_call, .-nocfi_call
    .globl  nocfi_call_end
nocfi_call_end:

/*
 * undefined_rbp_call(fn, arg): fn(arg) through a frame whose unwind rows
 * say rbp is undefined in its caller, as some hand-written entry points
 * do: libunwind's unw_step ends the walk there.
 */
    .globl  undefined_rbp_call
    .type   undefined_rbp_call, @function
undefined_rbp_call:
    .cfi_startproc
    .cfi_undefined rbp
    subq    $8, %rsp
    .cfi_adjust_cfa_offset 8
    movq    %rdi, %rax
    movq    %rsi, %rdi
    call    *%rax
    addq    $8, %rsp
    .cfi_adjust_cfa_offset -8
    ret
    .cfi_endproc
    .size   undefined_rbp_call, .-undefined_rbp_call

    .section .note.GNU-stack, "", @progbits
