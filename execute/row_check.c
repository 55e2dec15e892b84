/* SPDX-License-Identifier: Apache-2.0 */
#include "row_check.h"

#include <string.h>

#include "semantics/dwarf_expr.h"
#include "semantics/unwind_limits.h"

/* One evaluation: the machine, and the registers the rule read. */
struct evaluation {
    const struct live_machine *m;
    struct run_witness *w;
};

static void note_reg(struct run_witness *w, unsigned reg, uint64_t value)
{
    for (unsigned i = 0; i < w->nregs; i++)
        if (w->reg[i] == reg)
            return;
    if (w->nregs < RUN_WITNESS_REGS) {
        w->reg[w->nregs] = (uint8_t)reg;
        w->reg_value[w->nregs++] = value;
    }
}

static int read_reg(void *arg, unsigned reg, uint64_t *value)
{
    struct evaluation *e = arg;
    if (reg > ABI_RA)
        return -1;
    *value = e->m->regs[reg];
    note_reg(e->w, reg, *value);
    return 0;
}

static int read_mem(void *arg, uint64_t addr, unsigned size, uint64_t *value)
{
    struct evaluation *e = arg;
    uint64_t word;
    if (e->m->read_mem(e->m->arg, addr, &word) != 0)
        return -1;
    *value = size >= 8 ? word : word & ((1ull << (size * 8)) - 1);
    return 0;
}

/* The value of expression RULE (with INITIAL pushed first when not NULL);
 * 0, or -1 when it cannot be evaluated here. */
static int eval_expr(const struct unwind_rule *rule, const uint64_t *initial, struct evaluation *e,
                     uint64_t *out)
{
    struct dwarf_op ops[UNWIND_EXPR_MAX_OPS];
    const char *why;
    int n = dwarf_expr_decode(rule->expr, rule->expr_len, 8, ops, UNWIND_EXPR_MAX_OPS, &why);
    if (n < 0)
        return -1;
    struct dwarf_expr_env env = {read_reg, read_mem, e};
    return dwarf_expr_eval(ops, (size_t)n, &env, initial, out, &why) == 0 ? 0 : -1;
}

static void keep_rule(struct run_witness *w, int column, const struct unwind_rule *rule)
{
    w->column = column;
    w->rule = *rule;
    w->rule.expr = NULL;
}

/* The caller's value of callee-saved or return-address column COL under
 * RULE with the CFA at CFA: 1 and *OUT, 0 when the rule says nothing to
 * check (undefined), -1 when it cannot be evaluated. */
static int column_value(const struct unwind_rule *rule, int col, uint64_t cfa, struct evaluation *e,
                        uint64_t *out)
{
    uint64_t at;
    switch (rule->kind) {
    case REG_RULE_UNREFERENCED:
    case REG_RULE_SAME_VALUE:
        if (col == ABI_RA)
            return 0;   /* an unmentioned return address: no unwinder reads one so */
        return read_reg(e, (unsigned)col, out) == 0 ? 1 : -1;
    case REG_RULE_OFFSET:
        return read_mem(e, cfa + (uint64_t)rule->offset, 8, out) == 0 ? 1 : -1;
    case REG_RULE_VAL_OFFSET:
        *out = cfa + (uint64_t)rule->offset;
        return 1;
    case REG_RULE_REGISTER:
        return read_reg(e, rule->reg, out) == 0 ? 1 : -1;
    case REG_RULE_EXPRESSION:
        if (eval_expr(rule, &cfa, e, &at) != 0)
            return -1;
        return read_mem(e, at, 8, out) == 0 ? 1 : -1;
    case REG_RULE_VAL_EXPRESSION:
        return eval_expr(rule, &cfa, e, out) == 0 ? 1 : -1;
    default:   /* undefined: imprecise, never wrong; unknown: not DWARF's */
        return 0;
    }
}

/* Whether the row gives the caller's rsp, the true CFA: the CFA itself
 * where rsp has no rule (x86_64's default), else rsp's own rule.  When it
 * does not, E's witness says why. */
static int caller_rsp_holds(const struct unwind_row *row, uint64_t cfa, const struct shadow_frame *truth,
                            struct evaluation *e)
{
    const struct unwind_rule *rsp_rule = &row->reg[ABI_RSP];
    uint64_t rsp = cfa;
    int rc = 1, column = ABI_RSP;
    const struct unwind_rule *rule = rsp_rule;
    if (rsp_rule->kind == REG_RULE_UNREFERENCED || rsp_rule->kind == REG_RULE_UNDEFINED) {
        column = RUN_COLUMN_CFA;
        rule = &row->cfa;
    } else {
        rc = column_value(rsp_rule, ABI_RSP, cfa, e, &rsp);
    }
    if (rc == 0 || (rc == 1 && rsp == truth->cfa))
        return 1;
    keep_rule(e->w, column, rule);
    e->w->gave_ok = rc == 1;
    e->w->gave = rsp;
    e->w->truth = truth->cfa;
    return 0;
}

/* Whether the frame's return-address slot still holds the return address
 * it was entered with (else the program redirected its return on purpose). */
static int return_slot_kept(const struct shadow_frame *truth, const struct live_machine *m)
{
    uint64_t ra;
    return m->read_mem(m->arg, truth->cfa + ABI_ENTRY_RA_OFFSET, &ra) == 0 && ra == truth->ra;
}

static enum row_verdict judge(const struct unwind_row *row, const struct shadow_frame *truth,
                              const struct live_machine *m, struct run_witness *w)
{
    memset(w, 0, sizeof *w);
    struct evaluation e = {m, w};
    uint64_t cfa;
    if (row->cfa.kind == CFA_RULE_REG_OFFSET && abi_call_clobbered(row->cfa.reg) &&
        m->regs[row->cfa.reg] == truth->entry_regs[row->cfa.reg])
        return ROW_OTHER_FRAME;
    if (row->cfa.kind == CFA_RULE_REG_OFFSET) {
        if (read_reg(&e, row->cfa.reg, &cfa) != 0)
            return ROW_UNCHECKABLE;
        cfa += (uint64_t)row->cfa.offset;
    } else if (row->cfa.kind == CFA_RULE_EXPRESSION) {
        if (eval_expr(&row->cfa, NULL, &e, &cfa) != 0)
            return ROW_UNCHECKABLE;
    } else {
        return ROW_UNCHECKABLE;
    }
    if (!caller_rsp_holds(row, cfa, truth, &e))
        return ROW_REFUTED;
    unsigned cfa_nregs = w->nregs;   /* a column's witness shows the CFA's registers too */
    static const int columns[] = {ABI_RA, ABI_RBX, ABI_RBP, ABI_R12, ABI_R13, ABI_R14, ABI_R15};
    for (unsigned i = 0; i < sizeof columns / sizeof columns[0]; i++) {
        int col = columns[i];
        uint64_t want = col == ABI_RA ? truth->ra : truth->entry_regs[col];
        uint64_t got = 0;
        w->nregs = cfa_nregs;
        int rc = column_value(&row->reg[col], col, cfa, &e, &got);
        if (rc == 0 || (rc == 1 && got == want))
            continue;
        keep_rule(w, col, &row->reg[col]);
        w->gave_ok = rc == 1;
        w->gave = got;
        w->truth = want;
        return ROW_REFUTED;
    }
    memset(w, 0, sizeof *w);
    return ROW_HELD;
}

enum row_verdict row_check(const struct unwind_row *row, const struct shadow_frame *truth,
                           const struct live_machine *m, struct run_witness *w)
{
    enum row_verdict v = judge(row, truth, m, w);
    if (v == ROW_REFUTED && !return_slot_kept(truth, m))
        return ROW_OTHER_FRAME;
    return v;
}
