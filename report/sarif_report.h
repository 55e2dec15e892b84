/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sarif_report: an audit as SARIF 2.1.0, the format code-scanning services
 * read.  One run (tool "dwcheck") over all files; one rule per finding kind
 * (its id the kind's name, its description the kind's help: verify/audit/finding.h);
 * one result per finding (its ruleIndex the kind's), with a partial
 * fingerprint "dwcheckFindingIdentity/v1", the hash of its identity
 * (verify/audit/finding_identity: no address in it, it survives code moving).
 * Rules have a title (shortDescription), the kind's help (fullDescription)
 * and what to do (help), verify/audit/finding.h.
 *
 * Location: where the line table gives the finding's source line ("file.c:
 * 123", verify/audit/check's name_findings reads .debug_line), the physical
 * location is that file and region.startLine, and the binary with the
 * address is a related location; without one, the physical location is the
 * binary with the address.  Either way the logical locations name the
 * function ("libfoo.so!func+0x1a", kind function) and the binary (kind
 * module, its path the fully qualified name).  With a baseline, results
 * carry baselineState ("new", "unchanged"; entries no longer found are
 * results of their own, "absent"), and a suppressed finding a suppression
 * of kind "external" with its reason as justification.
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

#include "verify/audit/check.h"

struct sarif_report;

enum sarif_notification_level { SARIF_NOTE, SARIF_ERROR };

/* Opens the document on OUT.  Returns the report (freed by sarif_end), or
 * NULL when out of memory (nothing written). */
struct sarif_report *sarif_begin(FILE *out, const char *version);

/* What a baseline (tools/baseline) says of a finding. */
struct sarif_mark {
    int baseline;                     /* a baseline was given: the result carries baselineState */
    int known;                        /* in the baseline ("unchanged"), else "new" */
    const char *suppressed;           /* a suppression's reason, or NULL */
};

/* The result of finding F of the audited file PATH, written at once;
 * MARK NULL without a baseline.  Nothing is kept: a file's results take
 * no memory however many they are. */
void sarif_finding(struct sarif_report *s, const char *path, const struct finding *f,
                   const struct sarif_mark *mark);

/* A result of another producer (report/run_sarif: a run's refutations):
 * writes what separates it from the result before and returns the stream,
 * on which the caller writes one result object, as SARIF 2.1.0 wants it. */
FILE *sarif_next_result(struct sarif_report *s);
/* PATH as a JSON string holding a URI (percent-encoded byte by byte; an
 * absolute path a file: URI). */
void sarif_print_uri(FILE *out, const char *path);
/* `,"logicalLocations":[...]`: the function NAME, "OBJECT!WHERE", and the
 * binary PATH (its base name OBJECT), kind module. */
void sarif_print_logical(FILE *out, const char *path, const char *object, const char *name, const char *where);

/* A baseline entry no finding matched: a result whose baselineState is
 * "absent" (kind "pass", level "none"), located by its object's name. */
struct finding_identity;
void sarif_absent(struct sarif_report *s, const struct finding_identity *id);

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
