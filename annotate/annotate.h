/* SPDX-License-Identifier: Apache-2.0 */
/*
 * annotate: correct CFI written into a hand-written assembly source.
 *
 * The pipeline (each step its own module):
 *   1. asm_build assembles the input with line information; a source that
 *      does not assemble stops here (the assembler's messages are on
 *      stderr).  A `.S` is also preprocessed, for asm_source.
 *   2. asm_source finds the functions (`.type NAME, @function`, global
 *      labels a call targets) and the lines a directive may follow.
 *   3. A copy of the input with `.cfi_startproc`/`.cfi_endproc` around each
 *      function without CFI and a marker label after each such line is
 *      assembled and linked for analysis: its FDEs give synthesis the
 *      functions' ranges, its markers the address of every line's end.
 *   4. synth/ synthesises each function; cfi_plan decides the directives
 *      after each line; source_rewrite inserts them into the input.
 *   5. The annotated text is assembled again and verified (verify/audit/check):
 *      the CFI that functions carried already is reported as checked, and
 *      the annotation itself is proved right or reported.
 *
 * Functions that carry CFI already are left byte for byte as they are; so
 * are all lines outside the inserted ones, and an annotated file annotates
 * to itself.  Messages are data (annotate_result.messages); nothing here
 * prints except the assembler, on the user's behalf.
 */
#ifndef DWCHECK_ANNOTATE_H
#define DWCHECK_ANNOTATE_H

#include <stddef.h>

struct annotate_options {
    const char *input;           /* IN.s or IN.S */
    char *const *flags;          /* compiler flags after `--` (-I, -D, -Wa,...) */
    size_t nflags;
    int verbose;                 /* a message per function, and totals */
};

struct annotate_result {
    int status;                  /* 0 all annotated and checked CFI clean; 1 some function
                                    not (exactly) annotated, checked CFI has errors, or
                                    the result could not be checked; 2 the source cannot
                                    be read or assembled */
    char *text;                  /* the annotated source (NULL when status is 2) */
    size_t size;
    char **messages;             /* lines for stderr, `tool: FILE: ` not included */
    size_t nmessages;
    size_t functions;            /* functions found */
    size_t annotated;            /* of which annotated exactly */
    size_t inexact;              /* annotated, with lines that change the frame inside */
    size_t not_annotated;        /* that could not be synthesised or placed */
    size_t with_cfi;             /* that carried CFI already, checked */
    size_t cfi_errors;           /* error findings in those */
};

/* Annotate O->input into R (release with annotate_result_release). */
void annotate_source(const struct annotate_options *o, struct annotate_result *r);
void annotate_result_release(struct annotate_result *r);

#endif
