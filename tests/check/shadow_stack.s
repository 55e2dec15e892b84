# libgcc's unwinder pops the CET shadow stack as it unwinds: rdsspq and
# incsspq, which Capstone 4 does not decode.  They are known by their
# bytes, so the function is synthesised and every address checked
# (tests/check/run.sh).
	.text
	.globl	shadow_pop
	.type	shadow_pop, @function
shadow_pop:
	.cfi_startproc
	pushq	%rbx
	.cfi_def_cfa_offset 16
	.cfi_offset %rbx, -16
	xorl	%ebx, %ebx
	rdsspq	%rbx
	testq	%rbx, %rbx
	je	1f
	movl	$2, %eax
	incsspq	%rax
	rdsspd	%r9d
	incsspd	%r9d
1:	popq	%rbx
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	shadow_pop, .-shadow_pop
