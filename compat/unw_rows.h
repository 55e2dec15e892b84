/* SPDX-License-Identifier: Apache-2.0 */
/*
 * unw_rows: the step of a frame whose object has no eh_elf — its
 * .eh_frame row, interpreted by the runtime's DWARF fallback
 * (dwarf_fallback.h) and applied whole (every callee-saved register) —
 * with the rows interpreted kept by address, so that the frames of one
 * walk after another (a profiler's, a loop of unw_step) are interpreted
 * once.  libunwind keeps its rows the same way.
 *
 * The rows are kept in a few fixed caches (no allocation), each taken by
 * one step at a time with an atomic flag and never waited for: a step
 * that finds the caches it tries taken (a handler interrupting a step,
 * other threads) interprets the row without one.  A row is used only for
 * the object it was read from, as loaded now (the record dwu_objects_at
 * gives, and its generation: runtime/objects.h), so an object unloaded
 * and another loaded at its address never lends its rows; the rules'
 * expressions point into that object's .eh_frame.  Async-signal-safe.
 */
#ifndef DWUNWIND_COMPAT_UNW_ROWS_H
#define DWUNWIND_COMPAT_UNW_ROWS_H

#include <stdint.h>

#include "runtime/dwunwind.h"
#include "runtime/objects.h"

/* Unwind IN into OUT by the row of O's .eh_frame at PC (a run-time
 * address: the IP, less one after a call).  A dwu_status, as
 * dwu_dwarf_step's. */
int lu_rows_step(const struct dwu_object *o, uint64_t pc, const struct dwu_regs *in, struct dwu_regs *out,
                 const struct dwu_memory *mem);

#endif
