/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cfi_plan: directives per source line, from synthesised rows.
 */
#include "cfi_plan.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "semantics/abi.h"
#include "semantics/dwarf_expr.h"
#include "synth/synthesize.h"

#define NO_INTERVAL ((size_t)-1)

/* A change of row, and where its directives go. */
struct change {
    size_t point;               /* index of the place that gets the directives */
    int after_exit;             /* the code before it ends in a jump or a return */
    struct unwind_row from, to;
};

/* The text being built for each place. */
struct point_text {
    char *buf;
    size_t len;
    FILE *f;
};

struct planner {
    struct cfi_plan *p;
    const struct plan_point *points;
    size_t npoints;
    const struct plan_insn *insns;
    size_t ninsns;
    size_t *interval;           /* per instruction: the place before it */
    struct unwind_row *rows;    /* per instruction: its row (reached ones) */
    uint8_t *care;              /* per instruction: its row matters */
    struct change *changes;
    size_t nchanges;
    struct point_text *text;
    int oom;
};

static int row_matters(uint8_t reached)
{
    return reached == 1 || reached == SYNTH_GUESSED;
}

static int falls_through(uint8_t flow)
{
    return flow != IR_FLOW_JUMP && flow != IR_FLOW_JUMP_INDIRECT && flow != IR_FLOW_RET &&
           flow != IR_FLOW_STOP;
}

static void note(struct planner *pl, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void note(struct planner *pl, const char *fmt, ...)
{
    struct cfi_plan *p = pl->p;
    char **more = realloc(p->notes, (p->nnotes + 1) * sizeof *more);
    if (!more) {
        pl->oom = 1;
        return;
    }
    p->notes = more;
    va_list ap;
    va_start(ap, fmt);
    if (vasprintf(&p->notes[p->nnotes], fmt, ap) < 0)
        pl->oom = 1;
    else
        p->nnotes++;
    va_end(ap);
}

/* The line whose bytes hold instruction I: the place after its interval. */
static size_t line_of_insn(const struct planner *pl, size_t i)
{
    size_t k = pl->interval[i];
    return k == NO_INTERVAL ? 0 : pl->points[k + 1].line;
}

/* Each instruction's interval: the last place at or before it, not the last one. */
static void assign_intervals(struct planner *pl)
{
    size_t k = 0;
    for (size_t i = 0; i < pl->ninsns; i++) {
        uint64_t a = pl->insns[i].addr;
        while (k + 1 < pl->npoints && pl->points[k + 1].addr <= a)
            k++;
        int inside = a >= pl->points[0].addr && a < pl->points[pl->npoints - 1].addr;
        pl->interval[i] = inside && k + 1 < pl->npoints ? k : NO_INTERVAL;
    }
}

/* The rows that must hold, with rules GAS cannot state settled: the plan
 * is refused for an unknown CFA or return address; an unknown callee-saved
 * register becomes undefined.  Returns 0, or -1 when refused. */
static int collect_rows(struct planner *pl, const struct unwind_table *table)
{
    unsigned undefined_noted = 0;
    for (size_t i = 0; i < pl->ninsns; i++) {
        const struct plan_insn *in = &pl->insns[i];
        pl->care[i] = row_matters(in->reached) && pl->interval[i] != NO_INTERVAL;
        if (!pl->care[i])
            continue;
        const struct unwind_row *r = unwind_table_row_at(table, in->addr);
        size_t line = line_of_insn(pl, i);
        if (!r || (r->cfa.kind != CFA_RULE_REG_OFFSET && r->cfa.kind != CFA_RULE_EXPRESSION)) {
            note(pl, "line %zu: the CFA is unknown at 0x%llx: not annotated", line,
                 (unsigned long long)in->addr);
            return -1;
        }
        if (r->reg[ABI_RA].kind == REG_RULE_UNKNOWN) {
            note(pl, "line %zu: the return address is unknown at 0x%llx: not annotated", line,
                 (unsigned long long)in->addr);
            return -1;
        }
        pl->rows[i] = *r;
        for (unsigned c = 0; c < UNWIND_COLUMNS; c++) {
            if (pl->rows[i].reg[c].kind != REG_RULE_UNKNOWN)
                continue;
            pl->rows[i].reg[c] = (struct unwind_rule){.kind = REG_RULE_UNDEFINED};
            if (!(undefined_noted & (1u << c)))
                note(pl, "line %zu: %s no longer holds its value and is not saved: described as undefined", line,
                     dwarf_reg_name(c));
            undefined_noted |= 1u << c;
        }
    }
    return 0;
}

/* An unwinder evaluates the row of a call with the callee's registers, in
 * which caller-saved ones are garbage: a row that reads one at a call (r10
 * as a DRAP register, say) cannot be right there. */
static void check_call_rows(struct planner *pl)
{
    for (size_t i = 0; i < pl->ninsns; i++) {
        uint8_t flow = pl->insns[i].flow;
        if (!pl->care[i] || (flow != IR_FLOW_CALL && flow != IR_FLOW_CALL_INDIRECT))
            continue;
        int reg = unwind_rule_call_clobbered_read(&pl->rows[i].cfa, 1);
        for (unsigned c = 0; reg < 0 && c < UNWIND_COLUMNS; c++)
            reg = unwind_rule_call_clobbered_read(&pl->rows[i].reg[c], 0);
        if (reg >= 0) {
            pl->p->verdict = PLAN_INEXACT;
            note(pl, "line %zu: at this call the frame is known only through %s, a caller-saved "
                 "register an unwinder cannot restore", line_of_insn(pl, i), dwarf_reg_name((unsigned)reg));
        }
    }
}

/* The place that gets interval K's directives: among the places at K's
 * address, the first when the code before falls through into it (right
 * after the instruction that changed the frame), else K itself (after the
 * labels, before the code a jump reaches). */
static size_t placement(const struct planner *pl, size_t k, size_t first_insn, int *after_exit)
{
    size_t j = k;
    while (j > 0 && pl->points[j - 1].addr == pl->points[k].addr)
        j--;
    *after_exit = 0;
    for (size_t i = first_insn; i-- > 0;)
        if (pl->insns[i].addr < pl->points[k].addr) {
            *after_exit = !falls_through(pl->insns[i].flow);
            break;
        }
    return *after_exit ? k : j;
}

/* The rows the intervals need, as a list of changes. */
static void find_changes(struct planner *pl)
{
    struct unwind_row cur;
    cfi_entry_row(&cur);
    size_t i = 0;
    while (i < pl->ninsns) {
        size_t k = pl->interval[i];
        size_t first = i;
        while (i < pl->ninsns && pl->interval[i] == k)
            i++;
        if (k == NO_INTERVAL)
            continue;
        /* The first instruction whose row matters sets the interval's row. */
        size_t lead = first;
        while (lead < i && !pl->care[lead])
            lead++;
        if (lead == i)
            continue;
        for (size_t m = lead + 1; m < i; m++)
            if (pl->care[m] && !unwind_row_rules_equal(&pl->rows[m], &pl->rows[lead])) {
                pl->p->verdict = PLAN_INEXACT;
                note(pl, "line %zu: the frame changes inside the line (at 0x%llx); its CFI is exact "
                     "only at the line's end", line_of_insn(pl, m), (unsigned long long)pl->insns[m].addr);
                break;
            }
        if (unwind_row_rules_equal(&pl->rows[lead], &cur))
            continue;
        struct change *c = &pl->changes[pl->nchanges++];
        c->point = placement(pl, k, first, &c->after_exit);
        c->from = cur;
        c->to = pl->rows[lead];
        cur = c->to;
    }
}

static FILE *text_at(struct planner *pl, size_t point)
{
    struct point_text *t = &pl->text[point];
    if (!t->f && !(t->f = open_memstream(&t->buf, &t->len)))
        pl->oom = 1;
    return t->f;
}

/* The directives of every change, with remember/restore around early exits. */
static void write_changes(struct planner *pl)
{
    /* For each remembered row, innermost last: the change that restores it. */
    size_t *restore_at = calloc(pl->nchanges + 1, sizeof *restore_at);
    size_t depth = 0;
    if (!restore_at)
        pl->oom = 1;
    for (size_t i = 0; i < pl->nchanges && !pl->oom; i++) {
        const struct change *c = &pl->changes[i];
        const struct plan_point *pt = &pl->points[c->point];
        FILE *f = text_at(pl, c->point);
        if (!f)
            break;
        pl->p->changes++;
        if (depth > 0 && restore_at[depth - 1] == i) {
            fprintf(f, "\t.cfi_restore_state%s", pt->eol);
            depth--;
            continue;
        }
        /* The row before this change is needed again after an exit: keep it. */
        size_t k = i + 1;
        while (k < pl->nchanges && !unwind_row_rules_equal(&pl->changes[k].to, &c->from))
            k++;
        if (k < pl->nchanges && pl->changes[k].after_exit && (depth == 0 || k < restore_at[depth - 1])) {
            fprintf(f, "\t.cfi_remember_state%s", pt->eol);
            restore_at[depth++] = k;
            pl->p->remembered++;
        }
        cfi_write_transition(f, "\t", pt->eol, &c->from, &c->to, pt->style);
    }
    free(restore_at);
}

/* .cfi_startproc first, .cfi_endproc last, and the texts in place order. */
static void collect_texts(struct planner *pl)
{
    struct cfi_plan *p = pl->p;
    size_t last = pl->npoints - 1;
    p->texts = calloc(pl->npoints, sizeof *p->texts);
    if (!p->texts) {
        pl->oom = 1;
        return;
    }
    for (size_t j = 0; j < pl->npoints; j++) {
        struct point_text *t = &pl->text[j];
        if (t->f)
            fclose(t->f);
        t->f = NULL;
        if (j != 0 && j != last && !t->buf)
            continue;
        const char *eol = pl->points[j].eol;
        char *text = NULL;
        if (asprintf(&text, "%s%s%s", j == 0 ? "\t.cfi_startproc" : "", j == 0 ? eol : "",
                     t->buf ? t->buf : "") < 0) {
            pl->oom = 1;
            return;
        }
        if (j == last) {
            char *more = NULL;
            if (asprintf(&more, "%s\t.cfi_endproc%s", text, eol) < 0) {
                free(text);
                pl->oom = 1;
                return;
            }
            free(text);
            text = more;
        }
        p->texts[p->ntexts++] = (struct plan_text){pl->points[j].line, text};
    }
}

int cfi_plan_build(struct cfi_plan *p, const struct plan_point *points, size_t npoints,
                   const struct plan_insn *insns, size_t ninsns, const struct unwind_table *table)
{
    memset(p, 0, sizeof *p);
    struct planner pl = {.p = p, .points = points, .npoints = npoints, .insns = insns, .ninsns = ninsns};
    pl.interval = calloc(ninsns + 1, sizeof *pl.interval);
    pl.rows = calloc(ninsns + 1, sizeof *pl.rows);
    pl.care = calloc(ninsns + 1, 1);
    pl.changes = calloc(ninsns + 1, sizeof *pl.changes);
    pl.text = calloc(npoints, sizeof *pl.text);
    if (!pl.interval || !pl.rows || !pl.care || !pl.changes || !pl.text || npoints < 2) {
        pl.oom = 1;
    } else {
        assign_intervals(&pl);
        if (collect_rows(&pl, table) != 0) {
            p->verdict = PLAN_REFUSED;
        } else {
            check_call_rows(&pl);
            find_changes(&pl);
            write_changes(&pl);
            if (!pl.oom)
                collect_texts(&pl);
        }
    }
    for (size_t j = 0; pl.text && j < npoints; j++) {
        if (pl.text[j].f)
            fclose(pl.text[j].f);
        free(pl.text[j].buf);
    }
    free(pl.text);
    free(pl.interval);
    free(pl.rows);
    free(pl.care);
    free(pl.changes);
    if (pl.oom) {
        cfi_plan_release(p);
        return -1;
    }
    return 0;
}

void cfi_plan_release(struct cfi_plan *p)
{
    for (size_t i = 0; i < p->ntexts; i++)
        free(p->texts[i].text);
    for (size_t i = 0; i < p->nnotes; i++)
        free(p->notes[i]);
    free(p->texts);
    free(p->notes);
    memset(p, 0, sizeof *p);
}
