# A DW_OP_bra loop whose trip count is the stack address: x = rsp,
# subtract 16 until x is 0, then CFA = rsp + 32.  It ends for every rsp,
# but after rsp / 16 branches (billions), past UNWIND_EXPR_BRANCHES, so no
# unwinder of the project applies it; a prover that unrolls the loop
# symbolically must give up within its bounds.  Expected: a malformed-cfi
# finding or the addresses left unchecked, within seconds, no crash
# (tests/prove/run.sh).
	.text
	.globl	bra_loop_symbolic
	.type	bra_loop_symbolic, @function
bra_loop_symbolic:
	.cfi_startproc
	subq	$24, %rsp
	# DW_CFA_def_cfa_expression (0x0f), 11 bytes (byte offsets on the left):
	#    0  DW_OP_breg7 (rsp) 0     0x77 0x00   x
	#    2  DW_OP_lit16             0x40
	#    3  DW_OP_minus             0x1c        x-16
	#    4  DW_OP_dup               0x12
	#    5  DW_OP_bra -6 (to 2)     0x28 0xfa 0xff
	#    8  DW_OP_breg7 (rsp) 32    0x77 0x20   0 rsp+32
	#   10  DW_OP_plus              0x22
	.cfi_escape 0x0f, 0x0b, 0x77, 0x00, 0x40, 0x1c, 0x12, 0x28, 0xfa, 0xff, 0x77, 0x20, 0x22
	movq	%rdi, (%rsp)
	leaq	1(%rdi), %rax
	addq	$24, %rsp
	.cfi_def_cfa %rsp, 8
	ret
	.cfi_endproc
	.size	bra_loop_symbolic, .-bra_loop_symbolic
# SPDX-License-Identifier: Apache-2.0
