/* SPDX-License-Identifier: Apache-2.0 */
/*
 * own_cfa: rows that define a CFA of their own and give the caller's stack
 * pointer by a rule of its own.
 *
 * Purpose: DWARF lets a table pick any value as "the CFA" as long as every
 * rule, and the stack pointer's own rule, come out right from it.  GHC's
 * StgRun does so: CFA = rsp+0, the saves at CFA+16384 ..., and rsp's rule
 * val_expression(rsp+16440), the caller's rsp.  An unwinder restores the
 * caller's frame exactly; checking the row against the canonical CFA (the
 * caller's rsp) would call every rule wrong.  Such a row is rewritten into
 * the canonical one it amounts to: when its CFA is the canonical CFA plus
 * a known DELTA and rsp's rule gives the canonical CFA, the CFA rule moves
 * by -DELTA and each offset(N) / val_offset(N) becomes N + DELTA.
 *
 * Pure: no allocation.
 */
#ifndef DWCHECK_OWN_CFA_H
#define DWCHECK_OWN_CFA_H

#include "semantics/unwind_table.h"
#include "synth/abstract_state.h"

/* ROW, when it names rsp's rule and its CFA is not the canonical one, as
 * the canonical row into *OUT: 1.  0 when ROW is canonical or not of that
 * shape (check it as it is); -1 when rsp's rule does not give the
 * canonical CFA either (the row is wrong: check it as it is). */
int own_cfa_canonical(const struct unwind_row *row, const struct abstract_state *st, struct unwind_row *out);

#endif
