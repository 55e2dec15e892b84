/* SPDX-License-Identifier: Apache-2.0 */
/*
 * html_report: an offline HTML audit report, one self-contained page.
 *
 * A summary, a bar chart of findings by kind (inline SVG), a table of the
 * files (those that could not be audited, or were skipped, with the reason,
 * in their place), then the findings grouped by kind; each finding shows the code
 * around its address (its excerpt, verify/excerpt.h) with the DWARF row and
 * the synthesised row side by side, one cell per rule, the cells that differ
 * marked.  No script, no external resource.  The page is valid UTF-8
 * whatever the bytes of the file and symbol names it shows (those that are
 * not become U+FFFD, as in the JSON outputs).
 *
 * Reports are collected file by file, then written at once to
 * DIR/index.html through a temporary file, so a failed run never leaves a
 * half-written report over a good one.
 */
#ifndef DWCHECK_HTML_REPORT_H
#define DWCHECK_HTML_REPORT_H

#include <stddef.h>

#include "verify/check.h"

struct html_report;

struct html_report *html_report_new(void);
void html_report_free(struct html_report *h);

/* Keep a copy of PATH's result.  Returns 0, or -1 when out of memory. */
int html_report_add(struct html_report *h, const char *path, const struct check_result *r);

/* PATH could not be audited, for REASON; or was skipped (not ELF).  Returns
 * 0, or -1 when out of memory. */
int html_report_add_error(struct html_report *h, const char *path, const char *reason);
int html_report_add_skipped(struct html_report *h, const char *path, const char *reason);

/* Write DIR/index.html (DIR is created if missing).  Returns 0, or -1 with a
 * reason in ERR. */
int html_report_write(const struct html_report *h, const char *dir, char *err, size_t errlen);

#endif
