/* SPDX-License-Identifier: Apache-2.0 */
/*
 * html_report: an offline HTML audit report, one self-contained page.
 *
 * In order: a summary; a legend (severities, the chart's colours, the rule
 * notation of the rows, the marks of a window); a bar chart of findings by
 * kind (inline SVG); the table of files (those that could not be audited,
 * or were skipped, with the reason, in their place); each kind of finding
 * present explained once — what it means, why it matters, how to fix it,
 * verify/audit/finding's texts — with links to its findings; then a section per
 * file with findings: the list of its findings, and each finding's detail,
 * as `dwcheck --explain` shows an address: the table's rule it names with
 * synthesis's and the verdict, the counterexample, the fix, its window
 * (report/html_window: the instructions around it with the DWARF row and
 * the synthesised row side by side, the cells that differ starred, its
 * instruction marked), and the --explain command that says more.
 *
 * Links.  Every part has a stable id, unique in the page: "kind-NAME" for a
 * kind (NAME its kebab-case name), "file-N" for the N-th file (from 1, in
 * the order files were added), "f-N-M" for its M-th finding; the chart's
 * bars lead to their kinds, the table of files to the files' sections, a
 * file's list to the details.  Ids are built from numbers and our own
 * names only: nothing from the input goes into an attribute but escaped
 * (report/html_text), so any byte of a path stays text.  No script, no
 * external resource; `:target` highlights the part a link leads to.  The
 * page is valid UTF-8 whatever the bytes of the names it shows.
 *
 * Size: a finding takes some 2.5 KB of the page with its window (an audit
 * gathers windows for a file's first findings only), 1 KB without: the
 * audit of a Debian system's libraries (900 findings) makes a page of
 * 2.6 MB, of its programs and libraries (4,200 findings, 2,700 files)
 * 7 MB, written in a fraction of a second.
 *
 * Reports are collected file by file and finding by finding, then written
 * at once to DIR/index.html through a temporary file, so a failed run never
 * leaves a half-written report over a good one.
 *
 * Memory: the page needs every finding at the end (the chart, the kinds
 * explained, the links), so each is kept, compactly: about 1.1 KB (a
 * fifth of a struct finding), its fix as text, and its window when it has
 * one (3 KB).  This grows with the findings taken, not with the largest
 * file: dwcheck --merge otherwise holds one finding at a time (tools/merge.h).
 *
 * Ownership: the report owns its copies of names, reasons and findings;
 * html_report_free frees them.
 */
#ifndef DWCHECK_HTML_REPORT_H
#define DWCHECK_HTML_REPORT_H

#include <stddef.h>

#include "verify/audit/check.h"

struct html_report;

struct html_report *html_report_new(void);

/* The page's style sheet (CSS), which report/run_html's page shares. */
extern const char html_report_style[];
void html_report_free(struct html_report *h);

/* The results come back from JSON Lines (dwcheck --merge): findings have no
 * window, and the page says why. */
void html_report_merged(struct html_report *h);

/*
 * An audited file, finding by finding.  html_report_file_begin keeps the
 * counts of R (its findings are not read) for the file reached by NNAMES
 * names (at least one), shown under NAMES[0], its other names after it;
 * each html_report_finding then keeps a copy of a finding of it, as the
 * page shows it; html_report_file_end closes the file.  Each returns 0, or
 * -1 when out of memory: the file is then left out (begin), or keeps the
 * findings before (finding), and takes no more.
 */
int html_report_file_begin(struct html_report *h, const char *const *names, size_t nnames,
                           const struct check_result *r);
int html_report_finding(struct html_report *h, const struct finding *f);
void html_report_file_end(struct html_report *h);

/* PATH could not be audited, for REASON; or was skipped (not ELF).  Returns
 * 0, or -1 when out of memory. */
int html_report_add_error(struct html_report *h, const char *path, const char *reason);
int html_report_add_skipped(struct html_report *h, const char *path, const char *reason);

/* Write DIR/index.html (DIR is created if missing).  Returns 0, or -1 with a
 * reason in ERR. */
int html_report_write(const struct html_report *h, const char *dir, char *err, size_t errlen);

#endif
