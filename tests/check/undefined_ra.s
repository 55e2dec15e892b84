# .cfi_undefined rip (the end of the stack) in the middle of an ordinary
# function, whose return address is still at CFA-8: cut_short's rows from
# there end every stack through it, ra-mismatch.  thread_entry says so from
# its first row, and cet_start after its endbr64 as CET builds of _start
# do: the outermost frames they are, not checked.  after_dynamic_sub says
# it once rsp has moved by a register, where synthesis cannot say the CFA
# (as dwsynth repair writes such code's rows): no rule it knows would do
# better, not reported.
	.text
	.globl	cut_short
	.type	cut_short, @function
cut_short:
	.cfi_startproc
	pushq	%rbx
	.cfi_def_cfa_offset 16
	.cfi_offset %rbx, -16
	movq	%rdi, %rbx
	.cfi_undefined %rip
	addq	$1, %rbx
	movq	%rbx, %rax
	popq	%rbx
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	cut_short, .-cut_short

	.globl	thread_entry
	.type	thread_entry, @function
thread_entry:
	.cfi_startproc
	.cfi_undefined %rip
	xorl	%ebp, %ebp
	movq	%rdi, %rax
	hlt
	.cfi_endproc
	.size	thread_entry, .-thread_entry

	.globl	cet_start
	.type	cet_start, @function
cet_start:
	.cfi_startproc
	endbr64
	.cfi_undefined %rip
	xorl	%ebp, %ebp
	movq	%rdx, %r9
	hlt
	.cfi_endproc
	.size	cet_start, .-cet_start

	.globl	after_dynamic_sub
	.type	after_dynamic_sub, @function
after_dynamic_sub:
	.cfi_startproc
	subq	%rdi, %rsp
	.cfi_undefined %rip
	movq	$0, (%rsp)
	addq	%rdi, %rsp
	ret
	.cfi_endproc
	.size	after_dynamic_sub, .-after_dynamic_sub
# SPDX-License-Identifier: Apache-2.0
