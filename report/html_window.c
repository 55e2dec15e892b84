/* SPDX-License-Identifier: Apache-2.0 */
/*
 * html_window: the window table (see the header).
 */
#include "html_window.h"

#include <string.h>

#include "report/html_text.h"

static const char *const column_names[EXCERPT_NCOLUMNS] = {"CFA", "rbx", "rbp", "r12", "r13", "r14", "r15", "ra"};

/* The cells of one side of a row: the rules of EXCERPT_COLUMNS, or when the
 * side has no row there one cell NONE and blanks. */
static void side_cells(char cells[EXCERPT_NCOLUMNS][48], const struct excerpt_rule *rules, int have,
                       const char *none)
{
    for (unsigned k = 0; k < EXCERPT_NCOLUMNS; k++) {
        if (have)
            excerpt_rule_text(cells[k], sizeof cells[k], &rules[k], k);
        else
            snprintf(cells[k], sizeof cells[k], "%s", k ? "" : none);
    }
}

void html_window(FILE *out, const struct excerpt *x)
{
    fputs("<table class=\"window\"><tr><th></th><th>address</th><th>instruction</th>"
          "<th colspan=\"8\">DWARF row</th><th colspan=\"8\">synthesised row</th></tr>\n"
          "<tr><th></th><th></th><th></th>", out);
    for (int side = 0; side < 2; side++)
        for (unsigned k = 0; k < EXCERPT_NCOLUMNS; k++)
            fprintf(out, "<th>%s</th>", column_names[k]);
    fputs("</tr>\n", out);
    /* A window is most of a report's bytes: cells leave out their optional
     * end tag (</td>), and the columns are styled by their place. */
    for (size_t l = 0; l < x->nrows && l < EXCERPT_ROWS; l++) {
        const struct excerpt_row *row = &x->rows[l];
        char dw[EXCERPT_NCOLUMNS][48], sy[EXCERPT_NCOLUMNS][48];
        side_cells(dw, row->dwarf, row->has_dwarf, "-");
        side_cells(sy, row->synth, row->has_synth, "?");
        fprintf(out, "<tr%s><td>%s<td>0x%llx<td>", row->here ? " class=\"here\"" : "", row->here ? "&gt;" : "",
                (unsigned long long)row->address);
        html_text(out, row->insn);
        for (int side = 0; side < 2; side++) {
            for (unsigned k = 0; k < EXCERPT_NCOLUMNS; k++) {
                /* As --explain stars them: both sides have a row, and the rules differ. */
                int differs = row->has_dwarf && row->has_synth && strcmp(dw[k], sy[k]) != 0;
                fputs(differs ? "<td class=\"d\">*" : "<td>", out);
                html_text(out, side ? sy[k] : dw[k]);
            }
        }
        fputs("</tr>\n", out);
    }
    fputs("</table>\n", out);
}
