# Hand-written CFI for dwcheck's SFrame audit (tests/sframe/run.sh, part 5),
# assembled with --gsframe: one function per finding kind that SFrame's rows
# and gas's omissions give.  tests/sframe/shapes.s holds the rest (its
# cfa_in_r10: gas 2.40 writes `.cfi_def_cfa %r10, 0` as CFA = rsp+0).
	.text

# rbp described at the wrong slot (pushed at c-16, said at c-24): the DWARF
# row is wrong (reg-mismatch), and so is the SFrame row gas derives from it
# (sframe-fp-mismatch), at the two addresses after the push.
	.globl	wrong_slot
	.type	wrong_slot, @function
wrong_slot:
	.cfi_startproc
	pushq	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset %rbp, -24
	popq	%rbp
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	wrong_slot, .-wrong_slot

# A thread's entry: .eh_frame ends the stack here (ra undefined), gas 2.40's
# SFrame V1 cannot and says ra = c-8, which the code does not refute either:
# sframe-eh-frame-differ on ra at each of its two addresses.
	.globl	thread_start
	.type	thread_start, @function
thread_start:
	.cfi_startproc
	.cfi_undefined %rip
	xorl	%ebp, %ebp
	jmp	*%rdi
	.cfi_endproc
	.size	thread_start, .-thread_start

# GCC's DRAP prologue (-mstackrealign, aligned locals): the CFA is an
# expression, *(rbp-8), which SFrame V1 cannot write: gas drops the FDE
# (sframe-missing-fde, with that reason); the DWARF rows are right.
	.globl	drap
	.type	drap, @function
drap:
	.cfi_startproc
	leaq	8(%rsp), %r10
	.cfi_def_cfa %r10, 0
	andq	$-32, %rsp
	pushq	-8(%r10)
	pushq	%rbp
	movq	%rsp, %rbp
	.cfi_escape 0x10,0x6,0x2,0x76,0
	pushq	%r10
	.cfi_escape 0xf,0x3,0x76,0x78,0x6
	nop
	popq	%r10
	.cfi_def_cfa %r10, 0
	popq	%rbp
	leaq	-8(%r10), %rsp
	.cfi_def_cfa %rsp, 8
	ret
	.cfi_endproc
	.size	drap, .-drap

# A callee-saved register kept in another register (.cfi_register), which
# gas 2.40 does not translate: the FDE is dropped (sframe-missing-fde).
	.globl	in_register
	.type	in_register, @function
in_register:
	.cfi_startproc
	movq	%rbx, %rax
	.cfi_register %rbx, %rax
	xorl	%ebx, %ebx
	movq	%rax, %rbx
	.cfi_same_value %rbx
	ret
	.cfi_endproc
	.size	in_register, .-in_register

# A right frame-pointer function: checked, nothing to say.
	.globl	framed_ok
	.type	framed_ok, @function
framed_ok:
	.cfi_startproc
	pushq	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset %rbp, -16
	movq	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	nop
	popq	%rbp
	.cfi_def_cfa %rsp, 8
	ret
	.cfi_endproc
	.size	framed_ok, .-framed_ok
# SPDX-License-Identifier: Apache-2.0
