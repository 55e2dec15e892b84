# A table of absolute addresses loaded into a register, then jumped through
# (CPython's interpreter loop in a non-PIE build): linked without PIE, so
# that the table holds the addresses themselves.  dwcheck resolves it: every
# case is checked, none left to a guess.
	.text
	.globl	absolute_table
	.type	absolute_table, @function
absolute_table:
	.cfi_startproc
	pushq	%rbx
	.cfi_def_cfa_offset 16
	.cfi_offset %rbx, -16
	andl	$1, %edi
	movq	.Lat_table(,%rdi,8), %rax
	jmp	*%rax
.Lat_case0:
	movl	$1, %ebx
	jmp	.Lat_join
.Lat_case1:
	movl	$2, %ebx
.Lat_join:
	movl	%ebx, %eax
	popq	%rbx
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	absolute_table, .-absolute_table

	.section .rodata
	.balign 8
.Lat_table:
	.quad	.Lat_case0
	.quad	.Lat_case1
	.section .note.GNU-stack,"",@progbits
