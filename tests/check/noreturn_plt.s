# Calls that never return, as a shared library makes them
# (tests/check/run.sh: every address checked, nothing to a guess).
#
# 1. `croak` is exported, so the library calls it through its PLT (another
#    object could interpose it); its own code never returns.  The call to
#    it in `user` must not fall through into the block after it, which is
#    reached with another frame size: joined, the two would leave the CFA
#    unknown there.
#
# 2. `host.cold` is entered at its start by a jump from `host` and ends
#    there in a call to abort; `host` also jumps into its middle, to a call
#    that may throw.  That call's landing pad gets its state although only
#    the jump into the middle reaches the call.
#
# 3. `gnat_user` calls GNAT's run-time check, imported, which never returns
#    (declared No_Return), as in 1.
#
# 4. An unnamed cold part in GCC's shape for one that starts with a landing
#    pad: a padding byte, then the pad, entered only by the unwinder; the
#    part's own call, which `host2` jumps to, lands there.  The state guessed
#    for the padding byte (the ABI's entry) must give way to the call's.
	.text
	.globl	croak
	.type	croak, @function
croak:
	.cfi_startproc
	subq	$8, %rsp
	.cfi_def_cfa_offset 16
	call	abort@PLT
	.cfi_endproc
	.size	croak, .-croak

	.globl	user
	.type	user, @function
user:
	.cfi_startproc
	pushq	%rbx
	.cfi_def_cfa_offset 16
	.cfi_offset %rbx, -16
	testl	%edi, %edi
	jne	2f
	subq	$16, %rsp
	.cfi_def_cfa_offset 32
	call	croak@PLT
	.cfi_def_cfa_offset 16
1:	popq	%rbx
	.cfi_def_cfa_offset 8
	ret
2:	.cfi_def_cfa_offset 16
	movl	%edi, %ebx
	call	helper@PLT
	jmp	1b
	.cfi_endproc
	.size	user, .-user

	.globl	gnat_user
	.type	gnat_user, @function
gnat_user:
	.cfi_startproc
	pushq	%rbx
	.cfi_def_cfa_offset 16
	.cfi_offset %rbx, -16
	testl	%edi, %edi
	jne	2f
	subq	$16, %rsp
	.cfi_def_cfa_offset 32
	call	__gnat_rcheck_CE_Index_Check@PLT
	.cfi_def_cfa_offset 16
1:	popq	%rbx
	.cfi_def_cfa_offset 8
	ret
2:	.cfi_def_cfa_offset 16
	movl	%edi, %ebx
	call	helper@PLT
	jmp	1b
	.cfi_endproc
	.size	gnat_user, .-gnat_user

	.globl	host2
	.type	host2, @function
host2:
	.cfi_startproc
	pushq	%rbx
	.cfi_def_cfa_offset 16
	.cfi_offset %rbx, -16
	testl	%edi, %edi
	jne	.Linner2
	popq	%rbx
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	host2, .-host2

.Lcold2:
	.cfi_startproc
	.cfi_personality 0x9b, DW.ref.personality
	.cfi_lsda 0x1b, .Lcold2_lsda
	nop
	.cfi_def_cfa_offset 16
	.cfi_offset %rbx, -16
.Lpad2:
	movq	%rax, %rdi
	call	_Unwind_Resume@PLT
.Linner2:
	movl	%edi, %ebx
.Lcall2_start:
	call	helper@PLT
.Lcall2_end:
	popq	%rbx
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	.Lcold2, .-.Lcold2

	.globl	host
	.type	host, @function
host:
	.cfi_startproc
	pushq	%rbx
	.cfi_def_cfa_offset 16
	.cfi_offset %rbx, -16
	testl	%edi, %edi
	je	host.cold
	cmpl	$1, %edi
	je	.Linner
	popq	%rbx
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	host, .-host

	.type	host.cold, @function
host.cold:
	.cfi_startproc
	.cfi_personality 0x9b, DW.ref.personality
	.cfi_lsda 0x1b, .Lhost_cold_lsda
	.cfi_def_cfa_offset 16
	.cfi_offset %rbx, -16
	call	abort@PLT
.Linner:
	movl	%edi, %ebx
.Lcall_start:
	call	helper@PLT
.Lcall_end:
	popq	%rbx
	.cfi_remember_state
	.cfi_def_cfa_offset 8
	ret
.Lpad:
	.cfi_restore_state
	movq	%rax, %rdi
	call	_Unwind_Resume@PLT
	.cfi_endproc
	.size	host.cold, .-host.cold

	.globl	helper
	.type	helper, @function
helper:
	.cfi_startproc
	ret
	.cfi_endproc
	.size	helper, .-helper

	.type	personality, @function
personality:
	.cfi_startproc
	xorl	%eax, %eax
	ret
	.cfi_endproc
	.size	personality, .-personality

	.section .gcc_except_table,"a",@progbits
.Lhost_cold_lsda:
	.byte	0xff				# no @LPStart: the FDE's start
	.byte	0xff				# no type table
	.byte	0x1				# call sites in uleb128
	.uleb128 .Lsites_end-.Lsites
.Lsites:
	.uleb128 .Lcall_start-host.cold
	.uleb128 .Lcall_end-.Lcall_start
	.uleb128 .Lpad-host.cold
	.uleb128 0
.Lsites_end:
.Lcold2_lsda:
	.byte	0xff
	.byte	0xff
	.byte	0x1
	.uleb128 .Lsites2_end-.Lsites2
.Lsites2:
	.uleb128 .Lcall2_start-.Lcold2
	.uleb128 .Lcall2_end-.Lcall2_start
	.uleb128 .Lpad2-.Lcold2
	.uleb128 0
.Lsites2_end:

	.section .data.rel.local,"aw"
	.p2align 3
DW.ref.personality:
	.quad	personality
# SPDX-License-Identifier: Apache-2.0
