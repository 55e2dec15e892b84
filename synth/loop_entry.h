/* SPDX-License-Identifier: Apache-2.0 */
/*
 * loop_entry: the state on entry to a loop, at its head.
 *
 * The fixpoint joins every turn of a loop at its head, so a register the
 * loop moves (rsp in GCC's stack-clash probe loop: `sub $0x1000,%rsp` each
 * turn until it reaches r11) is unknown there, and a rule about it cannot be
 * judged.  But on the first turn the head holds the state the loop is
 * entered with: the join of what the blocks outside the loop hand it along
 * their edges.  A rule that state refutes is wrong on the first turn.
 *
 * A block is a loop's head when it reaches itself along the function's
 * direct edges (dataflow_direct_edges); its entering edges are those from
 * blocks it does not reach, but for the way on after a call, directly or
 * through padding (it may be a call that never returns, unknown to
 * synthesis: a path that is none).  Functions with an indirect jump or a call a
 * landing pad catches have edges that list does not show: no entry state
 * is given for them, nor for the function's first block or one reached only
 * from another fragment or by a guess.
 *
 * Ownership: nothing is kept; the cfg (after the fixpoint) is borrowed.
 */
#ifndef DWCHECK_LOOP_ENTRY_H
#define DWCHECK_LOOP_ENTRY_H

#include <stddef.h>

#include "abstract_state.h"
#include "cfg.h"

/* When instruction I of G is the first of a loop's head whose entry state
 * knows a register that the head's joined state does not: 1 with that
 * state in *OUT.  Else 0 (also when out of memory). */
int loop_entry_state(const struct cfg *g, size_t i, struct abstract_state *out);

#endif
