# A CFA expression right only because stack addresses lie below 2^47 (the
# other ABI assumption the prover makes): t = rsp + 32, CFA =
# t + ((t >> 47) << 4), where the code has rsp = CFA - 32.  t is the CFA,
# and t >> 47 is 0 for every CFA of a user-space stack; a CFA of 2^47 or
# more (aligned, so alignment does not rescue it) would make the rule 16
# too high.  A prover that forgets the bound reports a false cfa-mismatch;
# one that keeps it finds nothing (tests/prove/run.sh).
	.text
	.globl	d_below_2_47
	.type	d_below_2_47, @function
d_below_2_47:
	.cfi_startproc
	subq	$24, %rsp
	# DW_CFA_def_cfa_expression (0x0f), 9 bytes:
	#   DW_OP_breg7 (rsp) 32    0x77 0x20   t
	#   DW_OP_dup               0x12        t t
	#   DW_OP_const1u 47        0x08 0x2f
	#   DW_OP_shr               0x25        t t>>47
	#   DW_OP_lit4              0x34
	#   DW_OP_shl               0x24        t (t>>47)<<4
	#   DW_OP_plus              0x22
	.cfi_escape 0x0f, 0x09, 0x77, 0x20, 0x12, 0x08, 0x2f, 0x25, 0x34, 0x24, 0x22
	movq	%rdi, (%rsp)
	leaq	1(%rdi), %rax
	addq	$24, %rsp
	.cfi_def_cfa %rsp, 8
	ret
	.cfi_endproc
	.size	d_below_2_47, .-d_below_2_47
# SPDX-License-Identifier: Apache-2.0
