/* SPDX-License-Identifier: Apache-2.0 */
/*
 * text_report: the audit for people, as text lines.
 *
 * A finding's first line is as compilers print a diagnostic, that
 * editors and CI annotators parse: `SOURCE:LINE: severity: kind: message
 * [FILE: func+0xoff, and N more addresses]` where the line table gives the
 * source line, `FILE: func+0xoff: severity: kind: message (and N more
 * addresses)` otherwise; under it, for a column's rule, short indented
 * lines: `  table: ` what the table claims, `  code:  ` what the code does,
 * `  counterexample: ...` under a rule z3 refuted, and `  fix:   ` where to
 * write which directives (one a line, indented more), or `none: ` and why
 * (verify/audit/fix.h); then a line of figures per file; the summary after many files adds what was left
 * unchecked, by reason, and the prover's work.  The same audit as JSON
 * Lines is report/json_report's.
 *
 * Streaming: a file is written finding by finding — each finding, then
 * its end (the line of figures) — so that no rendering needs a file's
 * findings at once (tools/run_report, dwcheck --merge).  What the end
 * counts is passed to it: the findings written, by severity.  Nothing
 * here allocates or keeps anything; names and results are borrowed for
 * the call.
 */
#ifndef DWCHECK_TEXT_REPORT_H
#define DWCHECK_TEXT_REPORT_H

#include <stdio.h>

#include "verify/audit/check.h"

/* PATH's result R at once: its findings, then its figures. */
void text_report_file(FILE *out, const char *path, const struct check_result *r);
/* Finding F of the file PATH: its first line and those under it. */
void text_report_finding(FILE *out, const char *path, const struct finding *f);
/* The end of a file's findings: its figures from R's counts (R's findings
 * are not read) with BY_SEVERITY, the findings written, by enum severity;
 * the disagreements of --prove=all; and with more than one of its NNAMES
 * NAMES, a line `NAMES[0]: also named: N1, N2` (a file reached by several
 * names, tools/inputs, reported once under NAMES[0]). */
void text_report_file_end(FILE *out, const char *const *names, size_t nnames, const struct check_result *r,
                          const size_t by_severity[3]);
/* A fix's lines (`fix:   write PLACE:` and its directives, and `then
 * PLACE, as the table had it:` and the second place's; or `fix:   none:
 * WHY`), each starting with INDENT; nothing for FIX_NONE.  Offsets
 * count from FUNCTION_START; lines in the file of SOURCE (the finding's
 * "file:line") are named `line N`. */
void text_report_fix_lines(FILE *out, const char *indent, const struct finding_fix *fix, uint64_t function_start,
                           const char *source);
/* Where a fix's PLACE is, in words: "after `push rbx` (+0x0, line 24),
 * before line 26", "at +0x5 (where jumps arrive)". */
void text_report_fix_place(char *buf, size_t size, const struct fix_place *place, uint64_t function_start,
                           const char *source);
/* Totals over many files, for the closing summary. */
struct text_report_totals {
    size_t files, files_failed, files_skipped;
    size_t addresses_checked, unchecked;
    size_t sframe_files, sframe_rows_checked, sframe_addresses_checked, sframe_unchecked;
    size_t unchecked_by_reason[UNCHECKED_REASONS];
    size_t by_severity[3];
    size_t by_kind[FINDING_KINDS];
    unsigned long prover_rules, prover_linear, prover_queries, prover_cache_hits, prover_timeouts;
    size_t expression_verdicts[EXPRESSION_KINDS][3];
    int prove_all;
    unsigned long prover_disagreements;
};

/* A file's counts R (a file more; R's findings are not read), and a
 * finding F of it. */
void text_report_totals_add_file(struct text_report_totals *t, const struct check_result *r);
void text_report_totals_add_finding(struct text_report_totals *t, const struct finding *f);
void text_report_summary(FILE *out, const struct text_report_totals *t);

#endif
