# A bad expression: DW_OP_plus with one value on the stack (a stack
# underflow).  dwcheck must neither crash nor decide the rule: a
# malformed-cfi finding or the addresses left unchecked (tests/prove/run.sh,
# with a time limit and no sanitizer report).
	.text
	.globl	underflow
	.type	underflow, @function
underflow:
	.cfi_startproc
	subq	$24, %rsp
	# DW_CFA_def_cfa_expression (0x0f), 3 bytes:
	#   DW_OP_breg7 (rsp) 32        0x77 0x20
	#   DW_OP_plus                  0x22        (needs two values)
	.cfi_escape 0x0f, 0x03, 0x77, 0x20, 0x22
	movq	%rdi, (%rsp)
	leaq	1(%rdi), %rax
	addq	$24, %rsp
	.cfi_def_cfa %rsp, 8
	ret
	.cfi_endproc
	.size	underflow, .-underflow
# SPDX-License-Identifier: Apache-2.0
