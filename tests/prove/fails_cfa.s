# CFA expressions wrong for some stacks only, each verdict known by
# construction (tests/prove/run.sh expects exactly one cfa-mismatch per
# function, at the first address of its expression row, and checks its
# counterexample with validate_counterexample.py).  In every function the
# code has rsp = CFA - 32 (g_drap_wrong: rbp = CFA - 16) wherever the rule
# applies.  Sampling a few stacks passes the first three, which are wrong at
# one stack address, one in 4,096, one in 65,536: only a prover finds them.
	.text

# Wrong at exactly one stack address: CFA = rsp + 32 + 8 * (rsp == 0x7ffe0000).
# The only counterexample has rsp = 0x7ffe0000 (the rule gives 0x7ffe0028,
# the code 0x7ffe0020).
	.globl	b_one_address
	.type	b_one_address, @function
b_one_address:
	.cfi_startproc
	subq	$24, %rsp
	# DW_CFA_def_cfa_expression (0x0f), 14 bytes:
	#   DW_OP_breg7 (rsp) 0         0x77 0x00
	#   DW_OP_dup                   0x12
	#   DW_OP_const4u 0x7ffe0000    0x0c 0x00 0x00 0xfe 0x7f
	#   DW_OP_eq                    0x29        rsp (rsp == 0x7ffe0000)
	#   DW_OP_lit3                  0x33
	#   DW_OP_shl                   0x24        rsp 0|8
	#   DW_OP_plus                  0x22
	#   DW_OP_plus_uconst 32        0x23 0x20
	.cfi_escape 0x0f, 0x0e, 0x77, 0x00, 0x12, 0x0c, 0x00, 0x00, 0xfe, 0x7f, 0x29, 0x33, 0x24, 0x22, 0x23, 0x20
	movq	%rdi, (%rsp)
	leaq	1(%rdi), %rax
	addq	$24, %rsp
	.cfi_def_cfa %rsp, 8
	ret
	.cfi_endproc
	.size	b_one_address, .-b_one_address

# Wrong at one aligned stack address in 4,096: CFA = rsp + 32 +
# 8 * ((rsp & 0xfff0) == 0x1230).
	.globl	c_one_in_4096
	.type	c_one_in_4096, @function
c_one_in_4096:
	.cfi_startproc
	subq	$24, %rsp
	# DW_CFA_def_cfa_expression (0x0f), 16 bytes:
	#   DW_OP_breg7 (rsp) 0         0x77 0x00
	#   DW_OP_dup                   0x12
	#   DW_OP_const2u 0xfff0        0x0a 0xf0 0xff
	#   DW_OP_and                   0x1a
	#   DW_OP_const2u 0x1230        0x0a 0x30 0x12
	#   DW_OP_eq                    0x29        rsp ((rsp & 0xfff0) == 0x1230)
	#   DW_OP_lit3                  0x33
	#   DW_OP_shl                   0x24
	#   DW_OP_plus                  0x22
	#   DW_OP_plus_uconst 32        0x23 0x20
	.cfi_escape 0x0f, 0x10, 0x77, 0x00, 0x12, 0x0a, 0xf0, 0xff, 0x1a, 0x0a, 0x30, 0x12, 0x29, 0x33, 0x24, 0x22, 0x23, 0x20
	movq	%rdi, (%rsp)
	leaq	1(%rdi), %rax
	addq	$24, %rsp
	.cfi_def_cfa %rsp, 8
	ret
	.cfi_endproc
	.size	c_one_in_4096, .-c_one_in_4096

# A conditional (DW_OP_bra, DW_OP_skip) whose wrong arm is taken at one
# aligned stack address in 65,536: if (rsp & 0xffff0) == 0xabcd0 the CFA
# is rsp + 48, else rsp + 32.
	.globl	g_branch_rare
	.type	g_branch_rare, @function
g_branch_rare:
	.cfi_startproc
	subq	$24, %rsp
	# DW_CFA_def_cfa_expression (0x0f), 24 bytes (byte offsets on the left):
	#    0  DW_OP_breg7 (rsp) 0         0x77 0x00
	#    2  DW_OP_const4u 0xffff0       0x0c 0xf0 0xff 0x0f 0x00
	#    7  DW_OP_and                   0x1a
	#    8  DW_OP_const4u 0xabcd0       0x0c 0xd0 0xbc 0x0a 0x00
	#   13  DW_OP_eq                    0x29
	#   14  DW_OP_bra +5 (to 22)        0x28 0x05 0x00
	#   17  DW_OP_breg7 (rsp) 32        0x77 0x20
	#   19  DW_OP_skip +2 (to 24)       0x2f 0x02 0x00
	#   22  DW_OP_breg7 (rsp) 48        0x77 0x30
	#   24  (end)
	.cfi_escape 0x0f, 0x18, 0x77, 0x00, 0x0c, 0xf0, 0xff, 0x0f, 0x00, 0x1a, 0x0c, 0xd0, 0xbc, 0x0a, 0x00, 0x29, 0x28, 0x05, 0x00, 0x77, 0x20, 0x2f, 0x02, 0x00, 0x77, 0x30
	movq	%rdi, (%rsp)
	leaq	1(%rdi), %rax
	addq	$24, %rsp
	.cfi_def_cfa %rsp, 8
	ret
	.cfi_endproc
	.size	g_branch_rare, .-g_branch_rare

# GCC's DRAP style (holds/g_drap.s) with the CFA read back 8 too high:
# CFA = *(rbp - 8) + 8, where the code stored the CFA at rbp - 8 and has
# rbp = CFA - 16.  Wrong in every frame; the counterexample's memory must
# give the word at rbp - 8 as the CFA the code stored there.
	.globl	g_drap_wrong
	.type	g_drap_wrong, @function
g_drap_wrong:
	.cfi_startproc
	leaq	8(%rsp), %r10
	.cfi_def_cfa %r10, 0
	pushq	%rbp
	movq	%rsp, %rbp
	# DW_CFA_expression (0x10) rbp (6), 2 bytes: DW_OP_breg6 (rbp) 0 (0x76 0x00)
	.cfi_escape 0x10, 0x06, 0x02, 0x76, 0x00
	pushq	%r10
	# DW_CFA_def_cfa_expression (0x0f), 5 bytes:
	#   DW_OP_breg6 (rbp) -8        0x76 0x78
	#   DW_OP_deref                 0x06
	#   DW_OP_plus_uconst 8         0x23 0x08
	.cfi_escape 0x0f, 0x05, 0x76, 0x78, 0x06, 0x23, 0x08
	subq	$16, %rsp
	movq	%rdi, -16(%rbp)
	leaq	1(%rdi), %rax
	movq	-8(%rbp), %r10
	.cfi_def_cfa %r10, 0
	leave
	.cfi_restore %rbp
	leaq	-8(%r10), %rsp
	.cfi_def_cfa %rsp, 8
	ret
	.cfi_endproc
	.size	g_drap_wrong, .-g_drap_wrong
# SPDX-License-Identifier: Apache-2.0
