# Probes that do not give rax back, or may not: the caller's rsp after
# `sub %rax,%rsp` is not known, so those addresses stay unchecked (two per
# caller) and nothing is reported (tests/check/run.sh).  One returns what is
# left in r11; one makes a system call (the kernel's result is in rax); one
# keeps rax on its stack across a call that is handed the slot's address.
	.text
	.type	big_frame, @function
	.globl	big_frame
big_frame:
	.cfi_startproc
	movl	$0x2008, %eax
	call	.Lprobe
	subq	%rax, %rsp
	.cfi_def_cfa_offset 0x2010
	addq	$0x2008, %rsp
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	big_frame, .-big_frame

	.p2align 4
.Lprobe:
	.cfi_startproc
	movq	%rax, %r11
1:	subq	$0x1000, %r11
	cmpq	$0x1000, %r11
	ja	1b
	movq	%r11, %rax
	ret
	.cfi_endproc
	.size	.Lprobe, .-.Lprobe

	.globl	syscall_frame
	.type	syscall_frame, @function
syscall_frame:
	.cfi_startproc
	movl	$0x2008, %eax
	call	.Lsyscall_probe
	subq	%rax, %rsp
	.cfi_def_cfa_offset 0x2010
	addq	$0x2008, %rsp
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	syscall_frame, .-syscall_frame

.Lsyscall_probe:
	.cfi_startproc
	syscall
	ret
	.cfi_endproc
	.size	.Lsyscall_probe, .-.Lsyscall_probe

	.globl	escaped_frame
	.type	escaped_frame, @function
escaped_frame:
	.cfi_startproc
	movl	$0x2008, %eax
	call	.Lescaped_probe
	subq	%rax, %rsp
	.cfi_def_cfa_offset 0x2010
	addq	$0x2008, %rsp
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	escaped_frame, .-escaped_frame

.Lescaped_probe:
	.cfi_startproc
	pushq	%rax
	.cfi_def_cfa_offset 16
	movq	%rsp, %rdi
	call	.Lwriter
	popq	%rax
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	.Lescaped_probe, .-.Lescaped_probe

.Lwriter:
	.cfi_startproc
	movq	$5, (%rdi)
	ret
	.cfi_endproc
	.size	.Lwriter, .-.Lwriter
# SPDX-License-Identifier: Apache-2.0
