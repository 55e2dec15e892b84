# Functions dwsynth annotate cannot annotate exactly, next to one it can.
	.text
# A byte that is no x86-64 instruction, on the path: not synthesisable, so
# left without CFI.
	.globl	bad_bytes
	.type	bad_bytes, @function
bad_bytes:
	pushq	%rbx
	.byte	0x06
	popq	%rbx
	ret
	.size	bad_bytes, .-bad_bytes

# A macro that changes the frame twice on one line: directives can only
# follow the whole line, so the CFI is exact at its end only.
	.macro	PUSH2 a, b
	pushq	\a
	pushq	\b
	.endm
	.globl	two_in_one
	.type	two_in_one, @function
two_in_one:
	PUSH2	%rbx, %r12
	subq	$8, %rsp
	call	callback
	addq	$8, %rsp
	popq	%r12
	popq	%rbx
	ret
	.size	two_in_one, .-two_in_one

	.globl	fine
	.type	fine, @function
fine:
	pushq	%rbx
	call	callback
	popq	%rbx
	ret
	.size	fine, .-fine
# SPDX-License-Identifier: Apache-2.0
