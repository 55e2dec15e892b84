/* SPDX-License-Identifier: Apache-2.0 */
/*
 * static_join: the run's verdicts joined with the static audit's at the
 * same addresses.
 *
 * Each object with a checked address (code of it ran in a frame the
 * shadow stack knows) is audited once (verify/audit/check, as `dwcheck
 * FILE` audits it; execute/audit_select keeps the audit, so that an
 * object the run's selection audited is not audited again), and every
 * checked address's record keeps the static verdict there (run_result.h's
 * enum run_static).  At a refuted address it is that of the refuted rule:
 * FAILS (a static error the run confirms), UNDECIDED or NOT_JUDGED (the
 * run decides what the audit could not), HOLDS (the audit proved a rule
 * the run refutes: an internal error of dwcheck, which the report prints
 * loudly and which makes dwcheck exit 2).
 * At an address that only held it is that of the row, so that the report
 * can say which addresses the audit left undecided ran and held.
 *
 * Cost: one audit per object with a checked address, the audit `dwcheck
 * FILE` makes (a program and libc: some 0.4 s; run_result.join_seconds
 * keeps every audit's time, the selection's too; the report prints it).
 * Objects the run did not check are not audited here (the selection may
 * have).  An object that cannot be audited keeps its records
 * RUN_STATIC_NOT_AUDITED and its reason (run_result_not_audited), which
 * the report prints: never a silent skip.
 */
#ifndef DWCHECK_STATIC_JOIN_H
#define DWCHECK_STATIC_JOIN_H

#include "audit_select.h"
#include "run_result.h"

/* Join R's checked records with the audit of their objects, AS's (made
 * now for an object AS has not audited yet).  Returns how many
 * refutations contradict a static proof. */
size_t static_join(struct run_result *r, struct audit_select *as);

#endif
