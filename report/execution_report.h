/* SPDX-License-Identifier: Apache-2.0 */
/*
 * execution_report: what `dwcheck --run` found, as text and as JSON.
 *
 * A dynamic refutation is a finding per address, of the audit's kinds
 * (cfa-mismatch, ra-mismatch, reg-mismatch: verify/audit/finding), with its
 * witness: the thread, the rip, the registers the rule read, what the rule
 * gave, the true value, and which execution of the address it was (the
 * first of N, and how many held).  Text: `FILE: func+0xoff: error: KIND:
 * message (held H of N executions)` then an indented `witness:` line;
 * then one line of figures: the program's exit status, the steps taken,
 * per second, checked, and why the others were not.  JSON: one object on
 * one line, {run, argv, exit_status, signal, steps, seconds,
 * steps_per_second, steps_checked, steps_no_truth, steps_no_table,
 * steps_rule_unchecked, addresses_checked, executions_held, threads,
 * forks_detached, execs, max_steps_reached, findings: [{kind, severity,
 * file, function, address, function_start, dwarf, column, message,
 * executions, held, refuted, witness: {thread, rip, registers: {NAME:
 * value}, gave (absent when unreadable), truth, execution}}]}.  Function
 * names come from the objects' symbols, read again here.
 */
#ifndef DWCHECK_EXECUTION_REPORT_H
#define DWCHECK_EXECUTION_REPORT_H

#include <stdio.h>

#include "execute/run_result.h"

/* R as text (JSON when JSON) on OUT, for the program ARGV.  Returns the
 * number of addresses refuted. */
size_t execution_report(FILE *out, const struct run_result *r, char *const *argv, int json);

#endif
