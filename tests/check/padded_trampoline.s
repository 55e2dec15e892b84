# Unnamed trampolines whose address is only stored (a lazy resolver, entered
# by a jump with one word pushed above the return address), each FDE starting
# two bytes early at the padding `xchg %ax,%ax` with the CIE's row: the entry
# is the row at the first instruction after the padding (rsp+16), which the
# code bears out (it reads the pushed word and pops it with its frame).  The
# right one is clean; the wrong one's row after its `sub` is 8 bytes short.
	.text
	.globl	install
	.type	install, @function
install:
	.cfi_startproc
	leaq	.Ltrampoline_right(%rip), %rax
	movq	%rax, (%rdi)
	leaq	.Ltrampoline_wrong(%rip), %rax
	movq	%rax, 8(%rdi)
	ret
	.cfi_endproc
	.size	install, .-install

.Ltrampoline_right:
	.cfi_startproc
	xchg	%ax, %ax
	.cfi_adjust_cfa_offset 8
	subq	$0x50, %rsp
	.cfi_adjust_cfa_offset 0x50
	movq	%rax, (%rsp)
	movq	0x50(%rsp), %rsi
	movq	(%rsp), %rax
	addq	$0x58, %rsp
	.cfi_adjust_cfa_offset -0x58
	jmp	*(%rax)
	.cfi_endproc

	.p2align 4
	ret
.Ltrampoline_wrong:
	.cfi_startproc
	xchg	%ax, %ax
	.cfi_adjust_cfa_offset 8
	subq	$0x50, %rsp
	.cfi_adjust_cfa_offset 0x48
	movq	%rax, (%rsp)
	movq	0x50(%rsp), %rsi
	movq	(%rsp), %rax
	addq	$0x58, %rsp
	.cfi_adjust_cfa_offset -0x50
	jmp	*(%rax)
	.cfi_endproc
# SPDX-License-Identifier: Apache-2.0
