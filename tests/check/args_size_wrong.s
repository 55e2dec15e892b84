# tests/check/pushed_args.cc as clang 14 -O2 -fPIC writes it, with one fault:
# the DW_CFA_GNU_args_size before the call to many() says 24 bytes were
# pushed (0x18) where the code pushes 16.  The unwinder then jumps to the
# landing pad with rsp 8 bytes too high: the pad's row is wrong there and
# dwcheck reports it (cfa-mismatch at the landing pad), and nothing else.
	.text
	.file	"pushed_args.cc"
	.globl	_Z4manyllllllll                 # -- Begin function _Z4manyllllllll
	.p2align	4, 0x90
	.type	_Z4manyllllllll,@function
_Z4manyllllllll:                        # @_Z4manyllllllll
	.cfi_startproc
# %bb.0:
	pushq	%rbx
	.cfi_def_cfa_offset 16
	.cfi_offset %rbx, -16
	movq	24(%rsp), %rax
	addq	%rdi, %rax
	cmpq	$42, %rax
	je	.LBB0_2
# %bb.1:
	addq	%rsi, %rax
	addq	%rdx, %rax
	addq	%rcx, %rax
	addq	%r8, %rax
	addq	%r9, %rax
	addq	16(%rsp), %rax
	popq	%rbx
	.cfi_def_cfa_offset 8
	retq
.LBB0_2:
	.cfi_def_cfa_offset 16
	movq	%rdi, %rbx
	movl	$8, %edi
	callq	__cxa_allocate_exception@PLT
	movq	%rbx, (%rax)
	movq	_ZTIl@GOTPCREL(%rip), %rsi
	movq	%rax, %rdi
	xorl	%edx, %edx
	callq	__cxa_throw@PLT
.Lfunc_end0:
	.size	_Z4manyllllllll, .Lfunc_end0-_Z4manyllllllll
	.cfi_endproc
                                        # -- End function
	.globl	_ZN5GuardD2Ev                   # -- Begin function _ZN5GuardD2Ev
	.p2align	4, 0x90
	.type	_ZN5GuardD2Ev,@function
_ZN5GuardD2Ev:                          # @_ZN5GuardD2Ev
	.cfi_startproc
# %bb.0:
	#APP
	#NO_APP
	retq
.Lfunc_end1:
	.size	_ZN5GuardD2Ev, .Lfunc_end1-_ZN5GuardD2Ev
	.cfi_endproc
                                        # -- End function
	.globl	_Z6callerl                      # -- Begin function _Z6callerl
	.p2align	4, 0x90
	.type	_Z6callerl,@function
_Z6callerl:                             # @_Z6callerl
.Lfunc_begin0:
	.cfi_startproc
	.cfi_personality 155, DW.ref.__gxx_personality_v0
	.cfi_lsda 27, .Lexception0
# %bb.0:
	pushq	%rbx
	.cfi_def_cfa_offset 16
	subq	$16, %rsp
	.cfi_def_cfa_offset 32
	.cfi_offset %rbx, -16
	leaq	(%rdi,%rdi,2), %rax
	leaq	7(%rdi), %rbx
.Ltmp0:
	.cfi_escape 0x2e, 0x18
	movl	$1, %esi
	movl	$2, %edx
	movl	$3, %ecx
	movl	$4, %r8d
	movl	$5, %r9d
	pushq	%rbx
	.cfi_adjust_cfa_offset 8
	pushq	%rax
	.cfi_adjust_cfa_offset 8
	callq	_Z4manyllllllll@PLT
	addq	$16, %rsp
	.cfi_adjust_cfa_offset -16
.Ltmp1:
# %bb.1:
	movq	%rax, %rbx
	addq	$1, %rbx
	.cfi_escape 0x2e, 0x00
	leaq	8(%rsp), %rdi
	callq	_ZN5GuardD1Ev@PLT
	movq	%rbx, %rax
	addq	$16, %rsp
	.cfi_def_cfa_offset 16
	popq	%rbx
	.cfi_def_cfa_offset 8
	retq
.LBB2_2:
	.cfi_def_cfa_offset 32
.Ltmp2:
	movq	%rax, %rbx
	.cfi_escape 0x2e, 0x00
	leaq	8(%rsp), %rdi
	callq	_ZN5GuardD1Ev@PLT
	.cfi_escape 0x2e, 0x00
	movq	%rbx, %rdi
	callq	_Unwind_Resume@PLT
.Lfunc_end2:
	.size	_Z6callerl, .Lfunc_end2-_Z6callerl
	.cfi_endproc
	.section	.gcc_except_table,"a",@progbits
	.p2align	2
GCC_except_table2:
.Lexception0:
	.byte	255                             # @LPStart Encoding = omit
	.byte	255                             # @TType Encoding = omit
	.byte	1                               # Call site Encoding = uleb128
	.uleb128 .Lcst_end0-.Lcst_begin0
.Lcst_begin0:
	.uleb128 .Ltmp0-.Lfunc_begin0           # >> Call Site 1 <<
	.uleb128 .Ltmp1-.Ltmp0                  #   Call between .Ltmp0 and .Ltmp1
	.uleb128 .Ltmp2-.Lfunc_begin0           #     jumps to .Ltmp2
	.byte	0                               #   On action: cleanup
	.uleb128 .Ltmp1-.Lfunc_begin0           # >> Call Site 2 <<
	.uleb128 .Lfunc_end2-.Ltmp1             #   Call between .Ltmp1 and .Lfunc_end2
	.byte	0                               #     has no landing pad
	.byte	0                               #   On action: cleanup
.Lcst_end0:
	.p2align	2
                                        # -- End function
	.hidden	DW.ref.__gxx_personality_v0
	.weak	DW.ref.__gxx_personality_v0
	.section	.data.DW.ref.__gxx_personality_v0,"aGw",@progbits,DW.ref.__gxx_personality_v0,comdat
	.p2align	3
	.type	DW.ref.__gxx_personality_v0,@object
	.size	DW.ref.__gxx_personality_v0, 8
DW.ref.__gxx_personality_v0:
	.quad	__gxx_personality_v0
	.globl	_ZN5GuardD1Ev
	.type	_ZN5GuardD1Ev,@function
.set _ZN5GuardD1Ev, _ZN5GuardD2Ev
	.ident	"Debian clang version 14.0.6"
	.section	".note.GNU-stack","",@progbits
	.addrsig
	.addrsig_sym __gxx_personality_v0
	.addrsig_sym _Unwind_Resume
	.addrsig_sym _ZTIl
# SPDX-License-Identifier: Apache-2.0
