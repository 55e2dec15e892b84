# Functions with known CFI bugs, each described by hand: dwcheck must report
# exactly these (tests/check/run.sh), and nothing in `correct`.
	.text
	.globl	correct
	.type	correct, @function
correct:
	.cfi_startproc
	pushq	%rbx
	.cfi_def_cfa_offset 16
	.cfi_offset %rbx, -16
	movq	%rdi, %rbx
	call	helper
	popq	%rbx
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	correct, .-correct

# The CFA offset is not updated after the push: cfa-mismatch at +1.
	.globl	stale_cfa
	.type	stale_cfa, @function
stale_cfa:
	.cfi_startproc
	pushq	%rbp
	.cfi_offset %rbp, -16
	call	helper
	popq	%rbp
	ret
	.cfi_endproc
	.size	stale_cfa, .-stale_cfa

# rbx is pushed and clobbered but never described: clobbered-not-described.
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

# r12 is said to be at CFA-24, but it is at CFA-16: reg-mismatch.
	.globl	wrong_slot
	.type	wrong_slot, @function
wrong_slot:
	.cfi_startproc
	pushq	%r12
	.cfi_def_cfa_offset 16
	.cfi_offset %r12, -24
	movq	%rdi, %r12
	call	helper
	popq	%r12
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	wrong_slot, .-wrong_slot

# A realignment through a DRAP register (GCC's shape) whose CFA stays in
# r10 across the call: right before the call, garbage for an unwinder that
# steps out of helper (r10 is call-clobbered): call-clobbered-rule (a
# warning) at +0x13.
# GCC reads the CFA through the slot at rbp-8 instead.
	.globl	drap_call
	.type	drap_call, @function
drap_call:
	.cfi_startproc
	leaq	8(%rsp), %r10
	.cfi_def_cfa %r10, 0
	andq	$-32, %rsp
	pushq	-8(%r10)
	pushq	%rbp
	movq	%rsp, %rbp
	.cfi_escape 0x10,0x6,0x2,0x76,0   # rbp saved at rbp+0
	pushq	%r10
	call	helper
	popq	%r10
	popq	%rbp
	.cfi_restore %rbp
	leaq	-8(%r10), %rsp
	.cfi_def_cfa %rsp, 8
	ret
	.cfi_endproc
	.size	drap_call, .-drap_call

# A frame sized by a stack probe (which gives rax back), described without
# the push before it: cfa-mismatch at +0xe, after the sub.
	.globl	probed_frame
	.type	probed_frame, @function
probed_frame:
	.cfi_startproc
	pushq	%rbx
	.cfi_def_cfa_offset 16
	.cfi_offset %rbx, -16
	movl	$0x1000, %eax
	call	.Lprobe
	subq	%rax, %rsp
	.cfi_def_cfa_offset 0x1008
	addq	$0x1000, %rsp
	.cfi_def_cfa_offset 16
	popq	%rbx
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	probed_frame, .-probed_frame

.Lprobe:
	.cfi_startproc
	movq	%rax, %r11
1:	testq	%rsp, -8(%rsp)
	subq	$0x1000, %r11
	ja	1b
	ret
	.cfi_endproc
	.size	.Lprobe, .-.Lprobe

# r12 saved below a realigned stack, its rule rounding the CFA as the code
# rounded rsp, but 8 bytes off (-184 for -176): reg-mismatch at +0x14.
	.globl	rounded_wrong
	.type	rounded_wrong, @function
rounded_wrong:
	.cfi_startproc
	pushq	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset %rbp, -16
	movq	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	andq	$-64, %rsp
	subq	$0xc0, %rsp
	movq	%r12, 0x10(%rsp)
	.cfi_escape 0x10, 0x0c, 0x0e, 0x38, 0x1c, 0x0d, 0xc0, 0xff, 0xff, 0xff, 0x1a, 0x0d, 0x48, 0xff, 0xff, 0xff, 0x22
	movq	%rdi, %r12
	call	helper
	movq	0x10(%rsp), %r12
	.cfi_restore %r12
	movq	%rbp, %rsp
	.cfi_def_cfa_register %rsp
	popq	%rbp
	.cfi_def_cfa_offset 8
	.cfi_restore %rbp
	ret
	.cfi_endproc
	.size	rounded_wrong, .-rounded_wrong

# No CFI at all: fde-gap.
	.globl	no_cfi
	.type	no_cfi, @function
no_cfi:
	pushq	%rbx
	popq	%rbx
	ret
	.size	no_cfi, .-no_cfi

	.globl	helper
	.type	helper, @function
helper:
	.cfi_startproc
	leaq	1(%rdi), %rax
	ret
	.cfi_endproc
	.size	helper, .-helper
# SPDX-License-Identifier: Apache-2.0
