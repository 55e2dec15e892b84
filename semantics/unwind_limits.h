/* SPDX-License-Identifier: Apache-2.0 */
/*
 * unwind_limits: the bounds every reader and evaluator of CFI applies.
 *
 * The analysis (semantics/cfi_eval, verify/), the runtime's DWARF fallback
 * (runtime/dwarf_fallback) and the C that dwcompile generates
 * (compile/eh_elf_gen) all evaluate the same tables; they take their bounds
 * from here, so that a table that one of them accepts the others accept too,
 * and a rule one of them refuses the others refuse with the same status.
 *
 * Invariants: every bound is a plain integer constant (the generated C
 * receives them as numbers); UNWIND_EXPR_MAX_OPS and UNWIND_EXPR_STACK fit
 * the arrays the runtime keeps on its stack (24 and 8 bytes a slot).
 */
#ifndef DWCHECK_UNWIND_LIMITS_H
#define DWCHECK_UNWIND_LIMITS_H

/* DW_CFA_remember_state nesting: a deeper remember_state makes the CFA
 * program malformed. */
#define UNWIND_REMEMBER_DEPTH 64

/* Operations in one DWARF expression (an expression of N bytes has at most
 * N): a longer one is not evaluated (a rule that cannot be applied), and
 * dwcompile refuses to compile it. */
#define UNWIND_EXPR_MAX_OPS 256

/* Values on an expression's stack, the CFA pushed first included. */
#define UNWIND_EXPR_STACK 64

/* Branches (DW_OP_skip, and DW_OP_bra when taken) one evaluation may take:
 * the next one makes the expression fail as one that does not terminate. */
#define UNWIND_EXPR_BRANCHES 10000

#endif
