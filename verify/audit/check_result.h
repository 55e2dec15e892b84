/* SPDX-License-Identifier: Apache-2.0 */
/*
 * check_result: what an audit (verify/audit/check) found, as data: the result of
 * a file's audit, its findings and counts (and those of its .sframe), and
 * what the audit decided at one instruction address, told to a callback.
 * Types only: the modules the audit runs (no_unwind fills a result,
 * sframe_check judges at each address and counts) read them without
 * reading check.h, which reads them; check_result_release is check.h's.
 *
 * Ownership: a check_result owns its findings (check_result_release frees
 * them); a check_at borrows everything it points to for the callback's
 * call.
 */
#ifndef DWCHECK_CHECK_RESULT_H
#define DWCHECK_CHECK_RESULT_H

#include <stddef.h>
#include <stdint.h>

#include "semantics/unwind_table.h"
#include "verify/rules/expression_kind.h"
#include "verify/audit/finding.h"

struct abstract_state;
struct eh_frame_fde;
struct ir_insn;
struct synth_session;

/* What the audit of a .sframe section (verify/sframe/sframe_check) counted: all 0
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
    /* The prover's work (verify/rules/prover): rules sent to it, solver calls,
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
    const struct abstract_state *state;
    const struct synth_session *session; /* synthesis's, showing this address: a rule STATE
                                            leaves undecided at a loop's head may fail on its
                                            first turn (synthesize_loop_entry) */
    const struct abstract_state *every;       /* the state on every path into it: STATE itself
                                            where that one holds on every path (a rule
                                            taken from synthesis into a table must hold
                                            there: synthesize_every_path) */
    int reached;                         /* synthesis's: 1 when a known path reaches it */
    int entered_ordinarily;              /* its function starts in the ABI's entry state */
    const struct eh_frame_fde *fde;           /* NULL when uncovered */
    const struct unwind_row *dwarf;      /* the row there, as the table gives it */
    int whole_row;                       /* judged as the canonical row of a CFA of its own
                                            (verify/rules/own_cfa): a failure condemns the row */
    uint8_t verdict[UNWIND_COLUMNS + 1]; /* enum rule_verdict of the CFA and of ra and the
                                            callee-saved registers (the others: RULE_HOLDS) */
};
typedef void (*check_at_fn)(void *arg, const struct check_at *at);

#endif
