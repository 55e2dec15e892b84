/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dwarf_expr: DWARF expressions as they appear in call-frame information.
 *
 * An expression (the operand of DW_CFA_def_cfa_expression, DW_CFA_expression
 * and DW_CFA_val_expression) is decoded once into a list of operations, each
 * with its class and function (dwarf_ops.h); the list is evaluated over
 * concrete values (register and memory callbacks) by the expression machine
 * (expr_machine.h), which verify/ runs over its own domains too, and printed
 * in readelf's `-wf` notation.
 *
 * Like the CFA-program evaluator, this module is pure: no libdwarf, no
 * allocation.  Callers hand in the op array (an expression of N bytes never
 * has more than N operations).
 */
#ifndef DWCHECK_DWARF_EXPR_H
#define DWCHECK_DWARF_EXPR_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "dwarf_ops.h"

/*
 * Decode LEN bytes into at most MAX_OPS operations (callers that evaluate
 * pass UNWIND_EXPR_MAX_OPS, see unwind_limits.h).  ADDR_SIZE is the size
 * of DW_OP_addr's operand (8 on x86_64).  Branch operands (DW_OP_skip,
 * DW_OP_bra) are stored in operand2 as the absolute byte offset of their
 * target, which must be the start of an op or the end of the expression.
 * Returns the number of ops, or -1 with a static reason in *ERROR (unknown
 * opcode, truncated operand, bad branch target, over-long LEB128).
 */
int dwarf_expr_decode(const uint8_t *bytes, size_t len, unsigned addr_size,
                      struct dwarf_op *ops, size_t max_ops, const char **error);

/* Callbacks through which evaluation reads the machine state. */
struct dwarf_expr_env {
    /* Value of DWARF register REG; 0 on success, -1 when unavailable. */
    int (*read_reg)(void *arg, unsigned reg, uint64_t *value);
    /* SIZE bytes (1..8) at ADDR, zero-extended; 0 on success, -1 on failure. */
    int (*read_mem)(void *arg, uint64_t addr, unsigned size, uint64_t *value);
    void *arg;
};

/*
 * Evaluate OPS with INITIAL (may be NULL) pushed first — the CFA for
 * DW_CFA_expression and DW_CFA_val_expression — and store the top of stack
 * in *RESULT.  Returns 0, or a dwarf_expr_fault with a static reason in
 * *ERROR: DWARF_EXPR_NO_REGISTER, DWARF_EXPR_NO_MEMORY, or
 * DWARF_EXPR_INVALID (stack underflow, or overflow past UNWIND_EXPR_STACK;
 * division by zero; an op that has no meaning in CFI; more than
 * UNWIND_EXPR_BRANCHES branches taken).  DW_OP_stack_value ends the
 * evaluation with the top of stack as the result.
 */
int dwarf_expr_eval(const struct dwarf_op *ops, size_t nops, const struct dwarf_expr_env *env,
                    const uint64_t *initial, uint64_t *result, const char **error);

/* Name of a DW_OP_* opcode ("DW_OP_breg7"), or NULL if unknown. */
const char *dwarf_op_name(uint8_t opcode);

/*
 * Print OPS as readelf -wf does: "DW_OP_breg7 (rsp): 8; DW_OP_deref".
 * Register names come from dwarf_reg_name().
 */
void dwarf_expr_print(FILE *out, const struct dwarf_op *ops, size_t nops);

/* x86_64 DWARF register name (rax, rdx, ..., r15, rip, xmm0, ...), or NULL. */
const char *dwarf_reg_name(unsigned reg);

#endif
