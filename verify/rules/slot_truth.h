/* SPDX-License-Identifier: Apache-2.0 */
/*
 * slot_truth: what a synthesised state says is true of a callee-saved
 * register's value, for the rules that name it.
 *
 * A register rule is right when it gives entry(R), R's value when the
 * function was entered.  A value is entry(R) or not (unknown: undecided);
 * a stack slot holds entry(R), holds something else, or is untracked — and
 * an untracked slot is still decided when it cannot hold the save (below
 * the stack pointer, in the caller's frame, or the save is known to be
 * elsewhere).  Shared by the fast path (rule_eval) and the prover, which
 * computes where an expression rule's address lies and asks here what is
 * there.
 */
#ifndef DWCHECK_SLOT_TRUTH_H
#define DWCHECK_SLOT_TRUTH_H

#include "synth/abstract_state.h"
#include "verify/rules/rule_verdict.h"

/* Is V entry(REG)?  Unknown values are undecided. */
enum rule_verdict slot_truth_holds_entry(struct abstract_value v, unsigned reg);

/* Is entry(REG) in the slot at BASE + OFF (BASE AV_CFA or AV_ALIGNED)? */
enum rule_verdict slot_holds_entry(const struct abstract_state *st, uint8_t base, int64_t off, unsigned reg);

/* Is entry(REG) at a place named in the CFA's frame (AT_CFA: CFA + K_CFA)
 * and/or the realigned frame (AT_ALIGNED: ALIGNED + K_ALIGNED)?  Named in
 * both (a realignment that is a fixed offset), the frame that tracks the
 * word decides; two that track it must agree (one may be stale). */
enum rule_verdict slot_truth_place_holds_entry(const struct abstract_state *st, int at_cfa, int64_t k_cfa,
                                               int at_aligned, int64_t k_aligned, unsigned reg);

#endif
