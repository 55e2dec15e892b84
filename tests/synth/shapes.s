# Frame shapes with hand-written, correct CFI: the CFI is the oracle that
# dwsynth --compare is checked against (tests/synth/run.sh).  Every function
# here must be synthesised in full agreement with its directives.
	.text

# Callee-saved pushes, a local frame, and an early exit.
	.globl	pushes
	.type	pushes, @function
pushes:
	.cfi_startproc
	pushq	%r12
	.cfi_def_cfa_offset 16
	.cfi_offset %r12, -16
	pushq	%rbx
	.cfi_def_cfa_offset 24
	.cfi_offset %rbx, -24
	subq	$40, %rsp
	.cfi_def_cfa_offset 64
	testq	%rdi, %rdi
	je	1f
	movq	%rdi, %rbx
	call	helper
	movq	%rax, %r12
	addq	$40, %rsp
	.cfi_remember_state
	.cfi_def_cfa_offset 24
	popq	%rbx
	.cfi_def_cfa_offset 16
	popq	%r12
	.cfi_def_cfa_offset 8
	ret
1:
	.cfi_restore_state
	xorl	%eax, %eax
	addq	$40, %rsp
	.cfi_def_cfa_offset 24
	popq	%rbx
	.cfi_def_cfa_offset 16
	lock orq $0, (%rsp)	# a fence (libatomic's idiom): the saved r12 stays
	popq	%r12
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	pushes, .-pushes

# A frame pointer, alloca-style rsp changes, leave.
	.globl	frame_pointer
	.type	frame_pointer, @function
frame_pointer:
	.cfi_startproc
	pushq	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset %rbp, -16
	movq	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	pushq	%rbx
	.cfi_offset %rbx, -24
	subq	%rdi, %rsp
	andq	$-16, %rsp
	movq	%rsp, %rdi
	call	helper
	movq	-8(%rbp), %rbx
	leave
	.cfi_def_cfa %rsp, 8
	ret
	.cfi_endproc
	.size	frame_pointer, .-frame_pointer

# Callee-saved registers stored with mov instead of push.
	.globl	mov_saves
	.type	mov_saves, @function
mov_saves:
	.cfi_startproc
	subq	$40, %rsp
	.cfi_def_cfa_offset 48
	movq	%rbx, 16(%rsp)
	.cfi_offset %rbx, -32
	movq	%r13, 24(%rsp)
	.cfi_offset %r13, -24
	movq	%rdi, %rbx
	movq	%rsi, %r13
	call	helper
	addq	%r13, %rax
	movq	16(%rsp), %rbx
	movq	24(%rsp), %r13
	addq	$40, %rsp
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	mov_saves, .-mov_saves

# A jump table in .rodata, in a function with a frame.
	.globl	jump_table
	.type	jump_table, @function
jump_table:
	.cfi_startproc
	pushq	%rbx
	.cfi_def_cfa_offset 16
	.cfi_offset %rbx, -16
	cmpq	$3, %rdi
	ja	.Ldefault
	leaq	.Ltable(%rip), %rdx
	movslq	(%rdx,%rdi,4), %rax
	addq	%rdx, %rax
	jmp	*%rax
.Lcase0:
	movl	$10, %ebx
	jmp	.Ljoin
.Lcase1:
	movl	$11, %ebx
	jmp	.Ljoin
.Lcase2:
	movl	$12, %ebx
	jmp	.Ljoin
.Lcase3:
	movl	$13, %ebx
	jmp	.Ljoin
.Ldefault:
	xorl	%ebx, %ebx
.Ljoin:
	movl	%ebx, %edi
	call	helper
	popq	%rbx
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	jump_table, .-jump_table
	.section .rodata
	.balign 4
.Ltable:
	.long	.Lcase0-.Ltable
	.long	.Lcase1-.Ltable
	.long	.Lcase2-.Ltable
	.long	.Lcase3-.Ltable
	.text

# A tail call after the epilogue, and a call to a function that never returns
# in the middle of the code.
	.globl	tail_and_noreturn
	.type	tail_and_noreturn, @function
tail_and_noreturn:
	.cfi_startproc
	pushq	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset %rbp, -16
	subq	$16, %rsp
	.cfi_def_cfa_offset 32
	testq	%rdi, %rdi
	jne	1f
	call	never_returns
1:
	movq	%rdi, %rbp
	call	helper
	movq	%rbp, %rdi
	addq	$16, %rsp
	.cfi_def_cfa_offset 16
	popq	%rbp
	.cfi_def_cfa_offset 8
	jmp	helper
	.cfi_endproc
	.size	tail_and_noreturn, .-tail_and_noreturn

# Stack realignment with a frame pointer (as for over-aligned locals).
	.globl	realigned
	.type	realigned, @function
realigned:
	.cfi_startproc
	pushq	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset %rbp, -16
	movq	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	pushq	%r15
	pushq	%r14
	.cfi_offset %r15, -24
	.cfi_offset %r14, -32
	andq	$-64, %rsp
	subq	$128, %rsp
	movq	%rsp, %rdi
	call	helper
	leaq	-16(%rbp), %rsp
	popq	%r14
	popq	%r15
	popq	%rbp
	.cfi_def_cfa %rsp, 8
	ret
	.cfi_endproc
	.size	realigned, .-realigned

	.globl	never_returns
	.type	never_returns, @function
never_returns:
	.cfi_startproc
1:	hlt
	jmp	1b
	.cfi_endproc
	.size	never_returns, .-never_returns

	.globl	helper
	.type	helper, @function
helper:
	.cfi_startproc
	leaq	1(%rdi), %rax
	ret
	.cfi_endproc
	.size	helper, .-helper

# A function split in two, as GCC splits off its unlikely paths: the body
# jumps to the `.cold` fragment, which jumps back to a block that only it
# (and a computed goto) reaches.  The block's state comes from the fragment,
# whose own state comes from the body.
	.globl	split
	.type	split, @function
split:
	.cfi_startproc
	pushq	%rbx
	.cfi_def_cfa_offset 16
	.cfi_offset rbx, -16
	subq	$16, %rsp
	.cfi_def_cfa_offset 32
	movq	%rdi, %rbx
	testq	%rdi, %rdi
	je	split.cold
	jmp	*(%rsi)
.Lsplit_resume:
	movq	%rbx, %rax
	addq	$16, %rsp
	.cfi_def_cfa_offset 16
	popq	%rbx
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	split, .-split

	.section .text.unlikely,"ax",@progbits
	.type	split.cold, @function
split.cold:
	.cfi_startproc
	.cfi_def_cfa_offset 32
	.cfi_offset rbx, -16
	xorl	%ebx, %ebx
	jmp	.Lsplit_resume
	.cfi_endproc
	.size	split.cold, .-split.cold
# SPDX-License-Identifier: Apache-2.0
