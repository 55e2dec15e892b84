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
 *
 * Findings are deduplicated per function: one finding per (function, kind,
 * column), at its first address, with the number of addresses it covers.
 * Tool errors (an unreadable file) are returned, never mixed with findings.
 */
#ifndef DWCHECK_CHECK_H
#define DWCHECK_CHECK_H

#include <stddef.h>
#include <stdint.h>

enum finding_kind {
    FINDING_CFA_MISMATCH,           /* the CFA rule does not give the CFA */
    FINDING_RA_MISMATCH,            /* ra's rule does not give the return address */
    FINDING_REG_MISMATCH,           /* a callee-saved register's rule gives another value */
    FINDING_CLOBBERED,              /* clobbered-not-described: changed while the table says unchanged */
    FINDING_IMPRECISE,              /* undefined where the value is known */
    FINDING_FDE_GAP,                /* code inside a function that no FDE covers */
    FINDING_FDE_OVERLAP,            /* two FDEs cover the same address */
    FINDING_FDE_NO_CODE,            /* an FDE for addresses that hold no code */
    FINDING_MALFORMED_CFI,          /* an FDE's CFA program does not decode */
    FINDING_CALL_CLOBBERED_RULE,    /* at a call, a rule reads a register the call may change */
    FINDING_KINDS
};

enum severity { SEVERITY_INFO, SEVERITY_WARNING, SEVERITY_ERROR };

struct finding {
    uint8_t kind;                   /* enum finding_kind */
    uint8_t severity;               /* enum severity */
    int column;                     /* DWARF column, -1 for the CFA or none */
    char function[128];             /* "" when unnamed */
    uint64_t function_start;
    uint64_t address;               /* first address */
    size_t count;                   /* addresses this finding covers */
    char dwarf[48];                 /* the DWARF rule, as dwtable prints it */
    char synth[48];                 /* what synthesis has there */
    char message[160];
    /* The code around the address with both tables' rows, one line per
     * instruction: "addr\tinstruction\tDWARF row\tsynthesised row\tmark\n"
     * (mark "*" on the finding's address); empty when not gathered. */
    char excerpt[1400];
};

enum unchecked_reason {
    UNCHECKED_UNREACHED,            /* no path reaches the instruction */
    UNCHECKED_PADDING,              /* a nop or int3 no path reaches: alignment */
    UNCHECKED_CFA_UNKNOWN,          /* synthesis does not know what the CFA rule reads */
    UNCHECKED_SLOT_UNKNOWN,         /* a saved-register slot synthesis did not track */
    UNCHECKED_VALUE_UNKNOWN,        /* a register rule reads a register (its own, under
                                       "unchanged") whose value synthesis lost */
    UNCHECKED_OTHER_FRAME,          /* the CFA is an argument: the table describes another context */
    UNCHECKED_GUESSED,              /* the state there is a guess (unresolved indirect jumps,
                                       landing pads of guessed calls, dead code) */
    UNCHECKED_REASONS
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
    struct finding *findings;
    size_t nfindings, cap;
};

const char *finding_kind_name(enum finding_kind kind);      /* "cfa-mismatch" ... */
const char *severity_name(enum severity severity);          /* "error" ... */
const char *unchecked_reason_text(enum unchecked_reason r);

/*
 * Audit PATH into R (initialised here; release with check_result_release).
 * Returns 0, or -1 with a reason in ERR when the file cannot be audited: not
 * readable, not ELF, no .eh_frame, malformed unwind section.  *NOT_ELF is set
 * when the reason is that the file is not ELF (callers skip those).
 */
int check_file(const char *path, struct check_result *r, int *not_elf, char *err, size_t errlen);
void check_result_release(struct check_result *r);

/* The columns an excerpt row shows, in order: CFA, rbx, rbp, r12-r15, ra. */
#define EXCERPT_COLUMNS "CFA rbx rbp r12 r13 r14 r15 ra"

/* Findings at or above SEVERITY. */
size_t check_count(const struct check_result *r, enum severity at_least);

#endif
