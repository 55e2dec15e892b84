# A bad expression whose length runs past the end of its FDE: the last
# DW_CFA_def_cfa_expression of the FDE says 64 bytes and only 2 follow
# (then the FDE's padding and its end).  The FDE's call-frame program does
# not decode: dwcheck must neither crash nor decide the rule (a
# malformed-cfi finding or the addresses left unchecked; tests/prove/run.sh,
# with a time limit and no sanitizer report).
	.text
	.globl	truncated_past_fde
	.type	truncated_past_fde, @function
truncated_past_fde:
	.cfi_startproc
	subq	$24, %rsp
	movq	%rdi, (%rsp)
	# DW_CFA_def_cfa_expression (0x0f), 64 bytes said, 2 given:
	#   DW_OP_breg7 (rsp) 32        0x77 0x20
	.cfi_escape 0x0f, 0x40, 0x77, 0x20
	leaq	1(%rdi), %rax
	addq	$24, %rsp
	ret
	.cfi_endproc
	.size	truncated_past_fde, .-truncated_past_fde
# SPDX-License-Identifier: Apache-2.0
