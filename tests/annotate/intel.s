# Intel syntax without register prefixes (tests/annotate/frames.s tells
# the chain this function is part of).
	.intel_syntax noprefix
	.text
	.globl	ann_intel
	.type	ann_intel, @function
ann_intel:
	push	rbp
	mov	rbp, rsp
	push	rbx
	push	r12
	mov	rbx, -19
	mov	r12, -20
	test	rdi, rdi
	js	1f
	call	ann_cpp
	pop	r12
	pop	rbx
	pop	rbp
	ret
1:	xor	eax, eax
	pop	r12
	pop	rbx
	pop	rbp
	ret
	.size	ann_intel, .-ann_intel
# SPDX-License-Identifier: Apache-2.0
