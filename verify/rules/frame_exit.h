/* SPDX-License-Identifier: Apache-2.0 */
/*
 * frame_exit: control that leaves a frame's description — a ret, and a jump
 * out of the FDE that covers it — checked against what the code and the
 * table say the frame is there.
 *
 * A ret must pop the return address: rsp at CFA-8, the slot there holding
 * entry(RA); otherwise the code returns somewhere no table describes (a
 * hand-written epilogue that forgot an `add $8,%rsp`), whatever the row
 * says.  Except `push X; ret`, a ret reached by falling out of a push: it
 * pops the word just pushed, so it is a jump to X that leaves the frame in
 * place (gdb's test of a return into a non-executable page, position-
 * independent jumps in hand-written code), and its row is checked as any
 * instruction's.  A jump (direct, conditional, or a resolved case of a
 * jump table) that leaves its FDE for an address another FDE covers (a
 * .cold part, a shared tail, a tail call, another function's middle)
 * arrives with the jumping state: every rule of the target's row (CFA, ra,
 * the callee-saved registers) must hold in it, exactly as the rules of the
 * jumping instruction's own row do.  Unknown
 * never refutes: what the state does not know leaves a transfer unchecked.
 *
 * Pure verdicts over one state; the audit (verify/audit/check) turns them into
 * findings.  Borrows the FDE lookup it is given for the targets' rows (its
 * cached table moves to the target's FDE: give it one of its own).
 */
#ifndef DWCHECK_FRAME_EXIT_H
#define DWCHECK_FRAME_EXIT_H

#include <stddef.h>
#include <stdint.h>

#include "semantics/fde_lookup.h"
#include "synth/abstract_state.h"
#include "synth/function_index.h"
#include "synth/ir.h"
#include "verify/rules/rule_eval.h"

/* Does the ret at this state return to the return address?  On RULE_FAILS,
 * WHY (SIZE bytes) says what it pops instead. */
enum rule_verdict frame_exit_ret(const struct abstract_state *st, char *why, size_t size);

/* Is the ret IN the jump of `push X; ret`: PREV, the instruction that falls
 * into it (NULL: none), a push of a whole word? */
int frame_exit_is_push_jump(const struct ir_insn *prev, const struct ir_insn *in);

/* What a jump into another FDE found. */
struct cross_fde {
    const struct eh_frame_fde *target_fde;  /* NULL: the jump does not leave for another FDE */
    uint64_t target;
    int column;                        /* the first rule that fails: -1 the CFA, else a DWARF column */
    char rule[48];                     /* that rule, as dwtable prints it */
    struct rule_answer answer;         /* its verdict, with the counterexample */
};

/*
 * The jump IN of function FUNC (its FDE: FROM), with ST the state before it:
 * when it leaves FROM for an address another FDE covers, every rule of that
 * row is decided by J in ST.  Returns RULE_FAILS (OUT says the first rule
 * that fails), RULE_HOLDS (every rule holds), or RULE_UNDECIDED (some rule
 * cannot be decided, none fails); OUT->target_fde NULL when IN is no such
 * jump (then RULE_UNDECIDED).
 */
enum rule_verdict frame_exit_cross_fde(struct rule_judge *j, struct fde_lookup *l, const struct eh_frame_fde *from,
                                       const struct ir_insn *in, const struct abstract_state *st,
                                       struct cross_fde *out);

/* The same for control that reaches TARGET from FDE FROM in state ST (a
 * case of a jump table, which the instruction does not name). */
enum rule_verdict frame_exit_into(struct rule_judge *j, struct fde_lookup *l, const struct eh_frame_fde *from,
                                  uint64_t target, const struct abstract_state *st, struct cross_fde *out);

#endif
