/* SPDX-License-Identifier: Apache-2.0 */
/*
 * check: audit one binary's unwind tables against synthesis.
 *
 * At every instruction address an FDE covers, each rule of the DWARF row —
 * the CFA, ra, and every callee-saved register (rbx, rbp, r12-r15) — is
 * evaluated in the state synthesis computed there (rule_eval).  A rule the
 * state proves wrong is a finding; a rule the state cannot decide is counted
 * as unchecked with the reason, never reported as wrong.  Whole-table
 * findings come on top: FDEs that overlap, FDEs for code that does not exist,
 * code inside a function that no FDE covers, malformed CFA programs.
 * With check_options.sframe, a .sframe section's rows are judged in the
 * same states, and compared with .eh_frame's (verify/sframe/sframe_check).
 *
 * Findings are deduplicated per function: one finding per (function, kind,
 * column), at its first address, with the number of addresses it covers.
 * Tool errors (an unreadable file) are returned, never mixed with findings.
 * The result, and what is decided at each address, are the types of
 * verify/audit/check_result.h; the kinds of finding and the reasons for leaving a
 * rule unchecked are verify/audit/finding.h's tables; the code shown around a
 * finding is gathered by verify/audit/excerpt.
 */
#ifndef DWCHECK_CHECK_H
#define DWCHECK_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "verify/audit/check_result.h"
#include "verify/rules/expression_kind.h"
#include "verify/audit/finding.h"
#include "verify/rules/rule_eval.h"
#include "semantics/unwind_table.h"
#include "synth/abstract_state.h"
#include "synth/ir.h"
#include "synth/synthesize.h"

/* Which rules go to the prover: the expressions (the default: the fast
 * path decides the others exactly), or all of them (a cross-check). */
enum check_prove { CHECK_PROVE_EXPRESSIONS, CHECK_PROVE_ALL };
#define CHECK_PROVE_TIMEOUT_MS 100

struct check_options {
    enum check_prove prove;
    unsigned timeout_ms;            /* per solver call */
    check_at_fn at;                 /* NULL, or told every address's verdicts */
    void *at_arg;
    int sframe;                     /* also audit the file's .sframe, if it has one
                                       (verify/sframe/sframe_check: dwcheck does; the gates of
                                       dwcompile and repair judge DWARF alone) */
};

/*
 * Audit PATH into R (initialised here; release with check_result_release),
 * deciding rules as OPT says (NULL: the defaults).
 * Returns 0, or -1 with a reason in ERR when the file cannot be audited: not
 * readable, not ELF, no .eh_frame, malformed unwind section.  *NOT_ELF is set
 * when the reason is that the file is not ELF (callers skip those).
 */
int check_file(const char *path, const struct check_options *opt, struct check_result *r, int *not_elf,
               char *err, size_t errlen);

/* check_file's reason for a file without .eh_frame (audit_input_open's NO_EH). */
#define CHECK_NO_EH "no .eh_frame: nothing to check"

/* Audit the file AF, opened by its owner with audit_input_open (NO_EH
 * CHECK_NO_EH), which keeps it open for more work (dwcompile compiles the
 * same .eh_frame).  Returns as check_file does.  OPT NULL: the defaults. */
struct audit_input;
int check_audit_input(struct audit_input *af, const struct check_options *opt, struct check_result *r, char *err,
                      size_t errlen);
void check_result_release(struct check_result *r);

/* Findings at or above SEVERITY. */
size_t check_count(const struct check_result *r, enum severity at_least);

#endif
