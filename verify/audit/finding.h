/* SPDX-License-Identifier: Apache-2.0 */
/*
 * finding: what an audit reports, as the contract between verify/ and the
 * renderings of report/.
 *
 * One table holds every kind of finding: its name (the `kind` printed in
 * every output, the SARIF rule id), its severity, and everything said of
 * it — a title, what it means, why it matters, how to fix it — which
 * SARIF's rules and the HTML report's section on each kind quote.  Another
 * holds the reasons an address, or a register rule, is left unchecked: a
 * stable short id (the key of the JSON `unchecked_reasons` object) and a
 * sentence for people (the text summary).
 * A new kind or reason is one line in finding.c; renderings loop over the
 * tables and never spell a kind's text themselves.
 *
 * A finding is a flat value with no pointer in it (workers send findings
 * through a pipe as bytes): its texts are arrays it owns, its excerpt a
 * structured table (verify/audit/excerpt.h), never text to be split again.
 *
 * A finding of a column's rule also says, in plain words, what the table
 * claims (CLAIM: "the CFA is rsp+8") and what the code does (CODE: "`push
 * rbx` at +0x0 moved rsp down 8: the CFA is rsp+16"), and how to fix it
 * (FIX, verify/audit/fix: the directives and the instruction they go after,
 * or why synthesis gives none).  Rules print in the notation of `man
 * dwcheck`, RULE NOTATION: `unchanged` and `undefined` where readelf
 * prints `u` for both.
 */
#ifndef DWCHECK_FINDING_H
#define DWCHECK_FINDING_H

#include <stddef.h>
#include <stdint.h>

#include "verify/rules/counterexample.h"
#include "verify/audit/excerpt.h"
#include "verify/audit/finding_fix.h"

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
    FINDING_CROSS_FDE_MISMATCH,     /* a jump into another FDE arrives where its row is wrong */
    FINDING_RET_MISMATCH,           /* a ret that does not pop the return address */
    FINDING_RET_JUMP,               /* `push X; ret`: a jump to X, the frame in place */
    /* .sframe (verify/sframe/sframe_check): a finding's `dwarf` text is then the SFrame rule */
    FINDING_SFRAME_CFA_MISMATCH,    /* an SFrame row's CFA rule does not give the CFA */
    FINDING_SFRAME_FP_MISMATCH,     /* ... its rbp rule does not give rbp's entry value */
    FINDING_SFRAME_RA_MISMATCH,     /* ... its ra rule does not give the return address */
    FINDING_MALFORMED_SFRAME,       /* the section or an FDE does not decode, or covers no code */
    FINDING_SFRAME_DIFFERS,         /* SFrame and .eh_frame rows differ, neither proved wrong */
    FINDING_SFRAME_MISSING_FDE,     /* code .eh_frame covers has no SFrame FDE */
    FINDING_NO_UNWIND_TABLE,        /* the file has no .eh_frame at all (verify/audit/no_unwind) */
    FINDING_KINDS
};

enum severity { SEVERITY_INFO, SEVERITY_WARNING, SEVERITY_ERROR };

/* "cfa-mismatch" ...; "?" past the table. */
const char *finding_kind_name(enum finding_kind kind);
/* The severity every finding of KIND has. */
enum severity finding_kind_severity(enum finding_kind kind);
/* What KIND means, when exactly the audit raises it: sentences ("" past
 * the table; so are the texts below).  The SARIF rule's fullDescription. */
const char *finding_kind_help(enum finding_kind kind);
/* A title of a few words ("Wrong CFA rule"): the SARIF rule's shortDescription. */
const char *finding_kind_title(enum finding_kind kind);
/* Why a finding of KIND matters: what goes wrong for unwinders, debuggers,
 * profilers, exceptions.  Sentences. */
const char *finding_kind_impact(enum finding_kind kind);
/* How to fix a finding of KIND, in general (the directives to add at one
 * finding are that finding's).  Sentences. */
const char *finding_kind_remedy(enum finding_kind kind);
/* The impact, then the remedy, as one text: the SARIF rule's help. */
const char *finding_kind_advice(enum finding_kind kind);
/* What a finding of KIND says of the table's rule it names ("fails",
 * "holds, but says less than synthesis knows" ...); "" for a kind that
 * names no rule (coverage, ret, malformed sections). */
const char *finding_kind_verdict(enum finding_kind kind);
/* "error", "warning", "info". */
const char *finding_severity_name(enum severity severity);

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
    UNCHECKED_CFA_TIMEOUT,          /* the prover ran out of time on the CFA rule */
    UNCHECKED_RULE_TIMEOUT,         /* ... on a register rule (counts rules) */
    UNCHECKED_REASONS
};

/* The stable short id ("padding", "cfa-unknown" ...): JSON's key.  "?" past the table. */
const char *finding_unchecked_reason_id(enum unchecked_reason r);
/* The reason as a sentence, for people.  "?" past the table. */
const char *finding_unchecked_reason_text(enum unchecked_reason r);
/* Whether R counts register rules, at addresses otherwise checked (SLOT_ and
 * VALUE_UNKNOWN), rather than addresses left unchecked. */
int finding_unchecked_reason_counts_rules(enum unchecked_reason r);

struct finding {
    uint8_t kind;                   /* enum finding_kind */
    uint8_t severity;               /* enum severity: the kind's (finding_kind_severity) */
    int column;                     /* DWARF column, -1 for the CFA or none */
    char function[128];             /* the function's symbol (the debug file's when the
                                       object is stripped), else "SECTION+0xOFF" of its start */
    uint64_t function_start;
    uint64_t address;               /* first address */
    size_t count;                   /* addresses this finding covers */
    char dwarf[48];                 /* the DWARF rule ("rsp+8", "unchanged": RULE NOTATION) */
    char synth[48];                 /* what synthesis has there */
    char message[160];
    char claim[112];                /* what the table says, in words; "" for other kinds */
    char code[160];                 /* what the code does, in words; "" for other kinds */
    char source[192];               /* "file.c:123" of the first address, "" when unknown (a
                                       long path loses its start, never its name and line) */
    struct excerpt excerpt;         /* the code around the address; nrows 0 when not gathered */
    struct counterexample cx;       /* a rule the prover refuted: the values that show it */
    int32_t insn_index;             /* instructions of the function before ADDRESS (its place
                                       there, whatever the function's address), -1 when the
                                       finding is in no decoded function */
    struct finding_fix fix;         /* FIX_NONE but for a column's rule (verify/audit/fix) */
};

/* Room for finding_where's text: a function name, "+0x" and 16 digits. */
#define FINDING_WHERE_LEN 160

/* Where F is, as diagnostics print it: "func+0x1a", or "0x4c6e1" when the
 * function has no name.  Writes at most SIZE bytes to BUF, NUL included. */
void finding_where(char *buf, size_t size, const struct finding *f);

#endif
