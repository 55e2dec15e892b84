# A computed goto (GCC's &&label, as glibc's vfprintf uses it): the table's
# entries are relative to a label of the code, not to the table.  dwcheck
# resolves the table, so every case is checked, none left to a guess.
	.text
	.globl	computed_goto
	.type	computed_goto, @function
computed_goto:
	.cfi_startproc
	pushq	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset %rbp, -16
	pushq	%rbx
	.cfi_def_cfa_offset 24
	.cfi_offset %rbx, -24
	andl	$3, %edi
	leaq	.Lgoto_table(%rip), %rcx
	leaq	.Lgoto0(%rip), %rsi
	movslq	(%rcx,%rdi,4), %rax
	addq	%rsi, %rax
	jmp	*%rax
.Lgoto0:
	movl	$1, %ebx
	jmp	.Lgoto_join
.Lgoto1:
	movl	$2, %ebx
	jmp	.Lgoto_join
.Lgoto2:
	movl	$3, %ebx
	jmp	.Lgoto_join
.Lgoto3:
	movl	$4, %ebx
.Lgoto_join:
	movl	%ebx, %edi
	call	goto_helper
	popq	%rbx
	.cfi_def_cfa_offset 16
	popq	%rbp
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	computed_goto, .-computed_goto

	.type	goto_helper, @function
goto_helper:
	.cfi_startproc
	movl	%edi, %eax
	ret
	.cfi_endproc
	.size	goto_helper, .-goto_helper

	.section .rodata
	.balign 4
.Lgoto_table:
	.long	.Lgoto0-.Lgoto0
	.long	.Lgoto1-.Lgoto0
	.long	.Lgoto2-.Lgoto0
	.long	.Lgoto3-.Lgoto0
	.section .note.GNU-stack,"",@progbits
