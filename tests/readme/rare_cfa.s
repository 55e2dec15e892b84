# A CFA rule that is wrong at exactly one stack address (README, dwcheck):
# CFA = rsp + 16 + 8 * (rsp == 0x7ffe0000).  Sampling stacks never meets
# that address; z3 finds it.
	.text
	.globl	wrong_once
	.type	wrong_once, @function
wrong_once:
	.cfi_startproc
	pushq	%rbx
	# DW_CFA_def_cfa_expression, 14 bytes: breg7 16; breg7 0;
	# constu 0x7ffe0000; eq; lit3; shl; plus
	.cfi_escape 0x0f, 0x0e, 0x77, 0x10, 0x77, 0x00, 0x10, 0x80, 0x80, 0xf8, 0xff, 0x07, 0x29, 0x33, 0x24, 0x22
	.cfi_offset %rbx, -16
	movq	%rdi, %rbx
	popq	%rbx
	.cfi_def_cfa %rsp, 8
	.cfi_restore %rbx
	ret
	.cfi_endproc
	.size	wrong_once, .-wrong_once
# SPDX-License-Identifier: Apache-2.0
