/* SPDX-License-Identifier: Apache-2.0 */
/*
 * explain_report: text of an explanation (see the header).
 */
#include "explain_report.h"

#include <string.h>

#include "report/text_report.h"

static const char *verdict_text(enum rule_verdict v)
{
    return v == RULE_HOLDS ? "holds" : v == RULE_FAILS ? "FAILS" : "undecided";
}

/* One side of a code line: the row's cells, each marked when OTHER differs. */
static void print_cells(FILE *out, const struct excerpt_rule *row, const struct excerpt_rule *other, int have,
                        int have_other)
{
    for (unsigned c = 0; c < EXCERPT_NCOLUMNS; c++) {
        char cell[48], twin[48];
        if (!have) {
            fprintf(out, " %-10s", "-");
            continue;
        }
        excerpt_rule_text(cell, sizeof cell, &row[c], c);
        int differs = 0;
        if (have_other) {
            excerpt_rule_text(twin, sizeof twin, &other[c], c);
            differs = strcmp(cell, twin) != 0;
        }
        fprintf(out, " %s%-*s", differs ? "*" : "", differs ? 9 : 10, cell);
    }
}

void explain_report_print(FILE *out, const char *path, const struct explanation *x)
{
    fprintf(out, "%s: 0x%llx", path, (unsigned long long)x->address);
    if (x->function[0])
        fprintf(out, ": %s+0x%llx", x->function, (unsigned long long)(x->address - x->function_start));
    if (x->source[0])
        fprintf(out, " (%s)", x->source);
    fputc('\n', out);
    if (x->covered)
        fprintf(out, "FDE at offset 0x%llx covers [0x%llx, 0x%llx)\n", (unsigned long long)x->fde_offset,
                (unsigned long long)x->fde_lo, (unsigned long long)x->fde_hi);
    else
        fputs("no FDE covers it\n", out);
    fprintf(out, "the state there: %s\n", x->reached);
    if (x->own_cfa)
        fprintf(out, "the row defines a CFA of its own and gives rsp by a rule: its rules are judged as the "
                     "canonical row they amount to (the CFA moved to the caller's rsp, offsets with it)\n");
    fputc('\n', out);
    static const char *const columns[EXCERPT_NCOLUMNS] = {"CFA", "rbx", "rbp", "r12", "r13", "r14", "r15", "ra"};
    fprintf(out, "  %-12s %-28s|%-*s|%s\n", "address", "instruction", 11 * EXCERPT_NCOLUMNS + 1, " DWARF",
            " synthesis");
    fprintf(out, "  %-12s %-28s|", "", "");
    for (int side = 0; side < 2; side++) {
        for (unsigned c = 0; c < EXCERPT_NCOLUMNS; c++)
            fprintf(out, " %-10s", columns[c]);
        fputs(side ? "\n" : " |", out);
    }
    for (unsigned i = 0; i < x->code.nrows; i++) {
        const struct excerpt_row *r = &x->code.rows[i];
        fprintf(out, "%c 0x%-10llx %-28.28s|", r->here ? '>' : ' ', (unsigned long long)r->address, r->insn);
        print_cells(out, r->dwarf, r->synth, r->has_dwarf, r->has_synth);
        fputs(" |", out);
        print_cells(out, r->synth, r->dwarf, r->has_synth, r->has_dwarf);
        fputc('\n', out);
    }
    if (!x->nrules) {
        fputs("\nno rule is decided there\n", out);
        return;
    }
    fprintf(out, "\nthe rules at 0x%llx:\n", (unsigned long long)x->address);
    for (size_t i = 0; i < x->nrules; i++) {
        const struct explained_rule *e = &x->rules[i];
        fprintf(out, "  %-4s %-14s %-10s synthesis %-14s %s\n", e->column, e->rule, verdict_text(e->verdict),
                e->synth, e->why);
        if (e->cx.present) {
            char cx[512];
            counterexample_format(cx, sizeof cx, &e->cx);
            fprintf(out, "       counterexample: %s\n", cx);
        }
        if (e->code[0])
            fprintf(out, "       code:  %s\n", e->code);
        text_report_fix_lines(out, "       ", &e->fix, x->function_start, x->source);
    }
}
