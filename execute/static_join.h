/* SPDX-License-Identifier: Apache-2.0 */
/*
 * static_join: the run's refutations joined with the static audit's
 * verdicts at the same addresses.
 *
 * Each object with a refuted address is audited (verify/audit/check, as
 * `dwcheck FILE` audits it) and, at each refuted address, the static
 * verdict of the refuted rule is kept in its record: FAILS (a static error
 * the run confirms), UNDECIDED or not judged (the run decides what the
 * audit could not), HOLDS (the audit proved a rule the run refutes: an
 * internal error of dwcheck, which the report prints loudly and which
 * makes dwcheck exit 2).  Objects without a refutation are not audited:
 * an audit of a large library takes seconds, and a held address needs no
 * second opinion to be reported.
 */
#ifndef DWCHECK_STATIC_JOIN_H
#define DWCHECK_STATIC_JOIN_H

#include "run_result.h"

/* Join R's refuted records with the audit of their objects.  An object
 * that cannot be audited leaves its records' static verdict
 * RUN_STATIC_NOT_AUDITED.  Returns how many refutations contradict a
 * static proof. */
size_t static_join(struct run_result *r);

#endif
