# A bad expression: an opcode no DWARF version defines (0xe5, in the
# vendor range, used by no vendor) after a right start.  dwcheck must
# neither crash nor decide the rule: a malformed-cfi finding or the
# addresses left unchecked (tests/prove/run.sh, with a time limit and no
# sanitizer report).
	.text
	.globl	unknown_opcode
	.type	unknown_opcode, @function
unknown_opcode:
	.cfi_startproc
	subq	$24, %rsp
	# DW_CFA_def_cfa_expression (0x0f), 3 bytes:
	#   DW_OP_breg7 (rsp) 32        0x77 0x20
	#   0xe5                        (unknown)
	.cfi_escape 0x0f, 0x03, 0x77, 0x20, 0xe5
	movq	%rdi, (%rsp)
	leaq	1(%rdi), %rax
	addq	$24, %rsp
	.cfi_def_cfa %rsp, 8
	ret
	.cfi_endproc
	.size	unknown_opcode, .-unknown_opcode
# SPDX-License-Identifier: Apache-2.0
