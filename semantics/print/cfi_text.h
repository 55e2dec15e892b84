/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cfi_text: the GAS directives that state an unwind row.
 *
 * One function writes the `.cfi_*` directives that turn one row of H into
 * the next, as an assembly author would write them: `.cfi_def_cfa_offset`
 * when only the offset changes, `.cfi_def_cfa_register` when only the
 * register does, `.cfi_offset` for a register saved in the frame,
 * `.cfi_restore` for one back in place, and `.cfi_escape` with the DWARF
 * bytes for expression rules (GAS has no directive for them).  dwsynth's
 * `--format=cfi`, `dwsynth annotate` and the fixes of dwcheck's findings
 * (verify/audit/fix) all print through it: one spelling of CFI in the project.
 *
 * Invariant: applying the written directives, in order, to a DWARF state
 * equal to FROM gives a state equal to TO, for every rule GAS can state.
 * Synthesis's "unknown" cannot be stated: such rules are written as
 * comments and counted, and callers that need exact CFI refuse them first.
 */
#ifndef DWCHECK_CFI_TEXT_H
#define DWCHECK_CFI_TEXT_H

#include <stddef.h>
#include <stdio.h>

#include "semantics/unwind_table.h"

/* How registers are spelt: `%rbx` (AT&T, `.intel_syntax prefix`) or `rbx`
 * (`.intel_syntax noprefix`).  GAS accepts both in CFI directives; the
 * source's own spelling reads best. */
enum cfi_reg_style { CFI_REGS_PERCENT, CFI_REGS_BARE };

/* The row `.cfi_startproc` establishes on x86_64: CFA = rsp+8, the return
 * address at CFA-8, every other column unreferenced. */
void cfi_entry_row(struct unwind_row *row);

/*
 * Write to OUT the directives that turn row FROM into row TO: each line is
 * PREFIX, the directive, then EOL.  Returns the number of rules that could
 * not be stated (unknown), each written as a `# ... unknown here` comment.
 */
size_t cfi_write_transition(FILE *out, const char *prefix, const char *eol,
                            const struct unwind_row *from, const struct unwind_row *to,
                            enum cfi_reg_style style);

#endif
