# A frame-pointer epilogue that leaves the CFA on rbp after `pop %rbp`
# (no .cfi_def_cfa %rsp, 8): at fp_left's ret the rule reads the caller's
# rbp, cfa-mismatch.  fp_right moves the rule back and is clean.
	.text
	.globl	fp_left
	.type	fp_left, @function
fp_left:
	.cfi_startproc
	pushq	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset %rbp, -16
	movq	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	movl	%edi, %eax
	popq	%rbp
	ret
	.cfi_endproc
	.size	fp_left, .-fp_left

	.globl	fp_right
	.type	fp_right, @function
fp_right:
	.cfi_startproc
	pushq	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset %rbp, -16
	movq	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	movl	%edi, %eax
	popq	%rbp
	.cfi_def_cfa %rsp, 8
	ret
	.cfi_endproc
	.size	fp_right, .-fp_right
# SPDX-License-Identifier: Apache-2.0
