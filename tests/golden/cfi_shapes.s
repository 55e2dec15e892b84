# Hand-written CFI covering every DW_CFA_* rule kind that GAS can emit, plus
# raw opcodes through .cfi_escape.  Linked into a shared object by
# tests/golden/run.sh and compared against readelf -wF.  Both .eh_frame and
# .debug_frame are emitted.
	.cfi_sections .eh_frame, .debug_frame
	.text

# Callee-saved pushes, a frame pointer, remember/restore around an early exit.
	.globl	frame_pointer
	.type	frame_pointer, @function
frame_pointer:
	.cfi_startproc
	pushq	%rbx
	.cfi_def_cfa_offset 16
	.cfi_offset %rbx, -16
	pushq	%rbp
	.cfi_def_cfa_offset 24
	.cfi_offset %rbp, -24
	movq	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	testq	%rdi, %rdi
	je	1f
	.cfi_remember_state
	popq	%rbp
	.cfi_def_cfa %rsp, 16
	.cfi_restore %rbp
	popq	%rbx
	.cfi_def_cfa_offset 8
	.cfi_restore %rbx
	ret
1:
	.cfi_restore_state
	leave
	.cfi_def_cfa %rsp, 16
	popq	%rbx
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	frame_pointer, .-frame_pointer

# val_offset, register, undefined, same_value, an xmm column, large advances.
	.globl	odd_rules
	.type	odd_rules, @function
odd_rules:
	.cfi_startproc
	movq	%r12, %rax
	.cfi_register %r12, %rax
	nop
	.cfi_val_offset %r13, -8
	nop
	.cfi_undefined %r14
	nop
	.cfi_same_value %r15
	.skip	300, 0x90
	.cfi_offset %xmm6, -32
	.skip	70000, 0x90
	.cfi_rel_offset %rbx, 0
	movq	%rax, %r12
	.cfi_restore %r12
	ret
	.cfi_endproc
	.size	odd_rules, .-odd_rules

# Expressions and raw opcodes: def_cfa_expression, expression, val_expression,
# GNU_args_size, GNU_negative_offset_extended, def_cfa_sf, offset_extended_sf.
	.globl	expressions
	.type	expressions, @function
expressions:
	.cfi_startproc
	subq	$24, %rsp
	# DW_CFA_def_cfa_expression: DW_OP_breg7 32
	.cfi_escape 0x0f, 0x02, 0x77, 0x20
	nop
	# DW_CFA_expression rbx: DW_OP_breg7 8
	.cfi_escape 0x10, 0x03, 0x02, 0x77, 0x08
	nop
	# DW_CFA_val_expression rbp: DW_OP_breg7 16; DW_OP_lit1; DW_OP_plus
	.cfi_escape 0x16, 0x06, 0x04, 0x77, 0x10, 0x31, 0x22
	nop
	# DW_CFA_GNU_args_size 16
	.cfi_escape 0x2e, 0x10
	nop
	# DW_CFA_def_cfa_sf rsp, -4 (factored by df=-8: 32)
	.cfi_escape 0x12, 0x07, 0x7c
	nop
	# DW_CFA_GNU_negative_offset_extended r12, 3 (-(3 * -8) = +24)
	.cfi_escape 0x2f, 0x0c, 0x03
	nop
	# DW_CFA_offset_extended_sf r13, 2 (2 * -8 = -16)
	.cfi_escape 0x11, 0x0d, 0x02
	addq	$24, %rsp
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	expressions, .-expressions

# SPDX-License-Identifier: Apache-2.0
