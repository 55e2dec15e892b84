/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fix: what to write so that a finding's rule is right — the `.cfi_*`
 * directives, and the instruction they go after.
 *
 * A finding of a column's rule (cfa-mismatch, ra-mismatch, reg-mismatch,
 * clobbered-not-described, imprecise) is at the first address of its
 * function where the table's rule fails.  Synthesis's rows say which rule
 * holds there; the fix is where that rule began: walking back from the
 * finding's address over the instructions that fall through into the next
 * one, while neither synthesis's rule for the column nor the table's
 * changes, gives the address Y where the directives go (right before the
 * instruction at Y: after the one before it, `push %rbx`, whose effect
 * synthesis's row change records).  The directives are those
 * semantics/print/cfi_text writes (as `dwsynth annotate` does) to turn the
 * table's row at Y into that row with synthesis's rule in the column: and
 * in every other column where synthesis's row changes at Y and the table
 * does not follow (the CFA and rbx of one `push %rbx`), so that one fix
 * serves the findings of one change.  Directives are absolute
 * (`.cfi_def_cfa_offset 16`, `.cfi_offset %rbx, -16`): written twice they
 * say the same thing, and the table's later rows, relative or not, then
 * follow from a right row.
 *
 * What is written at Y stays in force, in the table, until the source says
 * otherwise.  Where, before that, the code changes the frame back and the
 * table was right (the `pop %rbx` whose directive was forgotten with its
 * push's; the parent's path after the code of clone's child), the fix has
 * a second place, THEN: there the directives put those columns back to the
 * table's own rules.  Whether what is written stays in force is not
 * guessed from the rows: the FDE's program is evaluated again with the
 * fix's rules set where its directives land (after the program's own
 * instructions at that address, as a directive written before the
 * instruction's line is), which sees the source's own directives even
 * where they changed nothing.  A fix is given only when, so evaluated, the
 * table has synthesis's rule at the finding's address and keeps every rule
 * that agreed with synthesis's; a rule the table had wrong already, past
 * the finding, is no concern of this fix: the audit after it reports it,
 * with its own fix (one finding stands for all its function's addresses).
 *
 * A fix is given only where synthesis's rule holds: on every path into
 * each address from Y to the finding's (synthesize_every_path: a jump
 * back from a .cold part with another frame, a landing pad of a call only
 * a guess reaches, take no part in the state the audit judges with, but
 * they do here), at addresses a known path reaches, for a rule synthesis
 * knows.  Otherwise the fix is FIX_UNKNOWN with the reason: no fix rather
 * than a wrong one.  A row judged as the canonical row of a CFA of its own
 * (verify/rules/own_cfa) gets none either: such a row is rewritten whole.
 *
 * The fix is a flat value inside its finding (verify/audit/finding_fix.h: it
 * travels through pipes and JSON Lines): texts it owns, addresses; the
 * source lines are filled in, by fix_name_lines, where the line table is
 * open (verify/audit/check, explain).
 */
#ifndef DWCHECK_FIX_H
#define DWCHECK_FIX_H

#include <stddef.h>
#include <stdint.h>

#include "verify/audit/finding_fix.h"

/* The fix of a finding: every finding of a column's rule among the first
 * FIX_MAX_FINDINGS of an audit gets one (FIX_KNOWN or FIX_UNKNOWN). */
#define FIX_MAX_FINDINGS 200

struct finding;
struct synth_program;
struct fde_lookup;

/*
 * Fix the findings F[0 .. N) that are of a column's rule: their FIX, and
 * their CODE text completed with the instructions that did it ("`push rbx`
 * at +0x0 moved rsp down 8: the CFA is rsp+16").  Synthesis runs once per
 * function; DW gives the table's rows.  Memory running out leaves a
 * finding's fix FIX_NONE.
 */
void fix_findings(struct finding *f, size_t n, struct synth_program *prog, struct fde_lookup *dw);

/*
 * The fix of the rule of COLUMN (-1: the CFA) at ADDRESS, in function FUNC
 * (an index into PROG's functions), into *FIX; CODE (CODE_SIZE bytes, may
 * be NULL) gets what the code does there, in words (`dwcheck --explain`).
 * KIND is the finding's (enum finding_kind): a clobbered register's code
 * text names the instruction that changed it.
 */
void fix_rule_at(struct finding_fix *fix, char *code, size_t code_size, struct synth_program *prog,
                 struct fde_lookup *dw, size_t func, uint64_t address, int column, int kind);

/* FIX's source lines (of its places' instructions, and of those they
 * follow) from the line table DI; "" where it has none. */
struct debug_info;
void fix_name_lines(struct finding_fix *fix, struct debug_info *di);

/* Whether findings of KIND (enum finding_kind) are of a column's rule and get a fix. */
int fix_kind_has_fix(int kind);

#endif
