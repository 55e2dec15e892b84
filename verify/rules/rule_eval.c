/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rule_eval: the fast path over abstract values, and the prover for the
 * rest (see the header).  An expression rule always goes to the prover,
 * whose first stage is exact linear evaluation; under prove_all that stage
 * runs here instead, to be compared with z3's verdict on every rule.
 */
#include "rule_eval.h"

#include <stdio.h>
#include <string.h>

#include "semantics/print/table_print.h"
#include "verify/rules/linear_expr.h"
#include "verify/rules/prover.h"
#include "verify/rules/slot_truth.h"

static enum rule_verdict fast_reg(const struct unwind_rule *rule, unsigned reg, const struct abstract_state *st)
{
    switch (rule->kind) {
    case REG_RULE_UNDEFINED:
        return RULE_HOLDS;
    case REG_RULE_UNREFERENCED: case REG_RULE_SAME_VALUE:
        return reg < STATE_GPRS ? slot_truth_holds_entry(st->reg[reg], reg) : RULE_UNDECIDED;
    case REG_RULE_OFFSET:
        return slot_holds_entry(st, AV_CFA, rule->offset, reg);
    case REG_RULE_REGISTER:
        return rule->reg < STATE_GPRS ? slot_truth_holds_entry(st->reg[rule->reg], reg) : RULE_UNDECIDED;
    default:
        return RULE_UNDECIDED;
    }
}

static enum rule_verdict fast_cfa(const struct unwind_rule *cfa, const struct abstract_state *st)
{
    switch (cfa->kind) {
    case CFA_RULE_REG_OFFSET: {
        if (cfa->reg >= STATE_GPRS)
            return RULE_UNDECIDED;
        struct abstract_value v = st->reg[cfa->reg];
        /* The realigned stack, when the state knows the rounding: (CFA +
         * from) rounded down to 2^n, the CFA 16-byte aligned.  Down to 16
         * bytes the rounding moves nothing: ALIGNED is CFA + (from & -16);
         * to more, ALIGNED - CFA takes several values as the CFA does, and
         * no rule reg+offset gives the CFA from it on every stack. */
        if (v.kind == AV_ALIGNED && st->realigned == 1 && st->realign_log2 > 0 && st->realign_log2 < 64) {
            if (st->realign_log2 > 4)
                return RULE_FAILS;
            int64_t from = (int64_t)((uint64_t)(int64_t)st->realign_from & ~(uint64_t)15);
            return from + v.off + cfa->offset == 0 ? RULE_HOLDS : RULE_FAILS;
        }
        /* ALIGNED + k (the rounding not known) and entry(R) + k are fixed but
         * unknown relative to the CFA (a function may be handed its stack in
         * a register). */
        if (v.kind != AV_CFA)
            return RULE_UNDECIDED;
        return v.off + cfa->offset == 0 ? RULE_HOLDS : RULE_FAILS;
    }
    case CFA_RULE_UNSET:
        return RULE_FAILS;
    default:
        return RULE_UNDECIDED;
    }
}

static const char *verdict_name(enum rule_verdict v)
{
    return v == RULE_HOLDS ? "holds" : v == RULE_FAILS ? "fails" : "undecided";
}

static void disagree(struct rule_judge *j, uint64_t rip, const char *column, const char *rule,
                     enum rule_verdict fast, enum rule_verdict proved)
{
    if (fast == proved)
        return;
    if (j->disagreements++ == 0)
        snprintf(j->first_disagreement, sizeof j->first_disagreement,
                 "0x%llx: %s rule %s: fast path %s, z3 %s", (unsigned long long)rip, column, rule,
                 verdict_name(fast), verdict_name(proved));
}

/* ANSWER, or OWN; no counterexample in it yet (the rest of a counterexample
 * is written only with one: this runs for every rule at every address). */
static struct rule_answer *answer_or(struct rule_answer *answer, struct rule_answer *own)
{
    struct rule_answer *a = answer ? answer : own;
    a->verdict = RULE_UNDECIDED;
    a->timed_out = 0;
    a->cx.present = 0;
    return a;
}

enum rule_verdict rule_eval_cfa(struct rule_judge *j, const struct unwind_rule *cfa, const struct abstract_state *st,
                                uint64_t rip, struct rule_answer *answer)
{
    struct rule_answer own, *a = answer_or(answer, &own);
    int expression = cfa->kind == CFA_RULE_EXPRESSION;
    enum rule_verdict fast = RULE_UNDECIDED;
    int have_fast = expression ? j->prove_all && linear_expr_decide(cfa, 1, 0, st, rip, &fast)
                               : (fast = fast_cfa(cfa, st), 1);
    if (have_fast && !j->prove_all)
        return a->verdict = fast;
    if (!j->prover)
        return a->verdict = RULE_UNDECIDED;
    a->verdict = prover_cfa(j->prover, cfa, st, rip, &a->cx, &a->timed_out);
    if (have_fast && j->prove_all) {
        char text[48];
        table_print_cfa_rule(text, sizeof text, cfa);
        disagree(j, rip, "CFA", text, fast, a->verdict);
    }
    return a->verdict;
}

enum rule_verdict rule_eval_reg(struct rule_judge *j, const struct unwind_rule *rule, unsigned reg,
                                const struct abstract_state *st, uint64_t rip, struct rule_answer *answer)
{
    struct rule_answer own, *a = answer_or(answer, &own);
    int expression = rule->kind == REG_RULE_EXPRESSION || rule->kind == REG_RULE_VAL_EXPRESSION;
    enum rule_verdict fast = RULE_UNDECIDED;
    int have_fast = expression ? j->prove_all && linear_expr_decide(rule, 0, reg, st, rip, &fast)
                               : (fast = fast_reg(rule, reg, st), 1);
    if (have_fast && !j->prove_all)
        return a->verdict = fast;
    if (!j->prover)
        return a->verdict = RULE_UNDECIDED;
    a->verdict = prover_reg(j->prover, rule, reg, st, rip, &a->cx, &a->timed_out);
    if (have_fast && j->prove_all) {
        char text[48];
        table_print_reg_rule(text, sizeof text, rule);
        disagree(j, rip, unwind_column_name((int)reg), text, fast, a->verdict);
    }
    return a->verdict;
}
