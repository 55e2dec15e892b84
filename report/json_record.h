/*
 * json_record: a file's line of `dwcheck --format=json` (report_json_file)
 * read back into the result it was written from (dwcheck --merge).
 *
 * The line is text_report's JSON object (report/text_report.h lists its
 * fields) with what the other renderings need and it left out, so that a
 * line read back renders as the audit did, finding for finding: each
 * finding ends with its "function_start" (text prints `func+0xoff`, the
 * offset from it), and a counterexample with its "column" (the register a
 * value or address rule is for, by name; a CFA rule's has none).  Both
 * come last, after the fields text_report writes, in their order.  What no rendering but
 * HTML shows stays out: a finding's excerpt of code (read back, it has no
 * rows, and the HTML report then shows none) and its DWARF column.
 *
 * A record read back is one of three kinds, as the lines are: a file
 * audited (its result), one that could not be audited ({"file","error"}),
 * one skipped because it is not ELF ({"file","skipped"}).  Reading is
 * strict about what the renderings need — every field written is required,
 * with its type, kinds and reasons by their names in verify/finding.h —
 * and ignores fields it does not know (a later dwcheck's additions).  Texts
 * longer than the finding's arrays are cut at a character's boundary.
 * Rendering a record read back gives the line it was read from again; a
 * path that was not valid UTF-8 comes back with U+FFFD in place of the
 * bytes that were not (report/json_string wrote it so).
 *
 * Ownership: a json_record owns its path, reason and findings;
 * json_record_release frees them.  Errors are returned (-1) with a reason
 * in ERR, never printed.
 */
#ifndef DWCHECK_JSON_RECORD_H
#define DWCHECK_JSON_RECORD_H

#include <stddef.h>
#include <stdio.h>

#include "verify/check.h"

/* (Written by report_json_file, report/text_report.h: one writer for the
 * audit's lines and a merge's.) */

enum json_record_kind { JSON_RECORD_AUDITED, JSON_RECORD_ERROR, JSON_RECORD_SKIPPED };

struct json_record {
    enum json_record_kind kind;
    char *path;
    char *reason;                   /* ERROR and SKIPPED: why; else NULL */
    struct check_result result;     /* AUDITED: release with json_record_release */
};

/*
 * Read the JSON object in LINE (LEN bytes, no newline needed) into REC.
 * Returns 0; or -1 with a reason in ERR (`not JSON: ...`, `finding 2: no
 * "kind"`, `unknown finding kind "x"`), REC then holding nothing.
 */
int json_record_parse(const char *line, size_t len, struct json_record *rec, char *err, size_t errlen);

/* Free what REC owns.  Safe on a zeroed record. */
void json_record_release(struct json_record *rec);

#endif
