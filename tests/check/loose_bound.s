# A compare that bounds more than the table holds (tests/check/run.sh): LLVM
# knows the switch's value lies in a smaller range (an enum's) and sizes the
# table to it, while `cmp $5` checks something else.  Past the table's three
# entries lie another function's data, which read as cases would lead into
# two other ranges (unnamed, as in a stripped file): into code their own
# entries do not reach, where they would carry this frame.  Cases in two
# other ranges end the table before its first case outside; and no case
# leads into the middle of a function entered the ordinary way (named or
# called), as past loose_bound_named's table.
	.text
	.globl	loose_bound
	.type	loose_bound, @function
loose_bound:
	.cfi_startproc
	pushq	%rbx
	.cfi_def_cfa_offset 16
	.cfi_offset %rbx, -16
	cmpl	$5, %edi
	ja	.Llb_default
	leaq	.Llb_table(%rip), %rdx
	movslq	(%rdx,%rdi,4), %rax
	addq	%rdx, %rax
	jmp	*%rax
.Llb_case0:
	movl	$1, %eax
	popq	%rbx
	.cfi_remember_state
	.cfi_def_cfa_offset 8
	ret
.Llb_case1:
	.cfi_restore_state
	movl	$2, %eax
	popq	%rbx
	.cfi_remember_state
	.cfi_def_cfa_offset 8
	ret
.Llb_default:
	.cfi_restore_state
	xorl	%eax, %eax
	popq	%rbx
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	loose_bound, .-loose_bound

.Lother_a:
	.cfi_startproc
	ret
.Lother_a_dead:
	movl	$3, %eax
	ret
	.cfi_endproc

.Lother_b:
	.cfi_startproc
	ret
.Lother_b_dead:
	movl	$4, %eax
	ret
	.cfi_endproc

	.globl	loose_bound_named
	.type	loose_bound_named, @function
loose_bound_named:
	.cfi_startproc
	pushq	%rbx
	.cfi_def_cfa_offset 16
	.cfi_offset %rbx, -16
	cmpl	$4, %edi
	ja	.Llbn_default
	leaq	.Llbn_table(%rip), %rdx
	movslq	(%rdx,%rdi,4), %rax
	addq	%rdx, %rax
	jmp	*%rax
.Llbn_case0:
	movl	$1, %eax
	popq	%rbx
	.cfi_remember_state
	.cfi_def_cfa_offset 8
	ret
.Llbn_default:
	.cfi_restore_state
	xorl	%eax, %eax
	popq	%rbx
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	loose_bound_named, .-loose_bound_named

	.globl	named_other
	.type	named_other, @function
named_other:
	.cfi_startproc
	ret
.Lnamed_other_dead:
	movl	$5, %eax
	ret
	.cfi_endproc
	.size	named_other, .-named_other

	.section .rodata
	.p2align 2
.Llb_table:
	.long	.Llb_case0-.Llb_table
	.long	.Llb_case1-.Llb_table
	.long	.Llb_default-.Llb_table
	.long	.Lother_a_dead-.Llb_table
	.long	.Lother_b_dead-.Llb_table
	.long	.Lother_b_dead-.Llb_table
.Llbn_table:
	.long	.Llbn_case0-.Llbn_table
	.long	.Llbn_default-.Llbn_table
	.long	.Lnamed_other_dead-.Llbn_table
	.long	.Lnamed_other_dead-.Llbn_table
	.long	.Lnamed_other_dead-.Llbn_table
	.section .note.GNU-stack,"",@progbits
# SPDX-License-Identifier: Apache-2.0
