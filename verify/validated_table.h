/* SPDX-License-Identifier: Apache-2.0 */
/*
 * validated_table: H_valid, the table a file's unwinders should have.
 *
 * Purpose: what users need is stacks that are right, not only a report that
 * they are wrong.  The audit (verify/audit/check) judges every rule of every DWARF
 * row in synthesis's state; this module takes those verdicts, address by
 * address, and builds the table the encoders and the eh_elf compiler write:
 *   - DWARF's row where its rules hold or are undecided;
 *   - where a column's rule fails, synthesis's rule for that column (a
 *     callee-saved register whose entry value synthesis lost becomes
 *     `undefined`, which is never wrong; a row judged as the canonical form
 *     of a CFA of its own is replaced whole);
 *   - synthesis's rows for code no FDE covers, in functions entered the
 *     ordinary way (named, called, the PLT), where a known path reaches it
 *     and synthesis can say the CFA; elsewhere (dead code, a jump table's
 *     case synthesis cannot read, after `sub %reg,%rsp`), a row whose
 *     return address is undefined: the end of the stack, never a wrong
 *     frame, so that the rest of the function gets its rows.
 * Every row keeps its provenance: proved DWARF (every rule holds at every
 * address that executes), unchecked DWARF (some rule undecided at an
 * address that executes, or none judged), synthesised.  Padding and code
 * no path reaches do not count: no unwinder ever stands there.
 *
 * Because the verdicts are the audit's own (check_options.at), H_valid
 * repairs exactly what dwcheck reports as a wrong rule, and auditing a file
 * written from it finds none of those errors again.  Findings that are not a
 * column's rule (a ret that does not return, a jump into an FDE whose row
 * does not hold) have no row to repair and stay findings.
 *
 * Users: dwsynth repair (repair/), and the eh_elf compiler with --repair.
 * The table borrows expressions from the audited file's sections: keep the
 * audit_input open while it is used.
 */
#ifndef DWCHECK_VALIDATED_TABLE_H
#define DWCHECK_VALIDATED_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "semantics/cfi_reader.h"
#include "semantics/unwind_table.h"
#include "verify/audit/check.h"

enum provenance { PROVENANCE_PROVED, PROVENANCE_UNCHECKED, PROVENANCE_SYNTHESISED, PROVENANCES };

/* The name of a provenance: "proved", "unchecked", "synthesised". */
const char *validated_provenance_name(enum provenance p);

/* One FDE of H_valid. */
struct validated_fde {
    const struct eh_frame_fde *fde;     /* the file's FDE, or NULL: code no FDE covered */
    uint64_t lo, hi;               /* [lo, hi): the FDE's range, or the new code's */
    int repaired;                  /* TABLE differs from DWARF's somewhere (always, when new) */
    struct unwind_table table;     /* H_valid over [lo, hi): for repaired and new FDEs (for
                                      every sound FDE with EVERY_TABLE); else no rows */
    uint8_t *provenance;           /* per row of TABLE (enum provenance) */
    size_t rows_repaired;          /* rows of TABLE that are synthesis's */
    char function[128];            /* the function's name: its symbol (from the separate debug
                                      file when stripped), else SECTION+0xOFF */
};

struct validated_table {
    struct validated_fde *fdes;    /* the file's FDEs in section order, then the new ones */
    size_t nfdes;
    size_t addresses[PROVENANCES]; /* instruction addresses by the provenance of their rule
                                      there (padding and unreached code: unchecked) */
    size_t addresses_kept;         /* covered addresses not judged (unreached, padding ...) */
    size_t fdes_repaired, fdes_added, rows_repaired;
    size_t addresses_ending_stack; /* of the synthesised ones: in added functions, code no known
                                      path reaches or whose CFA synthesis cannot say, whose row
                                      ends the stack */
    size_t functions_not_added;    /* code no FDE covers, of functions not entered the ordinary
                                      way, entered by a jump in another frame, with a ret that
                                      pops a word of their own frame, or all of whose rows there
                                      would end the stack */
};

struct audit_input;

/*
 * Audit AF (into R, as check_audit_input does, with OPT's prover settings)
 * and build its validated table into VT: the tables of the repaired and
 * added FDEs, and with EVERY_TABLE those of the kept ones too (DWARF's rows,
 * each proved or unchecked: what the eh_elf compiler needs).  Returns 0, or
 * -1 with a reason in ERR (out of memory, a malformed FDE).  Release VT
 * with validated_table_release, R with check_result_release.
 */
int validated_table_build(struct audit_input *af, const struct check_options *opt, int every_table,
                          struct validated_table *vt, struct check_result *r, char *err, size_t errlen);
void validated_table_release(struct validated_table *vt);

#endif
