/* SPDX-License-Identifier: Apache-2.0 */
/*
 * emit_table: the unwind table of one function, from the states the
 * dataflow left at its blocks.
 *
 * Every instruction, in address order, gets the row of the state before it
 * (emit_row.h), merged with the row before when the rules are equal.  A
 * block no path reaches gets unknown rules, except alignment padding and
 * the trap after a call that does not return, which carry the row of the
 * code around them as compilers' tables do; a block reached only by a
 * guess is observed as SYNTH_GUESSED.  Within a block, an instruction that
 * cannot change the row (it writes no frame register and no frame address)
 * extends the last row without building it again.
 *
 * Ownership: the rows and their expressions are T's (unwind_table_keep_expr
 * copies each expression out of the row builder's buffer); the cfg is
 * borrowed and only read.
 */
#ifndef DWCHECK_EMIT_TABLE_H
#define DWCHECK_EMIT_TABLE_H

#include <stddef.h>

#include "cfg.h"
#include "request.h"
#include "semantics/unwind_table.h"

struct function_range;

/* Append the rows of G's function to T (initialised by the caller; NULL:
 * observe only), OBSERVE (may be NULL) seeing every instruction's state;
 * *UNREACHED grows by the instructions no path reaches.  Returns 0, or -1
 * when memory ran out (T is then incomplete). */
int emit_table(const struct cfg *g, struct unwind_table *t, synth_insn_fn observe, void *arg,
               size_t *unreached);

/* T (initialised here) := one row over F where every rule is unknown. */
void emit_unknown_table(struct unwind_table *t, const struct function_range *f);

#endif
