/* SPDX-License-Identifier: Apache-2.0 */
/*
 * finding_fix: a finding's fix as a flat value (verify/audit/fix says how it is
 * found): the directives and the instruction they go after, a second place
 * where the table's own rules are put back, or why there is none.  Types
 * only: struct finding holds one (verify/audit/finding.h), and verify/audit/fix, which
 * reads findings, fills it in.
 *
 * Ownership: no pointer inside; its texts are arrays it owns (findings
 * travel through pipes and JSON Lines as bytes).
 */
#ifndef DWCHECK_FINDING_FIX_H
#define DWCHECK_FINDING_FIX_H

#include <stdint.h>

enum fix_state {
    FIX_NONE,                       /* not a column's rule, or not gathered */
    FIX_KNOWN,                      /* DIRECTIVES at ADDRESS */
    FIX_UNKNOWN,                    /* a column's rule synthesis gives no fix for: WHY */
};

/* One place of a fix: directives, and where they go. */
struct fix_place {
    uint64_t address;               /* they take effect here: right before its instruction */
    uint8_t has_after;              /* the instruction before ADDRESS falls through into it */
    uint64_t after_address;         /* that instruction (HAS_AFTER) */
    char after[64];                 /* its text, "push rbx" */
    char source[192];               /* "file:line" of the instruction at ADDRESS: the directives go
                                       before that line; "" when unknown */
    char after_source[192];         /* "file:line" of the instruction at AFTER_ADDRESS, or "" */
    char directives[320];           /* GAS directives, each ended by '\n', as written into a source
                                       (registers spelt "%rbx") without indentation */
};

struct finding_fix {
    uint8_t state;                  /* enum fix_state */
    uint8_t has_then;               /* THEN is a second place */
    struct fix_place at;            /* FIX_KNOWN: where the directives go */
    struct fix_place then;          /* HAS_THEN: where the table's own rules are put back */
    char why[160];                  /* FIX_UNKNOWN: why there is none */
};

#endif
