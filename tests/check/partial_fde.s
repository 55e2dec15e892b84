# Code inside a function that its FDE stops short of: partly_covered's
# .cfi_endproc comes before its last instructions (a test, a branch, a
# push and pop, the ret), which no FDE covers: fde-gap at the first of
# them.  fully_covered, and the alignment padding after it, are clean.
	.text
	.globl	partly_covered
	.type	partly_covered, @function
partly_covered:
	.cfi_startproc
	pushq	%rbx
	.cfi_def_cfa_offset 16
	.cfi_offset %rbx, -16
	movq	%rdi, %rbx
	popq	%rbx
	.cfi_def_cfa_offset 8
	.cfi_endproc
	testq	%rdi, %rdi
	je	1f
	pushq	%rbp
	popq	%rbp
1:	ret
	.size	partly_covered, .-partly_covered

	.globl	fully_covered
	.type	fully_covered, @function
fully_covered:
	.cfi_startproc
	movl	$1, %eax
	ret
	.cfi_endproc
	.size	fully_covered, .-fully_covered
	.p2align 4
# SPDX-License-Identifier: Apache-2.0
