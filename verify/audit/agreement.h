/* SPDX-License-Identifier: Apache-2.0 */
/*
 * agreement: how often synthesis agrees with a binary's DWARF tables.
 *
 * For every instruction address an FDE covers, the DWARF row (semantics/) is
 * set against the synthesised state (synth/):
 *   - CFA, textually: the synthesised rule is the same register and offset
 *     (or both are expressions);
 *   - CFA, semantically: the DWARF rule evaluated in the synthesised state
 *     yields the CFA (so rbp+16 and rsp+40 are both right when the state says
 *     rbp = CFA-16 and rsp = CFA-40);
 *   - ra and each callee-saved register: the DWARF rule evaluated in the
 *     state yields entry(R) (verify/rules/rule_eval's rule; `undefined` is never
 *     wrong).
 * Rows whose return address is undefined mark the outermost frame (_start):
 * nothing of them is used, so they are counted apart, not compared.
 * This is the measurement of the synthesis issue and the core of the checker.
 */
#ifndef DWCHECK_AGREEMENT_H
#define DWCHECK_AGREEMENT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define AGREEMENT_MAX_CAUSES 512

struct agreement_cause {
    char key[128];             /* "cfa: dwarf rsp+16 synth rsp+8" */
    size_t count;
    char example[128];         /* "libc.so.6: memcpy+0x12" */
};

struct agreement {
    size_t files;
    size_t functions, functions_unknown;
    size_t covered;            /* instruction addresses an FDE covers (but outermost) */
    size_t outermost;          /* addresses whose DWARF row has RA undefined */
    size_t synthesised;        /* ... with a known synthesised CFA */
    size_t cfa_text_agree;
    size_t cfa_sem_agree;
    size_t ra_agree;
    size_t callee_checked, callee_agree;    /* (address, register) pairs */
    struct agreement_cause causes[AGREEMENT_MAX_CAUSES];
    size_t ncauses;
};

/*
 * Add PATH's figures to A.  Returns 0, or -1 with a reason in ERR when the
 * file cannot be read (no figures are added then).
 */
int agreement_add_file(struct agreement *a, const char *path, char *err, size_t errlen);

/* Merge FROM into INTO. */
void agreement_merge(struct agreement *into, const struct agreement *from);

/* The figures and the largest causes of disagreement, for people. */
void agreement_print(FILE *out, const struct agreement *a, const char *label, size_t top_causes);

#endif
