/*
 * A small project whose CFI has bugs written on purpose, in versions
 * (tests/baseline/run.sh builds each with cc into a shared library):
 *   v1             stale_cfa, undescribed_save, wrong_slot: three old bugs
 *   -DADDED        v2: a function added before them (every address moves)
 *   -DNEW_BUG      v2: and one new bug, in new_bug (its own kind)
 *   -DFIXED        v3: wrong_slot fixed (its baseline entry is then absent)
 *   -DINSIDE       v4: an instruction added in stale_cfa before its bug (the
 *                  bug's place in its function moves: another finding)
 */
	.text
#ifdef ADDED
	.globl	added_first
	.type	added_first, @function
added_first:
	.cfi_startproc
	pushq	%rbx
	.cfi_def_cfa_offset 16
	.cfi_offset %rbx, -16
	movq	%rdi, %rbx
	addq	$1, %rbx
	imulq	%rsi, %rbx
	movq	%rbx, %rax
	popq	%rbx
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	added_first, .-added_first
#endif

	.globl	helper
	.type	helper, @function
helper:
	.cfi_startproc
	movq	%rdi, %rax
	ret
	.cfi_endproc
	.size	helper, .-helper

/* The CFA offset is not updated after the push: cfa-mismatch. */
	.globl	stale_cfa
	.type	stale_cfa, @function
stale_cfa:
	.cfi_startproc
	movq	%rdi, %rax
#ifdef INSIDE
	movq	%rsi, %rdx
#endif
	pushq	%rbp
	.cfi_offset %rbp, -16
	call	helper
	popq	%rbp
	ret
	.cfi_endproc
	.size	stale_cfa, .-stale_cfa

/* rbx is pushed and changed but never described: clobbered-not-described. */
	.globl	undescribed_save
	.type	undescribed_save, @function
undescribed_save:
	.cfi_startproc
	pushq	%rbx
	.cfi_def_cfa_offset 16
	movq	%rdi, %rbx
	call	helper
	popq	%rbx
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	undescribed_save, .-undescribed_save

/* r12 is said to be at CFA-24, but it is at CFA-16: reg-mismatch. */
	.globl	wrong_slot
	.type	wrong_slot, @function
wrong_slot:
	.cfi_startproc
	pushq	%r12
	.cfi_def_cfa_offset 16
#ifdef FIXED
	.cfi_offset %r12, -16
#else
	.cfi_offset %r12, -24
#endif
	movq	%rdi, %r12
	call	helper
	popq	%r12
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	wrong_slot, .-wrong_slot

#ifdef NEW_BUG
/* The return address is said to be at CFA-16, but it is at CFA-8: ra-mismatch. */
	.globl	new_bug
	.type	new_bug, @function
new_bug:
	.cfi_startproc
	pushq	%rbx
	.cfi_def_cfa_offset 16
	.cfi_offset %rbx, -16
	.cfi_offset %rip, -16
	movq	%rdi, %rbx
	call	helper
	popq	%rbx
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	new_bug, .-new_bug
#endif
	.section	.note.GNU-stack,"",@progbits
/* SPDX-License-Identifier: Apache-2.0 */
