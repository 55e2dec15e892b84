# SPDX-License-Identifier: Apache-2.0
# tests/run: a function split as GCC splits one with a `.cold` part: the
# rare path moved out of line, with an FDE of its own that begins
# mid-frame (rbx pushed, the CFA rsp+16).  No call enters it: the hot part
# jumps there.  It moves rsp by a word loaded from memory (0, which the
# audit cannot know): the rows after it are in doubt (cfa-unknown), and
# right at run time.  But its start is no function's entry: `dwcheck --run`
# must not break there and take the true CFA for rsp+8.
# Exported as dyn_wrong, the name tests/run/onlycall.c's `dl` calls.
        .text
        .globl  hot_with_cold
        .type   hot_with_cold, @function
hot_with_cold:                  # long hot_with_cold(long n): n, or n*2 by the cold path
        .cfi_startproc
        pushq   %rbx
        .cfi_def_cfa_offset 16
        .cfi_offset %rbx, -16
        movq    %rdi, %rbx
        testq   %rdi, %rdi
        jne     hot_with_cold.cold
.Lback:
        movq    %rbx, %rax
        popq    %rbx
        .cfi_def_cfa_offset 8
        ret
        .cfi_endproc
        .size   hot_with_cold, .-hot_with_cold

        .section .text.unlikely, "ax", @progbits
        .type   hot_with_cold.cold, @function
hot_with_cold.cold:             # in hot_with_cold's frame: rbx pushed
        .cfi_startproc
        .cfi_def_cfa_offset 16
        .cfi_offset %rbx, -16
        addq    %rbx, %rbx
        movq    zero_bytes(%rip), %rcx
        subq    %rcx, %rsp      # by 0 bytes: the CFA stays rsp+16, statically unknown
        addq    %rcx, %rsp
        pushq   %rbx
        .cfi_def_cfa_offset 24
        popq    %rbx
        .cfi_def_cfa_offset 16
        jmp     .Lback
        .cfi_endproc
        .size   hot_with_cold.cold, .-hot_with_cold.cold

        .data
        .p2align 3
zero_bytes:
        .quad   0

        .globl  dyn_wrong
        .set    dyn_wrong, hot_with_cold
        .section .note.GNU-stack, "", @progbits
