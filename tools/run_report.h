/* SPDX-License-Identifier: Apache-2.0 */
/*
 * run_report: the outputs of one dwcheck run, fed one file at a time.
 *
 * What dwcheck prints does not depend on where a file's result comes from
 * — a worker's audit, the result cache (tools/result_cache), or a JSON
 * line of an earlier run (dwcheck --merge, tools/merge) — so every path
 * goes through here: the chosen format on stdout (text lines, JSON Lines,
 * or one SARIF document), the HTML report, the totals of the text summary
 * and the exit status.  Files are taken in the order they are to be
 * printed.  A file that could not be audited, or was skipped (not ELF), is
 * named on stderr (`dwcheck: FILE: reason`, `dwcheck: FILE: skipped:
 * reason`) and keeps its place in the machine-readable outputs: a JSON
 * line, a SARIF notification, a row of the HTML report's table.
 *
 * A file's findings are taken one at a time (run_report_file_begin,
 * run_report_finding, run_report_file_end; run_report_audited_names for a
 * result whole goes through them), and each is rendered, matched against
 * the baseline and counted as it comes: nothing here keeps a file's
 * findings (but the HTML report's copy, report/html_report.h), so a
 * caller that reads them one by one (dwcheck --merge) needs one at a time.
 *
 * Exit statuses (tools/cli.h): each file's is returned as it is taken (2
 * for a file not audited, or a report out of memory); run_report_end folds
 * in the HTML report's writing, stdout's errors and --fail-on.
 *
 * Baselines (tools/baseline): with one, each finding is matched by its
 * identity (verify/audit/finding_identity).  Findings the baseline knows, and
 * suppressed ones, are left out of the text, JSON and HTML outputs and of
 * the totals (so --fail-on counts new findings only); they are counted on
 * a `baseline:` line, after the entries no longer found (`baseline:
 * absent: ...`), on stdout in text, else on stderr.  SARIF has every
 * finding, with its baselineState and suppression, and the absent entries
 * as results.  Entries are absent only for objects audited in the run.
 * With --write-baseline, every finding taken (known, suppressed or new) is
 * recorded, with the suppressions of --baseline, and written at the end,
 * unless a file could not be audited (its findings would be lost).
 *
 * Ownership: a run_report owns its HTML and SARIF reports from
 * run_report_begin until run_report_end, which frees them; it borrows the
 * HTML directory's name.
 */
#ifndef DWCHECK_RUN_REPORT_H
#define DWCHECK_RUN_REPORT_H

#include <stddef.h>

#include "report/html_report.h"
#include "report/sarif_report.h"
#include "report/text_report.h"

enum run_format { RUN_FORMAT_TEXT, RUN_FORMAT_JSON, RUN_FORMAT_SARIF };

struct baseline;

/* --baseline and --write-baseline, for run_report_begin. */
struct run_baseline {
    struct baseline *baseline;      /* read from --baseline, or NULL */
    struct baseline *record;        /* empty, to record into, or NULL */
    const char *record_path;        /* --write-baseline FILE */
};

/* The file being taken, from run_report_file_begin to run_report_file_end. */
struct run_report_file {
    const char *const *names;       /* borrowed */
    size_t nnames;
    const struct check_result *counts;   /* borrowed; its findings are not read */
    size_t shown;                   /* findings rendered (not known or suppressed) */
    size_t by_severity[3];          /* ... by enum severity */
    int status;                     /* its exit status so far */
    int html_lost, baseline_lost;   /* out of memory there: said once */
};

struct run_report {
    enum run_format format;
    struct baseline *baseline;      /* --baseline's entries and suppressions, or NULL (borrowed) */
    struct baseline *record;        /* every finding taken, for --write-baseline, or NULL (borrowed) */
    const char *record_path;        /* --write-baseline FILE */
    size_t known, suppressed;       /* findings the baseline knows / suppresses */
    int fail_on;                    /* enum severity, or -1 for never */
    const char *html_dir;           /* --html DIR, or NULL */
    struct html_report *html;
    struct sarif_report *sarif;     /* with RUN_FORMAT_SARIF */
    struct text_report_totals totals;
    size_t files;                   /* files taken, audited or not */
    struct run_report_file file;
};

/*
 * Check that HTML_DIR (NULL: no HTML report) can take index.html, and open
 * the reports; match findings against RB's baseline and record them for
 * --write-baseline as RB says (RB NULL: neither; RB's record takes its
 * baseline's suppressions).  Returns 0, or -1 with the reason printed (nothing written
 * then): call it before any work.
 */
int run_report_begin(struct run_report *rr, enum run_format format, int fail_on, const char *html_dir,
                     const struct run_baseline *rb);



/* PATH's result R: printed, kept for the HTML report, counted.  Returns the
 * file's exit status. */
int run_report_audited(struct run_report *rr, const char *path, const struct check_result *r);
/* The same for a file reached by NNAMES names (at least one), reported
 * once under NAMES[0] with the others listed in text and JSON
 * (report/text_report.h, report/json_report.h); SARIF and HTML name
 * NAMES[0]. */
int run_report_audited_names(struct run_report *rr, const char *const *names, size_t nnames,
                             const struct check_result *r);

/*
 * The same, finding by finding: the file's NAMES and counts R (its
 * findings are not read), both borrowed until run_report_file_end; each of
 * its findings in turn (F borrowed for the call); then its end, which
 * returns the file's exit status (2 when out of memory for the baseline or
 * the HTML report, said once on stderr).
 */
void run_report_file_begin(struct run_report *rr, const char *const *names, size_t nnames,
                           const struct check_result *r);
void run_report_finding(struct run_report *rr, const struct finding *f);
int run_report_file_end(struct run_report *rr);

/* PATH was not audited, for REASON: skipped (SKIPPED: it is not ELF) or
 * failed.  Returns the file's exit status. */
int run_report_not_audited(struct run_report *rr, const char *path, int skipped, const char *reason);

/*
 * Close the run whose files' statuses came to STATUS: write the HTML
 * report, close the SARIF document, print the text summary after more than
 * one file and then NOTE (a line, NULL for none; in the other formats it
 * goes to stderr, after `dwcheck: `).  Frees the reports.  Returns the exit
 * status: STATUS, raised to 2 by a failure here, else to 1 by findings at
 * or above fail_on.
 */
int run_report_end(struct run_report *rr, int status, const char *note);

#endif
