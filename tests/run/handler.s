# SPDX-License-Identifier: Apache-2.0
# tests/run: a signal handler whose CFI is wrong from its first instruction
# (the CFA is rsp+8 there, the table says rsp+16).  A handler is entered by
# the kernel, not by a call: dwcheck --run must still know its frame.
        .text
        .globl  wrong_handler
        .type   wrong_handler, @function
wrong_handler:
        .cfi_startproc
        .cfi_def_cfa_offset 16
        nop
        ret
        .cfi_endproc
        .size   wrong_handler, .-wrong_handler

        .section .note.GNU-stack,"",@progbits
