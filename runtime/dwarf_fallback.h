/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dwarf_fallback: unwind one frame by interpreting the object's .eh_frame,
 * for objects that have no eh_elf.
 *
 * .eh_frame_hdr's search table finds the FDE, and its CIE and FDE are
 * parsed, by semantics/eh_frame_parse, the parser the tools read every table
 * with; the pure CFA-program evaluator of semantics/ computes the row at the
 * PC, whose rules are then applied as the compiled tables apply them
 * (column_policy.h).  Nothing outside the segment that holds .eh_frame_hdr
 * is read.
 * The bounds are the analysis's and the compiled tables' (remember_state
 * nesting, expression length, stack and branches: semantics/unwind_limits.h),
 * and a rule that cannot be applied gets the status an eh_elf returns for it,
 * so that an object unwinds the same with or without its eh_elf.  Nothing is
 * allocated: the remembered states (cfi_saved_row) and the decoded
 * expression live on the stack of the call.
 */
#ifndef DWUNWIND_DWARF_FALLBACK_H
#define DWUNWIND_DWARF_FALLBACK_H

#include "objects.h"

#include "semantics/cfa_program.h"
#include "semantics/eh_frame_parse.h"
#include "semantics/unwind_table.h"

/* Unwind IN into OUT by one row's rules: CFA_RULE, and COL (at least the 17
 * columns of an x86_64 frame); SIGNAL_FRAME when the row's CIE has "S".
 * Returns DWU_OK, DWU_END (the return address is undefined) or an error.
 * The interpreter that the compiled tables must agree with. */
int dwu_dwarf_apply_rules(const struct unwind_rule *cfa_rule, const struct unwind_rule *col, int signal_frame,
                          const struct dwu_regs *in, struct dwu_regs *out, const struct dwu_memory *mem);

/* The row of OBJ's .eh_frame that covers LOOKUP_PC (its CFA rule and first
 * UNWIND_COLUMNS columns); *SIGNAL says the FDE's CIE has the S
 * augmentation.  Returns 0 or a dwu_status. */
int dwu_dwarf_row(const struct dwu_object *obj, uint64_t lookup_pc, struct cfi_state *row, int *signal);

/* The row of FDE (of CIE, both parsed by semantics/eh_frame_parse, their
 * instructions in memory the caller keeps readable) that covers PC (an
 * address the FDE's pc_begin speaks of).  0 or DWU_EBADRULE.  What
 * dwu_dwarf_row does once it has found the FDE; the drop-in's frames
 * registered at run time (compat/registered_frames) come here too. */
int dwu_dwarf_fde_row(const struct eh_frame_cie *cie, const struct eh_frame_fde *fde, uint64_t pc,
                      struct cfi_state *row);

/* Unwind IN (LOOKUP_PC is the run-time PC whose row applies) into OUT. */
int dwu_dwarf_step(const struct dwu_object *obj, uint64_t lookup_pc, const struct dwu_regs *in,
                   struct dwu_regs *out, const struct dwu_memory *mem);

/* The row at LOOKUP_PC as a frame descriptor (frame_descriptor.h), or 0
 * when it is not simple or no row covers it: what dwu_backtrace keeps of
 * an object without an eh_elf. */
uint64_t dwu_dwarf_descriptor(const struct dwu_object *obj, uint64_t lookup_pc);

#endif
