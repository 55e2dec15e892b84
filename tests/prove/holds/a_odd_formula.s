# A CFA expression that holds for every CFA, through an odd formula:
# x = rsp ^ 0x5a5a, CFA = ((5 * x - (x << 2)) ^ 0x5a5a) + 32, where the code
# has rsp = CFA - 32.  5x - 4x = x modulo 2^64 (the product wraps), so the
# rule is rsp + 32 everywhere.  Sampling a few stacks cannot tell this rule
# from its twins in ../fails_cfa.s that are wrong at one address in 2^60:
# only a proof over every stack says it holds (tests/prove/run.sh: no
# finding, every address checked).
	.text
	.globl	a_odd_formula
	.type	a_odd_formula, @function
a_odd_formula:
	.cfi_startproc
	subq	$24, %rsp
	# DW_CFA_def_cfa_expression (0x0f), 19 bytes:
	#   DW_OP_breg7 (rsp) 0     0x77 0x00
	#   DW_OP_const2u 0x5a5a    0x0a 0x5a 0x5a
	#   DW_OP_xor               0x27        x
	#   DW_OP_dup               0x12        x x
	#   DW_OP_lit5              0x35
	#   DW_OP_mul               0x1e        x 5x
	#   DW_OP_swap              0x16        5x x
	#   DW_OP_lit2              0x32
	#   DW_OP_shl               0x24        5x 4x
	#   DW_OP_minus             0x1c        x
	#   DW_OP_const2u 0x5a5a    0x0a 0x5a 0x5a
	#   DW_OP_xor               0x27        rsp
	#   DW_OP_plus_uconst 32    0x23 0x20   rsp + 32
	.cfi_escape 0x0f, 0x13, 0x77, 0x00, 0x0a, 0x5a, 0x5a, 0x27, 0x12, 0x35, 0x1e, 0x16, 0x32, 0x24, 0x1c, 0x0a, 0x5a, 0x5a, 0x27, 0x23, 0x20
	movq	%rdi, (%rsp)
	leaq	1(%rdi), %rax
	addq	$24, %rsp
	.cfi_def_cfa %rsp, 8
	ret
	.cfi_endproc
	.size	a_odd_formula, .-a_odd_formula
# SPDX-License-Identifier: Apache-2.0
