# GCC's DRAP realignment as GCC 12 emits it for a 32-byte aligned local
# next to a variable-length array: r10 = CFA, rsp rounded down to 32, the
# return address and rbp pushed in the realigned frame, r10 stored at
# rbp - 8; CFA = *(rbp - 8), rbp saved at address rbp.  The slot lies in
# the realigned frame, at a distance from the CFA that depends on the CFA
# modulo 32: the prover must tie the realigned base to the CFA as the code
# rounded it.  Holds (tests/prove/run.sh: no finding, every address
# checked).  GCC leaves rbp's rule after `leave`; here it is restored.
	.text
	.globl	g_drap_realigned
	.type	g_drap_realigned, @function
g_drap_realigned:
	.cfi_startproc
	leaq	8(%rsp), %r10
	.cfi_def_cfa %r10, 0
	andq	$-32, %rsp
	pushq	-8(%r10)
	pushq	%rbp
	movq	%rsp, %rbp
	# DW_CFA_expression (0x10) rbp (6), 2 bytes: DW_OP_breg6 (rbp) 0 (0x76 0x00)
	.cfi_escape 0x10, 0x06, 0x02, 0x76, 0x00
	pushq	%r10
	# DW_CFA_def_cfa_expression (0x0f), 3 bytes:
	#   DW_OP_breg6 (rbp) -8    0x76 0x78
	#   DW_OP_deref             0x06
	.cfi_escape 0x0f, 0x03, 0x76, 0x78, 0x06
	subq	$40, %rsp
	movl	%edi, -48(%rbp)
	leaq	1(%rdi), %rax
	movq	-8(%rbp), %r10
	.cfi_def_cfa %r10, 0
	leave
	.cfi_restore %rbp
	leaq	-8(%r10), %rsp
	.cfi_def_cfa %rsp, 8
	ret
	.cfi_endproc
	.size	g_drap_realigned, .-g_drap_realigned
# SPDX-License-Identifier: Apache-2.0
