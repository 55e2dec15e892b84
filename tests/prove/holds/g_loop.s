# A CFA expression with a loop: a backward DW_OP_bra adds 8 to rsp four
# times (a counter on the stack), so CFA = rsp + 32, where the code has
# rsp = CFA - 32.  The loop terminates after four branches whatever rsp is
# (its condition reads only the counter): a prover must run or unroll it,
# not give up on it as it must on the unbounded loops of bad/
# (tests/prove/run.sh: no finding, every address checked).
	.text
	.globl	g_loop
	.type	g_loop, @function
g_loop:
	.cfi_startproc
	subq	$24, %rsp
	# DW_CFA_def_cfa_expression (0x0f), 14 bytes (byte offsets on the left):
	#    0  DW_OP_breg7 (rsp) 0     0x77 0x00   x
	#    2  DW_OP_lit4              0x34        x n
	#    3  DW_OP_swap              0x16        n x
	#    4  DW_OP_plus_uconst 8     0x23 0x08   n x+8
	#    6  DW_OP_swap              0x16        x+8 n
	#    7  DW_OP_lit1              0x31
	#    8  DW_OP_minus             0x1c        x+8 n-1
	#    9  DW_OP_dup               0x12        x+8 n-1 n-1
	#   10  DW_OP_bra -10 (to 3)    0x28 0xf6 0xff
	#   13  DW_OP_drop              0x13        rsp + 32
	#   14  (end)
	.cfi_escape 0x0f, 0x0e, 0x77, 0x00, 0x34, 0x16, 0x23, 0x08, 0x16, 0x31, 0x1c, 0x12, 0x28, 0xf6, 0xff, 0x13
	movq	%rdi, (%rsp)
	leaq	1(%rdi), %rax
	addq	$24, %rsp
	.cfi_def_cfa %rsp, 8
	ret
	.cfi_endproc
	.size	g_loop, .-g_loop
# SPDX-License-Identifier: Apache-2.0
