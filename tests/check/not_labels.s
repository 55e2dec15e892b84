# Addresses that are not computed gotos' targets, and must not receive a
# state as if they were (tests/check/run.sh: no finding, the handler left
# to a guess):
# - an exception handler whose address the function pushes (OCaml's
#   try-with), reached by a raise in another function, in a function that
#   ends in an indirect tail call: the popped frame's state goes to no label;
# - alignment padding named by the words past a table that a looser compare
#   bounds: no case (an -O0 empty case is a lone one-byte nop).
	.text
	.globl	pushes_handler
	.type	pushes_handler, @function
pushes_handler:
	.cfi_startproc
	subq	$24, %rsp
	.cfi_adjust_cfa_offset 24
	leaq	.Lhandler(%rip), %r11
	pushq	%r11
	.cfi_adjust_cfa_offset 8
	pushq	%r10
	.cfi_adjust_cfa_offset 8
	movq	%rsp, %r10
	call	raises
	popq	%r10
	.cfi_adjust_cfa_offset -8
	addq	$8, %rsp
	.cfi_adjust_cfa_offset -8
	movq	(%rax), %rbx
	addq	$24, %rsp
	.cfi_adjust_cfa_offset -24
	jmp	*%rbx
	.cfi_adjust_cfa_offset 24
.Lhandler:
	movl	$1, %eax
	addq	$24, %rsp
	.cfi_adjust_cfa_offset -24
	ret
	.cfi_endproc
	.size	pushes_handler, .-pushes_handler

	.globl	raises
	.type	raises, @function
raises:
	.cfi_startproc
	movq	%r10, %rsp
	popq	%r10
	ret
	.cfi_endproc
	.size	raises, .-raises

	.globl	loose_into_padding
	.type	loose_into_padding, @function
loose_into_padding:
	.cfi_startproc
	pushq	%rbx
	.cfi_def_cfa_offset 16
	.cfi_offset %rbx, -16
	cmpl	$3, %edi
	ja	.Llp_default
	leaq	.Llp_table(%rip), %rdx
	movslq	(%rdx,%rdi,4), %rax
	addq	%rdx, %rax
	jmp	*%rax
.Llp_case0:
	movl	$1, %eax
	popq	%rbx
	.cfi_remember_state
	.cfi_def_cfa_offset 8
	ret
.Llp_pad:
	.p2align 4
	.cfi_restore_state
.Llp_default:
	xorl	%eax, %eax
	popq	%rbx
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	loose_into_padding, .-loose_into_padding

	.section .rodata
	.p2align 2
.Llp_table:
	.long	.Llp_case0-.Llp_table
	.long	.Llp_default-.Llp_table
	.long	.Llp_pad-.Llp_table
	.long	.Llp_default-.Llp_table
	.section .note.GNU-stack,"",@progbits
# SPDX-License-Identifier: Apache-2.0
