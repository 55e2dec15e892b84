# GCC's stack-clash probe loop (-fstack-clash-protection): rsp moves down a
# page a turn until it reaches r11, so the CFA is kept in r11 while it runs.
# Synthesis joins the turns at the loop's head, where rsp is then unknown;
# on the first turn it is what the loop is entered with (synth/loop_entry).
#
# probe_right: GCC's own CFI (CFA = r11 + N in the loop), right.
# probe_wrong: CFA = rsp + N in the loop, as gas 2.40 writes GCC's r11 CFA
# into SFrame: wrong on the first turn, where rsp is r11 + 0x2000.  Found at
# the loop's head; the other addresses of the row stay undecided (rsp there
# is another offset each turn).
# loop_after_call: a loop whose head the code before it falls into after a
# call that does not return, which synthesis cannot know (an external
# function; glib's g_assertion_message_expr): that way in is no path, and
# the loop's row (rsp+8) is not judged by it.
	.text
	.globl	probe_right
	.type	probe_right, @function
probe_right:
	.cfi_startproc
	pushq	%rbx
	.cfi_def_cfa_offset 16
	.cfi_offset %rbx, -16
	leaq	-8192(%rsp), %r11
	.cfi_def_cfa 11, 8208
.Lright_loop:
	subq	$4096, %rsp
	orq	$0, (%rsp)
	cmpq	%r11, %rsp
	jne	.Lright_loop
	.cfi_def_cfa_register 7
	subq	$64, %rsp
	.cfi_def_cfa_offset 8272
	movq	%rsp, %rdi
	call	probe_helper
	addq	$8256, %rsp
	.cfi_def_cfa_offset 16
	popq	%rbx
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	probe_right, .-probe_right

	.globl	probe_wrong
	.type	probe_wrong, @function
probe_wrong:
	.cfi_startproc
	pushq	%rbx
	.cfi_def_cfa_offset 16
	.cfi_offset %rbx, -16
	leaq	-8192(%rsp), %r11
	.cfi_def_cfa_offset 8208
.Lwrong_loop:
	subq	$4096, %rsp
	orq	$0, (%rsp)
	cmpq	%r11, %rsp
	jne	.Lwrong_loop
	subq	$64, %rsp
	.cfi_def_cfa_offset 8272
	movq	%rsp, %rdi
	call	probe_helper
	addq	$8256, %rsp
	.cfi_def_cfa_offset 16
	popq	%rbx
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	probe_wrong, .-probe_wrong

	.globl	loop_after_call
	.type	loop_after_call, @function
loop_after_call:
	.cfi_startproc
	testq	%rdi, %rdi
	js	.Lfail
.Lbody:
	subq	$1, %rdi
	je	.Lhead
	ret
.Lfail:
	subq	$8, %rsp
	.cfi_def_cfa_offset 16
	call	probe_helper
	.p2align 4
.Lhead:
	.cfi_def_cfa_offset 8
	addq	$2, %rdi
	jmp	.Lbody
	.cfi_endproc
	.size	loop_after_call, .-loop_after_call
	.section .note.GNU-stack,"",@progbits
# SPDX-License-Identifier: Apache-2.0
