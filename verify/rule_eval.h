/*
 * rule_eval: a DWARF rule evaluated in a synthesised abstract state.
 *
 * The semantics of a check (DESIGN.md): a row is right at an address when
 * each rule, evaluated in the state synthesis computed there, yields the true
 * value — the CFA rule the CFA, the return address's rule entry(RA), a
 * callee-saved register's rule entry(R).  Evaluation is three-valued: the
 * rule holds, fails (the state proves it wrong), or cannot be decided (it
 * reads something the state does not know).  `undefined` always holds: it is
 * imprecise, never wrong.
 *
 * DWARF expressions are evaluated concretely several times, with unrelated
 * bases, so a result that is the same symbolic address every time is one,
 * and one that depends on where the CFA happens to lie is undecided.  When
 * the state knows how the stack was realigned (up to 4 KiB), the realigned
 * base is that rounding of the CFA and the CFA takes every 16-byte position
 * modulo the alignment: a rule that rounds the CFA as the code did (glibc's
 * libmvec) names the realigned frame.  This assumes the ABI's 16-byte
 * aligned CFA, which functions built to accept a misaligned stack
 * (force_align_arg_pointer) do not promise.  Where a place has a name in
 * both frames (a realignment that is a fixed offset), the frame that tracks
 * the word decides, and two that track it must agree.  rip is concrete (the address checked), which covers the
 * PLT's `rip & 15` rule.
 */
#ifndef DWCHECK_RULE_EVAL_H
#define DWCHECK_RULE_EVAL_H

#include <stdint.h>

#include "semantics/unwind_table.h"
#include "synth/abstract_state.h"

enum rule_verdict { RULE_HOLDS, RULE_FAILS, RULE_UNDECIDED };

/* The CFA rule at address RIP, in state ST. */
enum rule_verdict rule_eval_cfa(const struct unwind_rule *cfa, const struct abs_state *st,
                                uint64_t rip);

/* The rule of column REG (a callee-saved register or ABI_RA) at RIP, in ST. */
enum rule_verdict rule_eval_reg(const struct unwind_rule *rule, unsigned reg,
                                const struct abs_state *st, uint64_t rip);

#endif
