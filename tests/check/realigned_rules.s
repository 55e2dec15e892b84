# A register saved below a realigned stack, described as glibc's libmvec
# describes it: an expression that rounds the CFA down as the code rounded
# rsp (((CFA - 8) & -64) - 176, the code having rounded CFA - 16).  Under
# the ABI the CFA is 16-byte aligned, so both roundings agree and the rule
# holds (tests/check/run.sh; tests/check/buggy.s has the same rule off by 8).
	.text
	.globl	realigned_save
	.type	realigned_save, @function
realigned_save:
	.cfi_startproc
	pushq	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset %rbp, -16
	movq	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	andq	$-64, %rsp
	subq	$0xc0, %rsp
	movq	%r12, 0x10(%rsp)
	# r12 at ((CFA - 8) & -64) - 176: lit8 minus const4s(-64) and const4s(-176) plus
	.cfi_escape 0x10, 0x0c, 0x0e, 0x38, 0x1c, 0x0d, 0xc0, 0xff, 0xff, 0xff, 0x1a, 0x0d, 0x50, 0xff, 0xff, 0xff, 0x22
	movq	%rdi, %r12
	call	helper@PLT
	movq	0x10(%rsp), %r12
	.cfi_restore %r12
	movq	%rbp, %rsp
	.cfi_def_cfa_register %rsp
	popq	%rbp
	.cfi_def_cfa_offset 8
	.cfi_restore %rbp
	ret
	.cfi_endproc
	.size	realigned_save, .-realigned_save

	.globl	helper
	.type	helper, @function
helper:
	.cfi_startproc
	ret
	.cfi_endproc
	.size	helper, .-helper
# SPDX-License-Identifier: Apache-2.0
