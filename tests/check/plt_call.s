# A call through the PLT of a shared object.  The lazy-binding stub
# (jmp *GOT; push $n; jmp PLT0) runs its push on the first call, when the
# GOT entry still points just after the jmp: dwcheck follows that edge, so
# the stub's every instruction is checked against the linker's CFI.
	.text
	.globl	plt_caller
	.type	plt_caller, @function
plt_caller:
	.cfi_startproc
	subq	$8, %rsp
	.cfi_def_cfa_offset 16
	call	plt_callee@PLT
	addq	$8, %rsp
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	plt_caller, .-plt_caller

	.globl	plt_callee
	.type	plt_callee, @function
plt_callee:
	.cfi_startproc
	movl	$1, %eax
	ret
	.cfi_endproc
	.size	plt_callee, .-plt_callee
	.section .note.GNU-stack,"",@progbits
# SPDX-License-Identifier: Apache-2.0
