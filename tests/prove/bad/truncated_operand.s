# A bad expression: DW_OP_const4u whose 4-byte operand is cut after one
# byte by the expression's length.  dwcheck must neither crash nor decide
# the rule: a malformed-cfi finding or the addresses left unchecked
# (tests/prove/run.sh, with a time limit and no sanitizer report).
	.text
	.globl	truncated_operand
	.type	truncated_operand, @function
truncated_operand:
	.cfi_startproc
	subq	$24, %rsp
	# DW_CFA_def_cfa_expression (0x0f), 2 bytes:
	#   DW_OP_const4u 0x??????00    0x0c 0x00 (three bytes missing)
	.cfi_escape 0x0f, 0x02, 0x0c, 0x00
	movq	%rdi, (%rsp)
	leaq	1(%rdi), %rax
	addq	$24, %rsp
	.cfi_def_cfa %rsp, 8
	ret
	.cfi_endproc
	.size	truncated_operand, .-truncated_operand
# SPDX-License-Identifier: Apache-2.0
