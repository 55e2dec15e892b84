# A signal frame ("S" augmentation), in .eh_frame only: libdwarf 20210528
# rejects an "S" augmentation without "z", which GAS writes into .debug_frame.
	.text
# A signal frame ("S" augmentation).
	.globl	signal_trampoline
	.type	signal_trampoline, @function
	nop
signal_trampoline:
	.cfi_startproc
	.cfi_signal_frame
	# DW_CFA_def_cfa_expression: DW_OP_breg7 160; DW_OP_deref
	.cfi_escape 0x0f, 0x04, 0x77, 0xa0, 0x01, 0x06
	movq	$15, %rax
	syscall
	.cfi_endproc
	.size	signal_trampoline, .-signal_trampoline
# SPDX-License-Identifier: Apache-2.0
