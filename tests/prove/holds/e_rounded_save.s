# A callee-saved register whose save is described by DW_CFA_expression:
# rbx at (CFA - 1) & -16, where the code pushed rbx at CFA - 16.  The
# rounding lands on CFA - 16 exactly when the CFA is 16-byte aligned, as
# the ABI promises (at CFA = 8 mod 16 it names CFA - 8, the return
# address).  Sampling aligned stacks agrees with it as with its twin
# e_rare_save (../fails_saves.s, wrong at one CFA in 4,096); a proof says
# it holds (tests/prove/run.sh: no finding, every address checked).
	.text
	.globl	e_rounded_save
	.type	e_rounded_save, @function
e_rounded_save:
	.cfi_startproc
	pushq	%rbx
	.cfi_def_cfa_offset 16
	# DW_CFA_expression (0x10) rbx (3), 5 bytes, on a stack holding the CFA:
	#   DW_OP_lit1              0x31
	#   DW_OP_minus             0x1c        CFA - 1
	#   DW_OP_const1s -16       0x09 0xf0
	#   DW_OP_and               0x1a        (CFA - 1) & -16
	.cfi_escape 0x10, 0x03, 0x05, 0x31, 0x1c, 0x09, 0xf0, 0x1a
	movq	%rdi, %rbx
	leaq	1(%rbx), %rax
	popq	%rbx
	.cfi_def_cfa_offset 8
	.cfi_restore %rbx
	ret
	.cfi_endproc
	.size	e_rounded_save, .-e_rounded_save
# SPDX-License-Identifier: Apache-2.0
