/* SPDX-License-Identifier: Apache-2.0 */
/*
 * explain: one address's rows, rules and verdicts, with their reasons (see
 * the header).
 */
#include "explain.h"

#include <stdio.h>
#include <string.h>

#include "object/debug_info.h"
#include "sys/error.h"
#include "semantics/abi.h"
#include "semantics/dwarf_expr.h"
#include "semantics/print/table_print.h"
#include "synth/emit_row.h"
#include "verify/audit/audit_input.h"
#include "verify/audit/check.h"
#include "verify/audit/finding.h"
#include "verify/rules/prover.h"
#include "verify/rules/own_cfa.h"

/* The state before the instruction at ADDRESS, as synthesis leaves it. */
struct state_at {
    uint64_t address;
    int found, reached;
    struct abstract_state st;
};

static void take_state(void *arg, const struct ir_insn *in, const struct abstract_state *st, int reached)
{
    struct state_at *s = arg;
    if (in->addr != s->address)
        return;
    s->found = 1;
    s->reached = reached;
    if (st)
        abstract_state_copy(&s->st, st);
}

static const char *reached_text(int reached)
{
    switch (reached) {
    case 1: return "a path from the function's entry (or a jump into it) reaches it";
    case SYNTH_GUESSED: return "only a guess reaches it (an unresolved indirect jump, dead code): not checked";
    case SYNTH_PADDING: return "alignment padding or a trap no path reaches: not checked";
    default: return "no path reaches it: not checked";
    }
}

/* What ST holds in register REG, for people. */
static void register_text(const struct abstract_state *st, unsigned reg, char *buf, size_t size)
{
    char v[64];
    if (reg >= STATE_GPRS) {
        snprintf(buf, size, "%s is not tracked", reg == ABI_RA ? "rip" : dwarf_reg_name(reg));
        return;
    }
    abstract_value_text(st->reg[reg], v, sizeof v);
    if (st->reg[reg].kind == AV_ALIGNED)
        snprintf(v, sizeof v, "the realigned stack%+lld", (long long)st->reg[reg].off);
    snprintf(buf, size, "%s = %s", dwarf_reg_name(reg), v[0] ? v : "? (synthesis lost its value)");
}

/* The facts RULE's verdict rests on: what it reads in ST. */
static void why_text(const struct abstract_state *st, const struct unwind_rule *rule, int is_cfa, unsigned column,
                     const struct rule_answer *a, char *buf, size_t size)
{
    char v[96], slot[64];
    if (a->timed_out) {
        snprintf(buf, size, "z3 ran out of time (--prove-timeout)");
        return;
    }
    int expression = is_cfa ? rule->kind == CFA_RULE_EXPRESSION
                            : rule->kind == REG_RULE_EXPRESSION || rule->kind == REG_RULE_VAL_EXPRESSION;
    if (expression) {
        snprintf(buf, size, a->verdict == RULE_HOLDS ? "z3 proves it for every stack the ABI allows"
                            : a->verdict == RULE_FAILS ? "z3 refutes it (counterexample below)"
                                                       : "z3 cannot decide it: it reads what synthesis does not know");
        return;
    }
    if (is_cfa) {
        register_text(st, rule->reg, v, sizeof v);
        snprintf(buf, size, "%s", v);
        return;
    }
    switch (rule->kind) {
    case REG_RULE_UNDEFINED:
        snprintf(buf, size, "undefined is never wrong");
        return;
    case REG_RULE_OFFSET: {
        struct abstract_value s = abstract_state_slot(st, rule->offset);
        abstract_value_text(s, slot, sizeof slot);
        snprintf(buf, size, "the slot at CFA%+lld holds %s", (long long)rule->offset,
                 slot[0] ? slot : s.kind == AV_UNKNOWN ? "nothing synthesis tracks" : "a value with no short name");
        return;
    }
    case REG_RULE_REGISTER:
        register_text(st, rule->reg, buf, size);
        return;
    default:
        register_text(st, column, buf, size);
        return;
    }
}

static void explain_rules(struct explanation *x, const struct abstract_state *st, const struct unwind_row *dw,
                          struct rule_judge *j)
{
    struct unwind_row syn;
    struct synth_row_exprs exprs;
    emit_row_from_state(st, &syn, &exprs);
    for (unsigned i = 0; i <= ABI_NCALLEE_SAVED + 1; i++) {
        int is_cfa = i == 0;
        unsigned reg = is_cfa ? 0 : i <= ABI_NCALLEE_SAVED ? abi_callee_saved_regs[i - 1] : ABI_RA;
        const struct unwind_rule *rule = is_cfa ? &dw->cfa : &dw->reg[reg];
        struct explained_rule *e = &x->rules[x->nrules++];
        struct rule_answer a;
        snprintf(e->column, sizeof e->column, "%s", is_cfa ? "CFA" : reg == ABI_RA ? "ra" : unwind_column_name((int)reg));
        if (is_cfa) {
            table_print_cfa_rule(e->rule, sizeof e->rule, rule);
            table_print_cfa_rule(e->synth, sizeof e->synth, &syn.cfa);
            e->verdict = rule_eval_cfa(j, rule, st, x->address, &a);
        } else {
            table_print_reg_rule_plain(e->rule, sizeof e->rule, rule);
            table_print_reg_rule_plain(e->synth, sizeof e->synth, &syn.reg[reg]);
            e->verdict = rule_eval_reg(j, rule, reg, st, x->address, &a);
        }
        e->cx = a.cx;
        why_text(st, rule, is_cfa, reg, &a, e->why, sizeof e->why);
    }
}

int explain_address(struct audit_input *af, const struct check_options *opt, uint64_t address,
                    struct explanation *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->address = address;
    struct synth_program *prog = &af->prog;
    size_t fi = function_index_at(&prog->index, address);
    if (fi == (size_t)-1)
        return error_set(err, errlen, "no function holds 0x%llx", (unsigned long long)address);
    const struct function_range *f = &prog->index.funcs[fi];
    struct debug_info di;
    if (debug_info_open(&di, &af->ef) != 0)
        return error_set(err, errlen, "out of memory");
    out->function_start = f->lo;
    if (f->name[0])
        snprintf(out->function, sizeof out->function, "%s", f->name);
    else
        debug_info_name(&di, address, &out->function_start, out->function, sizeof out->function);
    if (debug_info_line(&di, address, out->source, sizeof out->source) != 0)
        out->source[0] = '\0';
    debug_info_close(&di);

    excerpt_gather(&out->code, prog, &af->dw, fi, address);
    static struct state_at at;   /* a state is large; one explanation at a time */
    memset(&at, 0, sizeof at);
    at.address = address;
    struct synth_outcome outcome;
    synth_program_observe(prog, fi, take_state, NULL, &at, &outcome);
    snprintf(out->reached, sizeof out->reached, "%s",
             at.found ? reached_text(at.reached) : "no instruction starts there");
    const struct eh_frame_fde *fde;
    const struct unwind_row *dw = fde_lookup_row(&af->dw, address, &fde);
    if (fde) {
        out->covered = 1;
        out->fde_offset = fde->offset;
        out->fde_lo = fde->pc_begin;
        out->fde_hi = fde->pc_begin + fde->pc_range;
    }
    if (!dw || !at.found || at.reached != 1)
        return 0;
    int prove_all = opt && opt->prove == CHECK_PROVE_ALL;
    struct rule_judge judge = {.prover = prover_new(opt ? opt->timeout_ms : CHECK_PROVE_TIMEOUT_MS, prove_all),
                               .prove_all = prove_all};
    if (!judge.prover)
        return error_set(err, errlen, "out of memory");
    /* The row again: the prover's lookups leave the table where it was. */
    struct unwind_row row = *dw, canonical;
    out->own_cfa = own_cfa_canonical(&row, &at.st, &canonical) == 1;
    explain_rules(out, &at.st, out->own_cfa ? &canonical : &row, &judge);
    prover_free(judge.prover);
    for (size_t i = 0; i < out->nrules; i++) {
        struct explained_rule *e = &out->rules[i];
        if (e->verdict != RULE_FAILS)
            continue;
        int column = i == 0 ? -1 : i <= ABI_NCALLEE_SAVED ? (int)abi_callee_saved_regs[i - 1] : ABI_RA;
        const struct unwind_rule *rule = column < 0 ? &row.cfa : &row.reg[column];
        int in_place = rule->kind == REG_RULE_UNREFERENCED || rule->kind == REG_RULE_SAME_VALUE;
        int kind = column < 0 ? FINDING_CFA_MISMATCH : column == ABI_RA ? FINDING_RA_MISMATCH
                   : in_place ? FINDING_CLOBBERED : FINDING_REG_MISMATCH;
        fix_rule_at(&e->fix, e->code, sizeof e->code, prog, &af->dw, fi, address, column, kind);
        if (debug_info_open(&di, &af->ef) == 0) {
            fix_name_lines(&e->fix, &di);
            debug_info_close(&di);
        }
    }
    return 0;
}
