/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sframe_check: a file's .sframe audited as its .eh_frame is, and against it.
 *
 * SFrame (binutils 2.40+, `as --gsframe`) is the table the kernel's and
 * perf's unwinders read: per function, rows of CFA = rsp or rbp + offset,
 * rbp's save slot, and the return address at CFA-8.  gas derives it from
 * the same CFI directives as .eh_frame, but not always the same way (gas
 * 2.40 writes `.cfi_def_cfa %r10, 0` as CFA = rsp+0), and a linker or a
 * tool may write it alone.  So it is checked on its own terms:
 *
 *   1. every SFrame row is a row of H (verify/sframe/sframe_tables), and at each
 *      address an SFrame row covers, its CFA, rbp and ra rules are judged
 *      in the state synthesis derives there by verify/rules/rule_eval, exactly as
 *      verify/audit/check judges DWARF's (same fast path, same prover and cache,
 *      same reasons to leave an address unchecked): a rule the state proves
 *      wrong is `sframe-cfa-mismatch`, `sframe-fp-mismatch` or
 *      `sframe-ra-mismatch`, with what .eh_frame says there;
 *   2. against .eh_frame: at each address both cover, the two rows
 *      restricted to SFrame's columns (CFA, rbp, ra; only ra where either
 *      is the outermost frame) are compared; where they differ and the
 *      audit proves neither wrong (one or both undecided), that is
 *      `sframe-eh-frame-differ` (a warning) — where one is proved wrong its
 *      own mismatch finding says so instead, and where both hold they are
 *      two ways of saying the same there;
 *   3. each .eh_frame FDE whose code no SFrame FDE covers is a
 *      `sframe-missing-fde` note, with the reason SFrame cannot express
 *      the function when its DWARF table shows one (a CFA expression such
 *      as DRAP's, a CFA in another register than rsp or rbp, a register
 *      saved in a register, an escape); so is the first stretch of one
 *      that SFrame's FDEs overlap but give no row (an FDE that stops short,
 *      or whose first FRE starts late);
 *   4. a section or FDE that does not decode, covers no code, or overlaps
 *      another is `malformed-sframe`, never a crash.
 *
 * Findings go to the caller through a callback (verify/audit/check adds them to
 * the current function's, deduplicated as its own); counts go to a
 * check_sframe.  The audit is driven by verify/audit/check's walk over the
 * synthesised states: sframe_check_at at every instruction, after the
 * DWARF row there has been judged (its verdicts are read, not recomputed).
 */
#ifndef DWCHECK_SFRAME_CHECK_H
#define DWCHECK_SFRAME_CHECK_H

#include "object/elf_file.h"
#include "semantics/fde_lookup.h"
#include "verify/audit/check_result.h"
#include "verify/rules/counterexample.h"
#include "verify/audit/finding.h"
#include "verify/rules/rule_eval.h"

/* One finding, for the caller to add.  Everything is borrowed for the call. */
struct sframe_finding {
    enum finding_kind kind;
    int column;                     /* -1 the CFA (or none), 6 rbp, 16 ra */
    uint64_t address;
    const char *rule;               /* the SFrame rule, as dwtable prints it; or NULL */
    const char *synth;              /* synthesis's rule there; or NULL */
    const struct counterexample *cx;   /* a rule the prover refuted; or NULL */
    const char *place;              /* NULL: in the function being walked (or, outside the walk,
                                       whichever function ADDRESS is in); else the finding's own
                                       place (".sframe"), ADDRESS counting from PLACE_START */
    uint64_t place_start;
    const char *message;
};
typedef void (*sframe_finding_fn)(void *arg, const struct sframe_finding *f);

struct sframe_check;

/*
 * Read EF's .sframe for checking: malformed parts are reported to FN (ARG)
 * now.  JUDGE decides the rules (verify/audit/check's own, shared).  Returns the
 * checker, or NULL when EF has no .sframe — or when out of memory, then
 * with *OOM set to 1 (it is left alone otherwise).
 */
struct sframe_check *sframe_check_open(struct elf_file *ef, struct rule_judge *judge, sframe_finding_fn fn,
                                       void *arg, int *oom);

/* Judge the SFrame row at AT's instruction, if one covers it, in AT's
 * state; compare it with AT's DWARF row and the verdicts on it. */
void sframe_check_at(struct sframe_check *s, const struct check_at *at);

/* Report the .eh_frame FDEs of DW (EF's) that SFrame has none for. */
void sframe_check_missing(struct sframe_check *s, struct fde_lookup *dw, struct elf_file *ef);

/* The counts into *OUT (may be NULL), and free S (may be NULL). */
void sframe_check_close(struct sframe_check *s, struct check_sframe *out);

#endif
