/* SPDX-License-Identifier: Apache-2.0 */
/*
 * no_unwind: a binary with no unwind table at all, as a finding.
 *
 * A file without .eh_frame (Go programs, code built with
 * -fno-asynchronous-unwind-tables -fno-unwind-tables, a table stripped
 * away) has nothing for the rule-by-rule audit to check, but that absence
 * is itself what an audit must report: libgcc, libunwind, perf's and gdb's
 * unwinders (and C++ exceptions) cannot walk through its frames, except by
 * frame pointers where there are any.  It becomes one finding,
 * no-unwind-table, a warning (verify/audit/finding.c): the table is not wrong, as
 * an error's is, but missing, which a build may choose (Go unwinds its own
 * stacks) — so a default --fail-on=error run passes it and
 * --fail-on=warning does not.  Its message says whether the file has a
 * .debug_frame (debuggers read it; runtime unwinders do not) or a .sframe.
 *
 * The question is asked of the section headers alone, before synthesis
 * (which would be wasted on a file with nothing to compare it with).
 */
#ifndef DWCHECK_NO_UNWIND_H
#define DWCHECK_NO_UNWIND_H

#include <stddef.h>

#include "object/elf_file.h"
#include "verify/audit/check_result.h"

/*
 * If EF has no .eh_frame section (none, or SHT_NOBITS), fill R (zeroed
 * here) with the one no-unwind-table finding and return 1; else return 0,
 * R untouched.  -1 out of memory.
 */
int no_unwind_table(struct elf_file *ef, struct check_result *r);

#endif
