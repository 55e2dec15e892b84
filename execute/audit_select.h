/* SPDX-License-Identifier: Apache-2.0 */
/*
 * audit_select: the static audit of each object a run maps, made once, and
 * the functions it leaves in doubt, which `dwcheck --run` steps by default.
 *
 * An object (by its index in run_result.objects) is audited the first time
 * it is asked for (verify/audit/check, as `dwcheck FILE` audits it, and as
 * execute/static_join did on its own before): what the audit decided at
 * each address an FDE covers is kept, so that the join after the run
 * reads it rather than auditing the object again.
 *
 * Selection: an FDE is selected when some address it covers is one the
 * audit finds wrong (a rule FAILS), leaves undecided, or does not judge
 * (cfa-unknown, a guessed state, unreached code ...).  Its pc_begin is
 * given to break on only when it is a function's entry, where the truth is
 * plain: its first row says CFA = rsp+8 and the return address at CFA-8.
 * An FDE that begins mid-frame (GCC's `.cold` part of a function) cannot be
 * entered there by a call: it is counted not selectable, never selected.
 *
 * Cost: one audit per object (a program and libc: some 0.4 s), and per
 * address a record of its verdicts (32 bytes).  An object that cannot be
 * audited (gone, not ELF, no table) selects nothing; its reason is kept in
 * the run_result (run_result_not_audited), as the join reports it.
 */
#ifndef DWCHECK_AUDIT_SELECT_H
#define DWCHECK_AUDIT_SELECT_H

#include <stddef.h>
#include <stdint.h>

#include "run_result.h"
#include "verify/audit/check.h"

/* What the audit decided at one address. */
struct audit_select_at {
    uint64_t addr;                         /* file address */
    uint8_t what;                          /* enum check_address */
    uint8_t verdict[CHECK_COLUMN_CFA + 1]; /* enum rule_verdict, check_at's */
};

struct audit_select_object {
    int state;                     /* 0 not audited yet, 1 audited, -1 could not be */
    struct audit_select_at *at;    /* sorted by address */
    size_t nat;
    uint64_t *entries;             /* the selected FDEs' pc_begin (file addresses) */
    size_t nentries;
    size_t not_selectable;         /* FDEs in doubt that begin mid-frame */
};

struct audit_select {
    struct run_result *result;     /* borrowed: the objects' paths, the figures */
    struct audit_select_object *objects;   /* [nobjects], by run_result index */
    size_t nobjects;
    double seconds;                /* spent auditing */
    size_t audits;                 /* objects audited (or tried) */
};

void audit_select_init(struct audit_select *as, struct run_result *result);
void audit_select_release(struct audit_select *as);

/* The audit of OBJECT (an index in result->objects), made now when not
 * made yet; NULL when the object could not be audited (its reason kept in
 * the result) or memory ran out. */
const struct audit_select_object *audit_select_object(struct audit_select *as, uint32_t object);

/* What the audit decided at ADDR of O, or NULL. */
const struct audit_select_at *audit_select_at(const struct audit_select_object *o, uint64_t addr);

#endif
