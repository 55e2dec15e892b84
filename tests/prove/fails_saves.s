# Register rules given by DW_CFA_expression (where a register is saved)
# and DW_CFA_val_expression (its value), wrong for some stacks or some
# values only, each verdict known by construction (tests/prove/run.sh
# expects exactly one finding per function, at the first address of its
# expression row, and checks its counterexample with
# validate_counterexample.py).  Sampling a few stacks passes e_rare_save
# and e_rare_ra (wrong at one CFA in 4,096) and f_rare_value (wrong for one
# value of rbx in 2^64).
	.text

# rbx pushed at CFA - 16, described as at CFA - 16 + 8 * ((CFA & 0xfff0)
# == 0x4560): at those CFAs the rule names CFA - 8, the return address's
# slot.  reg-mismatch, what=address, the code's slot CFA - 16.
	.globl	e_rare_save
	.type	e_rare_save, @function
e_rare_save:
	.cfi_startproc
	pushq	%rbx
	.cfi_def_cfa_offset 16
	# DW_CFA_expression (0x10) rbx (3), 14 bytes, on a stack holding the CFA:
	#   DW_OP_dup                   0x12        CFA CFA
	#   DW_OP_const2u 0xfff0        0x0a 0xf0 0xff
	#   DW_OP_and                   0x1a
	#   DW_OP_const2u 0x4560        0x0a 0x60 0x45
	#   DW_OP_eq                    0x29        CFA ((CFA & 0xfff0) == 0x4560)
	#   DW_OP_lit3                  0x33
	#   DW_OP_shl                   0x24
	#   DW_OP_plus                  0x22
	#   DW_OP_lit16                 0x40
	#   DW_OP_minus                 0x1c        CFA - 16 + (0|8)
	.cfi_escape 0x10, 0x03, 0x0e, 0x12, 0x0a, 0xf0, 0xff, 0x1a, 0x0a, 0x60, 0x45, 0x29, 0x33, 0x24, 0x22, 0x40, 0x1c
	movq	%rdi, %rbx
	leaq	1(%rbx), %rax
	popq	%rbx
	.cfi_def_cfa_offset 8
	.cfi_restore %rbx
	ret
	.cfi_endproc
	.size	e_rare_save, .-e_rare_save

# The return address described as at CFA - 8 + 8 * ((CFA & 0xfff0) ==
# 0x2220): at those CFAs the rule names the CFA itself, the caller's
# frame.  ra-mismatch, what=address, the code's slot CFA - 8.
	.globl	e_rare_ra
	.type	e_rare_ra, @function
e_rare_ra:
	.cfi_startproc
	subq	$24, %rsp
	.cfi_def_cfa_offset 32
	# DW_CFA_expression (0x10) rip (16), 14 bytes, on a stack holding the CFA:
	#   DW_OP_dup                   0x12        CFA CFA
	#   DW_OP_const2u 0xfff0        0x0a 0xf0 0xff
	#   DW_OP_and                   0x1a
	#   DW_OP_const2u 0x2220        0x0a 0x20 0x22
	#   DW_OP_eq                    0x29        CFA ((CFA & 0xfff0) == 0x2220)
	#   DW_OP_lit3                  0x33
	#   DW_OP_shl                   0x24
	#   DW_OP_plus                  0x22
	#   DW_OP_lit8                  0x38
	#   DW_OP_minus                 0x1c        CFA - 8 + (0|8)
	.cfi_escape 0x10, 0x10, 0x0e, 0x12, 0x0a, 0xf0, 0xff, 0x1a, 0x0a, 0x20, 0x22, 0x29, 0x33, 0x24, 0x22, 0x38, 0x1c
	movq	%rdi, (%rsp)
	leaq	1(%rdi), %rax
	addq	$24, %rsp
	.cfi_def_cfa_offset 8
	.cfi_offset %rip, -8
	ret
	.cfi_endproc
	.size	e_rare_ra, .-e_rare_ra

# f_copy (holds/f_copy.s) off by 8: rbx copied to r12, its value said to
# be r12 + 8.  Wrong for every value: reg-mismatch, what=value, the code
# r12's content (rbx's value on entry).
	.globl	f_copy_plus8
	.type	f_copy_plus8, @function
f_copy_plus8:
	.cfi_startproc
	pushq	%r12
	.cfi_def_cfa_offset 16
	.cfi_offset %r12, -16
	movq	%rbx, %r12
	# DW_CFA_val_expression (0x16) rbx (3), 2 bytes:
	#   DW_OP_breg12 (r12) 8        0x7c 0x08
	.cfi_escape 0x16, 0x03, 0x02, 0x7c, 0x08
	movq	%rdi, %rbx
	leaq	1(%rbx), %rax
	movq	%r12, %rbx
	.cfi_restore %rbx
	popq	%r12
	.cfi_def_cfa_offset 8
	.cfi_restore %r12
	ret
	.cfi_endproc
	.size	f_copy_plus8, .-f_copy_plus8

# The same copy, its value said to be r12 + 8 * (r12 == 0x123456789):
# wrong for one value of rbx on entry.  reg-mismatch, what=value, and the
# counterexample's r12 must be 0x123456789.
	.globl	f_rare_value
	.type	f_rare_value, @function
f_rare_value:
	.cfi_startproc
	pushq	%r12
	.cfi_def_cfa_offset 16
	.cfi_offset %r12, -16
	movq	%rbx, %r12
	# DW_CFA_val_expression (0x16) rbx (3), 16 bytes:
	#   DW_OP_breg12 (r12) 0        0x7c 0x00
	#   DW_OP_dup                   0x12
	#   DW_OP_const8u 0x123456789   0x0e 0x89 0x67 0x45 0x23 0x01 0x00 0x00 0x00
	#   DW_OP_eq                    0x29        r12 (r12 == 0x123456789)
	#   DW_OP_lit3                  0x33
	#   DW_OP_shl                   0x24
	#   DW_OP_plus                  0x22
	.cfi_escape 0x16, 0x03, 0x10, 0x7c, 0x00, 0x12, 0x0e, 0x89, 0x67, 0x45, 0x23, 0x01, 0x00, 0x00, 0x00, 0x29, 0x33, 0x24, 0x22
	movq	%rdi, %rbx
	leaq	1(%rbx), %rax
	movq	%r12, %rbx
	.cfi_restore %rbx
	popq	%r12
	.cfi_def_cfa_offset 8
	.cfi_restore %r12
	ret
	.cfi_endproc
	.size	f_rare_value, .-f_rare_value
# SPDX-License-Identifier: Apache-2.0
