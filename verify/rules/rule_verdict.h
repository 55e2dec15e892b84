/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rule_verdict: what is decided of a rule in a state: it holds, fails (the
 * state proves it wrong), or cannot be decided (it reads what the state
 * does not know).  Types only: the deciders verify/rules/rule_eval dispatches to
 * (slot_truth, linear_expr, prover) answer in it without reading
 * rule_eval.h, which reads them.
 */
#ifndef DWCHECK_RULE_VERDICT_H
#define DWCHECK_RULE_VERDICT_H

enum rule_verdict { RULE_HOLDS, RULE_FAILS, RULE_UNDECIDED };

#endif
