/*
 * CFI at the bounds that the analysis, the DWARF fallback and the compiled
 * tables share (semantics/unwind_limits.h), and rules whose evaluation
 * fails: each path must give the same status or the same registers.  Only
 * the tables matter; the code is never run.
 */
    .text

/* remember_state nested six deep (more than the fallback once kept). */
    .globl deep_remember
    .type deep_remember, @function
deep_remember:
    .cfi_startproc
    push %rbx
    .cfi_def_cfa_offset 16
    .cfi_offset rbx, -16
    .cfi_remember_state
    push %rbp
    .cfi_def_cfa_offset 24
    .cfi_offset rbp, -24
    .cfi_remember_state
    push %r12
    .cfi_def_cfa_offset 32
    .cfi_offset r12, -32
    .cfi_remember_state
    push %r13
    .cfi_def_cfa_offset 40
    .cfi_offset r13, -40
    .cfi_remember_state
    push %r14
    .cfi_def_cfa_offset 48
    .cfi_offset r14, -48
    .cfi_remember_state
    push %r15
    .cfi_def_cfa_offset 56
    .cfi_offset r15, -56
    .cfi_remember_state
    sub $8, %rsp
    .cfi_def_cfa_offset 64
    add $8, %rsp
    .cfi_restore_state
    pop %r15
    .cfi_restore_state
    pop %r14
    .cfi_restore_state
    pop %r13
    .cfi_restore_state
    pop %r12
    .cfi_restore_state
    pop %rbp
    .cfi_restore_state
    pop %rbx
    .cfi_def_cfa_offset 8
    ret
    .cfi_endproc
    .size deep_remember, .-deep_remember

/* A CFA expression of 99 operations: DW_OP_breg7 (rsp): 8, then 98
 * DW_OP_nop (more than the fallback once decoded). */
    .globl long_expression
    .type long_expression, @function
long_expression:
    .cfi_startproc
    nop
    .cfi_escape 0x0f, 100, 0x77, 0x08, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96
    nop
    .cfi_def_cfa_offset 8
    ret
    .cfi_endproc
    .size long_expression, .-long_expression

/* rbx saved at an address that divides by zero: DW_CFA_expression rbx
 * (DW_OP_lit0; DW_OP_lit0; DW_OP_div). */
    .globl division_by_zero
    .type division_by_zero, @function
division_by_zero:
    .cfi_startproc
    nop
    .cfi_escape 0x10, 0x03, 3, 0x30, 0x30, 0x1b
    nop
    ret
    .cfi_endproc
    .size division_by_zero, .-division_by_zero

/* rbx's value from register 17 (xmm0), which no frame knows:
 * DW_CFA_val_expression rbx (DW_OP_breg17: 0). */
    .globl unknown_register
    .type unknown_register, @function
unknown_register:
    .cfi_startproc
    nop
    .cfi_escape 0x16, 0x03, 2, 0x81, 0x00
    nop
    ret
    .cfi_endproc
    .size unknown_register, .-unknown_register

/* rbx's value ends with DW_OP_stack_value: DW_CFA_val_expression rbx
 * (DW_OP_lit5; DW_OP_stack_value; DW_OP_lit6) is 5. */
    .globl stack_value
    .type stack_value, @function
stack_value:
    .cfi_startproc
    nop
    .cfi_escape 0x16, 0x03, 3, 0x35, 0x9f, 0x36
    nop
    ret
    .cfi_endproc
    .size stack_value, .-stack_value

/* rbx's value counts to 3000 in a loop: 2999 branches taken, 18000
 * operations run.  DW_CFA_val_expression rbx (DW_OP_lit0; L: DW_OP_lit1;
 * DW_OP_plus; DW_OP_dup; DW_OP_const2u: 3000; DW_OP_lt; DW_OP_bra: L). */
    .globl counting_loop
    .type counting_loop, @function
counting_loop:
    .cfi_startproc
    nop
    .cfi_escape 0x16, 0x03, 11, 0x30, 0x31, 0x22, 0x12, 0x0a, 0xb8, 0x0b, 0x2d, 0x28, 0xf6, 0xff
    nop
    ret
    .cfi_endproc
    .size counting_loop, .-counting_loop

    .section .note.GNU-stack,"",@progbits
/* SPDX-License-Identifier: Apache-2.0 */
