# leaf pushes rbx and rbp but its CFI never says so: from inside its
# callback, an unwinder reading this table takes a saved register for the
# return address.  dwsynth repair --debug-frame-only writes the validated
# table into a separate debug file, which gdb prefers.
	.text
	.globl	leaf
	.type	leaf, @function
leaf:
	.cfi_startproc
	pushq	%rbx
	pushq	%rbp
	movq	%rdi, %rbx
	call	*%rbx
	popq	%rbp
	popq	%rbx
	ret
	.cfi_endproc
	.size	leaf, .-leaf
# SPDX-License-Identifier: Apache-2.0
