/*
 * sarif_report: an audit as SARIF 2.1.0, the format code-scanning services
 * read.  One run (tool "dwcheck") over all files; one rule per finding kind;
 * one result per finding, located by file and by the function's symbol and
 * address (binaries have no source lines: the address goes in the logical
 * location and in the message).
 */
#ifndef DWCHECK_SARIF_REPORT_H
#define DWCHECK_SARIF_REPORT_H

#include <stdio.h>

#include "verify/check.h"

/* Opens the document; then one sarif_file per audited file; then sarif_end. */
void sarif_begin(FILE *out, const char *version);
void sarif_file(FILE *out, const char *path, const struct check_result *r);
void sarif_end(FILE *out);

#endif
