# A bad expression that never ends: DW_OP_bra jumps back over a
# DW_OP_lit1 it pops each time, so the stack stays one value deep and the
# condition is always 1.  dwcheck must stop, neither crash nor decide the
# rule: a malformed-cfi finding or the addresses left unchecked, within
# seconds (tests/prove/run.sh).
	.text
	.globl	bra_loop
	.type	bra_loop, @function
bra_loop:
	.cfi_startproc
	subq	$24, %rsp
	# DW_CFA_def_cfa_expression (0x0f), 6 bytes (byte offsets on the left):
	#    0  DW_OP_breg7 (rsp) 32    0x77 0x20
	#    2  DW_OP_lit1              0x31
	#    3  DW_OP_bra -4 (to 2)     0x28 0xfc 0xff
	.cfi_escape 0x0f, 0x06, 0x77, 0x20, 0x31, 0x28, 0xfc, 0xff
	movq	%rdi, (%rsp)
	leaq	1(%rdi), %rax
	addq	$24, %rsp
	.cfi_def_cfa %rsp, 8
	ret
	.cfi_endproc
	.size	bra_loop, .-bra_loop
# SPDX-License-Identifier: Apache-2.0
