# Frames larger than a page, allocated as rustc does: the size goes in rax,
# a stack probe touches each page and returns with rax unchanged, and the
# caller subtracts rax from rsp.  The analysis learns from the probe's own
# code that it gives rax back, so every address of big_frame is checked
# (tests/check/run.sh).  The probe is not named, as in a stripped library.
	.text
	.type	big_frame, @function
	.globl	big_frame
big_frame:
	.cfi_startproc
	pushq	%rbx
	.cfi_def_cfa_offset 16
	.cfi_offset %rbx, -16
	movl	$0x2008, %eax
	call	.Lprobe
	subq	%rax, %rsp
	.cfi_def_cfa_offset 0x2018
	movq	%rdi, %rbx
	leaq	8(%rsp), %rdi
	call	helper@PLT
	movq	%rbx, %rax
	addq	$0x2008, %rsp
	.cfi_def_cfa_offset 16
	popq	%rbx
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	big_frame, .-big_frame

# The frame size as a 64-bit immediate, and the probe called twice.
	.type	two_frames, @function
	.globl	two_frames
two_frames:
	.cfi_startproc
	movq	$0x1100, %rax
	call	.Lprobe
	subq	%rax, %rsp
	.cfi_def_cfa_offset 0x1108
	call	helper@PLT
	addq	$0x1100, %rsp
	.cfi_def_cfa_offset 8
	movl	$0x3000, %eax
	call	.Lprobe
	subq	%rax, %rsp
	.cfi_def_cfa_offset 0x3008
	call	helper@PLT
	addq	$0x3000, %rsp
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	two_frames, .-two_frames

# The probe (__rust_probestack's shape): r11 counts the pages down; rax,
# the size, is read and never written.
	.p2align 4
.Lprobe:
	.cfi_startproc
	pushq	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset %rbp, -16
	movq	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	movq	%rax, %r11
	cmpq	$0x1000, %r11
	jbe	2f
1:	subq	$0x1000, %rsp
	testq	%rsp, 8(%rsp)
	subq	$0x1000, %r11
	cmpq	$0x1000, %r11
	ja	1b
2:	subq	%r11, %rsp
	testq	%rsp, 8(%rsp)
	addq	%rax, %rsp
	leave
	.cfi_def_cfa %rsp, 8
	ret
	.cfi_endproc
	.size	.Lprobe, .-.Lprobe

	.type	helper, @function
	.globl	helper
helper:
	.cfi_startproc
	ret
	.cfi_endproc
	.size	helper, .-helper
# SPDX-License-Identifier: Apache-2.0
