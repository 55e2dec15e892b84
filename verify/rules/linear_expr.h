/* SPDX-License-Identifier: Apache-2.0 */
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
 * on a symbol — gives up, and z3 decides.
 *
 * Pure: no allocation, no z3.  The prover (verify/rules/prover) runs it first on
 * every expression rule and counts what it decides; --prove=all turns the
 * stage off and compares its verdicts with z3's on every rule.
 */
#ifndef DWCHECK_LINEAR_EXPR_H
#define DWCHECK_LINEAR_EXPR_H

#include <stdint.h>

#include "semantics/unwind_table.h"
#include "synth/abstract_state.h"
#include "verify/rules/rule_verdict.h"

/* The prover's first stage: RULE — the CFA rule when IS_CFA, else column
 * REG's — evaluated exactly in ST at RIP.  1 and *V (RULE_HOLDS, or
 * RULE_UNDECIDED when the value is known but what the state says of it is
 * not) when that decides it; 0 when the solver must: the expression leaves
 * the linear fragment, or evaluation refutes it (a refutation is z3's to
 * show with a counterexample). */
int linear_expr_decide(const struct unwind_rule *rule, int is_cfa, unsigned reg, const struct abstract_state *st,
                       uint64_t rip, enum rule_verdict *v);

#endif
