# A probe that does not give rax back (it returns what is left in r11): the
# caller's rsp after `sub %rax,%rsp` is not known, so those addresses stay
# unchecked, and nothing is reported (tests/check/run.sh).
	.text
	.type	big_frame, @function
	.globl	big_frame
big_frame:
	.cfi_startproc
	movl	$0x2008, %eax
	call	.Lprobe
	subq	%rax, %rsp
	.cfi_def_cfa_offset 0x2010
	addq	$0x2008, %rsp
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	big_frame, .-big_frame

	.p2align 4
.Lprobe:
	.cfi_startproc
	movq	%rax, %r11
1:	subq	$0x1000, %r11
	cmpq	$0x1000, %r11
	ja	1b
	movq	%r11, %rax
	ret
	.cfi_endproc
	.size	.Lprobe, .-.Lprobe
