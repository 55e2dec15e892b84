/* SPDX-License-Identifier: Apache-2.0 */
/*
 * execution_report: what `dwcheck --run` found, as text and as JSON.
 *
 * A dynamic refutation is a finding per address, of the audit's kinds
 * (cfa-mismatch, ra-mismatch, reg-mismatch: verify/audit/finding), with its
 * witness: the thread, the rip, the registers the rule read, what the rule
 * gave, the true value, and which execution of the address it was (the
 * first of N, and how many held), and the static audit's verdict there
 * (execute/static_join).  Text: `FILE: func+0xoff: error: KIND: message
 * (held H of N executions)` then indented `witness:` and `static audit:`
 * lines; then, per function, `FILE: func: note: N addresses the static
 * audit left undecided ran and held (M executions)` (undecided or not
 * judged: the run decides them) and `... addresses whose row the static
 * audit finds wrong ran and held ...`; `FILE: not audited: reason` for an
 * object static_join could not audit; then one line of figures: the
 * program's exit status, the steps taken, per second, checked, why the
 * others were not, and the static audit's files and seconds.  JSON: one
 * object on one line, {run, argv, exit_status, signal, steps, seconds,
 * steps_per_second, steps_checked, steps_no_truth, steps_no_table,
 * steps_rule_unchecked, addresses_checked, executions_held, threads,
 * forks_detached, execs, max_steps_reached, files_audited, audit_seconds,
 * not_audited: [{file, reason}], decided_by_run and static_errors_held:
 * [{file, function, address, function_start, static, dynamic: {verdict:
 * "held", executions}}], findings: [{kind, severity, file, function,
 * address, function_start, dwarf, column, message, executions, held,
 * refuted, static, confirmed, witness: {thread, rip, registers: {NAME:
 * value}, gave (absent when unreadable), truth, execution}}]}.  Words and
 * function names are report/run_words's.
 */
#ifndef DWCHECK_EXECUTION_REPORT_H
#define DWCHECK_EXECUTION_REPORT_H

#include <stdio.h>

#include "execute/run_result.h"

/* R as text (JSON when JSON) on OUT, for the program ARGV.  Returns the
 * number of addresses refuted. */
size_t execution_report(FILE *out, const struct run_result *r, char *const *argv, int json);

#endif
