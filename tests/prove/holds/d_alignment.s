# A CFA expression right only because of the ABI's alignment: CFA =
# (rsp | 8) + 8, where the code has rsp = CFA - 16.  When the CFA is 16-byte
# aligned, bit 3 of rsp is clear and rsp | 8 = rsp + 8, so the rule gives
# rsp + 16; with the CFA at 8 modulo 16 (a caller that broke the ABI) it
# gives rsp + 8.  A prover that forgets the alignment assumption reports a
# false cfa-mismatch here; one that keeps it finds nothing
# (tests/prove/run.sh: no finding, every address checked).
	.text
	.globl	d_alignment
	.type	d_alignment, @function
d_alignment:
	.cfi_startproc
	subq	$8, %rsp
	# DW_CFA_def_cfa_expression (0x0f), 6 bytes:
	#   DW_OP_breg7 (rsp) 0     0x77 0x00
	#   DW_OP_lit8              0x38
	#   DW_OP_or                0x21        rsp | 8
	#   DW_OP_plus_uconst 8     0x23 0x08
	.cfi_escape 0x0f, 0x06, 0x77, 0x00, 0x38, 0x21, 0x23, 0x08
	movq	%rdi, (%rsp)
	leaq	1(%rdi), %rax
	addq	$8, %rsp
	.cfi_def_cfa %rsp, 8
	ret
	.cfi_endproc
	.size	d_alignment, .-d_alignment
# SPDX-License-Identifier: Apache-2.0
