# A callee-saved register kept in another register (DW_CFA_register: rbx in
# rax, which dwtable prints "r0 (rax)"), in the rows around a finding: the
# report shows that rule as one cell, every column in its place up to ra.
	.text
	.globl	kept_in_rax
	.type	kept_in_rax, @function
kept_in_rax:
	.cfi_startproc
	mov	%rbx, %rax
	.cfi_register %rbx, %rax
	xor	%ebx, %ebx
	sub	$8, %rsp		# no .cfi_adjust_cfa_offset: the CFA rule is stale
	add	$8, %rsp		# here (kept_in_rax+0x9): cfa-mismatch
	mov	%rax, %rbx
	.cfi_restore %rbx
	ret
	.cfi_endproc
	.size	kept_in_rax, .-kept_in_rax
	.section	.note.GNU-stack,"",@progbits
# SPDX-License-Identifier: Apache-2.0
