/* SPDX-License-Identifier: Apache-2.0 */
/*
 * emit_row: the H row an abstract state stands for, written as the compiler
 * would write it.
 *
 * The CFA is rbp-based once a frame pointer is set up (push %rbp; mov
 * %rsp,%rbp) and until rbp is restored (so after `leave` or `pop %rbp` the
 * row is rsp-based again: rsp + 8 at the return); rsp-based otherwise; after
 * a stack realignment (and $-16,%rsp) with no register holding CFA + k, an
 * expression on GCC's DRAP slot.  The return address and each callee-saved
 * register that no longer holds its entry value are described by the slot
 * that holds it (the highest: the prologue's push), or by an expression on
 * the realigned frame's anchor register; one never saved and still holding
 * its entry value is left unreferenced (DWARF's default: the same value),
 * and one whose entry value is lost is unknown.  Other columns are left
 * unreferenced.
 *
 * Pure: no allocation, no global state.  Expression rules point into the
 * caller's struct synth_row_exprs, which must outlive the row (copy them with
 * unwind_table_keep_expr to keep them longer); one buffer per row in use.
 */
#ifndef DWCHECK_EMIT_ROW_H
#define DWCHECK_EMIT_ROW_H

#include <stdint.h>

#include "abstract_state.h"
#include "semantics/unwind_table.h"

/* The longest expression built: DW_OP_breg + SLEB + deref + plus_uconst + SLEB. */
#define SYNTH_EXPR_MAX 24

/* Storage for one row's expression rules: one per column and one for the CFA. */
struct synth_row_exprs {
    uint8_t bytes[UNWIND_COLUMNS + 1][SYNTH_EXPR_MAX];
};

/* Fill ROW (every rule overwritten) with the row for state ST; expression
 * rules point into *EXPRS. */
/* The end of the stack into ROW's CFA and columns: rip undefined (unwinders
 * stop there), every other column unchanged, the CFA rsp+8 only because a
 * row needs one.  Clone's child's row, and the validated table's where
 * synthesis has none. */
void emit_row_stack_end(struct unwind_row *row);

void emit_row_from_state(const struct abstract_state *st, struct unwind_row *row,
                         struct synth_row_exprs *exprs);

#endif
