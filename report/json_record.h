/* SPDX-License-Identifier: Apache-2.0 */
/*
 * json_record: a file's line of `dwcheck --format=json` (json_report_file)
 * read back into the result it was written from (dwcheck --merge).
 *
 * The line is json_report's JSON object (report/json_report.h lists its
 * fields) with what the other renderings need and it left out, so that a
 * line read back renders as the audit did, finding for finding: each
 * finding ends with its "function_start" (text prints `func+0xoff`, the
 * offset from it), and a counterexample with its "column" (the register a
 * value or address rule is for, by name; a CFA rule's has none).  Both
 * come last (before "function_start", a finding has its DWARF "column"
 * when it is a register's and its "insn_index" when it is in a function:
 * parts of its baseline identity, verify/audit/finding_identity; optional when
 * read), after the fields json_report writes, in their order.  A finding's
 * "claim", "code" and "fix" (verify/audit/fix.h) are optional, as they are
 * written only for a column's rule; a fix's "where" members are not read
 * (function_start and the addresses say it again).  What no rendering but
 * HTML shows stays out: a finding's excerpt of code (read back, it has no
 * rows, and the HTML report then shows none).
 *
 * A record read back is one of three kinds, as the lines are: a file
 * audited (its result), one that could not be audited ({"file","error"}),
 * one skipped because it is not ELF ({"file","skipped"}).  Reading is
 * strict about what the renderings need — every field written is required,
 * with its type, kinds and reasons by their names in verify/audit/finding.h —
 * and ignores fields it does not know (a later dwcheck's additions).  Counts
 * are below 2^63, so that sums over many files stay in 64 bits, and
 * addresses below 2^64 - 1 (json-c reads any larger number as 2^64 - 1).
 * Texts longer than the finding's arrays are cut at a character's boundary.
 * Rendering a record read back gives the line it was read from again; a
 * path that was not valid UTF-8 comes back with U+FFFD in place of the
 * bytes that were not (report/json_string wrote it so).
 *
 * Memory: a line's findings can be read one at a time (json_record_open,
 * json_record_next), so that checking a line costs a small multiple of
 * its length, however many findings it holds: the line is parsed whole
 * but for its "findings" array, whose elements are then parsed one by one
 * from the text.  (A line this does not follow — the key written with
 * escapes — is parsed whole; the first fault found in a line is the one
 * reported.)
 *
 * Ownership: a json_record owns its path, reason and findings;
 * json_record_release frees them.  A reader borrows its line until
 * json_record_close.  Errors are returned (-1) with a reason in ERR, never
 * printed.
 */
#ifndef DWCHECK_JSON_RECORD_H
#define DWCHECK_JSON_RECORD_H

#include <stddef.h>
#include <stdio.h>

#include "verify/audit/check.h"

/* (Written by json_report_file, report/json_report.h: one writer for the
 * audit's lines and a merge's.) */

enum json_record_kind { JSON_RECORD_AUDITED, JSON_RECORD_ERROR, JSON_RECORD_SKIPPED };

struct json_record {
    enum json_record_kind kind;
    char *path;
    char *reason;                   /* ERROR and SKIPPED: why; else NULL */
    char **names;                   /* AUDITED with a "names" array (a file of several
                                       names, tools/inputs): [nnames], else NULL */
    size_t nnames;
    struct check_result result;     /* AUDITED: release with json_record_release */
};

/*
 * Read the JSON object in LINE (LEN bytes, no newline needed) into REC.
 * Returns 0; or -1 with a reason in ERR (`not JSON: ...`, `finding 2: no
 * "kind"`, `unknown finding kind "x"`), REC then holding nothing.
 */
int json_record_parse(const char *line, size_t len, struct json_record *rec, char *err, size_t errlen);

/* A line being read finding by finding: its own fields are private. */
struct json_object;
struct json_tokener;
struct json_record_reader {
    struct json_object *top;       /* the line, its findings set apart (or not: LIST) */
    struct json_object *list;      /* the findings in TOP, when they were not set apart */
    struct json_tokener *tok;
    const char *text;              /* the findings set apart: TEXT[AT, END); NULL past them */
    size_t at, end;
    size_t read;                   /* findings read */
};

/*
 * Read LINE (LEN bytes, which RD borrows) but its findings into REC (an
 * audited file's with nfindings 0), as json_record_parse does.  Returns
 * 0, RD then ready for json_record_next; or -1 with ERR, REC and RD then
 * holding nothing.
 */
int json_record_open(struct json_record_reader *rd, const char *line, size_t len, struct json_record *rec,
                     char *err, size_t errlen);

/* The line's next finding into *F.  Returns 1; 0 after the last (and for
 * a line of a file not audited); or -1 with ERR (`finding 2: no "kind"`,
 * `not JSON: ...`). */
int json_record_next(struct json_record_reader *rd, struct finding *f, char *err, size_t errlen);

/* Free what RD holds.  Safe on a reader json_record_open refused. */
void json_record_close(struct json_record_reader *rd);

/* Free what REC owns.  Safe on a zeroed record. */
void json_record_release(struct json_record *rec);

#endif
