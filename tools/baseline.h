/* SPDX-License-Identifier: Apache-2.0 */
/*
 * baseline: findings known and accepted, and findings suppressed, kept in
 * a file from run to run (dwcheck --write-baseline=FILE, --baseline=FILE;
 * docs/baselines.md).
 *
 * A baseline file is plain text, one record a line, versioned by its first
 * line:
 *
 *   dwcheck-baseline 1
 *   # a comment; blank lines are ignored
 *   finding kind="K" object="O" function="F" insn=N column=C rule="R" synth="S"
 *   suppress kind="K" function="F" reason="why"
 *
 * A `finding` line is one finding's identity (verify/audit/finding_identity.h:
 * no address in it, so it survives a rebuild that moves code), every key
 * required.  A `suppress` line names a kind, a function, or both (the
 * finding must then match both), and a reason, which is required and not
 * empty.  Values are a double-quoted string (\" \\ and \xHH escapes) or a
 * bare word without blanks or quotes; insn and column are decimal, -1 or
 * more.  Keys may come in any order, each once.
 *
 * Reading is strict and bounded: a file that is no regular file, larger
 * than BASELINE_MAX_BYTES, with a line longer than BASELINE_MAX_LINE, an
 * unknown version, record or key, a missing key, a value too long for its
 * field, an unknown kind or a NUL byte is refused with the line at fault
 * (`line 3: unknown key "foo"`), never half-read.  Writing goes through
 * sys/output_file: a temporary file renamed over the target, which must
 * be a regular file or absent.
 *
 * Matching: each `finding` entry matches at most one finding of a run (two
 * identical findings need two entries).  An entry whose object was audited
 * in the run and that no finding matched is absent: its bug was fixed.
 */
#ifndef DWCHECK_BASELINE_H
#define DWCHECK_BASELINE_H

#include <stddef.h>

#include "verify/audit/finding_identity.h"

#define BASELINE_VERSION 1
#define BASELINE_MAX_BYTES (64u << 20)
#define BASELINE_MAX_LINE 8192

struct baseline_entry {
    struct finding_identity id;
    int matched;           /* a finding of this run matched it */
    int audited;           /* its object was audited in this run */
};

struct baseline_suppression {
    char kind[32];         /* "" for any kind */
    char function[sizeof ((struct finding_identity *)0)->function];   /* "" for any */
    char reason[512];
};

struct baseline {
    struct baseline_entry *entries;
    size_t n, cap;
    struct baseline_suppression *suppress;
    size_t nsuppress, suppress_cap;
};

/* Read the file PATH into B (initialised here; release with
 * baseline_release, also after an error).  Returns 0, or -1 with the
 * reason in ERR (not the path: callers print `dwcheck: PATH: reason`). */
int baseline_read(struct baseline *b, const char *path, char *err, size_t errlen);

/* Append ID as an entry / S as a suppression.  0, or -1 out of memory. */
int baseline_add(struct baseline *b, const struct finding_identity *id);
int baseline_add_suppression(struct baseline *b, const struct baseline_suppression *s);

/* Mark the entries of OBJECT (a base name) as audited in this run. */
void baseline_audited(struct baseline *b, const char *object);

/*
 * What the baseline says of a finding with identity ID: *KNOWN set when an
 * entry not matched before matches it (that entry is then matched); the
 * reason of the first suppression that covers it returned, or NULL.
 */
const char *baseline_match(struct baseline *b, const struct finding_identity *id, int *known);

/* Write B to the output PATH (sys/output_file).  0, or -1 with ERR. */
int baseline_write(const struct baseline *b, const char *path, char *err, size_t errlen);

void baseline_release(struct baseline *b);

#endif
