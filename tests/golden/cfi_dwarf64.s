# A .debug_frame in the 64-bit DWARF format (length escape 0xffffffff,
# 8-byte CIE id and CIE pointer), built by hand: GAS writes only 32-bit CFI.
	.text
	.globl	d64
	.type	d64, @function
d64:
	pushq	%rbx
	movq	%rdi, %rbx
	popq	%rbx
	ret
.Ld64_end:
	.size	d64, .-d64

	.section .debug_frame,"",@progbits
.Lcie:
	.long	0xffffffff
	.quad	.Lcie_end - .Lcie_body
.Lcie_body:
	.quad	0xffffffffffffffff	# CIE id
	.byte	3			# version
	.string	""			# augmentation
	.uleb128 1			# code alignment factor
	.sleb128 -8			# data alignment factor
	.uleb128 16			# return address column
	.byte	0x0c, 7, 8		# DW_CFA_def_cfa rsp, 8
	.byte	0x90, 1			# DW_CFA_offset r16, 1 (c-8)
	.balign	8, 0
.Lcie_end:
	.long	0xffffffff
	.quad	.Lfde_end - .Lfde_body
.Lfde_body:
	.quad	0			# CIE pointer: the CIE at offset 0
	.quad	d64			# initial location
	.quad	.Ld64_end - d64		# address range
	.byte	0x41			# DW_CFA_advance_loc 1
	.byte	0x0e, 16		# DW_CFA_def_cfa_offset 16
	.byte	0x83, 2			# DW_CFA_offset rbx, 2 (c-16)
	.byte	0x44			# DW_CFA_advance_loc 4
	.byte	0x0a			# DW_CFA_remember_state
	.byte	0x0e, 8			# DW_CFA_def_cfa_offset 8
	.byte	0xc3			# DW_CFA_restore rbx
	.byte	0x41			# DW_CFA_advance_loc 1
	.byte	0x0b			# DW_CFA_restore_state
	.balign	8, 0
.Lfde_end:
# SPDX-License-Identifier: Apache-2.0
