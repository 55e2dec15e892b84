/* SPDX-License-Identifier: Apache-2.0 */
/*
 * check: DWARF rules evaluated in synthesised states, and whole-table checks.
 */
#include "check.h"

#include "semantics/dwarf_constants.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/sorted_search.h"
#include "object/debug_info.h"
#include "object/elf_file.h"
#include "sys/error.h"
#include "semantics/abi.h"
#include "semantics/dwarf_constants.h"
#include "semantics/dwarf_expr.h"
#include "semantics/print/table_print.h"
#include "synth/function_code.h"
#include "synth/program.h"
#include "verify/audit/audit_input.h"
#include "verify/audit/no_unwind.h"
#include "verify/audit/excerpt.h"
#include "verify/audit/fde_coverage.h"
#include "verify/audit/fix.h"
#include "verify/rules/own_cfa.h"
#include "verify/rules/prover.h"
#include "verify/rules/rule_eval.h"
#include "verify/audit/rule_words.h"
#include "verify/sframe/sframe_check.h"
#include "verify/rules/slot_truth.h"
#include "verify/rules/frame_exit.h"

void check_result_release(struct check_result *r)
{
    free(r->findings);
    memset(r, 0, sizeof *r);
}

size_t check_count(const struct check_result *r, enum severity at_least)
{
    size_t n = 0;
    for (size_t i = 0; i < r->nfindings; i++)
        n += r->findings[i].severity >= at_least;
    return n;
}

/* A case of a jump table that leaves the function, with the state the
 * jump carries there (the last, final one of the flows). */
struct table_case {
    uint64_t from, target;
    struct abstract_state state;
};

struct checker {
    struct check_result *r;
    struct fde_lookup *dw;
    struct fde_lookup targets;         /* the rows at the targets of jumps into other FDEs */
    const struct function_range *func;
    int func_entered_ordinarily;       /* FUNC starts in the ABI's entry state */
    size_t func_first_finding;     /* findings of the current function start here */
    const struct eh_frame_fde *last_fde;    /* the row counted last: its FDE and start */
    uint64_t last_row_start;
    struct rule_judge judge;
    const struct synth_program *prog;
    struct table_case *cases;          /* the current function's jump-table cases out of it */
    size_t ncases, cases_cap;
    const struct counterexample *cx;   /* for the finding added next, or NULL */
    check_at_fn at;                    /* told every address's verdicts, or NULL */
    void *at_arg;
    struct sframe_check *sframe;       /* the .sframe audit (verify/sframe/sframe_check), or NULL */
    int oom;
};

static struct finding *add_finding(struct checker *c, enum finding_kind kind, int column, uint64_t addr,
                                   const char *dwarf, const char *synth, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));

/* A finding of KIND (its severity the kind's) in the current function.
 * Returns it when it is new (its claim and code are then the caller's to
 * write), NULL when it only counts one more address of one already made
 * (or memory ran out). */
static struct finding *add_finding(struct checker *c, enum finding_kind kind, int column, uint64_t addr,
                                   const char *dwarf, const char *synth, const char *fmt, ...)
{
    struct check_result *r = c->r;
    /* One finding per (function, kind, column): later addresses only count. */
    for (size_t i = c->func_first_finding; i < r->nfindings; i++) {
        struct finding *f = &r->findings[i];
        if (f->kind == kind && f->column == column && f->function_start == (c->func ? c->func->lo : 0)) {
            f->count++;
            return NULL;
        }
    }
    if (r->nfindings == r->cap) {
        size_t ncap = r->cap ? r->cap * 2 : 16;
        struct finding *n = realloc(r->findings, ncap * sizeof *n);
        if (!n) {
            c->oom = 1;
            return NULL;
        }
        r->findings = n;
        r->cap = ncap;
    }
    struct finding *f = &r->findings[r->nfindings++];
    memset(f, 0, sizeof *f);
    f->kind = (uint8_t)kind;
    f->severity = (uint8_t)finding_kind_severity(kind);
    f->column = column;
    f->address = addr;
    f->count = 1;
    f->insn_index = -1;   /* place_findings */
    if (c->func) {
        snprintf(f->function, sizeof f->function, "%s", c->func->name);
        f->function_start = c->func->lo;
    }
    snprintf(f->dwarf, sizeof f->dwarf, "%s", dwarf ? dwarf : "");
    snprintf(f->synth, sizeof f->synth, "%s", synth ? synth : "");
    if (c->cx && c->cx->present)
        f->cx = *c->cx;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->message, sizeof f->message, fmt, ap);
    va_end(ap);
    return f;
}

/* F's words, when F is new: what the table's RULE claims of COLUMN, what
 * synthesis's SYN says the code does (VALUE: what the register holds when
 * SYN is unknown).  verify/audit/fix adds the instructions that did it. */
static void say(struct finding *f, int column, const struct unwind_rule *rule, const struct unwind_rule *syn,
                const char *value)
{
    if (!f)
        return;
    rule_words_table(f->claim, sizeof f->claim, column, rule);
    rule_words_code(f->code, sizeof f->code, column, syn, value);
}

/* Report register REG's rule, whose verdict V is known to be FAILS, or HOLDS
 * for an `undefined` rule (imprecise when synthesis knows the value).  ST is
 * the state the verdict came from. */
static void check_register(struct checker *c, const struct ir_insn *in, const struct unwind_row *dw,
                           const struct unwind_row *syn, const struct abstract_state *st, unsigned reg,
                           enum rule_verdict v)
{
    const struct unwind_rule *rule = &dw->reg[reg], *mine = &syn->reg[reg];
    const char *name = reg == ABI_RA ? "ra" : unwind_column_name((int)reg);
    char d[48], s[48], value[40] = "";
    table_print_reg_rule_plain(d, sizeof d, rule);
    table_print_reg_rule_plain(s, sizeof s, mine);
    /* No rule recovers the entry value, but the register's own value is
     * known: say what it holds instead ("rbx = 0x0"). */
    if (mine->kind == REG_RULE_UNKNOWN && reg < STATE_GPRS) {
        abstract_value_text(st->reg[reg], value, sizeof value);
        if (value[0])
            snprintf(s, sizeof s, "%s = %s", name, value);
    }
    if (v == RULE_HOLDS) {
        if (rule->kind == REG_RULE_UNDEFINED && reg != ABI_RA && mine->kind == REG_RULE_OFFSET)
            say(add_finding(c, FINDING_IMPRECISE, (int)reg, in->addr, d, s,
                            "%s is undefined in the table, but its value is known", name),
                (int)reg, rule, mine, value);
        return;
    }
    if (reg == ABI_RA) {
        say(add_finding(c, FINDING_RA_MISMATCH, (int)reg, in->addr, d, s,
                        "ra rule %s does not give the return address", d),
            (int)reg, rule, mine, value);
        return;
    }
    /* A save synthesis knows of, while the table says unchanged. */
    int saved = mine->kind == REG_RULE_OFFSET || mine->kind == REG_RULE_EXPRESSION;
    if ((rule->kind == REG_RULE_UNREFERENCED || rule->kind == REG_RULE_SAME_VALUE) && saved)
        say(add_finding(c, FINDING_CLOBBERED, (int)reg, in->addr, d, s,
                        "%s is changed here while the table says it is unchanged", name),
            (int)reg, rule, mine, value);
    else
        say(add_finding(c, FINDING_REG_MISMATCH, (int)reg, in->addr, d, s,
                        "%s rule %s does not give %s's value on entry", name, d, name),
            (int)reg, rule, mine, value);
}

/*
 * At a call, an unwinder evaluates the caller's row with the registers it
 * recovered for the callee's return, so a rule that reads a call-clobbered
 * register there reads what the callee left in it: it holds before the
 * call, and unwinds right only if every callee leaves that register alone
 * and the unwinder carries it across frames (gdb and dwunwind do not).
 * OpenSSL's perlasm keeps the CFA in rax or r11 around calls to its own
 * helpers, which leave them alone: a warning, not an error.  (GCC's DRAP
 * prologue keeps the CFA in r10 only until it has saved r10's value on the
 * stack, before any call.)  Signal frames are exempt: all their registers
 * are recovered.
 */
static void check_call_site(struct checker *c, const struct ir_insn *in, const struct unwind_row *dw,
                            const struct eh_frame_fde *fde)
{
    if ((in->flow != IR_FLOW_CALL && in->flow != IR_FLOW_CALL_INDIRECT) || !fde || fde->cie->signal_frame)
        return;
    for (int col = -1; col <= (int)ABI_NCALLEE_SAVED; col++) {
        unsigned reg = col < 0 ? 0 : col < ABI_NCALLEE_SAVED ? abi_callee_saved_regs[col] : ABI_RA;
        const struct unwind_rule *rule = col < 0 ? &dw->cfa : &dw->reg[reg];
        int read = unwind_rule_call_clobbered_read(rule, col < 0);
        if (read < 0)
            continue;
        char d[48];
        if (col < 0)
            table_print_cfa_rule(d, sizeof d, rule);
        else
            table_print_reg_rule_plain(d, sizeof d, rule);
        const char *what = col < 0 ? "CFA" : reg == ABI_RA ? "ra" : unwind_column_name((int)reg);
        add_finding(c, FINDING_CALL_CLOBBERED_RULE, col < 0 ? -1 : (int)reg, in->addr, d,
                    NULL, "at this call the %s rule %s reads %s, which the callee may change: unwinding "
                    "through the call reads the callee's value", what, d, dwarf_reg_name((unsigned)read));
    }
}

/* The verdict V on a jump at FROM (in FDE FROM_FDE) into another FDE. */
static void report_cross_fde(struct checker *c, uint64_t from, const struct eh_frame_fde *from_fde,
                             enum rule_verdict v, const struct cross_fde *x)
{
    if (!x->target_fde || v == RULE_UNDECIDED)
        return;
    c->r->cross_fde_checked++;
    if (v != RULE_FAILS)
        return;
    const char *what = x->column < 0 ? "CFA" : x->column == ABI_RA ? "ra" : unwind_column_name(x->column);
    c->cx = &x->answer.cx;
    add_finding(c, FINDING_CROSS_FDE_MISMATCH, x->column, from, x->rule, NULL,
                "the jump to 0x%llx enters the FDE at offset 0x%llx, whose %s rule there, %s, does not "
                "hold in the frame it arrives with (this FDE: offset 0x%llx)",
                (unsigned long long)x->target, (unsigned long long)x->target_fde->offset, what, x->rule,
                (unsigned long long)from_fde->offset);
    c->cx = NULL;
}

/* Is IN the bound check of a switch (synth/function_code)?  A jump to its
 * default is not checked against the row there, as cases past a table's
 * bound are not.  In the code being observed. */
static int bounds_a_switch(const struct checker *c, const struct ir_insn *in)
{
    const struct function_code *code = c->prog->session.observed;
    return code && in >= code->insns && in < code->insns + code->n &&
           function_code_bounds_a_switch(code, (size_t)(in - code->insns));
}

/* A ret that does not pop the return address; a jump into another FDE
 * whose row does not hold in the jumping state (verify/rules/frame_exit). */
static void check_transfer(struct checker *c, const struct ir_insn *in, const struct abstract_state *st,
                           const struct eh_frame_fde *fde)
{
    struct check_result *r = c->r;
    if (in->flow == IR_FLOW_RET) {
        if (frame_exit_is_push_jump(synthesize_previous_insn(&c->prog->session, in), in)) {
            add_finding(c, FINDING_RET_JUMP, -1, in->addr, NULL, NULL,
                        "this ret pops the word the push before it wrote: a jump through the stack, "
                        "the frame still in place");
            return;
        }
        char why[96];
        enum rule_verdict v = frame_exit_ret(st, why, sizeof why);
        r->rets_checked += v != RULE_UNDECIDED;
        if (v == RULE_FAILS)
            add_finding(c, FINDING_RET_MISMATCH, -1, in->addr, NULL, NULL,
                        "this ret does not return to the return address: %s", why);
        return;
    }
    int leaves = fde && (in->target < fde->pc_begin || in->target - fde->pc_begin >= fde->pc_range);
    if (in->flow == IR_FLOW_COND && leaves && bounds_a_switch(c, in))
        return;
    struct cross_fde x;
    report_cross_fde(c, in->addr, fde, frame_exit_cross_fde(&c->judge, &c->targets, fde, in, st, &x), &x);
}

/* Keep the jump-table cases that leave the function (synth's exits), the
 * last state of each: the final one of the flows. */
static void collect_table_case(void *arg, uint64_t from, uint64_t target, int kind, const struct abstract_state *st)
{
    struct checker *c = arg;
    if (kind != SYNTH_EXIT_TABLE_CASE || !from)
        return;
    size_t k = 0;
    while (k < c->ncases && (c->cases[k].from != from || c->cases[k].target != target))
        k++;
    if (k == c->ncases) {
        if (c->ncases == c->cases_cap) {
            size_t cap = c->cases_cap ? 2 * c->cases_cap : 8;
            struct table_case *n = realloc(c->cases, cap * sizeof *n);
            if (!n) {
                c->oom = 1;
                return;
            }
            c->cases = n;
            c->cases_cap = cap;
        }
        c->cases[c->ncases++] = (struct table_case){from, target, {0}};
    }
    abstract_state_copy(&c->cases[k].state, st);
}

/* The current function's table cases into other FDEs, as jumps are checked. */
static void check_table_cases(struct checker *c)
{
    for (size_t k = 0; k < c->ncases; k++) {
        struct table_case *tc = &c->cases[k];
        if (synth_program_entered_ordinarily(c->prog, function_index_at(&c->prog->index, tc->target)))
            continue;   /* the data past a loosely bounded table, as synthesis reads it */
        const struct eh_frame_fde *from = fde_lookup_fde(c->dw, tc->from);
        struct cross_fde x;
        report_cross_fde(c, tc->from, from,
                         frame_exit_into(&c->judge, &c->targets, from, tc->target, &tc->state, &x), &x);
    }
    c->ncases = 0;
}


/* Does RULE give the value a register holds now (its own under "unchanged",
 * or another one), rather than a slot's? */
static int reads_register(const struct unwind_rule *rule)
{
    return rule->kind == REG_RULE_UNREFERENCED || rule->kind == REG_RULE_SAME_VALUE ||
           rule->kind == REG_RULE_REGISTER;
}

/* 4 when the code at ADDR starts with endbr64 (which CET builds put before
 * _start's .cfi_undefined rip), else 0. */
static uint64_t endbr64_at(const struct checker *c, uint64_t addr)
{
    static const uint8_t endbr64[4] = {0xf3, 0x0f, 0x1e, 0xfa};
    struct elf_section *sec = elf_file_section_at(c->prog->ef, addr);
    uint64_t n;
    char err[ELF_FILE_ERRLEN];
    const uint8_t *bytes = sec && sec->type != SHT_NOBITS
                               ? elf_file_section_bytes(c->prog->ef, sec, &n, err, sizeof err) : NULL;
    return bytes && addr - sec->addr <= n && n - (addr - sec->addr) >= 4 &&
                   memcmp(bytes + (addr - sec->addr), endbr64, 4) == 0 ? 4 : 0;
}

/* What was decided at one address, for the validated table: AT->WHAT, with
 * AT's verdicts as observe left them. */
static void tell(struct checker *c, struct check_at *at, enum check_address what)
{
    if (!c->at)
        return;
    at->what = what;
    c->at(c->at_arg, at);
}

static void observe_row(struct checker *c, const struct ir_insn *in, const struct abstract_state *st, int reached,
                        struct check_at *at);

static void observe(void *arg, const struct ir_insn *in, const struct abstract_state *st, int reached)
{
    struct checker *c = arg;
    struct check_at at = {.insn = in, .state = st, .every = st, .reached = reached, .session = &c->prog->session};
    struct abstract_state every;
    if (c->at && reached && synthesize_every_path(&c->prog->session, in, &every))
        at.every = &every;
    at.entered_ordinarily = c->func_entered_ordinarily;
    memset(at.verdict, RULE_HOLDS, sizeof at.verdict);
    at.dwarf = fde_lookup_row(c->dw, in->addr, &at.fde);
    if (at.dwarf)
        observe_row(c, in, st, reached, &at);
    else   /* not covered (gaps are reported per function), or malformed (per FDE) */
        at.what = at.fde ? CHECK_AT_KEPT : CHECK_AT_UNCOVERED;
    tell(c, &at, at.what);
    if (c->sframe)
        sframe_check_at(c->sframe, &at);
}

/* Judge the row AT->dwarf at IN in state ST: findings, counts, and AT's
 * verdicts and WHAT. */
static void observe_row(struct checker *c, const struct ir_insn *in, const struct abstract_state *st, int reached,
                        struct check_at *at)
{
    struct check_result *r = c->r;
    const struct eh_frame_fde *fde = at->fde;
    const struct unwind_row *dw = at->dwarf;
    at->what = CHECK_AT_KEPT;
    if (dw->reg[ABI_RA].kind == REG_RULE_UNDEFINED) {
        /* The end of the stack: a thread's or a process's entry (_start,
         * clone's child) says so from its FDE's first row.  Said in the
         * middle of a function whose return address synthesis knows to be
         * at CFA-8, and whose CFA a rule could give, it cuts every stack
         * through here short.  (Where synthesis cannot say the CFA, after
         * `sub %reg,%rsp`, no rule it knows would do better: the validated
         * table ends the stack there itself.) */
        const struct eh_frame_fde *same;
        const struct unwind_row *first =
            reached == 1 ? fde_lookup_row(&c->targets, fde->pc_begin + endbr64_at(c, fde->pc_begin), &same) : NULL;
        struct unwind_row syn;
        struct synth_row_exprs syn_exprs;
        if (first && first->reg[ABI_RA].kind != REG_RULE_UNDEFINED &&
            slot_holds_entry(st, AV_CFA, -8, ABI_RA) == RULE_HOLDS &&
            (emit_row_from_state(st, &syn, &syn_exprs),
             syn.cfa.kind != CFA_RULE_UNKNOWN && syn.cfa.kind != CFA_RULE_UNSET)) {
            say(add_finding(c, FINDING_RA_MISMATCH, ABI_RA, in->addr, RULE_TEXT_UNDEFINED, "c-8",
                            "ra rule undefined ends the stack here, though the return address is at c-8 "
                            "(the FDE's first row has one): unwinders stop at this frame"),
                ABI_RA, &dw->reg[ABI_RA], &syn.reg[ABI_RA], NULL);
            r->addresses_checked++;
            memset(at->verdict, RULE_UNDECIDED, sizeof at->verdict);
            at->verdict[ABI_RA] = RULE_FAILS;
            at->what = CHECK_AT_DECIDED;
            return;
        }
        r->addresses_outermost++;
        return;
    }
    if (reached == 1 && st->outermost) {
        /* Code only clone's child runs, on the stack the call gave it: no
         * frame of this function is there, nor a caller to return to. */
        char d[48];
        struct unwind_row end;
        emit_row_stack_end(&end);
        table_print_reg_rule_plain(d, sizeof d, &dw->reg[ABI_RA]);
        say(add_finding(c, FINDING_RA_MISMATCH, ABI_RA, in->addr, d, RULE_TEXT_UNDEFINED,
                        "ra rule %s where only clone's child runs, on its new stack: the outermost frame, "
                        "rip undefined (.cfi_undefined rip)", d),
            ABI_RA, &dw->reg[ABI_RA], &end.reg[ABI_RA], NULL);
        r->addresses_checked++;
        memset(at->verdict, RULE_UNDECIDED, sizeof at->verdict);
        at->verdict[ABI_RA] = RULE_FAILS;
        at->whole_row = 1;
        at->what = CHECK_AT_DECIDED;
        return;
    }
    if (reached != 1) {
        /* Nothing runs there (unreached code, padding: no unwinder ever
         * stands on it), or only a guess says what the state is. */
        r->unchecked[reached == SYNTH_GUESSED ? UNCHECKED_GUESSED
                     : reached == SYNTH_PADDING || in->is_padding ? UNCHECKED_PADDING
                                                  : UNCHECKED_UNREACHED]++;
        r->unchecked_total++;
        return;
    }
    /* A CFA read from a register that still holds an argument (CFA = rdi in
     * setcontext, __start_context) describes another frame on purpose: the
     * context being switched to.  Its rules are not this frame's. */
    if (dw->cfa.kind == CFA_RULE_REG_OFFSET && dw->cfa.reg < STATE_GPRS &&
        dw->cfa.reg != ABI_RSP && st->reg[dw->cfa.reg].kind == AV_ENTRY) {
        /* But a callee-saved register given back its caller's value (rbp
         * after an epilogue's pop) is no context: the rule was not moved
         * back to rsp, and it names the caller's frame.  (Only in a
         * function entered the ordinary way: a .cold part's entry state is
         * its parent's, which synthesis may not know.) */
        const struct abstract_value *v = &st->reg[dw->cfa.reg];
        if (abi_callee_saved(dw->cfa.reg) && v->reg == dw->cfa.reg && v->off == 0 && at->entered_ordinarily) {
            struct unwind_row syn;
            struct synth_row_exprs syn_exprs;
            char d[48], sy[48];
            emit_row_from_state(st, &syn, &syn_exprs);
            table_print_cfa_rule(d, sizeof d, &dw->cfa);
            table_print_cfa_rule(sy, sizeof sy, &syn.cfa);
            say(add_finding(c, FINDING_CFA_MISMATCH, -1, in->addr, d, sy,
                            "CFA rule %s reads %s, which holds the caller's value again: the rule was not "
                            "moved back when it was restored", d, unwind_column_name((int)dw->cfa.reg)),
                -1, &dw->cfa, &syn.cfa, NULL);
            r->addresses_checked++;
            memset(at->verdict, RULE_UNDECIDED, sizeof at->verdict);
            at->verdict[CHECK_COLUMN_CFA] = RULE_FAILS;
            at->what = CHECK_AT_DECIDED;
            return;
        }
        r->unchecked[UNCHECKED_OTHER_FRAME]++;
        r->unchecked_total++;
        return;
    }
    /* A row with a CFA of its own (and rsp's rule giving the caller's rsp)
     * is checked as the canonical row it amounts to (verify/rules/own_cfa). */
    struct unwind_row canonical;
    if (own_cfa_canonical(dw, st, &canonical) == 1) {
        dw = &canonical;
        at->whole_row = 1;
    }
    check_call_site(c, in, dw, fde);
    struct rule_answer answer;
    int signal = fde && fde->cie->signal_frame;
    enum rule_verdict cfa = rule_eval_cfa(&c->judge, &dw->cfa, st, in->addr, &answer);
    /* At the head of a loop whose turns disagree on a register, a CFA
     * the joined state cannot judge may fail on the loop's first turn. */
    const struct abstract_state *refuting = st;
    struct abstract_state first_turn;
    if (cfa == RULE_UNDECIDED && synthesize_loop_entry(at->session, in, &first_turn) &&
        rule_eval_cfa(&c->judge, &dw->cfa, &first_turn, in->addr, &answer) == RULE_FAILS) {
        cfa = RULE_FAILS;
        refuting = &first_turn;
    }
    if (dw->cfa.kind == CFA_RULE_EXPRESSION)
        r->expression_verdicts[expression_kind_of(&dw->cfa, 1, signal)][cfa]++;
    if (cfa == RULE_UNDECIDED) {
        r->unchecked[answer.timed_out ? UNCHECKED_CFA_TIMEOUT : UNCHECKED_CFA_UNKNOWN]++;
        r->unchecked_total++;
        return;
    }
    r->addresses_checked++;
    at->what = CHECK_AT_DECIDED;
    at->verdict[CHECK_COLUMN_CFA] = (uint8_t)cfa;
    if (fde != c->last_fde || dw->start != c->last_row_start) {
        r->rows_checked++;
        c->last_fde = fde;
        c->last_row_start = dw->start;
    }
    /* The synthesised row is only for messages: built when a rule fails. */
    struct unwind_row syn;
    struct synth_row_exprs syn_exprs;
    int have_syn = 0;
    if (cfa == RULE_FAILS) {
        emit_row_from_state(refuting, &syn, &syn_exprs);
        have_syn = refuting == st;
        char d[48], s[48];
        table_print_cfa_rule(d, sizeof d, &dw->cfa);
        table_print_cfa_rule(s, sizeof s, &syn.cfa);
        c->cx = &answer.cx;
        struct finding *f = add_finding(c, FINDING_CFA_MISMATCH, -1, in->addr, d, s,
                                        "CFA rule %s does not give the CFA%s", d,
                                        refuting == st ? "" : " on the loop's first turn");
        say(f, -1, &dw->cfa, &syn.cfa, NULL);
        if (f && refuting != st)   /* the turns joined leave the CFA unknown: say the first's */
            snprintf(f->code, sizeof f->code, "the CFA is %s on the loop's first turn", s);
        c->cx = NULL;
    }
    for (unsigned i = 0; i <= ABI_NCALLEE_SAVED; i++) {
        unsigned reg = i < ABI_NCALLEE_SAVED ? abi_callee_saved_regs[i] : ABI_RA;
        const struct unwind_rule *rule = &dw->reg[reg];
        enum rule_verdict v = rule_eval_reg(&c->judge, rule, reg, st, in->addr, &answer);
        at->verdict[reg] = (uint8_t)v;
        if (rule->kind == REG_RULE_EXPRESSION || rule->kind == REG_RULE_VAL_EXPRESSION)
            r->expression_verdicts[expression_kind_of(rule, 0, signal)][v]++;
        if (v == RULE_UNDECIDED) {
            if (answer.timed_out)
                r->unchecked[UNCHECKED_RULE_TIMEOUT]++;
            else if (reg != ABI_RA)
                r->unchecked[reads_register(rule) ? UNCHECKED_VALUE_UNKNOWN : UNCHECKED_SLOT_UNKNOWN]++;
            continue;
        }
        if (v == RULE_HOLDS && rule->kind != REG_RULE_UNDEFINED)
            continue;
        if (!have_syn) {
            emit_row_from_state(st, &syn, &syn_exprs);
            have_syn = 1;
        }
        c->cx = &answer.cx;
        check_register(c, in, dw, &syn, st, reg, v);
        c->cx = NULL;
    }
    check_transfer(c, in, st, fde);
}

/* A coverage finding (verify/audit/fde_coverage), on its own: in no function's
 * list of findings, never merged with another. */
static void coverage_finding(void *arg, enum finding_kind kind, uint64_t addr, const char *message)
{
    struct checker *c = arg;
    c->func_first_finding = c->r->nfindings;
    add_finding(c, kind, -1, addr, NULL, NULL, "%s", message);
}

/* An SFrame finding (verify/sframe/sframe_check): in the current function, or
 * outside the walk on its own, like a coverage finding; at a place of its
 * own (".sframe+0x1c") when it says so. */
static void sframe_finding(void *arg, const struct sframe_finding *f)
{
    struct checker *c = arg;
    if (!c->func)
        c->func_first_finding = c->r->nfindings;
    size_t n = c->r->nfindings;
    c->cx = f->cx;
    add_finding(c, f->kind, f->column, f->address, f->rule, f->synth, "%s", f->message);
    c->cx = NULL;
    if (f->place && c->r->nfindings > n) {
        struct finding *added = &c->r->findings[n];
        snprintf(added->function, sizeof added->function, "%s", f->place);
        added->function_start = f->place_start;
    }
}

/* The code around a finding, for the first EXCERPT_MAX_FINDINGS findings
 * that have an address in a function (verify/audit/excerpt). */
#define EXCERPT_MAX_FINDINGS 200

static void gather_excerpts(struct checker *c, struct synth_program *prog)
{
    for (size_t i = 0; i < c->r->nfindings && i < EXCERPT_MAX_FINDINGS; i++) {
        struct finding *f = &c->r->findings[i];
        size_t fi = function_index_at(&prog->index, f->address);
        if (fi != (size_t)-1)
            excerpt_gather(&f->excerpt, prog, c->dw, fi, f->address);
    }
}

static uint64_t ir_insn_addr_key(const void *insns, size_t i)
{
    return ((const struct ir_insn *)insns)[i].addr;
}

/* Every finding in a function placed by its instruction: how many of the
 * function's instructions come before its address (finding.h's insn_index,
 * a baseline identity's part that survives code moving). */
static void place_findings(struct checker *c, struct synth_program *prog)
{
    size_t decoded = (size_t)-1;
    struct function_code code = {0};
    int have = 0;
    for (size_t i = 0; i < c->r->nfindings; i++) {
        struct finding *f = &c->r->findings[i];
        size_t fi = function_index_at(&prog->index, f->address);
        if (fi == (size_t)-1 || prog->index.funcs[fi].lo != f->function_start)
            continue;
        if (fi != decoded) {
            if (have)
                synth_program_code_release(prog, decoded, &code);
            have = synth_program_code(prog, fi, &code) == 0;
            decoded = fi;
        }
        if (!have)
            continue;
        /* the first instruction at or past the address */
        size_t lo = sorted_count_below(code.insns, code.n, ir_insn_addr_key, f->address);
        if (lo <= INT32_MAX)
            f->insn_index = (int32_t)lo;
    }
    if (have)
        synth_program_code_release(prog, decoded, &code);
}

/* Every finding named: the symbol of its function, from the separate debug
 * file when the object is stripped, else the section and offset of the
 * function's start; and the source line of the first ones, and of their
 * fix's place, from the line table (object/debug_info). */
#define SOURCE_MAX_FINDINGS 1000

static void name_findings(struct checker *c, struct elf_file *ef)
{
    struct debug_info di;
    if (!c->r->nfindings || debug_info_open(&di, ef) != 0)
        return;
    for (size_t i = 0; i < c->r->nfindings; i++) {
        struct finding *f = &c->r->findings[i];
        if (!f->function[0])
            debug_info_name(&di, f->address, &f->function_start, f->function, sizeof f->function);
        if (i < SOURCE_MAX_FINDINGS && debug_info_line(&di, f->address, f->source, sizeof f->source) != 0)
            f->source[0] = '\0';
        fix_name_lines(&f->fix, &di);   /* where the fix goes */
    }
    debug_info_close(&di);
}

/* In a relocatable object, whose addresses are only object/object_layout's,
 * a finding's place is named by its section too: "SECTION:function". */
static void name_sections(struct elf_file *ef, struct check_result *r)
{
    for (size_t i = 0; i < r->nfindings; i++) {
        struct finding *f = &r->findings[i];
        const struct elf_section *sec = elf_file_section_at(ef, f->function[0] ? f->function_start : f->address);
        size_t n = sec ? strlen(sec->name) : 0;
        if (!sec || (strncmp(f->function, sec->name, n) == 0 && f->function[n] == '+'))
            continue;   /* none, or named "SECTION+0xOFF" already */
        char named[2 * sizeof f->function];
        snprintf(named, sizeof named, "%s:%s", sec->name, f->function);
        named[sizeof f->function - 1] = '\0';   /* a long name loses its end */
        memcpy(f->function, named, sizeof f->function);
    }
}

int check_file(const char *path, const struct check_options *opt, struct check_result *r, int *not_elf,
               char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    struct audit_input af;
    /* No .eh_frame at all: a finding, not a failure (verify/audit/no_unwind). */
    if (audit_input_open_bare(&af, path, not_elf, err, errlen) != 0)
        return -1;
    int none = no_unwind_table(&af.ef, r);
    if (none != 0) {
        elf_file_close(&af.ef);
        return none < 0 ? error_set(err, errlen, "out of memory") : 0;
    }
    if (audit_input_finish_open(&af, CHECK_NO_EH, err, errlen) != 0)
        return -1;
    int rc = check_audit_input(&af, opt, r, err, errlen);
    if (rc == 0 && af.ef.ehdr.e_type == ET_REL)
        name_sections(&af.ef, r);
    audit_input_close(&af);
    return rc;
}

static const struct check_options default_options = {.prove = CHECK_PROVE_EXPRESSIONS,
                                                     .timeout_ms = CHECK_PROVE_TIMEOUT_MS};

int check_audit_input(struct audit_input *af, const struct check_options *opt, struct check_result *r, char *err,
                      size_t errlen)
{
    memset(r, 0, sizeof *r);
    opt = opt ? opt : &default_options;
    struct synth_program *prog = &af->prog;
    struct checker c = {.r = r, .dw = &af->dw, .prog = &af->prog, .at = opt->at, .at_arg = opt->at_arg};
    /* The rows jumps arrive at, looked up apart: the lookup of the rows
     * being checked keeps its table (a jump's target would evict it). */
    if (fde_lookup_init(&c.targets, &af->prog.eh) != 0)
        return error_set(err, errlen, "out of memory");
    c.judge.prove_all = opt->prove == CHECK_PROVE_ALL;
    c.judge.prover = prover_new(opt->timeout_ms, opt->prove == CHECK_PROVE_ALL);
    if (!c.judge.prover)
        return error_set(err, errlen, "out of memory");
    r->fdes = prog->eh.nfdes;
    c.func = NULL;
    fde_coverage_table(c.dw, &af->ef, coverage_finding, &c);
    if (opt->sframe)
        c.sframe = sframe_check_open(&af->ef, &c.judge, sframe_finding, &c, &c.oom);
    for (size_t i = 0; i < prog->index.nfuncs && !c.oom; i++) {
        struct synth_outcome outcome;
        c.func = &prog->index.funcs[i];
        c.func_entered_ordinarily = synth_program_entered_ordinarily(prog, i);
        c.func_first_finding = r->nfindings;
        c.last_fde = NULL;
        fde_coverage_function(c.dw, c.func, coverage_finding, &c);
        if (synth_program_observe(prog, i, observe, collect_table_case, &c, &outcome) != 0 &&
            fde_lookup_fde(c.dw, c.func->lo))
            r->functions_unchecked++;
        check_table_cases(&c);
    }
    c.func = NULL;
    fde_coverage_tails(&af->prog, c.dw, coverage_finding, &c);
    if (c.sframe && !c.oom)
        sframe_check_missing(c.sframe, c.dw, &af->ef);
    sframe_check_close(c.sframe, &r->sframe);
    if (!c.oom) {
        gather_excerpts(&c, prog);
        fix_findings(r->findings, r->nfindings, prog, c.dw);
        place_findings(&c, prog);
        name_findings(&c, &af->ef);
    }
    struct prover_stats stats;
    prover_stats_get(c.judge.prover, &stats);
    prover_free(c.judge.prover);
    fde_lookup_release(&c.targets);
    free(c.cases);
    r->prover_rules = stats.rules;
    r->prover_linear = stats.linear;
    r->prover_queries = stats.queries;
    r->prover_cache_hits = stats.cache_hits;
    r->prover_timeouts = stats.timeouts;
    r->prove_all = c.judge.prove_all;
    r->prover_disagreements = c.judge.disagreements;
    snprintf(r->first_disagreement, sizeof r->first_disagreement, "%s", c.judge.first_disagreement);
    if (c.oom) {
        check_result_release(r);
        return error_set(err, errlen, "out of memory");
    }
    return 0;
}
