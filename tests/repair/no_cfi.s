# Functions without any CFI, for dwsynth repair: which ones get an FDE.
#  - plain_leaf, pushes_rbx: synthesis has a row at every instruction:
#    added;
#  - dynamic_frame moves rsp by a register (the CFA is then no offset from
#    rsp synthesis can follow): no row there, so no FDE at all;
#  - passes_stack_argument jumps to shared_tail with a word still pushed,
#    while call_tail calls it: shared_tail is entered in two frames, and a
#    table from its ABI entry would be wrong for the jump: no FDE.
	.text
	.globl	plain_leaf
	.type	plain_leaf, @function
plain_leaf:
	leaq	1(%rdi), %rax
	ret
	.size	plain_leaf, .-plain_leaf

	.globl	pushes_rbx
	.type	pushes_rbx, @function
pushes_rbx:
	pushq	%rbx
	movq	%rdi, %rbx
	call	plain_leaf
	addq	%rbx, %rax
	popq	%rbx
	ret
	.size	pushes_rbx, .-pushes_rbx

	.globl	dynamic_frame
	.type	dynamic_frame, @function
dynamic_frame:
	subq	%rdi, %rsp
	movq	$0, (%rsp)
	addq	%rdi, %rsp
	ret
	.size	dynamic_frame, .-dynamic_frame

	.globl	shared_tail
	.type	shared_tail, @function
shared_tail:
	movq	%rdi, %rax
	ret
	.size	shared_tail, .-shared_tail

	.globl	passes_stack_argument
	.type	passes_stack_argument, @function
passes_stack_argument:
	pushq	%rdi
	jmp	shared_tail
	.size	passes_stack_argument, .-passes_stack_argument

	.globl	call_tail
	.type	call_tail, @function
call_tail:
	subq	$8, %rsp
	call	shared_tail
	addq	$8, %rsp
	ret
	.size	call_tail, .-call_tail
