/* SPDX-License-Identifier: Apache-2.0 */
/*
 * run_sarif: what `dwcheck --run` found, as SARIF 2.1.0, in
 * report/sarif_report's document: the same tool, rules (one per finding
 * kind) and notifications.
 *
 * One result per refuted address, of its kind (cfa-mismatch, ra-mismatch,
 * reg-mismatch), level error, its message the text report's first line
 * with the witness and the static audit's verdict on lines of their own;
 * located at the binary and the address (physicalLocation.address), the
 * function and the binary as logical locations, as sarif_report does.  Its
 * partial fingerprint "dwcheckRunFindingIdentity/v1" is a hash of the
 * kind, the binary's base name, the column and the place (func+0xoff): the
 * same refutation in two runs has the same one.  Its properties: address,
 * function_start, dwarf (the rule), column, executions, held, refuted,
 * static (execute/static_join's verdict id), confirmed, and witness
 * {thread, rip, registers {NAME: value}, gave (absent when unreadable),
 * truth, execution}, as the JSON report's.
 *
 * Objects static_join could not audit are notifications of level error
 * ("FILE: reason"), and so is a refutation of a proved rule (dwcheck's
 * internal error): executionSuccessful is then false.  The run's figures
 * (steps, held executions, the addresses decided by the run) are the text
 * and JSON reports'; SARIF carries findings.
 */
#ifndef DWCHECK_RUN_SARIF_H
#define DWCHECK_RUN_SARIF_H

#include <stdio.h>

#include "execute/run_result.h"

/* R as one SARIF document on OUT (one line), tool version VERSION.
 * Returns the number of addresses refuted. */
size_t run_sarif(FILE *out, const struct run_result *r, const char *version);

#endif
