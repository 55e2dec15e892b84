# Jump tables dwcheck resolves, so that every case is checked and none is
# left to a guess, and reads no further than the table.
#
# A computed goto (GCC's &&label, as glibc's vfprintf uses it): the table's
# entries are relative to a label of the code, not to the table.
	.text
	.globl	computed_goto
	.type	computed_goto, @function
computed_goto:
	.cfi_startproc
	pushq	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset %rbp, -16
	pushq	%rbx
	.cfi_def_cfa_offset 24
	.cfi_offset %rbx, -24
	andl	$3, %edi
	leaq	.Lgoto_table(%rip), %rcx
	leaq	.Lgoto0(%rip), %rsi
	movslq	(%rcx,%rdi,4), %rax
	addq	%rsi, %rax
	jmp	*%rax
.Lgoto0:
	movl	$1, %ebx
	jmp	.Lgoto_join
.Lgoto1:
	movl	$2, %ebx
	jmp	.Lgoto_join
.Lgoto2:
	movl	$3, %ebx
	jmp	.Lgoto_join
.Lgoto3:
	movl	$4, %ebx
.Lgoto_join:
	movl	%ebx, %edi
	call	goto_helper
	popq	%rbx
	.cfi_def_cfa_offset 16
	popq	%rbp
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	computed_goto, .-computed_goto

# A table whose bounds only the code knows (cmp $1; ja): the word after it
# names the padding after a tail call.  Read as a third entry, it would give
# the padding the state of the jump (CFA rsp+16) where the table, rightly,
# says rsp+8.  No compiler jumps to padding: the table ends before it.
	.globl	table_then_padding
	.type	table_then_padding, @function
table_then_padding:
	.cfi_startproc
	pushq	%rbx
	.cfi_def_cfa_offset 16
	.cfi_offset %rbx, -16
	cmpq	$1, %rdi
	ja	.Ltp_default
	leaq	.Ltp_table(%rip), %rdx
	movslq	(%rdx,%rdi,4), %rax
	addq	%rdx, %rax
	jmp	*%rax
.Ltp_case0:
	movl	$1, %ebx
	jmp	.Ltp_join
.Ltp_case1:
	movl	$2, %ebx
	jmp	.Ltp_join
.Ltp_default:
	xorl	%ebx, %ebx
.Ltp_join:
	movl	%ebx, %edi
	popq	%rbx
	.cfi_def_cfa_offset 8
	jmp	goto_helper
.Ltp_padding:
	nopl	0(%rax)
	.cfi_endproc
	.size	table_then_padding, .-table_then_padding

# A table whose address reaches its register by a copy, before the loop that
# jumps through it: what the register holds there comes from the values the
# interpreter tracks (a constant, the lea's address), not from a lea in
# the jump's block.
	.globl	hoisted_table
	.type	hoisted_table, @function
hoisted_table:
	.cfi_startproc
	pushq	%rbx
	.cfi_def_cfa_offset 16
	.cfi_offset %rbx, -16
	leaq	.Lht_table(%rip), %rax
	movq	%rax, %rbx
.Lht_loop:
	cmpq	$1, %rdi
	ja	.Lht_done
	movslq	(%rbx,%rdi,4), %rax
	addq	%rbx, %rax
	jmp	*%rax
.Lht_case0:
	movl	$1, %edi
	jmp	.Lht_loop
.Lht_case1:
	movl	$2, %edi
	jmp	.Lht_loop
.Lht_done:
	movq	%rdi, %rax
	popq	%rbx
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	hoisted_table, .-hoisted_table

# A switch inside a case, each table's address copied into its register:
# the inner jump is reached only once the outer table is resolved.
	.globl	nested_tables
	.type	nested_tables, @function
nested_tables:
	.cfi_startproc
	pushq	%rbx
	.cfi_def_cfa_offset 16
	.cfi_offset %rbx, -16
	leaq	.Lnt_outer(%rip), %rax
	movq	%rax, %rbx
	leaq	.Lnt_inner(%rip), %rax
	movq	%rax, %rcx
	andl	$1, %edi
	movslq	(%rbx,%rdi,4), %rax
	addq	%rbx, %rax
	jmp	*%rax
.Lnt_o0:
	andl	$1, %esi
	movslq	(%rcx,%rsi,4), %rax
	addq	%rcx, %rax
	jmp	*%rax
.Lnt_o1:
	movl	$3, %eax
	jmp	.Lnt_join
.Lnt_i0:
	movl	$1, %eax
	jmp	.Lnt_join
.Lnt_i1:
	movl	$2, %eax
.Lnt_join:
	popq	%rbx
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	nested_tables, .-nested_tables

# GCC's table at -O0: the index scaled by a lea, the entry loaded with a
# 32-bit mov through the pair (index, table), sign-extended by cltq.
	.globl	table_at_O0
	.type	table_at_O0, @function
table_at_O0:
	.cfi_startproc
	pushq	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset %rbp, -16
	movq	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	movl	%edi, -4(%rbp)
	cmpl	$1, -4(%rbp)
	ja	.LO0_default
	movl	-4(%rbp), %eax
	leaq	0(,%rax,4), %rdx
	leaq	.LO0_table(%rip), %rax
	movl	(%rdx,%rax), %eax
	cltq
	leaq	.LO0_table(%rip), %rdx
	addq	%rdx, %rax
	jmp	*%rax
.LO0_case0:
	movl	$1, %eax
	jmp	.LO0_join
.LO0_case1:
	movl	$2, %eax
	jmp	.LO0_join
.LO0_default:
	movl	$0, %eax
.LO0_join:
	popq	%rbp
	.cfi_def_cfa %rsp, 8
	ret
	.cfi_endproc
	.size	table_at_O0, .-table_at_O0

# The same as gdb's -O0 code has it: the index compared in its register and
# widened in place, then scaled by 4 before the load; case 0, empty, is a
# lone nop that only the table reaches.  The bound says every entry is a
# case.
	.globl	table_at_O0_nop_default
	.type	table_at_O0_nop_default, @function
table_at_O0_nop_default:
	.cfi_startproc
	pushq	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset %rbp, -16
	movq	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	movl	%edi, -0x1d4(%rbp)
	movl	-0x1d4(%rbp), %eax
	cmpl	$2, %eax
	ja	.LO0n_above
	movl	%eax, %eax
	leaq	0(,%rax,4), %rdx
	leaq	.LO0n_table(%rip), %rax
	movl	(%rdx,%rax), %eax
	cltq
	leaq	.LO0n_table(%rip), %rdx
	addq	%rdx, %rax
	jmp	*%rax
.LO0n_case1:
	movl	$2, %eax
	jmp	.LO0n_join
.LO0n_case2:
	movl	$3, %eax
	jmp	.LO0n_join
.LO0n_default:
	nop
	jmp	.LO0n_join
.LO0n_above:
	movl	$4, %eax
.LO0n_join:
	popq	%rbp
	.cfi_def_cfa %rsp, 8
	ret
	.cfi_endproc
	.size	table_at_O0_nop_default, .-table_at_O0_nop_default

	.type	goto_helper, @function
goto_helper:
	.cfi_startproc
	movl	%edi, %eax
	ret
	.cfi_endproc
	.size	goto_helper, .-goto_helper

# clang's switch whose default cannot happen: the entries of the values
# that never come name the function's end (where the next function starts).
# They are passed over, wherever they are in the table.
	.text
	.globl	unreachable_default
	.type	unreachable_default, @function
unreachable_default:
	.cfi_startproc
	pushq	%rbx
	.cfi_def_cfa_offset 16
	.cfi_offset %rbx, -16
	andl	$3, %edi
	leaq	.Lud_table(%rip), %rcx
	movslq	(%rcx,%rdi,4), %rax
	addq	%rcx, %rax
	jmp	*%rax
.Lud_case1:
	movl	$1, %ebx
	jmp	.Lud_join
.Lud_case3:
	movl	$2, %ebx
.Lud_join:
	movl	%ebx, %eax
	popq	%rbx
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
.Lud_end:
	.size	unreachable_default, .-unreachable_default

# A switch whose code bounds its index (cmp $2,%eax; ja default): exactly
# its three entries are read, the first into the function's cold part
# (which continues the frame); the word after the table, which would name
# the middle of the epilogue, is not an entry.
	.text
	.globl	bounded_switch
	.type	bounded_switch, @function
bounded_switch:
	.cfi_startproc
	pushq	%rbx
	.cfi_def_cfa_offset 16
	.cfi_offset %rbx, -16
	subq	$16, %rsp
	.cfi_def_cfa_offset 32
	movl	%edi, %eax
	cmpl	$2, %eax
	ja	.Lbs_default
	leaq	.Lbs_table(%rip), %rcx
	movslq	(%rcx,%rax,4), %rax
	addq	%rcx, %rax
	jmp	*%rax
.Lbs_case1:
	movl	$1, %ebx
	jmp	.Lbs_join
.Lbs_case2:
	movl	$2, %ebx
	jmp	.Lbs_join
.Lbs_default:
	xorl	%ebx, %ebx
.Lbs_join:
	movl	%ebx, %eax
	addq	$16, %rsp
	.cfi_def_cfa_offset 16
.Lbs_after_add:
	popq	%rbx
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	bounded_switch, .-bounded_switch

	.section .text.unlikely,"ax",@progbits
	.type	bounded_switch.cold, @function
bounded_switch.cold:
	.cfi_startproc
	.cfi_def_cfa_offset 32
	.cfi_offset %rbx, -16
	movl	$3, %ebx
	jmp	.Lbs_join
	.cfi_endproc
	.size	bounded_switch.cold, .-bounded_switch.cold

# The same bounded by the switch's value in a struct field, as gprofng
# has it: cmp $2,0x4c(%rdi), a store that leaves the flags, ja, then the
# value loaded again from the field.  The middle entry leaves for the cold
# part; the last case is still read.
	.text
	.globl	switch_on_field
	.type	switch_on_field, @function
switch_on_field:
	.cfi_startproc
	cmpl	$2, 0x4c(%rdi)
	movq	$0, 0xc8(%rdi)
	ja	.Lsf_default
	movl	0x4c(%rdi), %eax
	leaq	.Lsf_table(%rip), %rdx
	movslq	(%rdx,%rax,4), %rax
	addq	%rdx, %rax
	jmp	*%rax
.Lsf_case0:
	movl	$1, %eax
	ret
.Lsf_case2:
	movl	$3, %eax
	ret
.Lsf_default:
	xorl	%eax, %eax
	ret
	.cfi_endproc
	.size	switch_on_field, .-switch_on_field

	.section .text.unlikely,"ax",@progbits
	.type	switch_on_field.cold, @function
switch_on_field.cold:
	.cfi_startproc
	movl	$2, %eax
	ret
	.cfi_endproc
	.size	switch_on_field.cold, .-switch_on_field.cold

# And by a register the index is a copy of (systemd, vim): cmp $2,%edi;
# ja; mov %edi,%eax.
	.text
	.globl	switch_on_copy
	.type	switch_on_copy, @function
switch_on_copy:
	.cfi_startproc
	cmpl	$2, %edi
	ja	.Lsc_default
	leaq	.Lsc_table(%rip), %rdx
	movl	%edi, %eax
	movslq	(%rdx,%rax,4), %rax
	addq	%rdx, %rax
	jmp	*%rax
.Lsc_case0:
	movl	$1, %eax
	ret
.Lsc_case2:
	movl	$3, %eax
	ret
.Lsc_default:
	xorl	%eax, %eax
	ret
	.cfi_endproc
	.size	switch_on_copy, .-switch_on_copy

# A table of addresses in a position-independent file (CPython's
# interpreter loop in libpython): the table's address is kept in a register
# across the loop, and its entries are the loader's, from R_X86_64_RELATIVE
# relocations (the file holds zeros or addends there, not the addresses).
	.text
	.globl	pie_addresses
	.type	pie_addresses, @function
pie_addresses:
	.cfi_startproc
	pushq	%rbx
	.cfi_def_cfa_offset 16
	.cfi_offset %rbx, -16
	movl	%edi, %ebx
	leaq	.Lpa_table(%rip), %rsi
	movl	%ebx, %eax
	andl	$1, %eax
	movq	(%rsi,%rax,8), %rax
	jmp	*%rax
.Lpa_case0:
	subl	$1, %ebx
	js	.Lpa_done
	movl	%ebx, %eax
	andl	$1, %eax
	movq	(%rsi,%rax,8), %rax
	jmp	*%rax
.Lpa_case1:
	subl	$3, %ebx
	js	.Lpa_done
	movl	%ebx, %eax
	andl	$1, %eax
	movq	(%rsi,%rax,8), %rax
	jmp	*%rax
.Lpa_done:
	movl	%ebx, %eax
	popq	%rbx
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	pie_addresses, .-pie_addresses

	.section .data.rel.ro,"aw"
	.balign 8
.Lpa_table:
	.quad	.Lpa_case0
	.quad	.Lpa_case1

# The entry added to the table's register, which the jump reads
# (movslq (%t,%i,4),%r; add %r,%t; jmp *%t).
	.text
	.globl	entry_added_to_table
	.type	entry_added_to_table, @function
entry_added_to_table:
	.cfi_startproc
	pushq	%rbx
	.cfi_def_cfa_offset 16
	.cfi_offset %rbx, -16
	movq	%rdi, %rbx
	leaq	.Lea_table(%rip), %rax
	movq	%rbx, %rdx
	andl	$1, %edx
	movslq	(%rax,%rdx,4), %rdx
	addq	%rdx, %rax
	jmp	*%rax
.Lea_case0:
	movq	%rbx, %rdi
	call	goto_helper
	popq	%rbx
	.cfi_remember_state
	.cfi_def_cfa_offset 8
	ret
.Lea_case1:
	.cfi_restore_state
	xorl	%eax, %eax
	popq	%rbx
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	entry_added_to_table, .-entry_added_to_table

	.section .rodata
	.balign 4
.Lbs_table:
	.long	bounded_switch.cold-.Lbs_table
	.long	.Lbs_case1-.Lbs_table
	.long	.Lbs_case2-.Lbs_table
	.long	.Lbs_after_add-.Lbs_table
.Lud_table:
	.long	.Lud_end-.Lud_table
	.long	.Lud_case1-.Lud_table
	.long	.Lud_end-.Lud_table
	.long	.Lud_case3-.Lud_table
.Lgoto_table:
	.long	.Lgoto0-.Lgoto0
	.long	.Lgoto1-.Lgoto0
	.long	.Lgoto2-.Lgoto0
	.long	.Lgoto3-.Lgoto0
.Lht_table:
	.long	.Lht_case0-.Lht_table
	.long	.Lht_case1-.Lht_table
.Lnt_outer:
	.long	.Lnt_o0-.Lnt_outer
	.long	.Lnt_o1-.Lnt_outer
.Lnt_inner:
	.long	.Lnt_i0-.Lnt_inner
	.long	.Lnt_i1-.Lnt_inner
.LO0_table:
	.long	.LO0_case0-.LO0_table
	.long	.LO0_case1-.LO0_table
.LO0n_table:
	.long	.LO0n_default-.LO0n_table
	.long	.LO0n_case1-.LO0n_table
	.long	.LO0n_case2-.LO0n_table
.Lsf_table:
	.long	.Lsf_case0-.Lsf_table
	.long	switch_on_field.cold-.Lsf_table
	.long	.Lsf_case2-.Lsf_table
.Lsc_table:
	.long	.Lsc_case0-.Lsc_table
	.long	switch_on_field.cold-.Lsc_table
	.long	.Lsc_case2-.Lsc_table
.Ltp_table:
	.long	.Ltp_case0-.Ltp_table
	.long	.Ltp_case1-.Ltp_table
	.long	.Ltp_padding-.Ltp_table
.Lea_table:
	.long	.Lea_case0-.Lea_table
	.long	.Lea_case1-.Lea_table
	.section .note.GNU-stack,"",@progbits
# SPDX-License-Identifier: Apache-2.0
