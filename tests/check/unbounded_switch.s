# Not a bound (tests/check/run.sh): between `cmp $2,0x4c(%rdi)` and `ja` an
# add changes the flags the jump reads.  The table is then read as far as
# its entries name the function: the cold part's entry ends it, and the last
# case (two instructions) is left to a guess.
	.text
	.globl	flags_changed
	.type	flags_changed, @function
flags_changed:
	.cfi_startproc
	cmpl	$2, 0x4c(%rdi)
	addq	$1, 0xc8(%rdi)
	ja	.Lfc_default
	movl	0x4c(%rdi), %eax
	leaq	.Lfc_table(%rip), %rdx
	movslq	(%rdx,%rax,4), %rax
	addq	%rdx, %rax
	jmp	*%rax
.Lfc_case0:
	movl	$1, %eax
	ret
.Lfc_case2:
	movl	$3, %eax
	ret
.Lfc_default:
	xorl	%eax, %eax
	ret
	.cfi_endproc
	.size	flags_changed, .-flags_changed

	.section .text.unlikely,"ax",@progbits
	.type	flags_changed.cold, @function
flags_changed.cold:
	.cfi_startproc
	movl	$2, %eax
	ret
	.cfi_endproc
	.size	flags_changed.cold, .-flags_changed.cold

	.section .rodata
	.p2align 2
.Lfc_table:
	.long	.Lfc_case0-.Lfc_table
	.long	flags_changed.cold-.Lfc_table
	.long	.Lfc_case2-.Lfc_table
	.section .note.GNU-stack,"",@progbits
# SPDX-License-Identifier: Apache-2.0
