/* SPDX-License-Identifier: Apache-2.0 */
/*
 * expr_machine: the one stack machine that runs CFI expressions, over any
 * domain of values.
 *
 * The machine owns what every evaluation shares: the stack and its bounds
 * (UNWIND_EXPR_STACK values, an initial value pushed first), the stack
 * operations (dup, drop, over, pick, swap, rot), DW_OP_skip and DW_OP_bra
 * (at most UNWIND_EXPR_BRANCHES taken), DW_OP_stack_value, and the
 * refusals (an operation with no meaning in CFI, a register location, a
 * DW_OP_deref_size other than 1..8, an empty stack at the end).  A domain
 * supplies what a value is and the operations on it: concrete numbers
 * (dwarf_expr_eval: the runtime's fallback), linear forms over the
 * abstract state (verify/rules/linear_expr), z3 terms (verify/rules/prover).
 * dwcompile's C generator (compile/eh_elf_gen) prints code instead of
 * running it; it takes the same classes and the function texts of
 * dwarf_ops.h, and the same limits.
 *
 * A value is DOMAIN->size bytes (at most EXPR_VALUE_MAX), copied by the
 * machine with memcpy: a domain's value type must be plain data.  A
 * domain's operations return 0 or a dwarf_expr_fault (dwarf_ops.h); the
 * machine names the failure (*WHY).  When the condition of a DW_OP_bra is
 * neither zero nor nonzero as far as the domain knows (truth -1), the
 * machine runs both ways, at most the domain's max_forks deep, and asks it
 * to join the two results (join); a domain without join fails there.
 *
 * Pure: no allocation, no I/O; the stack lives on the C stack
 * (UNWIND_EXPR_STACK * EXPR_VALUE_MAX bytes a fork level).
 */
#ifndef DWCHECK_EXPR_MACHINE_H
#define DWCHECK_EXPR_MACHINE_H

#include <stddef.h>
#include <stdint.h>

#include "dwarf_ops.h"

#define EXPR_VALUE_MAX 16         /* bytes of the largest domain's value */

struct expr_domain {
    size_t size;                  /* bytes of one value */
    unsigned max_forks;           /* nested DW_OP_bra run both ways (0: never) */
    /* K into *OUT. */
    int (*constant)(void *ctx, uint64_t k, void *out);
    /* Register REG plus OFFSET into *OUT (DWARF_EXPR_NO_REGISTER: unknown). */
    int (*reg)(void *ctx, unsigned reg, int64_t offset, void *out);
    /* *V replaced by the SIZE bytes (1..8) at *V, zero-extended
     * (DWARF_EXPR_NO_MEMORY: they cannot be read). */
    int (*deref)(void *ctx, void *v, unsigned size);
    /* *V replaced by F(*V). */
    int (*unary)(void *ctx, enum dwarf_unary f, void *v);
    /* *A replaced by *A F *B (DWARF_EXPR_INVALID: a division by zero, or a
     * result the domain cannot hold). */
    int (*binary)(void *ctx, enum dwarf_binary f, void *a, const void *b);
    /* Whether *V is not zero: 1, 0, or -1 when the domain cannot tell. */
    int (*truth)(void *ctx, const void *v);
    /* The value that is *TAKEN when *COND is not zero, else *FALL, into
     * *OUT; NULL when the domain cannot join (such a branch fails). */
    int (*join)(void *ctx, const void *cond, const void *taken, const void *fall, void *out);
    /* Called before each operation run, over all paths; NULL, or nonzero
     * to stop the evaluation (a budget): it fails as DWARF_EXPR_INVALID. */
    int (*step)(void *ctx);
};

/*
 * Run the NOPS operations of OPS (decoded by dwarf_expr_decode) over
 * DOMAIN with CTX, INITIAL (a value, or NULL) pushed first, and store the
 * top of the stack at the end in *RESULT.  Returns 0, or a dwarf_expr_fault
 * with a static reason in *WHY.
 */
int expr_machine_run(const struct expr_domain *domain, void *ctx, const struct dwarf_op *ops, size_t nops,
                     const void *initial, void *result, const char **why);

#endif
