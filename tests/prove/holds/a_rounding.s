# A CFA expression right for every 16-byte aligned CFA: CFA =
# ((rsp >> 4) + 2) << 4, where the code has rsp = CFA - 32.  The shifts
# drop rsp's low four bits, which are zero when the CFA is aligned, as the
# ABI promises (with a CFA of 8 mod 16 the rule gives CFA - 8).  Sampling
# aligned stacks agrees with it, as it agrees with the rare-address twins
# of ../fails_cfa.s; only a proof under the alignment assumption says it
# holds (tests/prove/run.sh: no finding, every address checked).
	.text
	.globl	a_rounding
	.type	a_rounding, @function
a_rounding:
	.cfi_startproc
	subq	$24, %rsp
	# DW_CFA_def_cfa_expression (0x0f), 8 bytes:
	#   DW_OP_breg7 (rsp) 0     0x77 0x00
	#   DW_OP_lit4              0x34
	#   DW_OP_shr               0x25        rsp >> 4
	#   DW_OP_plus_uconst 2     0x23 0x02
	#   DW_OP_lit4              0x34
	#   DW_OP_shl               0x24        ((rsp >> 4) + 2) << 4
	.cfi_escape 0x0f, 0x08, 0x77, 0x00, 0x34, 0x25, 0x23, 0x02, 0x34, 0x24
	movq	%rdi, (%rsp)
	leaq	1(%rdi), %rax
	addq	$24, %rsp
	.cfi_def_cfa %rsp, 8
	ret
	.cfi_endproc
	.size	a_rounding, .-a_rounding
# SPDX-License-Identifier: Apache-2.0
