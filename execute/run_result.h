/* SPDX-License-Identifier: Apache-2.0 */
/*
 * run_result: what `dwcheck --run` learnt, address by address.
 *
 * A record per instruction address that was checked (an address of an
 * object with an .eh_frame FDE, executed in a frame whose truth the shadow
 * stack knows): how often it ran, how often every rule of its row held, and
 * the first execution that refuted a rule, kept as a witness.  Addresses
 * are the object's own (file addresses), so that a record means the same
 * whatever the load address.  Objects are named by their index in the
 * run's list of paths (`objects`), which the result owns.
 *
 * The run's figures sit beside them: steps taken, steps checked, steps
 * without truth, the program's exit status.  Nothing here prints.
 */
#ifndef DWCHECK_RUN_RESULT_H
#define DWCHECK_RUN_RESULT_H

#include <stddef.h>
#include <stdint.h>

#include "semantics/unwind_table.h"

/* The CFA's column in a witness: the register columns are DWARF numbers. */
#define RUN_COLUMN_CFA (-1)
/* The registers one rule may read, and a witness keeps. */
#define RUN_WITNESS_REGS 4

/* The first execution of an address that refuted a rule. */
struct run_witness {
    int tid;                       /* the thread */
    uint64_t rip;                  /* the address as it ran (load address) */
    int column;                    /* RUN_COLUMN_CFA, ABI_RA, or a callee-saved register */
    struct unwind_rule rule;       /* the rule (an expression's bytes are not kept: expr NULL) */
    unsigned nregs;
    uint8_t reg[RUN_WITNESS_REGS]; /* the registers the rule read (DWARF numbers) ... */
    uint64_t reg_value[RUN_WITNESS_REGS];  /* ... and their values */
    int gave_ok;                   /* 0: the rule could not be evaluated (memory unreadable) */
    uint64_t gave;                 /* what the rule gave */
    uint64_t truth;                /* the true value */
    uint64_t execution;            /* which execution of the address (1 = the first) */
};

/* The static audit's verdict at a checked address (execute/static_join):
 * at a refuted address, that of the refuted rule; at an address that only
 * held, that of its row (FAILS when a rule fails, else UNDECIDED when one
 * is undecided, else HOLDS). */
enum run_static {
    RUN_STATIC_NOT_AUDITED,        /* not joined, or the object could not be audited */
    RUN_STATIC_FAILS,              /* the audit finds the rule wrong: a refutation confirmed */
    RUN_STATIC_UNDECIDED,          /* the audit left the rule undecided: the run decides */
    RUN_STATIC_NOT_JUDGED,         /* the audit did not judge the row (cfa-unknown ...) */
    RUN_STATIC_HOLDS,              /* the audit proved the rule (refuted: an internal error) */
};

struct run_address {
    uint32_t object;               /* index in run_result.objects */
    uint64_t addr;                 /* file address */
    uint64_t function_start;       /* the FDE's pc_begin (file address) */
    uint64_t executions;           /* checked executions */
    uint64_t held;                 /* executions where every rule checked held */
    uint64_t refuted;              /* executions where some rule failed */
    unsigned columns_refuted;      /* bit column+1 for each column ever refuted */
    struct run_witness witness;    /* valid when refuted > 0 */
    uint8_t static_verdict;        /* enum run_static */
};

struct run_result {
    char **objects;                /* owned paths; index = run_address.object */
    char **not_audited;            /* [nobjects]: owned, why execute/static_join could not
                                      audit the object, or NULL */
    size_t nobjects;
    struct run_address *slots;     /* open addressing by (object, addr); addr 0 with object
                                      UINT32_MAX is an empty slot */
    size_t nslots, used;
    /* figures */
    uint64_t steps;                /* single steps taken, every thread */
    uint64_t steps_checked;        /* steps at an address checked against a known frame */
    uint64_t steps_no_table;       /* steps in code no object's .eh_frame covers */
    uint64_t steps_no_truth;       /* steps in a table's code whose frame the shadow stack
                                      does not know (entered before tracing, another
                                      function's frame on top, a stack switch) */
    uint64_t steps_rule_unchecked; /* steps whose CFA rule is unset, cannot be evaluated,
                                      describes another context on purpose, or
                                      is in a frame whose return the program rewrote */
    double seconds;                /* wall time of the traced part */
    size_t objects_audited;        /* joined by execute/static_join ... */
    double join_seconds;           /* ... all the audits' wall time (the selection's too) */
    int join_out_of_memory;        /* a reason an object was not audited was lost */
    double stepped_seconds;        /* wall time during which some thread was single-stepped
                                      (all of `seconds` when every instruction is) */
    int only;                      /* the selected functions stepped, the rest at full speed
                                      (--only, or by default the audit's: audit_selected) */
    int audit_selected;            /* no --only nor --step-all: the functions the static audit
                                      left in doubt selected (execute/audit_select) ... */
    size_t functions_selected;     /* ... FDEs in doubt with an entry, given a breakpoint */
    size_t fdes_not_selectable;    /* ... FDEs in doubt that begin mid-frame (a .cold part) */
    size_t objects_audited_start;  /* ... objects audited before the program's first instruction */
    size_t objects_audited_during; /* ... and while it ran (libraries, dlopen, exec) */
    double select_seconds;         /* ... the wall time of those audits (the program stopped) */
    uint64_t breakpoint_stops;     /* --only: stops at a breakpoint (an entry, a return awaited,
                                      the loader's), each a row checked where a frame is known */
    uint64_t returns_missed;       /* --only: returns awaited that never came (a longjmp or a
                                      throw cut the stack past them) */
    int threads;                   /* threads seen */
    int forks_detached;            /* forks and vforks left to run untraced */
    int execs;                     /* execs followed */
    int max_steps_reached;         /* --max-steps stopped the tracing */
    int exit_code;                 /* the program's exit status, or -1 */
    int exit_signal;               /* the signal that killed it, or 0 */
};

void run_result_init(struct run_result *r);
void run_result_release(struct run_result *r);

/* The index of object PATH (added, copied, when new), or -1 when out of memory. */
int run_result_object(struct run_result *r, const char *path);

/* Object OBJECT could not be audited, for WHY (copied).  Returns 0, or -1
 * when out of memory. */
int run_result_not_audited(struct run_result *r, uint32_t object, const char *why);

/* The record of ADDR in OBJECT, made zeroed when new; NULL when out of memory. */
struct run_address *run_result_address(struct run_result *r, uint32_t object, uint64_t addr);

/* The record of ADDR in OBJECT, or NULL. */
struct run_address *run_result_find(const struct run_result *r, uint32_t object, uint64_t addr);

/* The records, sorted by object then address, in a new array (free it) of
 * *N; NULL with *N 0 when there are none or memory runs out. */
struct run_address *run_result_sorted(const struct run_result *r, size_t *n);

#endif
