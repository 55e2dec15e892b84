# Control that leaves a frame's description (verify/transfers):
#  - into_cold_wrong jumps, frame in place (rsp = CFA-16, rbx saved at
#    c-16), into a separate FDE (its .cold part) whose row there says
#    CFA = rsp+8: cross-fde-mismatch at the jump;
#  - into_cold_right does the same into a part whose row says rsp+16 and
#    rbx at c-16: clean, the jump checked;
#  - ret_unpopped returns with its push still on the stack (its CFI follows
#    the code, so no row is wrong): ret-mismatch at the ret;
#  - push_jump_right ends in `push %rax; ret`, a jump to the pushed address
#    with its frame in place, its CFI following the push: the ret-jump note
#    only; push_jump_wrong's CFI does not follow the push (as GCC writes an
#    asm's push): cfa-mismatch at the ret, and the note;
#  - push_jump_joined's ret follows a push but is also a jump's target,
#    whose path has a word of its own frame on top: ret-mismatch, not the
#    note;
#  - tail_swapped restores rbx and r12 from each other's slot before a tail
#    call: the callee's row at its entry (rbx, r12 unchanged) does not hold:
#    cross-fde-mismatch at the jump (and its own row's reg-mismatch there);
#  - case_into_cold_wrong's jump table has a case in another FDE (its cold
#    part) whose row says CFA = rsp+8 with the frame in place:
#    cross-fde-mismatch at the indirect jump; case_into_cold_right's cold
#    part describes the frame: clean, the case checked;
#  - switch_default_elsewhere's bound check (cmp; ja) jumps into the middle
#    of another function, as LLVM lays out a default it knows unreachable:
#    not a transfer the table must describe, clean;
#  - switch_default_at_fragment's bound check jumps to the start of an
#    unnamed piece of another, larger frame (CFA = rsp+368: a cold part's
#    unreachable opcode handler, which the linker placed there): that
#    piece is entered in its own row's frame, not the switch's: clean.
	.text
	.globl	into_cold_wrong
	.type	into_cold_wrong, @function
into_cold_wrong:
	.cfi_startproc
	pushq	%rbx
	.cfi_def_cfa_offset 16
	.cfi_offset %rbx, -16
	testq	%rdi, %rdi
	je	.Lcold_wrong
	popq	%rbx
	.cfi_def_cfa_offset 8
	.cfi_restore %rbx
	ret
	.cfi_endproc
	.size	into_cold_wrong, .-into_cold_wrong

	.type	into_cold_wrong.cold, @function
into_cold_wrong.cold:
	.cfi_startproc
.Lcold_wrong:
	movq	$1, %rax
	popq	%rbx
	ret
	.cfi_endproc
	.size	into_cold_wrong.cold, .-into_cold_wrong.cold

	.globl	into_cold_right
	.type	into_cold_right, @function
into_cold_right:
	.cfi_startproc
	pushq	%rbx
	.cfi_def_cfa_offset 16
	.cfi_offset %rbx, -16
	testq	%rdi, %rdi
	je	.Lcold_right
	popq	%rbx
	.cfi_def_cfa_offset 8
	.cfi_restore %rbx
	ret
	.cfi_endproc
	.size	into_cold_right, .-into_cold_right

	.type	into_cold_right.cold, @function
into_cold_right.cold:
	.cfi_startproc
	.cfi_def_cfa_offset 16
	.cfi_offset %rbx, -16
.Lcold_right:
	movq	$1, %rax
	popq	%rbx
	.cfi_def_cfa_offset 8
	.cfi_restore %rbx
	ret
	.cfi_endproc
	.size	into_cold_right.cold, .-into_cold_right.cold

	.globl	ret_unpopped
	.type	ret_unpopped, @function
ret_unpopped:
	.cfi_startproc
	pushq	%rbx
	.cfi_def_cfa_offset 16
	.cfi_offset %rbx, -16
	movq	%rdi, %rax
	ret
	.cfi_endproc
	.size	ret_unpopped, .-ret_unpopped

	.globl	push_jump_right
	.type	push_jump_right, @function
push_jump_right:
	.cfi_startproc
	subq	$24, %rsp
	.cfi_def_cfa_offset 32
	movq	%rdi, %rax
	pushq	%rax
	.cfi_def_cfa_offset 40
	ret
	.cfi_endproc
	.size	push_jump_right, .-push_jump_right

	.globl	push_jump_wrong
	.type	push_jump_wrong, @function
push_jump_wrong:
	.cfi_startproc
	subq	$24, %rsp
	.cfi_def_cfa_offset 32
	movq	%rdi, %rax
	pushq	%rax
	ret
	.cfi_endproc
	.size	push_jump_wrong, .-push_jump_wrong

	.globl	push_jump_joined
	.type	push_jump_joined, @function
push_jump_joined:
	.cfi_startproc
	testq	%rdi, %rdi
	je	2f
	subq	$16, %rsp
	.cfi_def_cfa_offset 24
	jmp	1f
	.cfi_def_cfa_offset 8
2:	subq	$8, %rsp
	.cfi_def_cfa_offset 16
	pushq	%rax
	.cfi_def_cfa_offset 24
1:	ret
	.cfi_endproc
	.size	push_jump_joined, .-push_jump_joined

	.globl	tail_swapped
	.type	tail_swapped, @function
tail_swapped:
	.cfi_startproc
	pushq	%rbx
	.cfi_def_cfa_offset 16
	.cfi_offset %rbx, -16
	pushq	%r12
	.cfi_def_cfa_offset 24
	.cfi_offset %r12, -24
	movq	%rdi, %rbx
	movq	%rsi, %r12
	popq	%rbx
	.cfi_def_cfa_offset 16
	.cfi_restore %rbx
	popq	%r12
	.cfi_def_cfa_offset 8
	.cfi_restore %r12
	jmp	callee
	.cfi_endproc
	.size	tail_swapped, .-tail_swapped

	.globl	callee
	.type	callee, @function
callee:
	.cfi_startproc
	movq	%rdi, %rax
	ret
	.cfi_endproc
	.size	callee, .-callee

	.globl	case_into_cold_wrong
	.type	case_into_cold_wrong, @function
case_into_cold_wrong:
	.cfi_startproc
	pushq	%rbx
	.cfi_def_cfa_offset 16
	.cfi_offset %rbx, -16
	cmpq	$1, %rdi
	ja	.Lcase_into_cold_wrong_default
	leaq	.Lcase_into_cold_wrong_table(%rip), %rdx
	movslq	(%rdx,%rdi,4), %rax
	addq	%rdx, %rax
	jmp	*%rax
.Lcase_into_cold_wrong_case0:
	movl	$7, %eax
.Lcase_into_cold_wrong_default:
	popq	%rbx
	.cfi_def_cfa_offset 8
	.cfi_restore %rbx
	ret
	.cfi_endproc
	.size	case_into_cold_wrong, .-case_into_cold_wrong
	.section	.rodata
	.p2align 2
.Lcase_into_cold_wrong_table:
	.long	.Lcase_into_cold_wrong_case0-.Lcase_into_cold_wrong_table
	.long	.Lcase_into_cold_wrong_case1-.Lcase_into_cold_wrong_table
	.section	.text.unlikely,"ax",@progbits
	.type	case_into_cold_wrong.cold, @function
case_into_cold_wrong.cold:
	.cfi_startproc
.Lcase_into_cold_wrong_case1:
	movl	$9, %eax
	popq	%rbx
	ret
	.cfi_endproc
	.size	case_into_cold_wrong.cold, .-case_into_cold_wrong.cold
	.text

	.globl	case_into_cold_right
	.type	case_into_cold_right, @function
case_into_cold_right:
	.cfi_startproc
	pushq	%rbx
	.cfi_def_cfa_offset 16
	.cfi_offset %rbx, -16
	cmpq	$1, %rdi
	ja	.Lcase_into_cold_right_default
	leaq	.Lcase_into_cold_right_table(%rip), %rdx
	movslq	(%rdx,%rdi,4), %rax
	addq	%rdx, %rax
	jmp	*%rax
.Lcase_into_cold_right_case0:
	movl	$7, %eax
.Lcase_into_cold_right_default:
	popq	%rbx
	.cfi_def_cfa_offset 8
	.cfi_restore %rbx
	ret
	.cfi_endproc
	.size	case_into_cold_right, .-case_into_cold_right
	.section	.rodata
	.p2align 2
.Lcase_into_cold_right_table:
	.long	.Lcase_into_cold_right_case0-.Lcase_into_cold_right_table
	.long	.Lcase_into_cold_right_case1-.Lcase_into_cold_right_table
	.section	.text.unlikely,"ax",@progbits
	.type	case_into_cold_right.cold, @function
case_into_cold_right.cold:
	.cfi_startproc
	.cfi_def_cfa_offset 16
	.cfi_offset %rbx, -16
.Lcase_into_cold_right_case1:
	movl	$9, %eax
	popq	%rbx
	.cfi_def_cfa_offset 8
	.cfi_restore %rbx
	ret
	.cfi_endproc
	.size	case_into_cold_right.cold, .-case_into_cold_right.cold
	.text

# switch_default_elsewhere: LLVM, knowing the switch's value is in range,
# lays out the "default" its bound check jumps to in another function
# (here the middle of default_holder, whose row there is CFA = rsp+8 while
# the switch's frame has rbx pushed).  The bound check is no transfer of
# control the table must describe: clean, as dwcheck reads the switch.
	.globl	switch_default_elsewhere
	.type	switch_default_elsewhere, @function
switch_default_elsewhere:
	.cfi_startproc
	pushq	%rbx
	.cfi_def_cfa_offset 16
	.cfi_offset %rbx, -16
	cmpq	$1, %rdi
	ja	.Ldefault_elsewhere
	leaq	.Lswitch_default_elsewhere_table(%rip), %rdx
	movslq	(%rdx,%rdi,4), %rax
	addq	%rdx, %rax
	jmp	*%rax
.Lswitch_default_elsewhere_case0:
	movl	$3, %eax
	popq	%rbx
	.cfi_remember_state
	.cfi_def_cfa_offset 8
	.cfi_restore %rbx
	ret
	.cfi_restore_state
.Lswitch_default_elsewhere_case1:
	movl	$4, %eax
	popq	%rbx
	.cfi_def_cfa_offset 8
	.cfi_restore %rbx
	ret
	.cfi_endproc
	.size	switch_default_elsewhere, .-switch_default_elsewhere
	.section	.rodata
	.p2align 2
.Lswitch_default_elsewhere_table:
	.long	.Lswitch_default_elsewhere_case0-.Lswitch_default_elsewhere_table
	.long	.Lswitch_default_elsewhere_case1-.Lswitch_default_elsewhere_table
	.text

	.globl	default_holder
	.type	default_holder, @function
default_holder:
	.cfi_startproc
	movl	$5, %eax
.Ldefault_elsewhere:
	addl	$1, %eax
	ret
	.cfi_endproc
	.size	default_holder, .-default_holder

	.globl	switch_default_at_fragment
	.type	switch_default_at_fragment, @function
switch_default_at_fragment:
	.cfi_startproc
	pushq	%rbx
	.cfi_def_cfa_offset 16
	.cfi_offset %rbx, -16
	cmpq	$1, %rdi
	ja	.Lfragment_of_another_frame
	leaq	.Lswitch_default_at_fragment_table(%rip), %rdx
	movslq	(%rdx,%rdi,4), %rax
	addq	%rdx, %rax
	jmp	*%rax
.Lswitch_default_at_fragment_case0:
	movl	$3, %eax
	popq	%rbx
	.cfi_remember_state
	.cfi_def_cfa_offset 8
	.cfi_restore %rbx
	ret
	.cfi_restore_state
.Lswitch_default_at_fragment_case1:
	movl	$4, %eax
	popq	%rbx
	.cfi_def_cfa_offset 8
	.cfi_restore %rbx
	ret
	.cfi_endproc
	.size	switch_default_at_fragment, .-switch_default_at_fragment
	.section	.rodata
	.p2align 2
.Lswitch_default_at_fragment_table:
	.long	.Lswitch_default_at_fragment_case0-.Lswitch_default_at_fragment_table
	.long	.Lswitch_default_at_fragment_case1-.Lswitch_default_at_fragment_table
	.text

.Lfragment_of_another_frame:
	.cfi_startproc
	.cfi_def_cfa_offset 368
	movq	%r15, 0x38(%r12)
	ud2
	.cfi_endproc
# SPDX-License-Identifier: Apache-2.0
