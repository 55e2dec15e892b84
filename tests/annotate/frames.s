# Hand-written functions without CFI, the input of `dwsynth annotate`
# (tests/annotate/run.sh).  They call each other in one chain,
#   driver.cc -> ann_pushes -> ann_realign -> ann_alloca -> ann_early_exit
#   -> ann_jump_table -> ann_tail_call -> ann_tail_only =(tail call)=>
#   ann_mov_saves -> ann_untyped -> ann_macro -> ann_other_section
#   -> ann_drap -> ann_intel (intel.s) -> ann_cpp (cpp.S) -> callback
#   (driver.cc),
# and each one overwrites the callee-saved registers it saves, so that an
# exception thrown by the callback restores the driver's registers only if
# every frame's CFI is right.  The argument (2) travels down the chain.

	.text

# Callee-saved pushes: all six, and a local frame.
	.globl	ann_pushes
	.type	ann_pushes, @function
ann_pushes:
	pushq	%rbp
	pushq	%rbx
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
	subq	$8, %rsp
	movq	$-1, %rbx
	movq	$-2, %rbp
	movq	$-3, %r12
	movq	$-4, %r13
	movq	$-5, %r14
	movq	$-6, %r15
	call	ann_realign
	addq	$8, %rsp
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%rbx
	popq	%rbp
	ret
	.size	ann_pushes, .-ann_pushes

# A frame pointer, and the stack realigned to 32 bytes below it.
	.globl	ann_realign
	.type	ann_realign, @function
ann_realign:
	pushq	%rbp
	movq	%rsp, %rbp
	pushq	%rbx
	pushq	%r12
	andq	$-32, %rsp
	subq	$64, %rsp
	movq	%rdi, (%rsp)
	movq	$-7, %rbx
	movq	$-8, %r12
	movq	(%rsp), %rdi
	call	ann_alloca
	leaq	-16(%rbp), %rsp
	popq	%r12
	popq	%rbx
	popq	%rbp
	ret
	.size	ann_realign, .-ann_realign

# alloca through rbp: the stack pointer moves by an amount known at run time.
	.globl	ann_alloca
	.type	ann_alloca, @function
ann_alloca:
	pushq	%rbp
	movq	%rsp, %rbp
	pushq	%rbx
	subq	$8, %rsp
	movq	%rdi, %rbx
	leaq	15(,%rdi,8), %rax
	andq	$-16, %rax
	subq	%rax, %rsp
	movq	%rbx, (%rsp)
	movq	$-9, %rbx
	movq	(%rsp), %rdi
	call	ann_early_exit
	movq	-8(%rbp), %rbx
	leave
	ret
	.size	ann_alloca, .-ann_alloca

# Early exits: an epilogue before the body, and a second exit after it.
	.globl	ann_early_exit
	.type	ann_early_exit, @function
ann_early_exit:
	pushq	%rbx
	pushq	%r12
	subq	$8, %rsp
	movq	%rdi, %rbx
	cmpq	$-1, %rdi
	jne	.Lbody
	xorl	%eax, %eax
	addq	$8, %rsp
	popq	%r12
	popq	%rbx
	ret
.Lbody:
	movq	$-10, %r12
	call	ann_jump_table
	testq	%rax, %rax
	js	2f
	addq	$8, %rsp
	popq	%r12
	popq	%rbx
	ret
2:	negq	%rax
	addq	$8, %rsp
	popq	%r12
	popq	%rbx
	ret
	.size	ann_early_exit, .-ann_early_exit

# Jump tables in .rodata: absolute addresses (non-PIC code) and 32-bit
# offsets from the table (PIC code).  Argument 2 takes the second table.
	.globl	ann_jump_table
	.type	ann_jump_table, @function
ann_jump_table:
	pushq	%rbx
	movq	%rdi, %rbx
	cmpq	$3, %rdi
	ja	.Ldefault
	jmp	*.Ltable(,%rdi,8)
	.section .rodata
	.p2align 3
.Ltable:
	.quad	.Lcase0, .Lcase1, .Lcase2, .Ldefault
	.text
.Lcase0:
	movl	$100, %eax
	popq	%rbx
	ret
.Lcase1:
	movl	$101, %eax
	popq	%rbx
	ret
.Lcase2:
	leaq	.Ltable32(%rip), %rax
	movq	%rbx, %rdx
	andl	$1, %edx
	movslq	(%rax,%rdx,4), %rdx
	addq	%rdx, %rax
	jmp	*%rax
.Ldefault:
	movq	$-1, %rax
	popq	%rbx
	ret
.Lcalls:
	movq	%rbx, %rdi
	call	ann_tail_call
	popq	%rbx
	ret
.Lnothing:
	xorl	%eax, %eax
	popq	%rbx
	ret
	.section .rodata
	.p2align 2
.Ltable32:
	.long	.Lcalls - .Ltable32, .Lnothing - .Ltable32
	.text
	.size	ann_jump_table, .-ann_jump_table

# Tail calls: one path leaves through a jump to another function.
	.globl	ann_tail_call
	.type	ann_tail_call, @function
ann_tail_call:
	pushq	%rbx
	movq	%rdi, %rbx
	testq	%rdi, %rdi
	jne	1f
	popq	%rbx
	jmp	ann_mov_saves
1:	call	ann_tail_only
	popq	%rbx
	ret
	.size	ann_tail_call, .-ann_tail_call

# Nothing but a tail call: the frame is gone before the jump (and from
# the backtrace).
	.globl	ann_tail_only
	.type	ann_tail_only, @function
ann_tail_only:
	pushq	%r12
	movq	%rdi, %r12
	addq	$0, %r12
	movq	%r12, %rdi
	popq	%r12
	jmp	ann_mov_saves
	.size	ann_tail_only, .-ann_tail_only

# Callee-saved registers stored with mov, not push.
	.globl	ann_mov_saves
	.type	ann_mov_saves, @function
ann_mov_saves:
	subq	$40, %rsp
	movq	%rbx, 8(%rsp)
	movq	%rbp, 16(%rsp)
	movq	%r12, 24(%rsp)
	movq	$-12, %rbx
	movq	$-13, %rbp
	movq	$-14, %r12
	call	ann_untyped
	movq	8(%rsp), %rbx
	movq	16(%rsp), %rbp
	movq	24(%rsp), %r12
	addq	$40, %rsp
	ret
	.size	ann_mov_saves, .-ann_mov_saves

# A global label without .type, that a call targets, is a function too.
	.globl	ann_untyped
ann_untyped:
	pushq	%r13
	movq	$-15, %r13
	call	ann_macro
	popq	%r13
	ret

# Macros of one instruction each: every line boundary can be exact.
	.macro	SAVE reg
	pushq	\reg
	.endm
	.macro	RESTORE reg
	popq	\reg
	.endm

	.globl	ann_macro
	.type	ann_macro, @function
ann_macro:
	SAVE	%r14
	SAVE	%r15
	subq	$8, %rsp
	movq	$-16, %r14
	movq	$-17, %r15
	call	ann_other_section
	addq	$8, %rsp
	RESTORE	%r15
	RESTORE	%r14
	ret
	.size	ann_macro, .-ann_macro

# A function in a section of its own, with a loop on a local label.
	.section .text.other,"ax",@progbits
	.globl	ann_other_section
	.type	ann_other_section, @function
ann_other_section:
	pushq	%rbp
	movq	%rsp, %rbp
	pushq	%rbx
	subq	$8, %rsp
	movl	$3, %ebx
.Lloop:
	decl	%ebx
	jnz	.Lloop
	movq	$-18, %rbx
	call	ann_drap
	movq	-8(%rbp), %rbx
	leave
	ret
	.size	ann_other_section, .-ann_other_section
	.text

# Stack realignment with a DRAP register, as GCC does it: r10 holds the CFA
# until it is saved in the realigned frame; from then on, and across the
# call (which may clobber r10), the CFA is found through that slot.
	.globl	ann_drap
	.type	ann_drap, @function
ann_drap:
	leaq	8(%rsp), %r10
	andq	$-32, %rsp
	pushq	-8(%r10)
	pushq	%rbp
	movq	%rsp, %rbp
	pushq	%r10
	pushq	%rbx
	subq	$48, %rsp
	movq	$-22, %rbx
	call	ann_intel
	addq	$48, %rsp
	popq	%rbx
	popq	%r10
	popq	%rbp
	leaq	-8(%r10), %rsp
	ret
	.size	ann_drap, .-ann_drap
# SPDX-License-Identifier: Apache-2.0
