/*
 * sarif_report: an audit as SARIF 2.1.0, the format code-scanning services
 * read.  One run (tool "dwcheck") over all files; one rule per finding kind
 * (its id the kind's name, its description the kind's help: verify/finding.h);
 * one result per finding, located by file and by the function's symbol and
 * address (binaries have no source lines: the address goes in the logical
 * location and in the message).
 *
 * A file that could not be audited is not a clean result: it is a tool
 * execution notification of level "error" in the run's invocation, located
 * at the file, and the invocation's executionSuccessful is then false.  A
 * file skipped because it is not ELF is a notification of level "note".
 * Results are streamed as files are audited; notifications are kept until
 * the end, where the invocation closes the run.
 *
 * Paths become URIs percent-encoded byte by byte (an absolute path a file:
 * URI, a relative one a relative reference), so any path gives a valid URI;
 * texts are JSON strings that are always valid UTF-8 (report/json_string).
 */
#ifndef DWCHECK_SARIF_REPORT_H
#define DWCHECK_SARIF_REPORT_H

#include <stdio.h>

#include "verify/check.h"

struct sarif_report;

enum sarif_notification_level { SARIF_NOTE, SARIF_ERROR };

/* Opens the document on OUT.  Returns the report (freed by sarif_end), or
 * NULL when out of memory (nothing written). */
struct sarif_report *sarif_begin(FILE *out, const char *version);

/* The results of one audited file. */
void sarif_file(struct sarif_report *s, const char *path, const struct check_result *r);

/* A notification about PATH, its message `PATH: REASON` (PATH NULL: about
 * no one file, the message REASON, no location).  Returns 0, or -1 when out
 * of memory (the run is then marked unsuccessful all the same). */
int sarif_notify(struct sarif_report *s, enum sarif_notification_level level, const char *path,
                 const char *reason);

/* Closes the document with the run's invocation: its notifications, and
 * executionSuccessful false when an error was notified or FAILED is set
 * (the tool failed otherwise).  Frees S. */
void sarif_end(struct sarif_report *s, int failed);

#endif
