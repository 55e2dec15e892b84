# A register kept in another one, described by DW_CFA_val_expression: the
# code copies rbx to r12 (saved first) and clobbers rbx; the rule says
# rbx's value is r12 + 0.  It holds whatever rbx held on entry: the prover
# must compare values (entry(rbx) against r12's content), not addresses
# (tests/prove/run.sh: no finding, every address checked; its twins
# f_copy_plus8 and f_rare_value in ../fails_saves.s are wrong).
	.text
	.globl	f_copy
	.type	f_copy, @function
f_copy:
	.cfi_startproc
	pushq	%r12
	.cfi_def_cfa_offset 16
	.cfi_offset %r12, -16
	movq	%rbx, %r12
	# DW_CFA_val_expression (0x16) rbx (3), 2 bytes:
	#   DW_OP_breg12 (r12) 0    0x7c 0x00
	.cfi_escape 0x16, 0x03, 0x02, 0x7c, 0x00
	movq	%rdi, %rbx
	leaq	1(%rbx), %rax
	movq	%r12, %rbx
	.cfi_restore %rbx
	popq	%r12
	.cfi_def_cfa_offset 8
	.cfi_restore %r12
	ret
	.cfi_endproc
	.size	f_copy, .-f_copy
# SPDX-License-Identifier: Apache-2.0
