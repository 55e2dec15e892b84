# Instructions Capstone 4 does not decode, known by their encoding
# (synth/x86_unknown.c), so that the functions are synthesised and every
# address checked (tests/check/run.sh): libgcc's unwinder pops the CET
# shadow stack (rdssp, incssp); glibc's evex string functions compare into
# mask registers and move them to GPRs; LLVM's trapping sanitizer checks end
# in ud1 with a ModRM operand, which Capstone 4 leaves out of its length.
	.text
	.globl	shadow_pop
	.type	shadow_pop, @function
shadow_pop:
	.cfi_startproc
	pushq	%rbx
	.cfi_def_cfa_offset 16
	.cfi_offset %rbx, -16
	xorl	%ebx, %ebx
	rdsspq	%rbx
	testq	%rbx, %rbx
	je	1f
	movl	$2, %eax
	incsspq	%rax
	rdsspd	%r9d
	incsspd	%r9d
1:	popq	%rbx
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	shadow_pop, .-shadow_pop

	.globl	mask_compare
	.type	mask_compare, @function
mask_compare:
	.cfi_startproc
	pushq	%rbx
	.cfi_def_cfa_offset 16
	.cfi_offset %rbx, -16
	vpcmpeqb	(%rdi), %ymm16, %k0
	kmovd	%k0, %ebx
	kmovd	%ecx, %k1
	vptestmb	%ymm17, %ymm17, %k2
	kmovq	%k2, %rax
	addq	%rbx, %rax
	popq	%rbx
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	mask_compare, .-mask_compare

	.globl	trap_checks
	.type	trap_checks, @function
trap_checks:
	.cfi_startproc
	pushq	%rbx
	.cfi_def_cfa_offset 16
	.cfi_offset %rbx, -16
	testl	%edi, %edi
	jne	1f
	ud1l	0x16(%eax), %eax
1:	cmpl	$1, %edi
	jne	2f
	ud1	0x10(%rsp,%rax,4), %edx
2:	cmpl	$2, %edi
	jne	3f
	ud1	%rax, %rcx
3:	popq	%rbx
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	trap_checks, .-trap_checks
# SPDX-License-Identifier: Apache-2.0
