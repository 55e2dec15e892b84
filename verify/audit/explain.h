/* SPDX-License-Identifier: Apache-2.0 */
/*
 * explain: everything the audit knows about one address, for a person who
 * must accept or reject a finding there (`dwcheck --explain=ADDR FILE`).
 *
 * For the instruction at ADDR: the function and its source line, the FDE
 * that covers it, the code around it with both rows (DWARF's and the one
 * synthesis derives) for each instruction, and for each rule of the DWARF
 * row at ADDR its verdict and why: what the state synthesis computed there
 * holds for the registers and slots the rule reads, the counterexample or
 * proof of the prover, or why the rule is undecided; and how the state was
 * reached (a path from the entry, a guess, nothing); and for a rule that
 * fails, what the code does and the fix, as its finding says them
 * (verify/audit/fix).
 *
 * An explanation is a flat value built by verify/ and printed by
 * report/explain_report; it borrows nothing.
 */
#ifndef DWCHECK_EXPLAIN_H
#define DWCHECK_EXPLAIN_H

#include <stddef.h>
#include <stdint.h>

#include "verify/rules/counterexample.h"
#include "verify/audit/excerpt.h"
#include "verify/audit/fix.h"
#include "verify/rules/rule_eval.h"

struct audit_input;
struct check_options;

/* One rule of the row at the address, decided. */
struct explained_rule {
    char column[8];                 /* "CFA", "rbx" ... "ra" */
    char rule[48];                  /* as dwtable prints it */
    char synth[48];                 /* what synthesis has there */
    enum rule_verdict verdict;
    char why[200];                  /* the facts of the state the verdict rests on */
    struct counterexample cx;       /* a refutation by z3 */
    char code[160];                 /* a rule that FAILS: what the code does, in words */
    struct finding_fix fix;         /* ... and its fix (verify/audit/fix.h), as its finding's */
};

struct explanation {
    uint64_t address;
    char function[128];             /* "" when no function holds the address */
    uint64_t function_start;
    char source[128];               /* "file:line", or "" */
    int covered;                    /* an FDE covers the address */
    uint64_t fde_offset, fde_lo, fde_hi;
    char reached[120];              /* how the state there was reached */
    int own_cfa;                    /* the row has a CFA of its own: judged as the canonical row
                                       it amounts to (verify/rules/own_cfa) */
    struct excerpt code;            /* the window, both rows */
    size_t nrules;
    struct explained_rule rules[9]; /* the CFA, the callee-saved registers, ra */
};

/*
 * Explain ADDRESS of the audited file AF, rules decided as OPT says (NULL:
 * the defaults).  Returns 0, or -1 with a reason in ERR (no function holds
 * the address, out of memory).
 */
int explain_address(struct audit_input *af, const struct check_options *opt, uint64_t address,
                    struct explanation *out, char *err, size_t errlen);

#endif
