# Two functions in sections of their own, as -ffunction-sections makes
# them: `one` is described right, `two` pushes rbx without saying so.
# Assembled only (cc -c), dwcheck audits the object, its FDEs' pc_begin
# and the code's addresses relocations against the sections.
	.section .text.one,"ax",@progbits
	.globl one
	.type one, @function
one:
	.cfi_startproc
	pushq %rbp
	.cfi_def_cfa_offset 16
	.cfi_offset %rbp, -16
	call two
	popq %rbp
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size one, .-one

	.section .text.two,"ax",@progbits
	.globl two
	.type two, @function
two:
	.cfi_startproc
	pushq %rbx
	movq $1, %rbx
	popq %rbx
	ret
	.cfi_endproc
	.size two, .-two
# SPDX-License-Identifier: Apache-2.0
