/* SPDX-License-Identifier: Apache-2.0 */
/*
 * run_html: what `dwcheck --run` found, as an offline HTML page
 * (`--html=DIR` with --run: DIR/index.html), in report/html_report's style.
 *
 * In order: a summary (the program and its arguments, its exit status, the
 * steps taken, checked, held, the addresses refuted, the static audit's
 * files and time); the objects the static audit could not audit, with the
 * reason; the refutations, one a part (id "r-N", from 1): where, the kind,
 * the message, the witness (thread, rip, the registers the rule read, what
 * it gave, the truth, which execution), the static audit's verdict there
 * (an internal error of dwcheck marked as such); then, per function, the
 * addresses the static audit left undecided (or did not judge) that ran
 * and held, and those whose row it finds wrong that ran and held.  Every
 * name from the input goes through report/html_text.  Words are
 * report/run_words's.  Written through a temporary file renamed into
 * place (sys/output_file), as html_report does.
 */
#ifndef DWCHECK_RUN_HTML_H
#define DWCHECK_RUN_HTML_H

#include <stddef.h>

#include "execute/run_result.h"

/* Write R, the run of ARGV, to DIR/index.html (DIR created if missing).
 * Returns 0, or -1 with a reason in ERR. */
int run_html_write(const struct run_result *r, char *const *argv, const char *dir, char *err, size_t errlen);

#endif
