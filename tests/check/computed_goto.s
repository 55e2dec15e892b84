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

	.section .data.rel.ro, "aw"
	.p2align 3
.Lops:
	.quad	.Lop_next
	.quad	.Lop_back
	.quad	.Lop_end
	.section .note.GNU-stack,"",@progbits
