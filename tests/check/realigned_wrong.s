# A wrong CFA inside a realigned region: realigned_wrong keeps the CFA on
# rsp (rsp+16) past `and $-64, %rsp`, where rsp lies anywhere from 0 to 56
# bytes lower: cfa-mismatch at every address of the region (it was left
# unchecked).  realigned_right moves the rule to rbp first: clean.
	.text
	.globl	realigned_wrong
	.type	realigned_wrong, @function
realigned_wrong:
	.cfi_startproc
	pushq	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset %rbp, -16
	movq	%rsp, %rbp
	andq	$-64, %rsp
	subq	$64, %rsp
	movq	%rdi, (%rsp)
	movq	(%rsp), %rax
	leave
	.cfi_def_cfa %rsp, 8
	ret
	.cfi_endproc
	.size	realigned_wrong, .-realigned_wrong

	.globl	realigned_right
	.type	realigned_right, @function
realigned_right:
	.cfi_startproc
	pushq	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset %rbp, -16
	movq	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	andq	$-64, %rsp
	subq	$64, %rsp
	movq	%rdi, (%rsp)
	movq	(%rsp), %rax
	leave
	.cfi_def_cfa %rsp, 8
	ret
	.cfi_endproc
	.size	realigned_right, .-realigned_right
# SPDX-License-Identifier: Apache-2.0
