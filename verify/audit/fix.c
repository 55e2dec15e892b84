/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fix: directives from synthesis's rows, and where they go (see the header).
 */
#include "fix.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/sorted_search.h"
#include "object/debug_info.h"
#include "semantics/abi.h"
#include "semantics/cfi_eval.h"
#include "semantics/print/cfi_text.h"
#include "semantics/fde_lookup.h"
#include "synth/emit_row.h"
#include "synth/program.h"
#include "verify/audit/excerpt.h"
#include "verify/audit/finding.h"
#include "verify/rules/own_cfa.h"
#include "verify/audit/rule_words.h"

/* The CFA's bit in a mask of columns (the registers' are their numbers). */
#define CFA_BIT (1u << UNWIND_COLUMNS)

/* What the fix needs of one instruction, as synthesis showed it. */
struct fix_insn {
    uint64_t addr;
    uint8_t len, flow, reached;
    uint8_t own_cfa;                /* the table's row there has a CFA of its own */
    uint32_t disputed;              /* columns (CFA_BIT) whose rule differs on every path */
    uint32_t as_entered;            /* registers (bit R) holding their entry value */
};

/* One function, synthesised once: its instructions and synthesis's rows. */
struct fix_function {
    struct synth_program *prog;
    struct fde_lookup *dw;          /* the table's rows, over PROG's .eh_frame */
    struct cfi_eval ev;             /* its programs run again with a fix in them */
    int have_ev;
    uint64_t lo;                    /* the function's start: offsets count from it */
    struct fix_insn *insns;
    size_t n, cap;
    struct unwind_table table;
    int have_table;
    int oom;
};

static uint32_t column_bit(int column)
{
    return column < 0 ? CFA_BIT : 1u << column;
}

/* The columns whose rules differ in rows A and B (the CFA, the callee-saved
 * registers, ra). */
static uint32_t columns_differing(const struct unwind_row *a, const struct unwind_row *b)
{
    uint32_t m = unwind_cfa_rule_equal(&a->cfa, &b->cfa) ? 0 : CFA_BIT;
    for (unsigned c = 0; c < UNWIND_COLUMNS; c++)
        if (!unwind_rule_equal(&a->reg[c], &b->reg[c]))
            m |= 1u << c;
    return m;
}

static void collect(void *arg, const struct ir_insn *in, const struct abstract_state *st, int reached)
{
    struct fix_function *ff = arg;
    if (ff->n == ff->cap) {
        size_t cap = ff->cap ? 2 * ff->cap : 64;
        struct fix_insn *more = realloc(ff->insns, cap * sizeof *more);
        if (!more) {
            ff->oom = 1;
            return;
        }
        ff->insns = more;
        ff->cap = cap;
    }
    struct fix_insn *fi = &ff->insns[ff->n++];
    memset(fi, 0, sizeof *fi);
    fi->addr = in->addr;
    fi->len = in->len;
    fi->flow = in->flow;
    fi->reached = (uint8_t)reached;
    if (reached != 1)
        return;
    for (unsigned r = 0; r < STATE_GPRS; r++)
        if (st->reg[r].kind == AV_ENTRY && st->reg[r].reg == r && st->reg[r].off == 0)
            fi->as_entered |= 1u << r;
    /* Where a surer path's state is not every path's, the rules that
     * differ between the two are no rules to write. */
    struct abstract_state every;
    if (synthesize_every_path(&ff->prog->session, in, &every)) {
        struct unwind_row ranked, joined;
        struct synth_row_exprs ranked_exprs, joined_exprs;
        emit_row_from_state(st, &ranked, &ranked_exprs);
        emit_row_from_state(&every, &joined, &joined_exprs);
        fi->disputed = columns_differing(&ranked, &joined);
    }
    const struct eh_frame_fde *fde;
    const struct unwind_row *row = fde_lookup_row(ff->dw, in->addr, &fde);
    struct unwind_row canonical;
    if (row) {
        struct unwind_row copy = *row;
        fi->own_cfa = own_cfa_canonical(&copy, st, &canonical) == 1;
    }
}

static int fix_function_open(struct fix_function *ff, struct synth_program *prog, struct fde_lookup *dw,
                             size_t func)
{
    memset(ff, 0, sizeof *ff);
    ff->prog = prog;
    ff->dw = dw;
    ff->lo = prog->index.funcs[func].lo;
    if (cfi_eval_init(&ff->ev, &prog->eh) != 0)
        return -1;
    ff->have_ev = 1;
    struct synth_outcome out;
    ff->have_table = synth_program_function(prog, func, &ff->table, collect, ff, &out) == 0;
    if (!ff->have_table) {
        unwind_table_release(&ff->table);   /* one unknown row: nothing to read */
        return -1;
    }
    return ff->oom ? -1 : 0;
}

static void fix_function_close(struct fix_function *ff)
{
    if (ff->have_table)
        unwind_table_release(&ff->table);
    if (ff->have_ev)
        cfi_eval_release(&ff->ev);
    free(ff->insns);
    memset(ff, 0, sizeof *ff);
}

/* The index of the instruction at ADDR, or (size_t)-1. */
static uint64_t insn_addr_key(const void *insns, size_t i)
{
    return ((const struct fix_insn *)insns)[i].addr;
}

static size_t insn_at(const struct fix_function *ff, uint64_t addr)
{
    size_t lo = sorted_count_below(ff->insns, ff->n, insn_addr_key, addr);
    return lo < ff->n && ff->insns[lo].addr == addr ? lo : (size_t)-1;
}

/* Whether instruction I - 1 falls through into I. */
static int falls_into(const struct fix_function *ff, size_t i)
{
    if (i == 0 || i >= ff->n)
        return 0;
    const struct fix_insn *p = &ff->insns[i - 1];
    return p->addr + p->len == ff->insns[i].addr && p->flow != IR_FLOW_JUMP &&
           p->flow != IR_FLOW_JUMP_INDIRECT && p->flow != IR_FLOW_RET && p->flow != IR_FLOW_STOP;
}

static const struct unwind_rule *rule_of(const struct unwind_row *row, int column)
{
    return column < 0 ? &row->cfa : &row->reg[column];
}

static int rules_equal(const struct unwind_rule *a, const struct unwind_rule *b, int column)
{
    return column < 0 ? unwind_cfa_rule_equal(a, b) : unwind_rule_equal(a, b);
}

/* Whether synthesis knows a rule it can state for COLUMN. */
static int rule_known(const struct unwind_rule *r, int column)
{
    return column < 0 ? r->kind == CFA_RULE_REG_OFFSET || r->kind == CFA_RULE_EXPRESSION
                      : r->kind != REG_RULE_UNKNOWN;
}

/* "`push rbx` at +0x0": instruction I, quoted, and its offset in the function. */
static void insn_words(const struct fix_function *ff, size_t i, char *buf, size_t size)
{
    char text[64];
    const struct fix_insn *in = &ff->insns[i];
    struct ir_insn ir = {.addr = in->addr, .len = in->len};
    excerpt_insn_text(ff->prog, &ir, text, sizeof text);
    snprintf(buf, size, "`%s` at +0x%llx", text, (unsigned long long)(in->addr - ff->lo));
}

static const char *column_words(int column)
{
    return column < 0 ? "the CFA" : column == ABI_RA ? "the return address" : unwind_column_name(column);
}

static void words(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Text into BUF, cut to SIZE: a finding's words are short, and cut when not. */
static void words(char *buf, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, size, fmt, ap);
    va_end(ap);
}

static void give_up(struct finding_fix *fix, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* No fix, for the reason FMT says. */
static void give_up(struct finding_fix *fix, const char *fmt, ...)
{
    fix->state = FIX_UNKNOWN;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(fix->why, sizeof fix->why, fmt, ap);
    va_end(ap);
}

/* The directives that turn row FROM into TO, into PLACE's; 0, or -1 when
 * a rule cannot be stated or they do not fit. */
static int write_directives(struct fix_place *place, const struct unwind_row *from, const struct unwind_row *to)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    size_t unstated = out ? cfi_write_transition(out, "", "\n", from, to, CFI_REGS_PERCENT) : 1;
    if (out && fclose(out) != 0)
        unstated = 1;
    int ok = !unstated && text && len && len < sizeof place->directives;
    if (ok)
        memcpy(place->directives, text, len + 1);
    free(text);
    return ok ? 0 : -1;
}

/* PLACE at instruction I: its address, and the instruction before it when
 * that one falls through into it. */
static void set_place(const struct fix_function *ff, size_t i, struct fix_place *place)
{
    place->address = ff->insns[i].addr;
    if (!falls_into(ff, i))
        return;
    struct ir_insn ir = {.addr = ff->insns[i - 1].addr, .len = ff->insns[i - 1].len};
    place->has_after = 1;
    place->after_address = ir.addr;
    excerpt_insn_text(ff->prog, &ir, place->after, sizeof place->after);
}

/* ---- the fix written into the table, evaluated ------------------------------ */

/* An edit of an FDE's program: right after its instructions at ADDRESS
 * (where a directive written before the line of the instruction there
 * lands), the columns COLS take the rules of ROW.  Directives are absolute
 * there: the row they make is ROW's in those columns, whatever the table
 * had (semantics/print/cfi_text). */
struct edit {
    uint64_t address;
    uint32_t cols;
    struct unwind_row row;
};

struct simulation {
    struct unwind_table *t;
    struct cfi_state *st;           /* the state the program runs over (cfa_program) */
    const struct edit *edits;       /* by address */
    size_t nedits, next;
    int oom;
};

static void append_rows(struct simulation *sim, uint64_t start, uint64_t end)
{
    struct unwind_table *t = sim->t;
    if (start < t->start)
        start = t->start;
    if (end > t->end)
        end = t->end;
    if (end <= start)
        return;
    struct unwind_row *row = unwind_table_append(t, start, end);
    if (!row) {
        sim->oom = 1;
        return;
    }
    row->cfa = sim->st->cfa;
    memcpy(row->reg, sim->st->col, sizeof row->reg);
}

/* cfa_row_fn: the row [ST->loc, NEW_LOC), cut where an edit lands, each
 * edit applied to the running state. */
static int simulated_row(void *arg, const struct cfi_state *st, uint64_t new_loc)
{
    struct simulation *sim = arg;
    uint64_t start = st->loc;
    while (sim->next < sim->nedits && sim->edits[sim->next].address < new_loc) {
        const struct edit *e = &sim->edits[sim->next++];
        if (e->address > start) {
            append_rows(sim, start, e->address);
            start = e->address;
        }
        if (e->cols & CFA_BIT)
            sim->st->cfa = e->row.cfa;
        for (unsigned c = 0; c < UNWIND_COLUMNS; c++)
            if (e->cols & (1u << c))
                sim->st->col[c] = e->row.reg[c];
    }
    append_rows(sim, start, new_loc);
    return sim->oom;
}

/* FDE's table with EDITS (NEDITS, by address) made to its program, into T
 * (released by the caller).  0, or -1 (malformed, out of memory). */
static int simulate(struct fix_function *ff, const struct eh_frame_fde *fde, const struct edit *edits, size_t nedits,
                    struct unwind_table *t)
{
    uint64_t end = fde->pc_begin + fde->pc_range;
    unwind_table_init(t, fde->pc_begin, end);
    struct cfi_state st;
    struct simulation sim = {.t = t, .st = &st, .edits = edits, .nedits = nedits};
    struct cfa_error err;
    int all_nops;
    if (cfi_eval_fde(&ff->ev, fde, simulated_row, &sim, &st, &all_nops, &err) != 0)
        return -1;
    simulated_row(&sim, &st, end);
    return sim.oom ? -1 : 0;
}

/* The first instruction a known path reaches where the table TABLE gives
 * one of COLS a rule other than synthesis's while the table as it was,
 * WAS, gave synthesis's: a right rule the edits made wrong.  Its index,
 * the columns in *BROKEN; or (size_t)-1. */
static size_t first_broken(const struct fix_function *ff, const struct unwind_table *was,
                           const struct unwind_table *table, uint32_t cols, uint32_t *broken)
{
    for (size_t i = 0; i < ff->n; i++) {
        const struct fix_insn *in = &ff->insns[i];
        const struct unwind_row *s = unwind_table_row_at(&ff->table, in->addr);
        const struct unwind_row *w = unwind_table_row_at(was, in->addr);
        const struct unwind_row *now = unwind_table_row_at(table, in->addr);
        if (in->reached != 1 || !s || !w || !now)
            continue;
        *broken = 0;
        for (int c = -1; c < UNWIND_COLUMNS; c++)
            if ((cols & column_bit(c)) && !(in->disputed & column_bit(c)) &&
                rules_equal(rule_of(w, c), rule_of(s, c), c) && !rules_equal(rule_of(now, c), rule_of(s, c), c))
                *broken |= column_bit(c);
        if (*broken)
            return i;
    }
    return (size_t)-1;
}

/* The fix and the code's words for COLUMN's rule at instruction X of FF. */
static void fix_one(struct fix_function *ff, size_t x, int column, int kind, struct finding_fix *fix, char *code,
                    size_t code_size)
{
    memset(fix, 0, sizeof *fix);
    uint64_t off = ff->insns[x].addr - ff->lo;
    const struct unwind_row *sx = unwind_table_row_at(&ff->table, ff->insns[x].addr);
    const struct eh_frame_fde *fde = NULL;
    struct unwind_table was = {0}, p1 = {0}, p2 = {0};
    if (ff->insns[x].reached != 1 || !sx || !fde_lookup_row(ff->dw, ff->insns[x].addr, &fde) || !fde ||
        simulate(ff, fde, NULL, 0, &was) != 0) {
        give_up(fix, "no known path reaches +0x%llx, or no FDE covers it", (unsigned long long)off);
        goto done;
    }
    const struct unwind_row *dx = unwind_table_row_at(&was, ff->insns[x].addr);
    const struct unwind_rule *want = rule_of(sx, column);
    if (!dx) {
        give_up(fix, "no row at +0x%llx", (unsigned long long)off);
        goto done;
    }
    if (!rule_known(want, column)) {
        if (column < 0)
            give_up(fix, "synthesis does not know the CFA at +0x%llx", (unsigned long long)off);
        else
            give_up(fix, "synthesis knows no rule that gives %s%s at +0x%llx", column_words(column),
                    column == ABI_RA ? "" : "'s entry value", (unsigned long long)off);
        goto done;
    }
    if (ff->insns[x].disputed & column_bit(column)) {
        give_up(fix, "the paths into +0x%llx disagree on %s: no one rule holds on all of them",
                (unsigned long long)off, column_words(column));
        if (code) {
            char state[120];
            rule_words_code(state, sizeof state, column, want, NULL);
            words(code, code_size, "%s on the function's own paths, but not on all paths into it", state);
        }
        goto done;
    }
    if (ff->insns[x].own_cfa) {
        give_up(fix, "the row at +0x%llx defines a CFA of its own: write it again whole, as synthesis's "
                "row (dwsynth annotate)", (unsigned long long)off);
        goto done;
    }
    if (rules_equal(rule_of(dx, column), want, column)) {
        give_up(fix, "synthesis's rule for %s at +0x%llx is the table's", column_words(column),
                (unsigned long long)off);
        goto done;
    }
    /* Back to where synthesis's rule, or the table's, last changed. */
    size_t y = x;
    while (falls_into(ff, y)) {
        size_t p = y - 1;
        const struct unwind_row *sp = unwind_table_row_at(&ff->table, ff->insns[p].addr);
        const struct unwind_row *sy = unwind_table_row_at(&ff->table, ff->insns[y].addr);
        const struct unwind_row *dp = unwind_table_row_at(&was, ff->insns[p].addr);
        const struct unwind_row *dy = unwind_table_row_at(&was, ff->insns[y].addr);
        if (ff->insns[p].reached != 1 || !sp || !sy || !dp || !dy ||
            (ff->insns[p].disputed & column_bit(column)) ||
            !rules_equal(rule_of(sp, column), rule_of(sy, column), column) ||
            !rules_equal(rule_of(dp, column), rule_of(dy, column), column))
            break;
        y = p;
    }
    const struct unwind_row *sy = unwind_table_row_at(&ff->table, ff->insns[y].addr);
    const struct unwind_row *dy = unwind_table_row_at(&was, ff->insns[y].addr);
    if (!sy || !dy) {
        give_up(fix, "no row at +0x%llx", (unsigned long long)off);
        goto done;
    }
    /* The column, and the others synthesis changes at Y that the table
     * does not follow: the row the directives make at Y.  (Not where the
     * stack ends: an unwinder reads no other rule there.) */
    const struct unwind_row *sp = falls_into(ff, y) && ff->insns[y - 1].reached == 1
                                      ? unwind_table_row_at(&ff->table, ff->insns[y - 1].addr) : NULL;
    int stack_ends = column == ABI_RA && want->kind == REG_RULE_UNDEFINED;
    struct edit edits[2] = {{.address = ff->insns[y].addr, .row = *dy}};
    for (int c = -1; c < UNWIND_COLUMNS; c++) {
        if (c >= 0 && c != ABI_RA && !abi_callee_saved((unsigned)c))
            continue;
        const struct unwind_rule *r = rule_of(sy, c);
        int take = c == column;
        if (!take && !stack_ends && sp && !rules_equal(rule_of(sp, c), r, c) && rule_known(r, c) &&
            !(ff->insns[y].disputed & column_bit(c)) && !rules_equal(rule_of(dy, c), r, c))
            take = 1;
        if (take) {
            *(c < 0 ? &edits[0].row.cfa : &edits[0].row.reg[c]) = *r;
            edits[0].cols |= column_bit(c);
        }
    }
    if (write_directives(&fix->at, dy, &edits[0].row) != 0) {
        give_up(fix, "the rule for %s at +0x%llx has no directive that fits here", column_words(column),
                (unsigned long long)off);
        goto done;
    }
    set_place(ff, y, &fix->at);
    /* The table with the fix written in: right at the finding, and right
     * wherever it was right, or the rules the fix changed go back where
     * it made them wrong (its second place), or there is no fix. */
    uint32_t broken = 0;
    size_t z = (size_t)-1;
    if (simulate(ff, fde, edits, 1, &p1) != 0) {
        give_up(fix, "the table cannot be evaluated with the fix");
        goto done;
    }
    z = first_broken(ff, &was, &p1, edits[0].cols, &broken);
    if (z != (size_t)-1) {
        const struct unwind_row *now = unwind_table_row_at(&p1, ff->insns[z].addr);
        const struct unwind_row *back = unwind_table_row_at(&was, ff->insns[z].addr);
        edits[1] = (struct edit){.address = ff->insns[z].addr, .cols = broken, .row = *now};
        for (int c = -1; c < UNWIND_COLUMNS; c++)
            if (broken & column_bit(c))
                *(c < 0 ? &edits[1].row.cfa : &edits[1].row.reg[c]) = *rule_of(back, c);
        if (z <= y || write_directives(&fix->then, now, &edits[1].row) != 0 ||
            simulate(ff, fde, edits, 2, &p2) != 0) {
            give_up(fix, "the directives would make the rules at +0x%llx wrong, and cannot be undone there",
                    (unsigned long long)(ff->insns[z].addr - ff->lo));
            goto done;
        }
        set_place(ff, z, &fix->then);
        fix->has_then = 1;
    }
    const struct unwind_table *fixed = fix->has_then ? &p2 : &p1;
    const struct unwind_row *fx = unwind_table_row_at(fixed, ff->insns[x].addr);
    size_t still = fix->has_then ? first_broken(ff, &was, &p2, edits[0].cols, &broken) : (size_t)-1;
    if (!fx || !rules_equal(rule_of(fx, column), want, column) || still != (size_t)-1) {
        give_up(fix, "written into the table, the directives would not make the rules right at +0x%llx",
                (unsigned long long)(still != (size_t)-1 ? ff->insns[still].addr - ff->lo : off));
        goto done;
    }
    fix->state = FIX_KNOWN;
    if (code) {
        /* What the code does, with the instructions that did it. */
        char state[160], change[96], cause[96], clobber[96] = "";
        rule_words_code(state, sizeof state, column, want, NULL);
        change[0] = '\0';
        if (sp)
            rule_words_change(change, sizeof change, column, rule_of(sp, column), want);
        if (kind == FINDING_CLOBBERED && column >= 0 && column < STATE_GPRS && falls_into(ff, x) &&
            (ff->insns[x - 1].as_entered & (1u << column)) && !(ff->insns[x].as_entered & (1u << column))) {
            insn_words(ff, x - 1, cause, sizeof cause);
            words(clobber, sizeof clobber, "%s changed %s; ", cause, unwind_column_name(column));
        }
        if (change[0] && column >= 0) {
            insn_words(ff, y - 1, cause, sizeof cause);
            words(code, code_size, "%s%s %s", clobber, cause, change);
        } else if (change[0]) {
            insn_words(ff, y - 1, cause, sizeof cause);
            words(code, code_size, "%s%s %s: %s", clobber, cause, change, state);
        } else {
            words(code, code_size, "%s%s", clobber, state);
        }
    }
done:
    if (fix->state != FIX_KNOWN) {   /* no half of a fix */
        memset(&fix->at, 0, sizeof fix->at);
        memset(&fix->then, 0, sizeof fix->then);
        fix->has_then = 0;
    }
    unwind_table_release(&was);
    unwind_table_release(&p1);
    unwind_table_release(&p2);
}

int fix_kind_has_fix(int kind)
{
    return kind == FINDING_CFA_MISMATCH || kind == FINDING_RA_MISMATCH || kind == FINDING_REG_MISMATCH ||
           kind == FINDING_CLOBBERED || kind == FINDING_IMPRECISE;
}

void fix_rule_at(struct finding_fix *fix, char *code, size_t code_size, struct synth_program *prog,
                 struct fde_lookup *dw, size_t func, uint64_t address, int column, int kind)
{
    memset(fix, 0, sizeof *fix);
    struct fix_function ff;
    if (fix_function_open(&ff, prog, dw, func) != 0) {
        fix->state = FIX_UNKNOWN;
        snprintf(fix->why, sizeof fix->why, "synthesis could not run over the function");
    } else {
        size_t x = insn_at(&ff, address);
        char words[160] = "";
        if (x == (size_t)-1) {
            fix->state = FIX_UNKNOWN;
            snprintf(fix->why, sizeof fix->why, "no instruction starts at 0x%llx", (unsigned long long)address);
        } else {
            fix_one(&ff, x, column, kind, fix, words, sizeof words);
        }
        if (code && words[0])
            snprintf(code, code_size, "%s", words);
    }
    fix_function_close(&ff);
}

void fix_findings(struct finding *f, size_t n, struct synth_program *prog, struct fde_lookup *dw)
{
    uint8_t *done = calloc(n ? n : 1, 1);
    if (!done)
        return;
    for (size_t i = 0; i < n && i < FIX_MAX_FINDINGS; i++) {
        if (done[i] || !fix_kind_has_fix(f[i].kind))
            continue;
        size_t func = function_index_at(&prog->index, f[i].address);
        if (func == (size_t)-1)
            continue;
        /* Synthesis once for every finding of the function. */
        struct fix_function ff;
        int ok = fix_function_open(&ff, prog, dw, func) == 0;
        for (size_t k = i; k < n && k < FIX_MAX_FINDINGS; k++) {
            if (done[k] || !fix_kind_has_fix(f[k].kind) || function_index_at(&prog->index, f[k].address) != func)
                continue;
            done[k] = 1;
            struct finding_fix *fix = &f[k].fix;
            memset(fix, 0, sizeof *fix);
            size_t x = ok ? insn_at(&ff, f[k].address) : (size_t)-1;
            if (x == (size_t)-1) {
                fix->state = FIX_UNKNOWN;
                snprintf(fix->why, sizeof fix->why, "synthesis could not run over the function");
                continue;
            }
            char words[sizeof f[k].code] = "";
            fix_one(&ff, x, f[k].column, f[k].kind, fix, words, sizeof words);
            if (words[0])
                memcpy(f[k].code, words, sizeof words);
        }
        fix_function_close(&ff);
    }
    free(done);
}

static void name_place(struct fix_place *place, struct debug_info *di)
{
    if (debug_info_line(di, place->address, place->source, sizeof place->source) != 0)
        place->source[0] = '\0';
    if (place->has_after &&
        debug_info_line(di, place->after_address, place->after_source, sizeof place->after_source) != 0)
        place->after_source[0] = '\0';
}

void fix_name_lines(struct finding_fix *fix, struct debug_info *di)
{
    if (fix->state != FIX_KNOWN)
        return;
    name_place(&fix->at, di);
    if (fix->has_then)
        name_place(&fix->then, di);
}
