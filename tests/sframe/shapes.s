# Hand-written CFI for tests/sframe/run.sh, assembled with --gsframe: the
# shapes the corpus's compilers do not give SFrame, each function saying
# which.  gas turns the CFI into SFrame rows; the ones SFrame cannot say
# (a CFA in r10, an escape) make it drop that function's FDE with a
# warning, which readelf and dwtable must show alike.
	.text

# A leaf: one row, CFA = rsp+8.
	.globl	leaf
	.type	leaf, @function
leaf:
	.cfi_startproc
	ret
	.cfi_endproc
	.size	leaf, .-leaf

# The frame-pointer prologue and epilogue: rsp+16 with rbp saved at c-16,
# then rbp+16, then back to rsp+8 after leave.
	.globl	framed
	.type	framed, @function
framed:
	.cfi_startproc
	pushq	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset %rbp, -16
	movq	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	nop
	leave
	.cfi_def_cfa %rsp, 8
	ret
	.cfi_endproc
	.size	framed, .-framed

# Pushes of other callee-saved registers (SFrame keeps only the CFA), an
# early return between remember_state and restore_state.
	.globl	pushes
	.type	pushes, @function
pushes:
	.cfi_startproc
	pushq	%rbx
	.cfi_def_cfa_offset 16
	.cfi_offset %rbx, -16
	pushq	%r12
	.cfi_def_cfa_offset 24
	.cfi_offset %r12, -24
	subq	$40, %rsp
	.cfi_def_cfa_offset 64
	testq	%rdi, %rdi
	je	1f
	.cfi_remember_state
	addq	$40, %rsp
	.cfi_def_cfa_offset 24
	popq	%r12
	.cfi_def_cfa_offset 16
	popq	%rbx
	.cfi_def_cfa_offset 8
	ret
1:
	.cfi_restore_state
	addq	$40, %rsp
	.cfi_def_cfa_offset 24
	popq	%r12
	.cfi_def_cfa_offset 16
	popq	%rbx
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	pushes, .-pushes

# Offsets past one byte: a 300-byte frame (2-byte words), a 70000-byte one
# (4-byte words), and rbp saved far from the CFA.
	.globl	big_frames
	.type	big_frames, @function
big_frames:
	.cfi_startproc
	subq	$296, %rsp
	.cfi_def_cfa_offset 304
	subq	$70000, %rsp
	.cfi_def_cfa_offset 70304
	movq	%rbp, 70000(%rsp)
	.cfi_offset %rbp, -304
	addq	$70296, %rsp
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	big_frames, .-big_frames

# A function past 255 bytes (2-byte FRE start offsets), and one past 65535
# (4-byte ones), each changing its CFA after the long stretch.
	.globl	long_2
	.type	long_2, @function
long_2:
	.cfi_startproc
	.skip	300, 0x90
	pushq	%rax
	.cfi_def_cfa_offset 16
	popq	%rax
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	long_2, .-long_2

	.globl	long_4
	.type	long_4, @function
long_4:
	.cfi_startproc
	.skip	70000, 0x90
	pushq	%rax
	.cfi_def_cfa_offset 16
	popq	%rax
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	long_4, .-long_4

# A CFA in rbp that is not rsp's copy: rbp+32 (rbp saved first, and given
# back before the CFA moves back to rsp: dwcheck finds the rows right).
	.globl	rbp_based
	.type	rbp_based, @function
rbp_based:
	.cfi_startproc
	pushq	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset %rbp, -16
	leaq	-16(%rsp), %rbp
	.cfi_def_cfa %rbp, 32
	nop
	popq	%rbp
	.cfi_def_cfa %rsp, 8
	ret
	.cfi_endproc
	.size	rbp_based, .-rbp_based

# What SFrame V1 cannot say: gas drops these FDEs (with a warning).
	.globl	cfa_in_r10
	.type	cfa_in_r10, @function
cfa_in_r10:
	.cfi_startproc
	leaq	8(%rsp), %r10
	.cfi_def_cfa %r10, 0
	nop
	.cfi_def_cfa %rsp, 8
	ret
	.cfi_endproc
	.size	cfa_in_r10, .-cfa_in_r10

	.globl	escaped
	.type	escaped, @function
escaped:
	.cfi_startproc
	nop
	.cfi_escape 0x2e, 0x10
	ret
	.cfi_endproc
	.size	escaped, .-escaped

# The last function: an empty one (size 0).
	.globl	empty
	.type	empty, @function
empty:
	.cfi_startproc
	.cfi_endproc
	.size	empty, .-empty
# SPDX-License-Identifier: Apache-2.0
