# Does not assemble: dwsynth annotate shows the assembler's messages,
# exits with 2 and writes nothing.
	.text
	.globl	broken
	.type	broken, @function
broken:
	pushq	%rbx
	frobnicate %rax, %rbx
	popq	%rbx
	ret
	.size	broken, .-broken
# SPDX-License-Identifier: Apache-2.0
