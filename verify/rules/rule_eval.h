/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rule_eval: a DWARF rule decided in a synthesised abstract state.
 *
 * The semantics of a check (docs/architecture.md, "The audit"): a row is
 * right at an address when each rule, evaluated in the state synthesis
 * computed there, yields the true value — the CFA rule the CFA, the return
 * address's rule entry(RA), a callee-saved register's rule entry(R).  A
 * verdict is three-valued: the rule holds, fails (the state proves it
 * wrong), or cannot be decided (it reads something the state does not
 * know).  `undefined` always holds: it is imprecise, never wrong.
 *
 * Two deciders, one answer.  Rules of the forms compilers write (CFA =
 * reg+offset, offset(N), same_value, register(R) ...) have an exact fast
 * path over the abstract values.  Every DWARF expression rule goes to the
 * prover (verify/rules/prover: exact linear evaluation, then z3), which proves it
 * or refutes it with a counterexample — sampling a few stacks never
 * concludes that a rule holds.  With prove_all, every rule goes to z3 (the
 * prover without its linear stage), and where the fast path or the linear
 * stage would have answered differently the judge counts a disagreement
 * (tests require none).
 */
#ifndef DWCHECK_RULE_EVAL_H
#define DWCHECK_RULE_EVAL_H

#include <stdint.h>

#include "semantics/unwind_table.h"
#include "synth/abstract_state.h"
#include "verify/rules/counterexample.h"
#include "verify/rules/rule_verdict.h"

struct prover;

/* Who decides, and what the comparison of the two deciders found. */
struct rule_judge {
    struct prover *prover;          /* NULL: expression rules are undecided; with
                                     * prove_all, made solver_only */
    int prove_all;                  /* every rule through the prover */
    unsigned long disagreements;    /* prove_all: rules the fast path decides otherwise */
    char first_disagreement[160];   /* the first of them, for people */
};

/* A verdict with what explains it. */
struct rule_answer {
    enum rule_verdict verdict;
    int timed_out;                  /* UNDECIDED because the prover ran out of time */
    struct counterexample cx;       /* FAILS by the prover: the values that show it */
};

/* The CFA rule at address RIP, in state ST. */
enum rule_verdict rule_eval_cfa(struct rule_judge *j, const struct unwind_rule *cfa, const struct abstract_state *st,
                                uint64_t rip, struct rule_answer *answer);

/* The rule of column REG (a callee-saved register or ABI_RA) at RIP, in ST. */
enum rule_verdict rule_eval_reg(struct rule_judge *j, const struct unwind_rule *rule, unsigned reg,
                                const struct abstract_state *st, uint64_t rip, struct rule_answer *answer);

#endif
