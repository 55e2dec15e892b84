/* SPDX-License-Identifier: Apache-2.0 */
/*
 * prover: DWARF rules proved or refuted with z3 in a synthesised state.
 *
 * Purpose: decide a rule exactly where sampling could not, in two stages.
 * An expression rule in the linear fragment (sums of a symbol and numbers,
 * reads of tracked slots: the PLT's rule, GCC's DRAP rules) is first
 * evaluated exactly over the abstract values (verify/rules/linear_expr); what
 * that proves, or leaves undecided for want of a fact, is the verdict.
 * Everything else, and every refutation (it needs its model), goes to z3.
 * The state at an
 * address becomes 64-bit bit-vector terms: the CFA a variable, ALIGNED the
 * rounding of the CFA the code did (or a variable when the rounding is not
 * known), entry(R) a variable per register, a constant a numeral, rip the
 * address checked, anything the state does not know a fresh variable, each
 * tracked stack slot the term of the value it holds, and other memory an
 * uninterpreted function of the address.  A rule becomes a
 * term too (DWARF expressions op by op; DW_OP_bra on a condition that is
 * not a constant takes both ways, joined by an if-then-else, within
 * bounds), and is compared with the truth: the CFA, or entry(R), or the
 * slot where the code saved entry(R).  Under the assumptions the ABI and
 * the platform give (the CFA is 16-byte aligned, stack addresses lie
 * between 1 MiB and 2^47):
 *   - the rule HOLDS when rule != truth is unsatisfiable;
 *   - it FAILS when it is satisfiable and the rule reads only what the
 *     state knows, or when rule == truth is unsatisfiable (wrong whatever
 *     the unknowns are); the model is the counterexample, checked by
 *     evaluating the rule concretely on it before it is reported;
 *   - otherwise, or when z3 answers unknown or runs out of time, it is
 *     UNDECIDED.
 * What "knows" means follows the fast path (rule_eval): for a CFA or an
 * address, only the CFA, a rounding of it, rip and numbers are known (an
 * entry value may be a stack handed over in a register); for a register's
 * value, entry values are distinct symbols too.
 *
 * Ownership and cost: one prover per audited file, not shared between
 * threads.  It owns its z3 context (recreated every so many queries, so
 * memory stays bounded) and a cache of verdicts keyed by the rule's bytes
 * and the slice of the state the rule reads; each solver call has the
 * timeout given at creation.  This is the only file of the project that
 * includes <z3.h>.
 */
#ifndef DWCHECK_PROVER_H
#define DWCHECK_PROVER_H

#include <stdint.h>

#include "semantics/unwind_table.h"
#include "synth/abstract_state.h"
#include "verify/rules/counterexample.h"
#include "verify/rules/rule_verdict.h"

struct prover;

struct prover_stats {
    unsigned long rules;            /* rules sent to the prover */
    unsigned long linear;           /* of them, decided by exact linear evaluation (no solver call) */
    unsigned long queries;          /* solver calls */
    unsigned long cache_hits;       /* rules answered from the cache */
    unsigned long timeouts;         /* solver calls that ran out of time or answered unknown */
};

/* A prover whose solver calls stop after TIMEOUT_MS; SOLVER_ONLY: without
 * the linear stage (every rule to z3, for --prove=all's comparison).  NULL
 * when out of memory. */
struct prover *prover_new(unsigned timeout_ms, int solver_only);
void prover_free(struct prover *p);
void prover_stats_get(const struct prover *p, struct prover_stats *out);

/* The CFA rule CFA at RIP in ST.  On RULE_FAILS, *CX is filled (present);
 * on RULE_UNDECIDED, *TIMED_OUT says whether z3 gave no answer in time. */
enum rule_verdict prover_cfa(struct prover *p, const struct unwind_rule *cfa, const struct abstract_state *st,
                             uint64_t rip, struct counterexample *cx, int *timed_out);

/* The rule of column REG (a callee-saved register or ABI_RA), likewise. */
enum rule_verdict prover_reg(struct prover *p, const struct unwind_rule *rule, unsigned reg,
                             const struct abstract_state *st, uint64_t rip, struct counterexample *cx,
                             int *timed_out);

#endif
