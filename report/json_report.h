/* SPDX-License-Identifier: Apache-2.0 */
/*
 * json_report: the audit for machines, as JSON Lines.
 *
 * One object per file on one line,
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
 * (report/json_string).  The same audit as text is report/text_report's.
 *
 * Streaming: a file is written finding by finding — its start (the
 * counts, up to the findings), each finding, then its end (the names and
 * the newline) — so that no rendering needs a file's findings at once
 * (tools/run_report, dwcheck --merge).  Nothing here allocates or keeps
 * anything; names and results are borrowed for the call.
 */
#ifndef DWCHECK_JSON_REPORT_H
#define DWCHECK_JSON_REPORT_H

#include <stdio.h>

#include "verify/audit/check.h"

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

#endif
