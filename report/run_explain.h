/* SPDX-License-Identifier: Apache-2.0 */
/*
 * run_explain: the run's verdict at one address, for `dwcheck --run
 * --explain=[OBJECT:]ADDR`, printed after the static explanation of the
 * same address (report/explain_report).
 *
 *   the run at 0x1145 of FILE: executed N times in a known frame: H held, R refuted
 *     refuted: KIND: message (the text report's)
 *     witness: thread T, rip 0x..., read REG=0x...; execution E of N
 *     static audit: ... (report/run_words)
 *
 * or, for an address the run did not check: `the run at 0x... of FILE: not
 * checked (never executed in a frame the shadow stack knows)`.
 */
#ifndef DWCHECK_RUN_EXPLAIN_H
#define DWCHECK_RUN_EXPLAIN_H

#include <stdint.h>
#include <stdio.h>

#include "execute/run_result.h"

/* The run R's verdict at file address ADDR of object OBJECT, on OUT. */
void run_explain_print(FILE *out, const struct run_result *r, uint32_t object, uint64_t addr);

/* The index of the object NAME (LEN bytes) names in R: its path, or its
 * base name; -1 when none, -2 when several have that base name. */
int run_explain_object(const struct run_result *r, const char *name, size_t len);

#endif
