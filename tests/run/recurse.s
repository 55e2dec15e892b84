# SPDX-License-Identifier: Apache-2.0
# tests/run: rec_walk(n) returns n + (n-1) + ... + 1, recursing through
# bounce, a function of its own: rec_walk calls bounce, which calls
# rec_walk.  Under `dwcheck --run --only=rec_walk` each level of rec_walk is
# stepped from its entry's breakpoint, and each call to bounce runs at full
# speed to a breakpoint at its return address, which every level shares:
# the return must be told by its rsp.  Hand-written so that the number of
# rec_walk's instructions is known: 9 per level that recurses, 7 at the
# bottom.  small_escape calls escape (onlycall.c), which longjmps out past
# it: the return awaited never comes; big_frame, called next from the same
# place, lays a large frame over where that return was awaited, and must be
# stepped all the same (3n+4 instructions for n).  The CFI is right.
        .text

        .globl  rec_walk
        .type   rec_walk, @function
rec_walk:                       # long rec_walk(long n)
        .cfi_startproc
        pushq   %rbx
        .cfi_def_cfa_offset 16
        .cfi_offset %rbx, -16
        movq    %rdi, %rbx
        testq   %rbx, %rbx
        je      1f
        leaq    -1(%rbx), %rdi
        call    bounce
        addq    %rbx, %rax
        popq    %rbx
        .cfi_remember_state
        .cfi_def_cfa_offset 8
        ret
        .cfi_restore_state
1:      xorl    %eax, %eax
        popq    %rbx
        .cfi_def_cfa_offset 8
        ret
        .cfi_endproc
        .size   rec_walk, .-rec_walk

        .globl  bounce
        .type   bounce, @function
bounce:                         # long bounce(long n): rec_walk(n), one frame deeper
        .cfi_startproc
        subq    $8, %rsp
        .cfi_def_cfa_offset 16
        call    rec_walk
        addq    $8, %rsp
        .cfi_def_cfa_offset 8
        ret
        .cfi_endproc
        .size   bounce, .-bounce

        .globl  small_escape
        .type   small_escape, @function
small_escape:                   # void small_escape(void): escape() never returns here
        .cfi_startproc
        subq    $8, %rsp
        .cfi_def_cfa_offset 16
        call    escape
        addq    $8, %rsp
        .cfi_def_cfa_offset 8
        ret
        .cfi_endproc
        .size   small_escape, .-small_escape

        .globl  big_frame
        .type   big_frame, @function
big_frame:                      # long big_frame(long n): n + (n-1) + ... + 1, n > 0
        .cfi_startproc
        subq    $264, %rsp
        .cfi_def_cfa_offset 272
        xorl    %eax, %eax
1:      addq    %rdi, %rax
        decq    %rdi
        jne     1b
        addq    $264, %rsp
        .cfi_def_cfa_offset 8
        ret
        .cfi_endproc
        .size   big_frame, .-big_frame

        .section .note.GNU-stack,"",@progbits
