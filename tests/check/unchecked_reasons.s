# What dwcheck leaves unchecked, each under its own reason (tests/check/run.sh
# counts them against objdump's disassembly of this file):
# - padded: the nops that align a label after a return run never: alignment
#   padding;
# - after_noreturn: the ud2 after a call that does not return is a trap no
#   path reaches, like padding;
# - dead_code: two instructions after a return that no path reaches, given
#   the state before them as a guess;
# - helper_clobbers: a helper that does not keep rbx, as OpenSSL's and
#   libgcrypt's internal routines do (their callers saved it).  After the
#   multiply rbx holds a value synthesis cannot follow: under the table's
#   "unchanged", its rule is undecided at the two instructions after it, not
#   reported.
	.text
	.globl	padded
	.type	padded, @function
padded:
	.cfi_startproc
	testl	%edi, %edi
	jne	1f
	xorl	%eax, %eax
	ret
	.p2align 4
1:	movl	$1, %eax
	ret
	.cfi_endproc
	.size	padded, .-padded

	.type	never_returns, @function
never_returns:
	.cfi_startproc
	ud2
	.cfi_endproc
	.size	never_returns, .-never_returns

	.globl	after_noreturn
	.type	after_noreturn, @function
after_noreturn:
	.cfi_startproc
	subq	$8, %rsp
	.cfi_def_cfa_offset 16
	call	never_returns
	ud2
	.cfi_endproc
	.size	after_noreturn, .-after_noreturn

	.globl	dead_code
	.type	dead_code, @function
dead_code:
	.cfi_startproc
	xorl	%eax, %eax
	ret
	movl	$2, %eax
	ret
	.cfi_endproc
	.size	dead_code, .-dead_code

	.globl	helper_clobbers
	.type	helper_clobbers, @function
helper_clobbers:
	.cfi_startproc
	imulq	%rsi, %rbx
	movq	%rbx, %rax
	ret
	.cfi_endproc
	.size	helper_clobbers, .-helper_clobbers
# SPDX-License-Identifier: Apache-2.0
