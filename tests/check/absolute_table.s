# Tables of absolute addresses loaded into a register, then jumped through
# (CPython's interpreter loop in a non-PIE build): linked without PIE, so
# that the tables hold the addresses themselves.  dwcheck resolves them:
# every case is checked, none left to a guess.
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


# The dispatch of CPython's interpreter loop as GCC merges it: each case
# loads the next target from the table and jumps to one shared jmp *%rax,
# whose block holds no load (the value comes from every predecessor).  The
# table also holds a null entry and one naming code outside the function
# (GCC's .cold parts), which the reading skips rather than stops at.
	.globl	shared_dispatch
	.type	shared_dispatch, @function
shared_dispatch:
	.cfi_startproc
	pushq	%rbx
	.cfi_def_cfa_offset 16
	.cfi_offset %rbx, -16
	movl	%edi, %ebx
	andl	$3, %edi
	movq	.Lsd_table(,%rdi,8), %rax
.Lsd_dispatch:
	jmp	*%rax
.Lsd_op0:
	subl	$1, %ebx
	js	.Lsd_done
	movl	%ebx, %edi
	andl	$3, %edi
	movq	.Lsd_table(,%rdi,8), %rax
	jmp	.Lsd_dispatch
.Lsd_op3:
	call	elsewhere
	subl	$2, %ebx
	js	.Lsd_done
	movl	%ebx, %edi
	andl	$3, %edi
	movq	.Lsd_table(,%rdi,8), %rax
	jmp	.Lsd_dispatch
.Lsd_done:
	movl	%ebx, %eax
	popq	%rbx
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	shared_dispatch, .-shared_dispatch

	.globl	elsewhere
	.type	elsewhere, @function
elsewhere:
	.cfi_startproc
	ret
	.cfi_endproc
	.size	elsewhere, .-elsewhere

	.section .rodata
	.balign 8
.Lat_table:
	.quad	.Lat_case0
	.quad	.Lat_case1
.Lsd_table:
	.quad	.Lsd_op0
	.quad	elsewhere
	.quad	0
	.quad	.Lsd_op3
# Not the table: data after it that names the function itself (a pointer
# to it), which must not read as a case.
	.quad	0
	.quad	shared_dispatch
	.section .note.GNU-stack,"",@progbits
# SPDX-License-Identifier: Apache-2.0
