/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fde_coverage: how the table covers the code, apart from what its rows say.
 *
 * Purpose: an unwinder needs an FDE at every instruction a stack can stand
 * on, and FDEs only there.  Findings here: FDEs whose range is not code of
 * the file or wraps (FDE_NO_CODE, MALFORMED_CFI), two FDEs over one
 * address (FDE_OVERLAP), programs that do not decode (MALFORMED_CFI), and
 * code without an FDE (FDE_GAP): a symbol's function that no FDE starts,
 * or code inside a symbol that its FDEs stop short of and that the code
 * runs into (a .cfi_endproc before the function's end; padding, and bytes
 * nothing runs into such as perlasm's strings, are no code).
 *
 * Findings go to a callback, one message each; verify/audit/check turns them
 * into findings of the current function.
 */
#ifndef DWCHECK_FDE_COVERAGE_H
#define DWCHECK_FDE_COVERAGE_H

#include <stdint.h>

#include "object/elf_file.h"
#include "semantics/fde_lookup.h"
#include "synth/program.h"
#include "verify/audit/finding.h"

typedef void (*coverage_fn)(void *arg, enum finding_kind kind, uint64_t addr, const char *message);

/* Whole-table findings of DW (the FDEs of EF), in order. */
void fde_coverage_table(struct fde_lookup *dw, struct elf_file *ef, coverage_fn fn, void *arg);

/* F, a function from symbols alone: the first of its addresses no FDE covers. */
void fde_coverage_function(struct fde_lookup *dw, const struct function_range *f, coverage_fn fn, void *arg);

/* Code inside P's symbols that their FDEs stop short of. */
void fde_coverage_tails(const struct synth_program *p, struct fde_lookup *dw, coverage_fn fn, void *arg);

#endif
