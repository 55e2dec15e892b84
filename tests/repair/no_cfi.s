# Functions without any CFI, for dwsynth repair: which ones get an FDE.
#  - plain_leaf, pushes_rbx: synthesis has a row at every instruction:
#    added;
#  - dynamic_frame moves rsp by a register (the CFA is then no offset from
#    rsp synthesis can follow): added, its rows from there on ending the
#    stack;
#  - passes_stack_argument jumps to shared_tail with a word still pushed,
#    while call_tail calls it: shared_tail is entered in two frames, and a
#    table from its ABI entry would be wrong for the jump: no FDE.
#  - keeps_no_rbx changes rbx and jumps to after_rbx_changed, whose entry
#    from the ABI (rbx its caller's) does not hold for that jump: no FDE
#    for after_rbx_changed (keeps_no_rbx gets one, rbx undefined);
#  - has_dead_code jumps over three instructions no path reaches (a ret
#    among them, whose state means nothing): added, its
#    rows for the dead code ending the stack (ra undefined), the others
#    synthesis's;
#  - push_jump ends in `push; ret`, a jump to has_dead_code: added (the ret
#    pops the word it pushed, not its own frame's).
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

	.globl	has_dead_code
	.hidden	has_dead_code
	.type	has_dead_code, @function
has_dead_code:
	pushq	%rbx
	movq	%rdi, %rbx
	jmp	1f
	movq	$0, (%rdi)
	addq	$1, %rax
	ret
1:	movq	%rbx, %rax
	popq	%rbx
	ret
	.size	has_dead_code, .-has_dead_code

	.globl	push_jump
	.type	push_jump, @function
push_jump:
	leaq	has_dead_code(%rip), %rax
	pushq	%rax
	ret
	.size	push_jump, .-push_jump

	.globl	keeps_no_rbx
	.type	keeps_no_rbx, @function
keeps_no_rbx:
	movq	%rdi, %rbx
	jmp	after_rbx_changed
	.size	keeps_no_rbx, .-keeps_no_rbx

	.globl	after_rbx_changed
	.hidden	after_rbx_changed
	.type	after_rbx_changed, @function
after_rbx_changed:
	movq	%rbx, %rax
	ret
	.size	after_rbx_changed, .-after_rbx_changed
# SPDX-License-Identifier: Apache-2.0
