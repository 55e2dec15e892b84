# Functions that carry CFI already are left as they are and checked:
# wrong_cfi forgets the CFA offset of its `subq` (a cfa-mismatch at the
# call), right_cfi is correct; plain has none and is annotated.
	.text
	.globl	wrong_cfi
	.type	wrong_cfi, @function
wrong_cfi:
	.cfi_startproc
	pushq	%rbx
	.cfi_def_cfa_offset 16
	.cfi_offset %rbx, -16
	subq	$16, %rsp
	call	plain
	addq	$16, %rsp
	popq	%rbx
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	wrong_cfi, .-wrong_cfi

	.globl	right_cfi
	.type	right_cfi, @function
right_cfi:
	.cfi_startproc
	pushq	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset %rbp, -16
	movq	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	call	plain
	popq	%rbp
	.cfi_def_cfa %rsp, 8
	ret
	.cfi_endproc
	.size	right_cfi, .-right_cfi

	.globl	plain
	.type	plain, @function
plain:
	pushq	%r12
	call	callback
	popq	%r12
	ret
	.size	plain, .-plain
# SPDX-License-Identifier: Apache-2.0
