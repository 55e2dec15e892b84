/* SPDX-License-Identifier: Apache-2.0 */
/*
 * unw_reg_states: the entry points that show a frame's unwind rules rather
 * than apply them — unw_reg_states_iterate (each row of the frame's FDE),
 * unw_apply_reg_state (one of those rows applied to the cursor), and
 * unw_get_save_loc (where a register of the frame was saved) — from the
 * object's .eh_frame, as libunwind reads them.
 *
 * A row handed to the callback is a struct of this module (opaque to the
 * caller, as libunwind's is; its size is given): unw_apply_reg_state takes
 * it, or a copy, back.  Its expressions point into the object's
 * .eh_frame: valid while the object is loaded.
 *
 * unw_get_save_loc: the cursor keeps values, not locations (unw_cursor.h),
 * so the locations libunwind tracks are found by walking again from the
 * cursor's starting context, the same steps, each row's rules applied to
 * the locations (a register saved at CFA+N is in memory there, one the
 * row does not mention stays where it was; the starting context's
 * registers are its gregs, or, for the non-local API, the registers
 * themselves).  The cost grows with the frames stepped.
 *
 * Async-signal-safe, as the walk.
 */
#ifndef DWUNWIND_COMPAT_UNW_REG_STATES_H
#define DWUNWIND_COMPAT_UNW_REG_STATES_H

#include "compat/unw_abi.h"
#include "compat/unw_cursor.h"

/* unw_reg_states_iterate: CB(TOKEN, row, size, start, end) for each row of
 * the FDE of C's frame, in order, until one returns a negative value.
 * The last value CB returned, 0 without rows, or -UNW_ENOINFO. */
int lu_reg_states_iterate(struct lu_cursor *c, unw_reg_states_callback cb, void *token);

/* unw_apply_reg_state: the row DATA (from lu_reg_states_iterate) applied to
 * C's frame: 1, 0 at the outermost frame, or a negated UNW_E* code. */
int lu_reg_states_apply(struct lu_cursor *c, const void *data);

/* unw_get_save_loc: where REG of C's frame is kept (libunwind answers for
 * rbx, rsp, rbp, r12-r15 and rip, "not saved" for the others).  REG_LOCS:
 * the starting context's registers are registers (the non-local API),
 * else memory in the context.  0, or a negated UNW_E* code. */
int lu_reg_save_loc(const struct lu_cursor *c, int reg, unw_save_loc_t *loc, int reg_locs);

#endif
