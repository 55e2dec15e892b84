/*
 * linear_expr: a DWARF expression evaluated exactly over the abstract
 * values of a state, when every operation stays linear.
 *
 * Purpose: most expression rules a file holds are the linkers' PLT rule
 * (rsp+8, plus 8 past the stub's push, by rip's low bits) and GCC's DRAP
 * rules (the CFA read back from the slot rbp points at): over the state's
 * symbols they compute CFA + k, ALIGNED + k or entry(R) + k by additions
 * of numbers, arithmetic on numbers alone, and reads of tracked slots.
 * Evaluating them so is a proof, not a sample: the value is that symbol
 * plus k on every stack.  Anything else — a non-linear operation on a
 * symbol, an untracked slot, a read in a frame named two ways, a branch
 * on a symbol — gives up, and the rule goes to the prover (verify/prover).
 *
 * Pure: no allocation, no z3; the verdicts built on it are the prover's
 * (rule_eval), and --prove=all compares them with z3's.
 */
#ifndef DWCHECK_LINEAR_EXPR_H
#define DWCHECK_LINEAR_EXPR_H

#include <stdint.h>

#include "semantics/unwind_table.h"
#include "synth/abstract_state.h"

/* The value of RULE's expression in ST at RIP (PUSH_CFA: the CFA pushed
 * first, as for DW_CFA_expression): 0 and *OUT an absval (AV_CFA,
 * AV_ALIGNED, AV_ENTRY or AV_CONST, plus its offset), or -1. */
int linear_expr_eval(const struct unwind_rule *rule, const struct abs_state *st, uint64_t rip, int push_cfa,
                     struct absval *out);

/* The names of PLACE (CFA + k or ALIGNED + k) in the two frames: both
 * when the realigned frame is a fixed offset from the CFA's (a rounding to
 * 16 bytes or less), else its own. */
void linear_expr_place(const struct abs_state *st, struct absval place, int *at_cfa, int64_t *k_cfa,
                       int *at_aligned, int64_t *k_aligned);

#endif
