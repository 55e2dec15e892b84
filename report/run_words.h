/* SPDX-License-Identifier: Apache-2.0 */
/*
 * run_words: the words every report of a run (`dwcheck --run`) uses for
 * an address's record (execute/run_result): where it is (func+0xoff, from
 * the object's symbols, read again here), the kind of a refutation, its
 * rule and column in words, its message, and the static audit's verdict
 * there (execute/static_join) as an id and as words.  The text and JSON
 * report (report/execution_report), SARIF (report/run_sarif), HTML
 * (report/run_html) and --explain (report/run_explain) say the same.
 *
 * Ownership: a run_words_names owns the object it opened;
 * run_words_names_release closes it.
 */
#ifndef DWCHECK_RUN_WORDS_H
#define DWCHECK_RUN_WORDS_H

#include <stddef.h>
#include <stdio.h>

#include "execute/run_result.h"
#include "object/elf_file.h"
#include "verify/audit/finding.h"

/* An object's symbols, opened again for names, one object at a time. */
struct run_words_names {
    int object;                    /* the object they are of, or -1 */
    struct elf_file ef;
    int ok;
};

void run_words_names_init(struct run_words_names *n);
void run_words_names_release(struct run_words_names *n);

/* "func+0xoff" for ADDR of OBJECT in R, the function found among the
 * symbols, else "0xSTART+0xoff" from the FDE's start FUNCTION_START. */
void run_words_where(struct run_words_names *n, const struct run_result *r, int object, uint64_t addr,
                     uint64_t function_start, char *buf, size_t size);

/* The name of the function starting at FUNCTION_START of OBJECT ("func",
 * or "0xSTART" without a symbol). */
void run_words_function(struct run_words_names *n, const struct run_result *r, int object, uint64_t function_start,
                        char *buf, size_t size);

/* The finding kind of a refutation of COLUMN (RUN_COLUMN_CFA, ABI_RA, ...). */
enum finding_kind run_words_kind(int column);
/* COLUMN in words: "CFA", "return address", "rbx" ... */
const char *run_words_column(int column);
/* The witness's rule as readelf -wF prints it. */
void run_words_rule(const struct run_witness *w, char *buf, size_t size);
/* "at run time the CFA rule rsp+16 gave 0x..., the true CFA is 0x...". */
void run_words_message(const struct run_address *a, char *buf, size_t size);
/* The witness in one line: "thread T, rip 0x..., read rsp=0x...; execution E of N". */
void run_words_witness(const struct run_address *a, char *buf, size_t size);

/* A refuted address's verdict as JSON members, the same in every JSON the
 * run writes (its report's findings, SARIF's properties): ,"executions",
 * "held", "refuted", "static", "confirmed" and the "witness" object. */
void run_words_json_verdict(FILE *out, const struct run_address *a);

/* The static verdict V (enum run_static): its id ("fails", "undecided",
 * "not-judged", "holds", "not-audited"); its words at a refuted address
 * ("finds this rule wrong too: confirmed by execution" ...), and at one
 * that held ("left a rule of this row undecided: held at run time" ...). */
const char *run_words_static_id(unsigned v);
const char *run_words_static_refuted(unsigned v);
const char *run_words_static_held(unsigned v);

#endif
