# long sum3(long a, long b, long c): a + b + c, or 0 when a is 0.
	.text
	.globl	sum3
	.type	sum3, @function
sum3:
	pushq	%rbx
	movq	%rdx, %rbx
	testq	%rdi, %rdi
	jne	1f
	xorl	%eax, %eax
	popq	%rbx
	ret
1:	call	add2
	addq	%rbx, %rax
	popq	%rbx
	ret
	.size	sum3, .-sum3

	.type	add2, @function
add2:
	leaq	(%rdi,%rsi), %rax
	ret
	.size	add2, .-add2
# SPDX-License-Identifier: Apache-2.0
