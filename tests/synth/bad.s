# Bad input for synthesis: each defect must make only its own function
# unknown, with a reason; `good` is still synthesised.
	.text
	.globl	good
	.type	good, @function
good:
	pushq	%rbx
	movq	%rdi, %rbx
	popq	%rbx
	ret
	.size	good, .-good

# An invalid instruction on a reachable path (0x06 is push %es: not in 64-bit mode).
	.globl	invalid_bytes
	.type	invalid_bytes, @function
invalid_bytes:
	pushq	%rbp
	.byte	0x06
	popq	%rbp
	ret
	.size	invalid_bytes, .-invalid_bytes

# Overlapping functions: `outer` claims the bytes of `inner` too.
	.globl	outer
	.type	outer, @function
	.globl	inner
	.type	inner, @function
outer:
	pushq	%r12
inner:
	popq	%r12
	ret
	.size	outer, .-outer
	.size	inner, .-inner

# A symbol that lies outside every section.
	.globl	bogus
	.type	bogus, @function
	.set	bogus, 0x7fff0000
	.size	bogus, 64

# Undecodable code on a reachable path says nothing about the jumps of its
# function: `phantom`'s jump into `victim` must not change victim's states.
	.globl	phantom
	.type	phantom, @function
phantom:
	pushq	%rbp
	testq	%rdi, %rdi
	je	.Lvictim_body
	.byte	0x06
	.size	phantom, .-phantom

	.globl	victim
	.type	victim, @function
victim:
	pushq	%rbx
	jmp	*%rsi
.Lvictim_body:
	movq	%rdi, %rbx
	popq	%rbx
	ret
	.size	victim, .-victim
# SPDX-License-Identifier: Apache-2.0
