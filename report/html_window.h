/* SPDX-License-Identifier: Apache-2.0 */
/*
 * html_window: a finding's window in the HTML report, as a table.
 *
 * The window is the finding's excerpt (verify/audit/excerpt.h): up to nine
 * instructions around its address, each with the DWARF row and the row
 * synthesis derives there, one cell per rule of EXCERPT_COLUMNS, as
 * `dwcheck --explain` prints them side by side.  One table row per
 * instruction: a mark cell (`>` on the finding's instruction, whose row
 * also has class "here"), the address, the instruction, the eight DWARF
 * cells, the eight synthesis cells.  A cell whose rule differs from the
 * other side's is starred (`*rsp+8`) and has class "d", on both sides, as
 * --explain stars them; a side with no row there is one cell, "-" (no FDE
 * covers the instruction) or "?" (synthesis did not reach it), and blanks.
 * Windows are most of a report's bytes: their cells leave out the end tag
 * HTML makes optional (</td>), and carry no class but "d".
 */
#ifndef DWCHECK_HTML_WINDOW_H
#define DWCHECK_HTML_WINDOW_H

#include <stdio.h>

#include "verify/audit/excerpt.h"

/* X (nrows > 0) as a <table class="window"> on OUT. */
void html_window(FILE *out, const struct excerpt *x);

#endif
