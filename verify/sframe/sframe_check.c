/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sframe_check: SFrame rows judged in synthesised states, and against
 * .eh_frame (see the header).
 */
#include "sframe_check.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "semantics/abi.h"
#include "semantics/dwarf_constants.h"
#include "semantics/dwarf_expr.h"
#include "semantics/print/table_print.h"
#include "synth/emit_row.h"
#include "synth/synthesize.h"
#include "verify/sframe/sframe_tables.h"

/* SFrame's columns, in the order of a row's verdicts here. */
enum { SF_CFA, SF_RBP, SF_RA, SF_COLUMNS };
static const int sf_column[SF_COLUMNS] = {-1, ABI_RBP, ABI_RA};
static const char *const sf_column_name[SF_COLUMNS] = {"CFA", "rbp", "ra"};
static const enum finding_kind sf_mismatch[SF_COLUMNS] = {
    FINDING_SFRAME_CFA_MISMATCH, FINDING_SFRAME_FP_MISMATCH, FINDING_SFRAME_RA_MISMATCH};

struct sframe_check {
    struct sframe_tables tables;
    struct rule_judge *judge;
    sframe_finding_fn fn;
    void *arg;
    struct check_sframe counts;
    const struct sframe_function *last_func;   /* the row counted last: its function and start */
    uint64_t last_row_start;
};

static void emit(struct sframe_check *s, const struct sframe_finding *proto, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* PROTO with its message written from FMT. */
static void emit(struct sframe_check *s, const struct sframe_finding *proto, const char *fmt, ...)
{
    char message[sizeof ((struct finding *)0)->message];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    struct sframe_finding f = *proto;
    f.message = message;
    s->fn(s->arg, &f);
}

/* sframe_tables' report of a malformed part: at its function when the FDE
 * said where that is, else at its place in the section (".sframe+0x1c"). */
static void malformed(void *arg, uint64_t func_addr, uint64_t offset, const char *message)
{
    struct sframe_check *s = arg;
    struct sframe_finding f = {.kind = FINDING_MALFORMED_SFRAME, .column = -1, .address = func_addr};
    if (!func_addr) {
        f.place = ".sframe";
        f.place_start = s->tables.section_addr;
        f.address = s->tables.section_addr + offset;
    }
    emit(s, &f, "%s", message);
}

struct sframe_check *sframe_check_open(struct elf_file *ef, struct rule_judge *judge, sframe_finding_fn fn,
                                       void *arg, int *oom)
{
    if (!elf_file_section(ef, ".sframe"))
        return NULL;
    struct sframe_check *s = calloc(1, sizeof *s);
    if (!s) {
        *oom = 1;
        return NULL;
    }
    s->judge = judge;
    s->fn = fn;
    s->arg = arg;
    if (sframe_tables_read(&s->tables, ef, malformed, s) != 0) {
        sframe_check_close(s, NULL);
        *oom = 1;
        return NULL;
    }
    s->counts.present = 1;
    s->counts.version = s->tables.header_ok ? s->tables.header.version : 0;
    s->counts.fdes = s->tables.fdes;
    return s;
}

void sframe_check_close(struct sframe_check *s, struct check_sframe *out)
{
    if (!s)
        return;
    if (out)
        *out = s->counts;
    sframe_tables_release(&s->tables);
    free(s);
}

/* ---- the rows in the synthesised states --------------------------------------- */

/* What synthesis has for column K at ST, as a rule's text ("rbx = 0x0" when
 * no rule recovers a register whose own value is known). */
static void synth_text(const struct abstract_state *st, int k, char *buf, size_t size)
{
    struct unwind_row syn;
    struct synth_row_exprs exprs;
    emit_row_from_state(st, &syn, &exprs);
    if (k == SF_CFA) {
        table_print_cfa_rule(buf, size, &syn.cfa);
        return;
    }
    unsigned reg = (unsigned)sf_column[k];
    table_print_reg_rule(buf, size, &syn.reg[reg]);
    char value[40];
    if (syn.reg[reg].kind == REG_RULE_UNKNOWN && reg < STATE_GPRS) {
        abstract_value_text(st->reg[reg], value, sizeof value);
        if (value[0])
            snprintf(buf, size, "%s = %s", sf_column_name[k], value);
    }
}

/* An expression of the shape SFrame V3 writes, DW_OP_bregN OFF, then
 * DW_OP_deref in a CFA rule, as readelf --sframe shows it: "(rbp-8)" for
 * the word at rbp-8 (a CFA read there, or a register saved there); 0 when
 * the expression is of another shape. */
static int breg_text(const struct unwind_rule *rule, int is_cfa, char *buf, size_t size)
{
    struct dwarf_op ops[3];
    const char *why;
    int n = rule->expr ? dwarf_expr_decode(rule->expr, rule->expr_len, 8, ops, 3, &why) : -1;
    if (n != (is_cfa ? 2 : 1) || ops[0].opcode < DW_OP_breg0 || ops[0].opcode > DW_OP_breg0 + 31 ||
        (is_cfa && ops[1].opcode != DW_OP_deref))
        return 0;
    const char *reg = dwarf_reg_name(ops[0].opcode - DW_OP_breg0);
    snprintf(buf, size, "(%s%+lld)", reg ? reg : "?", (long long)ops[0].operand2);
    return 1;
}

/* Column K of ROW as dwtable prints it, an SFrame-shaped expression as
 * readelf --sframe does (two "exp" would say nothing of how they differ). */
static void rule_text(const struct unwind_row *row, int k, char *buf, size_t size)
{
    const struct unwind_rule *rule = k == SF_CFA ? &row->cfa : &row->reg[sf_column[k]];
    int expression = k == SF_CFA ? rule->kind == CFA_RULE_EXPRESSION : rule->kind == REG_RULE_EXPRESSION;
    if (expression && breg_text(rule, k == SF_CFA, buf, size))
        return;
    if (k == SF_CFA)
        table_print_cfa_rule(buf, size, rule);
    else
        table_print_reg_rule(buf, size, rule);
}

/* Column K of the SFrame ROW, which state ST at AT refutes (ANSWER): AT's
 * own, or the state a loop headed at AT is entered with. */
static void report_mismatch(struct sframe_check *s, const struct check_at *at, const struct abstract_state *st,
                            const struct unwind_row *row, int k, const struct rule_answer *answer)
{
    char rule[48], syn[96], eh[64] = "";
    rule_text(row, k, rule, sizeof rule);
    synth_text(st, k, syn, sizeof syn);
    if (st != at->state)
        snprintf(syn + strlen(syn), sizeof syn - strlen(syn), " on the loop's first turn");
    if (at->dwarf) {
        char d[48];
        rule_text(at->dwarf, k, d, sizeof d);
        snprintf(eh, sizeof eh, "; .eh_frame: %s", d);
    }
    struct sframe_finding f = {.kind = sf_mismatch[k], .column = sf_column[k], .address = at->insn->addr,
                               .rule = rule, .synth = syn, .cx = answer->cx.present ? &answer->cx : NULL};
    if (k == SF_CFA)
        emit(s, &f, "SFrame CFA rule %s does not give the CFA (synthesis: %s%s)", rule, syn, eh);
    else if (k == SF_RA)
        emit(s, &f, "SFrame ra rule %s does not give the return address (synthesis: %s%s)", rule, syn, eh);
    else if (row->reg[ABI_RBP].kind == REG_RULE_UNREFERENCED)
        emit(s, &f, "SFrame does not track rbp here (unchanged), but the code has changed it "
                    "(synthesis: %s%s)", syn, eh);
    else
        emit(s, &f, "SFrame rbp rule %s does not give rbp's value on entry (synthesis: %s%s)", rule, syn, eh);
}

/*
 * A CFA based on a register that holds an entry value: as verify/audit/check
 * judges DWARF's, an argument (setcontext's rdi) names another context and
 * is not checked, while rbp given back its caller's value (after an
 * epilogue's pop, the rule not moved back to rsp) is wrong in a function
 * entered the ordinary way.  Returns 0 when the CFA is not of that kind,
 * 1 when it is wrong (reported), 2 when it is another context's.
 */
static int cfa_reads_entry_value(struct sframe_check *s, const struct check_at *at, const struct unwind_row *row)
{
    const struct unwind_rule *cfa = &row->cfa;
    if (cfa->kind != CFA_RULE_REG_OFFSET || cfa->reg >= STATE_GPRS || cfa->reg == ABI_RSP ||
        at->state->reg[cfa->reg].kind != AV_ENTRY)
        return 0;
    const struct abstract_value *v = &at->state->reg[cfa->reg];
    if (!abi_callee_saved(cfa->reg) || v->reg != cfa->reg || v->off != 0 || !at->entered_ordinarily)
        return 2;
    char rule[48], syn[48];
    rule_text(row, SF_CFA, rule, sizeof rule);
    synth_text(at->state, SF_CFA, syn, sizeof syn);
    struct sframe_finding f = {.kind = FINDING_SFRAME_CFA_MISMATCH, .column = -1, .address = at->insn->addr,
                               .rule = rule, .synth = syn};
    emit(s, &f, "SFrame CFA rule %s reads %s, which holds the caller's value again (synthesis: %s)", rule,
         unwind_column_name((int)cfa->reg), syn);
    return 1;
}

/* Count the address checked, and its row the first time. */
static void count_checked(struct sframe_check *s, const struct sframe_function *func, const struct unwind_row *row)
{
    s->counts.addresses_checked++;
    if (func != s->last_func || row->start != s->last_row_start) {
        s->counts.rows_checked++;
        s->last_func = func;
        s->last_row_start = row->start;
    }
}

/* Judge ROW's rules at AT: findings, counts, and VERDICT (enum rule_verdict
 * per SFrame column; RULE_UNDECIDED where not judged). */
static void judge_row(struct sframe_check *s, const struct check_at *at, const struct sframe_function *func,
                      const struct unwind_row *row, uint8_t verdict[SF_COLUMNS])
{
    memset(verdict, RULE_UNDECIDED, SF_COLUMNS);
    if (row->reg[ABI_RA].kind == REG_RULE_UNDEFINED) {
        s->counts.addresses_outermost++;   /* the end of the stack: nothing to find */
        return;
    }
    /* Unreached code, padding, a guessed state: nothing runs there, or
     * only a guess says what the state is (as for DWARF's rows). */
    int entry = at->reached == 1 ? cfa_reads_entry_value(s, at, row) : 0;
    if (at->reached != 1 || entry == 2) {
        s->counts.unchecked++;
        return;
    }
    if (entry == 1) {
        count_checked(s, func, row);
        verdict[SF_CFA] = RULE_FAILS;
        return;
    }
    uint64_t addr = at->insn->addr;
    struct rule_answer answer;
    verdict[SF_CFA] = (uint8_t)rule_eval_cfa(s->judge, &row->cfa, at->state, addr, &answer);
    /* At the head of a loop whose turns disagree on a register, a CFA
     * the joined state cannot judge may fail on the loop's first turn. */
    const struct abstract_state *refuting = at->state;
    struct abstract_state first_turn;
    if (verdict[SF_CFA] == RULE_UNDECIDED && synthesize_loop_entry(at->session, at->insn, &first_turn) &&
        rule_eval_cfa(s->judge, &row->cfa, &first_turn, addr, &answer) == RULE_FAILS) {
        verdict[SF_CFA] = RULE_FAILS;
        refuting = &first_turn;
    }
    if (verdict[SF_CFA] == RULE_UNDECIDED) {
        s->counts.unchecked++;
        return;
    }
    count_checked(s, func, row);
    if (verdict[SF_CFA] == RULE_FAILS)
        report_mismatch(s, at, refuting, row, SF_CFA, &answer);
    /* Where .eh_frame ends the stack (a thread's entry, which SFrame V1
     * cannot say), there is no caller for rbp to be given back to: only
     * the return address is compared (sframe-eh-frame-differ). */
    int outermost = at->dwarf && at->dwarf->reg[ABI_RA].kind == REG_RULE_UNDEFINED;
    for (int k = SF_RBP; k < SF_COLUMNS; k++) {
        unsigned reg = (unsigned)sf_column[k];
        if (k == SF_RBP && outermost)
            continue;
        verdict[k] = (uint8_t)rule_eval_reg(s->judge, &row->reg[reg], reg, at->state, addr, &answer);
        if (verdict[k] == RULE_FAILS)
            report_mismatch(s, at, at->state, row, k, &answer);
    }
}

/* ---- against .eh_frame ------------------------------------------------------------ */

/* Whether column K says the same in the DWARF row DW and the SFrame row SF.
 * SFrame's untracked rbp is DWARF's unreferenced or same_value; where
 * either row ends the stack (ra undefined) only ra matters. */
static int same_rule(const struct unwind_row *dw, const struct unwind_row *sf, int k)
{
    int outermost = dw->reg[ABI_RA].kind == REG_RULE_UNDEFINED || sf->reg[ABI_RA].kind == REG_RULE_UNDEFINED;
    if (k == SF_CFA)
        return outermost || unwind_cfa_rule_equal(&dw->cfa, &sf->cfa);
    const struct unwind_rule *a = &dw->reg[sf_column[k]], *b = &sf->reg[sf_column[k]];
    if (k == SF_RBP) {
        if (outermost)
            return 1;
        int a_unchanged = a->kind == REG_RULE_UNREFERENCED || a->kind == REG_RULE_SAME_VALUE;
        int b_unchanged = b->kind == REG_RULE_UNREFERENCED || b->kind == REG_RULE_SAME_VALUE;
        if (a_unchanged || b_unchanged)
            return a_unchanged && b_unchanged;
    }
    return unwind_rule_equal(a, b);
}

/* The SFrame row SF at AT against AT's DWARF row, with SFrame's verdicts
 * SV and DWARF's (AT's, where the audit decided the address). */
static void compare_with_eh_frame(struct sframe_check *s, const struct check_at *at, const struct unwind_row *sf,
                                  const uint8_t sv[SF_COLUMNS])
{
    if (at->reached != 1)
        return;   /* nothing runs there: neither row is judged */
    for (int k = 0; k < SF_COLUMNS; k++) {
        if (same_rule(at->dwarf, sf, k))
            continue;
        int dv = at->what != CHECK_AT_DECIDED ? RULE_UNDECIDED
                 : at->verdict[k == SF_CFA ? CHECK_COLUMN_CFA : sf_column[k]];
        /* One proved wrong has its own finding; both right are two ways of
         * saying the same thing here. */
        if (sv[k] == RULE_FAILS || dv == RULE_FAILS || (sv[k] == RULE_HOLDS && dv == RULE_HOLDS))
            continue;
        static const char *const said[] = {"holds", "fails", "is not decided"};   /* enum rule_verdict */
        char rule[48], d[48];
        rule_text(sf, k, rule, sizeof rule);
        rule_text(at->dwarf, k, d, sizeof d);
        struct sframe_finding f = {.kind = FINDING_SFRAME_DIFFERS, .column = sf_column[k],
                                   .address = at->insn->addr, .rule = rule};
        emit(s, &f, "SFrame's %s rule %s is not .eh_frame's, %s: SFrame's %s, .eh_frame's %s", sf_column_name[k],
             rule, d, said[sv[k]], dv == RULE_UNDECIDED && at->what != CHECK_AT_DECIDED ? "is not judged here"
                                                                                      : said[dv]);
    }
}

void sframe_check_at(struct sframe_check *s, const struct check_at *at)
{
    const struct sframe_function *func;
    const struct unwind_row *row = sframe_tables_row_at(&s->tables, at->insn->addr, &func);
    if (!row)
        return;
    uint8_t verdict[SF_COLUMNS];
    judge_row(s, at, func, row, verdict);
    if (at->dwarf)
        compare_with_eh_frame(s, at, row, verdict);
}

/* ---- what SFrame leaves out ---------------------------------------------------------- */

enum rule_search { CFA_EXPRESSION, REG_EXPRESSION, REG_IN_REGISTER };

/* The column (-1 the CFA) of the first rule of T's rows of kind WHAT, or -2. */
static int find_rule(const struct unwind_table *t, enum rule_search what)
{
    for (size_t i = 0; i < t->nrows; i++) {
        const struct unwind_row *r = &t->rows[i];
        if (what == CFA_EXPRESSION && r->cfa.kind == CFA_RULE_EXPRESSION)
            return -1;
        for (int reg = 0; reg < UNWIND_COLUMNS && what != CFA_EXPRESSION; reg++) {
            uint8_t kind = r->reg[reg].kind;
            if (what == REG_IN_REGISTER ? kind == REG_RULE_REGISTER
                                        : kind == REG_RULE_EXPRESSION || kind == REG_RULE_VAL_EXPRESSION)
                return reg;
        }
    }
    return -2;
}

/*
 * Why SFrame has no FDE for the DWARF table T, when T shows a reason: into
 * BUF, or NULL.  gas drops a function's SFrame FDE for the first directive
 * it cannot translate, so the reasons come in the order of what is surely
 * not translatable (.cfi_escape, .cfi_register) to what a version cannot
 * say (a CFA in another register, an outermost frame in V1).
 */
static const char *missing_reason(const struct unwind_table *t, unsigned version, char *buf, size_t size)
{
    if (find_rule(t, CFA_EXPRESSION) == -1)
        return "its CFA is a DWARF expression (GCC's DRAP, stack realignment)";
    int col = find_rule(t, REG_EXPRESSION);
    if (col >= 0) {
        snprintf(buf, size, "%s's rule is a DWARF expression (.cfi_escape)", unwind_column_name(col));
        return buf;
    }
    for (size_t i = 0; i < t->nrows; i++)
        if (t->rows[i].args_size)
            return "it sets DW_CFA_GNU_args_size (.cfi_escape)";
    if ((col = find_rule(t, REG_IN_REGISTER)) >= 0) {
        snprintf(buf, size, "it keeps %s in another register (.cfi_register)", unwind_column_name(col));
        return buf;
    }
    for (size_t i = 0; i < t->nrows; i++) {
        const struct unwind_rule *cfa = &t->rows[i].cfa, *ra = &t->rows[i].reg[ABI_RA];
        if (cfa->kind == CFA_RULE_REG_OFFSET && cfa->reg != ABI_RSP && cfa->reg != ABI_RBP) {
            const char *name = dwarf_reg_name(cfa->reg);
            snprintf(buf, size, "its CFA is kept in %s, not in rsp or rbp", name ? name : "a register");
            return buf;
        }
        if (ra->kind == REG_RULE_UNDEFINED && version == SFRAME_VERSION_1)
            return "it ends the stack (ra undefined), which SFrame V1 cannot say";
        if (ra->kind != REG_RULE_UNDEFINED && (ra->kind != REG_RULE_OFFSET || ra->offset != ABI_ENTRY_RA_OFFSET))
            return "its return address is not at CFA-8";
    }
    return NULL;
}

/* The reason for FDE F's omission (in a section of VERSION), from its
 * table or its section; or NULL. */
static const char *missing_fde_reason(struct fde_lookup *dw, struct elf_file *ef, const struct eh_frame_fde *f,
                                      unsigned version, char *buf, size_t size)
{
    struct unwind_table t;
    struct cfa_error e;
    const char *why = NULL;
    int rc = cfi_eval_fde_table(&dw->ev, f, &t, &e);
    if (rc == 0)
        why = missing_reason(&t, version, buf, size);
    else if (rc == -1)
        why = "its CFA program does not decode";
    if (rc != -2)
        unwind_table_release(&t);
    struct elf_section *sec = elf_file_section_at(ef, f->pc_begin);
    if (!why && sec && strncmp(sec->name, ".plt", 4) == 0) {
        snprintf(buf, size, "it is in %s, for which no SFrame was written", sec->name);
        why = buf;
    }
    return why;
}

void sframe_check_missing(struct sframe_check *s, struct fde_lookup *dw, struct elf_file *ef)
{
    if (!s->tables.header_ok)
        return;   /* the whole section is malformed: said once */
    for (size_t i = 0; i < dw->n; i++) {
        const struct eh_frame_fde *f = dw->by_pc[i];
        uint64_t lo = f->pc_begin, hi = f->pc_begin + f->pc_range, gap_lo, gap_hi;
        enum sframe_coverage cov = sframe_tables_coverage(&s->tables, lo, hi, &gap_lo, &gap_hi);
        if (cov == SFRAME_COVERED)
            continue;
        s->counts.fdes_missing++;
        struct sframe_finding n = {.kind = FINDING_SFRAME_MISSING_FDE, .column = -1, .address = lo};
        if (cov == SFRAME_GAP) {
            /* SFrame's FDEs stop short, or start late: an SFrame unwinder
             * finds no row there. */
            n.address = gap_lo;
            emit(s, &n, "SFrame has no row for [0x%llx, 0x%llx), which .eh_frame's FDE at offset 0x%llx covers",
                 (unsigned long long)gap_lo, (unsigned long long)gap_hi, (unsigned long long)f->offset);
            continue;
        }
        char buf[96];
        const char *why = missing_fde_reason(dw, ef, f, s->tables.header.version, buf, sizeof buf);
        emit(s, &n, "SFrame has no FDE for [0x%llx, 0x%llx), which .eh_frame's FDE at offset 0x%llx covers%s%s",
             (unsigned long long)lo, (unsigned long long)hi, (unsigned long long)f->offset, why ? ": " : "",
             why ? why : "");
    }
}
