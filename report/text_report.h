/* SPDX-License-Identifier: Apache-2.0 */
/*
 * text_report: the audit for people and for machines, as text and JSON Lines.
 *
 * Text: a finding's first line is as compilers print a diagnostic, that
 * editors and CI annotators parse: `SOURCE:LINE: severity: kind: message
 * [FILE: func+0xoff, and N more addresses]` where the line table gives the
 * source line, `FILE: func+0xoff: severity: kind: message (and N more
 * addresses)` otherwise; under it, for a column's rule, short indented
 * lines: `  table: ` what the table claims, `  code:  ` what the code does,
 * `  counterexample: ...` under a rule z3 refuted, and `  fix:   ` where to
 * write which directives (one a line, indented more), or `none: ` and why
 * (verify/audit/fix.h); then a line of figures per file; the summary after many files adds what was left
 * unchecked, by reason, and the prover's work.  JSON: one object per file on one line,
 * {file, fdes, rows_checked, addresses_checked, unchecked, unchecked_reasons
 * (keyed by the reasons' ids, verify/audit/finding.h), [sframe: {version, fdes,
 * rows_checked, addresses_checked, unchecked, addresses_outermost,
 * fdes_missing}: only for a file with a .sframe section; the text line then
 * adds "SFrame V1: ..."], prover: {rules, linear,
 * queries, cache_hits, timeouts[, disagreements, first_disagreement]}, findings:
 * [... {..., message, [claim,] [code,] [fix: {directives: [...], address,
 * where, [source,] [after: {insn, address, where, [source]},] [then: {the
 * same members}]} or {none: why},] [counterexample: {what, cfa, registers, memory, rule, code[,
 * column]},] [column,] [insn_index,] function_start}][, names: [the file's
 * names, the first its "file": only for a file reached by several names]]}
 * — what report/json_record reads back for dwcheck --merge;
 * a file that could not be audited is {file, error} and one skipped (not
 * ELF) is {file, skipped}, in the file's place, so that every file named
 * has its line.  Every line is valid UTF-8 JSON whatever the path's bytes
 * (report/json_string).
 *
 * Streaming: a file is written finding by finding — its start (JSON: the
 * counts, up to the findings), each finding, then its end (text: the line
 * of figures; JSON: the names and the newline) — so that no rendering
 * needs a file's findings at once (tools/run_report, dwcheck --merge).
 * What the end counts is passed to it: the findings written, by severity.
 * Nothing here allocates or keeps anything; names and results are borrowed
 * for the call.
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
/* F's "fix" member, with its leading comma (F's fix not FIX_NONE). */
void json_report_fix(FILE *out, const struct finding *f);
/* F's "claim", "code" and "fix" members, each with its leading comma,
 * those F has. */
void json_report_words(FILE *out, const struct finding *f);
/* PATH's result R at once: its line. */
void json_report_file(FILE *out, const char *path, const struct check_result *r);
/* A file's line up to its findings: PATH and R's counts (R's findings are
 * not read), then `"findings":[`. */
void json_report_file_begin(FILE *out, const char *path, const struct check_result *r);
/* Finding F, after a comma unless FIRST. */
void json_report_finding(FILE *out, const struct finding *f, int first);
/* The line's end: `]`, with more than one of its NNAMES NAMES a last field
 * "names":[NAMES[0], N1, N2] (a file reached by several names, reported
 * once under NAMES[0]), then `}` and the newline. */
void json_report_file_end(FILE *out, const char *const *names, size_t nnames);
/* {"file":PATH,"error":REASON}: PATH could not be audited. */
void json_report_error(FILE *out, const char *path, const char *reason);
/* {"file":PATH,"skipped":REASON}: PATH is not ELF. */
void json_report_skipped(FILE *out, const char *path, const char *reason);

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
