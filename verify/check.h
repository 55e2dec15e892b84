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
 * same states, and compared with .eh_frame's (verify/sframe_check).
 *
 * Findings are deduplicated per function: one finding per (function, kind,
 * column), at its first address, with the number of addresses it covers.
 * Tool errors (an unreadable file) are returned, never mixed with findings.
 * The kinds of finding and the reasons for leaving a rule unchecked are
 * verify/finding.h's tables; the code shown around a finding is gathered by
 * verify/excerpt.
 */
#ifndef DWCHECK_CHECK_H
#define DWCHECK_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "verify/expression_kind.h"
#include "verify/finding.h"
#include "verify/rule_eval.h"
#include "semantics/unwind_table.h"
#include "synth/abstract_state.h"
#include "synth/ir.h"
#include "synth/synthesize.h"

/* What the audit of a .sframe section (verify/sframe_check) counted: all 0
 * when the file has none, or when it was not asked for (check_options). */
struct check_sframe {
    uint8_t present;                /* the file has a .sframe section */
    uint8_t version;                /* its SFrame version; 0 when its header does not decode */
    size_t fdes;                    /* SFrame FDEs the header counts */
    size_t rows_checked;            /* SFrame rows with at least one address checked */
    size_t addresses_checked;
    size_t unchecked;               /* addresses an SFrame row covers that are not checked (unreached,
                                       padding, a guessed state, a CFA synthesis cannot decide ...) */
    size_t addresses_outermost;     /* RA undefined (V2, V3): the end of the stack, not checked */
    size_t fdes_missing;            /* .eh_frame FDEs SFrame has none for */
};

struct check_result {
    size_t fdes;
    size_t rows_checked;            /* DWARF rows with at least one address checked */
    size_t addresses_checked;
    size_t addresses_outermost;     /* RA undefined: the end of the stack, not checked */
    size_t unchecked[UNCHECKED_REASONS];   /* addresses (SLOT_ and VALUE_UNKNOWN: register
                                              rules, not in unchecked_total) */
    size_t unchecked_total;         /* addresses not checked */
    size_t functions_unchecked;     /* FDE-covered functions synthesis could not do at all */
    size_t rets_checked;            /* rets whose popped word is decided */
    size_t cross_fde_checked;       /* jumps into another FDE whose row is decided */
    /* The prover's work (verify/prover): rules sent to it, solver calls,
     * rules answered from its cache, calls out of time; with --prove=all,
     * rules the fast path decides otherwise, and the first of them. */
    unsigned long prover_rules, prover_linear, prover_queries, prover_cache_hits, prover_timeouts;
    int prove_all;
    size_t expression_verdicts[EXPRESSION_KINDS][3];   /* expression rules x addresses, by
                                                          family and verdict (enum rule_verdict) */
    unsigned long prover_disagreements;
    char first_disagreement[160];
    struct check_sframe sframe;
    struct finding *findings;
    size_t nfindings, cap;
};

/* Which rules go to the prover: the expressions (the default: the fast
 * path decides the others exactly), or all of them (a cross-check). */
enum check_prove { CHECK_PROVE_EXPRESSIONS, CHECK_PROVE_ALL };
#define CHECK_PROVE_TIMEOUT_MS 100

/*
 * What the audit decided at one instruction address, for the builder of the
 * validated table (verify/validated_table), which so repairs exactly what the
 * audit reports.  Every instruction of every function is reported once.
 */
enum check_address {
    CHECK_AT_DECIDED,       /* the row's rules were evaluated: VERDICT */
    CHECK_AT_UNCOVERED,     /* no FDE gives a row: STATE is synthesis's, if REACHED */
    CHECK_AT_KEPT,          /* not judged: unreached, padding, a guessed state, the
                               outermost frame, a context being switched to, a CFA
                               synthesis cannot decide, or a malformed FDE */
};
#define CHECK_COLUMN_CFA UNWIND_COLUMNS   /* VERDICT's index of the CFA */
struct check_at {
    enum check_address what;
    const struct ir_insn *insn;
    const struct abs_state *state;
    const struct synth_session *session; /* synthesis's, showing this address: a rule STATE
                                            leaves undecided at a loop's head may fail on its
                                            first turn (synth_session_loop_entry) */
    const struct abs_state *every;       /* the state on every path into it: STATE itself
                                            where that one holds on every path (a rule
                                            taken from synthesis into a table must hold
                                            there: synth_session_every_path) */
    int reached;                         /* synthesis's: 1 when a known path reaches it */
    int entered_ordinarily;              /* its function starts in the ABI's entry state */
    const struct cfi_fde *fde;           /* NULL when uncovered */
    const struct unwind_row *dwarf;      /* the row there, as the table gives it */
    int whole_row;                       /* judged as the canonical row of a CFA of its own
                                            (verify/own_cfa): a failure condemns the row */
    uint8_t verdict[UNWIND_COLUMNS + 1]; /* enum rule_verdict of the CFA and of ra and the
                                            callee-saved registers (the others: RULE_HOLDS) */
};
typedef void (*check_at_fn)(void *arg, const struct check_at *at);

struct check_options {
    enum check_prove prove;
    unsigned timeout_ms;            /* per solver call */
    check_at_fn at;                 /* NULL, or told every address's verdicts */
    void *at_arg;
    int sframe;                     /* also audit the file's .sframe, if it has one
                                       (verify/sframe_check: dwcheck does; the gates of
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

/* check_file's reason for a file without .eh_frame (audit_file_open's NO_EH). */
#define CHECK_NO_EH "no .eh_frame: nothing to check"

/* Audit the file AF, opened by its owner with audit_file_open (NO_EH
 * CHECK_NO_EH), which keeps it open for more work (dwcompile compiles the
 * same .eh_frame).  Returns as check_file does.  OPT NULL: the defaults. */
struct audit_file;
int check_audit_file(struct audit_file *af, const struct check_options *opt, struct check_result *r, char *err,
                     size_t errlen);
void check_result_release(struct check_result *r);

/* Findings at or above SEVERITY. */
size_t check_count(const struct check_result *r, enum severity at_least);

#endif
