/* SPDX-License-Identifier: Apache-2.0 */
/*
 * explain_report: an explanation (verify/audit/explain) as text, for
 * `dwcheck --explain=ADDR FILE`.
 *
 * The function and source line; the FDE; the code around the address, one
 * instruction a line with the DWARF row and the synthesised row side by
 * side (CFA rbx rbp r12 r13 r14 r15 ra), a cell that differs marked `*`,
 * the address itself marked `>`; then each rule of the DWARF row there:
 * its verdict, what synthesis has, and why, with z3's counterexample under
 * a refuted rule, and under a rule that fails what the code does and the
 * fix (`fix:   write after ...:` and the directives, or `fix:   none: ...`),
 * as the finding's text prints them (report/text_report).
 */
#ifndef DWCHECK_EXPLAIN_REPORT_H
#define DWCHECK_EXPLAIN_REPORT_H

#include <stdio.h>

#include "verify/audit/explain.h"

void explain_report_print(FILE *out, const char *path, const struct explanation *x);

#endif
