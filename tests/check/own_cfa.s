# Rows with a CFA of their own, as GHC's StgRun writes them: CFA = rsp+0,
# the saves at positive offsets from it, and rsp's own rule
# (val_expression: DW_OP_breg7 72) giving the caller's stack pointer.  An
# unwinder restores the caller exactly from own_cfa_right's rows: clean.
# own_cfa_wrong's rsp rule gives rsp+80, 8 bytes past the caller's rsp:
# its rows are checked as they are, and found wrong.
	.text
	.globl	own_cfa_right
	.type	own_cfa_right, @function
own_cfa_right:
	.cfi_startproc
	subq	$64, %rsp
	.cfi_def_cfa_offset 72
	movq	%rbx, 8(%rsp)
	.cfi_offset %rbx, -64
	.cfi_def_cfa %rsp, 0
	.cfi_offset %rbx, 8
	.cfi_offset %rip, 64
	.cfi_escape 0x16, 0x07, 0x03, 0x77, 0xc8, 0x00
	movq	%rdi, %rax
	movq	8(%rsp), %rbx
	addq	$64, %rsp
	.cfi_def_cfa %rsp, 8
	.cfi_restore %rbx
	.cfi_offset %rip, -8
	.cfi_restore %rsp
	ret
	.cfi_endproc
	.size	own_cfa_right, .-own_cfa_right

	.globl	own_cfa_wrong
	.type	own_cfa_wrong, @function
own_cfa_wrong:
	.cfi_startproc
	subq	$64, %rsp
	.cfi_def_cfa_offset 72
	movq	%rbx, 8(%rsp)
	.cfi_offset %rbx, -64
	.cfi_def_cfa %rsp, 0
	.cfi_offset %rbx, 8
	.cfi_offset %rip, 64
	.cfi_escape 0x16, 0x07, 0x03, 0x77, 0xd0, 0x00
	movq	%rdi, %rax
	movq	8(%rsp), %rbx
	addq	$64, %rsp
	.cfi_def_cfa %rsp, 8
	.cfi_restore %rbx
	.cfi_offset %rip, -8
	.cfi_restore %rsp
	ret
	.cfi_endproc
	.size	own_cfa_wrong, .-own_cfa_wrong
# SPDX-License-Identifier: Apache-2.0
