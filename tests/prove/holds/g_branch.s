# A conditional inside a CFA expression (DW_OP_bra, DW_OP_skip): if
# rsp & 8 the CFA is rsp + 24, else rsp + 32, where the code has
# rsp = CFA - 32.  With the ABI's aligned CFA bit 3 of rsp is clear, so
# only the second arm is ever taken, and it is right; the first arm is
# wrong, but for no stack the ABI allows.  A prover must follow both arms
# (the condition is no constant) and find the first unreachable
# (tests/prove/run.sh: no finding, every address checked).
	.text
	.globl	g_branch
	.type	g_branch, @function
g_branch:
	.cfi_startproc
	subq	$24, %rsp
	# DW_CFA_def_cfa_expression (0x0f), 14 bytes (byte offsets on the left):
	#    0  DW_OP_breg7 (rsp) 0     0x77 0x00
	#    2  DW_OP_lit8              0x38
	#    3  DW_OP_and               0x1a        rsp & 8
	#    4  DW_OP_bra +5 (to 12)    0x28 0x05 0x00
	#    7  DW_OP_breg7 (rsp) 32    0x77 0x20
	#    9  DW_OP_skip +2 (to 14)   0x2f 0x02 0x00
	#   12  DW_OP_breg7 (rsp) 24    0x77 0x18
	#   14  (end)
	.cfi_escape 0x0f, 0x0e, 0x77, 0x00, 0x38, 0x1a, 0x28, 0x05, 0x00, 0x77, 0x20, 0x2f, 0x02, 0x00, 0x77, 0x18
	movq	%rdi, (%rsp)
	leaq	1(%rdi), %rax
	addq	$24, %rsp
	.cfi_def_cfa %rsp, 8
	ret
	.cfi_endproc
	.size	g_branch, .-g_branch
# SPDX-License-Identifier: Apache-2.0
