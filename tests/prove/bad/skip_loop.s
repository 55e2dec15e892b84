# A bad expression that never ends: DW_OP_skip -3 jumps to itself.
# dwcheck (its concrete evaluator and its prover's unrolling alike) must
# stop, neither crash nor decide the rule: a malformed-cfi finding or the
# addresses left unchecked, within seconds (tests/prove/run.sh).
	.text
	.globl	skip_loop
	.type	skip_loop, @function
skip_loop:
	.cfi_startproc
	subq	$24, %rsp
	# DW_CFA_def_cfa_expression (0x0f), 5 bytes (byte offsets on the left):
	#    0  DW_OP_breg7 (rsp) 32    0x77 0x20
	#    2  DW_OP_skip -3 (to 2)    0x2f 0xfd 0xff
	.cfi_escape 0x0f, 0x05, 0x77, 0x20, 0x2f, 0xfd, 0xff
	movq	%rdi, (%rsp)
	leaq	1(%rdi), %rax
	addq	$24, %rsp
	.cfi_def_cfa %rsp, 8
	ret
	.cfi_endproc
	.size	skip_loop, .-skip_loop
# SPDX-License-Identifier: Apache-2.0
