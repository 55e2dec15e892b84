# Computed gotos (GCC's &&label), as threaded interpreters use them
# (Oniguruma, CPython's sre): the program holds label addresses, taken from
# a table a lea points at, and each handler jumps to the next through a
# register no table explains.  Such a jump may only reach the function's
# own address-taken labels, so the handlers are reached, not guessed.
	.text
	.globl	threaded
	.type	threaded, @function
threaded:
	.cfi_startproc
	pushq	%rbx
	.cfi_def_cfa_offset 16
	.cfi_offset %rbx, -16
	movq	%rdi, %rbx
	leaq	.Lops(%rip), %rax
	movq	%rax, (%rdi)
	movq	8(%rbx), %rax
	jmp	*%rax
.Lop_next:
	addq	$8, %rbx
	movq	(%rbx), %rax
	jmp	*%rax
.Lop_back:
	subq	$16, %rbx
	movq	(%rbx), %rax
	jmp	*%rax
.Lop_end:
	movl	%ebx, %eax
	popq	%rbx
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	threaded, .-threaded

# glibc's vfprintf: tables of offsets from a label (&&label - &&base), and
# a jump whose target a block before it computed, which no table explains.
# It may go to any case of those tables: case1, which only a table names,
# is reached.
	.globl	shared_dispatch
	.type	shared_dispatch, @function
shared_dispatch:
	.cfi_startproc
	pushq	%rbx
	.cfi_def_cfa_offset 16
	.cfi_offset %rbx, -16
	andl	$1, %edi
	leaq	.Lsd_table(%rip), %rcx
	leaq	.Lsd_base(%rip), %rsi
	movslq	(%rcx,%rdi,4), %rax
	addq	%rsi, %rax
	testl	%edx, %edx
	jne	1f
	movl	$1, %ebx
1:	jmp	*%rax
.Lsd_base:
	movl	%ebx, %eax
	popq	%rbx
	.cfi_remember_state
	.cfi_def_cfa_offset 8
	ret
.Lsd_case1:
	.cfi_restore_state
	leaq	.Lsd_table(%rip), %rcx
	leaq	.Lsd_base(%rip), %rsi
	xorl	%edi, %edi
	movslq	(%rcx,%rdi,4), %rax
	addq	%rsi, %rax
	jmp	*%rax
	.cfi_endproc
	.size	shared_dispatch, .-shared_dispatch

# A label whose address the function stores and later jumps to, through
# a register no table explains (its frame still in place): reached only so.
	.globl	resume_label
	.type	resume_label, @function
resume_label:
	.cfi_startproc
	pushq	%rbx
	.cfi_def_cfa_offset 16
	.cfi_offset %rbx, -16
	leaq	.Lrl_resume(%rip), %rax
	movq	%rax, (%rdi)
	movq	(%rsi), %rax
	jmp	*%rax
.Lrl_resume:
	movl	%ebx, %eax
	popq	%rbx
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	resume_label, .-resume_label

# lea 0(%rip) takes the current address (sanitizers report it): not a
# label.  The indirect tail call after the pop must not flow into it.
	.globl	current_pc
	.type	current_pc, @function
current_pc:
	.cfi_startproc
	pushq	%rbx
	.cfi_def_cfa_offset 16
	.cfi_offset %rbx, -16
	movq	%rsi, %rbx
	leaq	0(%rip), %rdi
	call	*%rbx
	movq	%rbx, %rax
	popq	%rbx
	.cfi_def_cfa_offset 8
	jmp	*%rax
	.cfi_endproc
	.size	current_pc, .-current_pc

	.section .rodata
	.p2align 2
.Lsd_table:
	.long	.Lsd_base-.Lsd_base
	.long	.Lsd_case1-.Lsd_base
	.section .data.rel.ro, "aw"
	.p2align 3
.Lops:
	.quad	.Lop_next
	.quad	.Lop_back
	.quad	.Lop_end
	.section .note.GNU-stack,"",@progbits
# SPDX-License-Identifier: Apache-2.0
