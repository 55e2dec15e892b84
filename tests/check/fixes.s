# SPDX-License-Identifier: Apache-2.0
# Functions with known wrong CFI, each fixed by what dwcheck prints
# (tests/check/fixes.sh): the directives of each finding's fix, written
# where it says, make the audit of the reassembled file find nothing in the
# function, and readelf -wF show synthesis's rules there.  A function named
# fx_once_* is fixed in one audit; fx_steps_* takes several (a finding
# stands for all its function's addresses, and its fix is its first's);
# fx_paths_disagree gets no fix at all.
	.text
	.globl	fx_helper
	.type	fx_helper, @function
fx_helper:
	.cfi_startproc
	ret
	.cfi_endproc
	.size	fx_helper, .-fx_helper

# The CFA not moved with the push: .cfi_def_cfa_offset 16 after it.
	.globl	fx_once_stale_cfa
	.type	fx_once_stale_cfa, @function
fx_once_stale_cfa:
	.cfi_startproc
	pushq	%rbp
	.cfi_offset %rbp, -16
	call	fx_helper
	popq	%rbp
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	fx_once_stale_cfa, .-fx_once_stale_cfa

# rbx saved and changed, the save not described: .cfi_offset %rbx, -16.
	.globl	fx_once_undescribed
	.type	fx_once_undescribed, @function
fx_once_undescribed:
	.cfi_startproc
	pushq	%rbx
	.cfi_def_cfa_offset 16
	movq	%rdi, %rbx
	call	fx_helper
	popq	%rbx
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	fx_once_undescribed, .-fx_once_undescribed

# r12 said to be at CFA-24: the fix comes after the wrong directive.
	.globl	fx_once_wrong_slot
	.type	fx_once_wrong_slot, @function
fx_once_wrong_slot:
	.cfi_startproc
	pushq	%r12
	.cfi_def_cfa_offset 16
	.cfi_offset %r12, -24
	movq	%rdi, %r12
	call	fx_helper
	popq	%r12
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	fx_once_wrong_slot, .-fx_once_wrong_slot

# A directive after an instruction that moves nothing: the table changes
# where the code does not; the fix goes right before the call.
	.globl	fx_once_extra_directive
	.type	fx_once_extra_directive, @function
fx_once_extra_directive:
	.cfi_startproc
	subq	$8, %rsp
	.cfi_def_cfa_offset 16
	movl	$1, %eax
	.cfi_def_cfa_offset 24
	call	fx_helper
	addq	$8, %rsp
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	fx_once_extra_directive, .-fx_once_extra_directive

# A push and its pop without their directives: the table is right again
# after the pop, so the fix puts its rules back there (its second place).
	.globl	fx_once_forgotten_pair
	.type	fx_once_forgotten_pair, @function
fx_once_forgotten_pair:
	.cfi_startproc
	pushq	%rbx
	movq	%rdi, %rbx
	call	fx_helper
	popq	%rbx
	ret
	.cfi_endproc
	.size	fx_once_forgotten_pair, .-fx_once_forgotten_pair

# .cfi_undefined rip in the middle of a function cuts every stack through
# it short: the return address is at CFA-8.
	.globl	fx_once_stack_cut
	.type	fx_once_stack_cut, @function
fx_once_stack_cut:
	.cfi_startproc
	subq	$8, %rsp
	.cfi_def_cfa_offset 16
	.cfi_undefined rip
	call	fx_helper
	addq	$8, %rsp
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	fx_once_stack_cut, .-fx_once_stack_cut

# rbx said undefined where its save is known: a note, fixed the same way.
	.globl	fx_once_imprecise
	.type	fx_once_imprecise, @function
fx_once_imprecise:
	.cfi_startproc
	pushq	%rbx
	.cfi_def_cfa_offset 16
	.cfi_undefined rbx
	movq	%rdi, %rbx
	call	fx_helper
	popq	%rbx
	.cfi_def_cfa_offset 8
	.cfi_restore rbx
	ret
	.cfi_endproc
	.size	fx_once_imprecise, .-fx_once_imprecise

# clone's child keeps the parent's rules on its own stack: .cfi_undefined
# rip on the child's path, and the parent's rules again where it goes on.
	.globl	fx_once_clone_child
	.type	fx_once_clone_child, @function
fx_once_clone_child:
	.cfi_startproc
	pushq	%rbx
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %rbx, 0
	movq	%rdi, %rbx
	movl	$56, %eax
	syscall
	testq	%rax, %rax
	jnz	1f
	xorl	%ebp, %ebp
	call	*%rbx
	movl	%eax, %edi
	movl	$60, %eax
	syscall
	hlt
1:	popq	%rbx
	.cfi_adjust_cfa_offset -8
	.cfi_restore %rbx
	ret
	.cfi_endproc
	.size	fx_once_clone_child, .-fx_once_clone_child

# Hand-written multi-precision code's shape (glibc's __mpn_addmul_1):
# pushes and pops without a directive.  Each audit fixes the first wrong
# address; the fixes of successive audits make the table right.
	.globl	fx_steps_no_cfi
	.type	fx_steps_no_cfi, @function
fx_steps_no_cfi:
	.cfi_startproc
	pushq	%rbx
	pushq	%rbp
	movq	%rdi, %rbx
	movq	%rsi, %rbp
	call	fx_helper
	testq	%rax, %rax
	jz	2f
	popq	%rbp
	popq	%rbx
	ret
2:	movq	%rbx, %rax
	popq	%rbp
	popq	%rbx
	ret
	.cfi_endproc
	.size	fx_steps_no_cfi, .-fx_steps_no_cfi

# A jump back from a .cold part arrives with another frame (rsp 8 lower):
# at .Lback the CFA is rsp+16 on the function's own path and rsp+24 on the
# cold part's.  The table says rsp+24, wrong on the first: a finding, but
# no one rule holds on both paths, so no fix (and dwsynth repair keeps the
# table's row there: tests/repair/run.sh).
	.globl	fx_paths_disagree
	.type	fx_paths_disagree, @function
fx_paths_disagree:
	.cfi_startproc
	pushq	%rbx
	.cfi_def_cfa_offset 16
	.cfi_offset %rbx, -16
	testl	%edi, %edi
	jne	fx_paths_disagree.cold
.Lback:
	.cfi_def_cfa_offset 24
	movl	$1, %eax
	popq	%rbx
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	fx_paths_disagree, .-fx_paths_disagree

	.type	fx_paths_disagree.cold, @function
fx_paths_disagree.cold:
	.cfi_startproc
	.cfi_def_cfa_offset 16
	.cfi_offset %rbx, -16
	pushq	%rax
	.cfi_def_cfa_offset 24
	jmp	.Lback
	.cfi_endproc
	.size	fx_paths_disagree.cold, .-fx_paths_disagree.cold
