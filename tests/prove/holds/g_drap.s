# GCC's DRAP style without the realignment: the CFA is put in r10, stored
# at rbp - 8, and the CFA rule reads it back through memory: CFA =
# *(rbp - 8) (DW_OP_deref of a slot the code wrote); rbp's own save is
# described as GCC does, "rbp at address rbp".  Both hold in every frame:
# the prover must model the tracked slot's content, not a free word
# (tests/prove/run.sh: no finding, every address checked; g_drap_wrong in
# ../fails_cfa.s adds 8).
	.text
	.globl	g_drap
	.type	g_drap, @function
g_drap:
	.cfi_startproc
	leaq	8(%rsp), %r10
	.cfi_def_cfa %r10, 0
	pushq	%rbp
	movq	%rsp, %rbp
	# DW_CFA_expression (0x10) rbp (6), 2 bytes: DW_OP_breg6 (rbp) 0 (0x76 0x00)
	.cfi_escape 0x10, 0x06, 0x02, 0x76, 0x00
	pushq	%r10
	# DW_CFA_def_cfa_expression (0x0f), 3 bytes:
	#   DW_OP_breg6 (rbp) -8    0x76 0x78
	#   DW_OP_deref             0x06
	.cfi_escape 0x0f, 0x03, 0x76, 0x78, 0x06
	subq	$16, %rsp
	movq	%rdi, -16(%rbp)
	leaq	1(%rdi), %rax
	movq	-8(%rbp), %r10
	.cfi_def_cfa %r10, 0
	leave
	.cfi_restore %rbp
	leaq	-8(%r10), %rsp
	.cfi_def_cfa %rsp, 8
	ret
	.cfi_endproc
	.size	g_drap, .-g_drap
# SPDX-License-Identifier: Apache-2.0
