# A 10,000-operation expression: rsp squared 4,999 times over
# (DW_OP_dup, DW_OP_mul), plus 32.  Longer than UNWIND_EXPR_MAX_OPS (256),
# so no unwinder of the project applies it, and a product of that degree
# is no query z3 answers in time.  Expected: a malformed-cfi finding or the
# addresses left unchecked, within seconds, no crash (tests/prove/run.sh).
	.text
	.globl	ten_thousand_ops
	.type	ten_thousand_ops, @function
ten_thousand_ops:
	.cfi_startproc
	subq	$24, %rsp
	# DW_CFA_def_cfa_expression (0x0f), 10,002 bytes (ULEB128 0x92 0x4e):
	#   DW_OP_breg7 (rsp) 0         0x77 0x00
	#   4,999 x (DW_OP_dup 0x12, DW_OP_mul 0x1e)
	#   DW_OP_plus_uconst 32        0x23 0x20
	.cfi_escape 0x0f, 0x92, 0x4e, 0x77, 0x00
	.rept	4999
	.cfi_escape 0x12, 0x1e
	.endr
	.cfi_escape 0x23, 0x20
	movq	%rdi, (%rsp)
	leaq	1(%rdi), %rax
	addq	$24, %rsp
	.cfi_def_cfa %rsp, 8
	ret
	.cfi_endproc
	.size	ten_thousand_ops, .-ten_thousand_ops
# SPDX-License-Identifier: Apache-2.0
