/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table_print: the printed forms of H.
 *
 * The text form is readelf -wF's layout, so that a table from dwtable, from
 * dwsynth and from readelf diff with ordinary tools:
 *
 *    LOC           CFA      rbx   rbp   ra
 *   0000000000027280 rsp+8    u     u     c-8
 *
 * Rules print as readelf prints them: CFA `rsp+8` or `exp`; registers `u`
 * (undefined, or not yet described in a shown column), `s`, `c-16`, `v+8`,
 * `r7 (rsp)` for DW_CFA_register, `exp`, `vexp`; synthesis's unknown
 * prints as `?`.  (The JSON form of rules is report/table_json's.)
 *
 * Printers write to a FILE and never fail on their own; callers check
 * ferror() once at the end.
 */
#ifndef DWCHECK_TABLE_PRINT_H
#define DWCHECK_TABLE_PRINT_H

#include <stdint.h>
#include <stdio.h>

#include "semantics/unwind_table.h"

/* Which columns a block of rows shows (bit per DWARF column). */
struct column_set {
    uint64_t bits[UNWIND_MAX_COLUMNS / 64];
};

static inline int column_set_has(const struct column_set *s, unsigned col)
{
    return (s->bits[col / 64] >> (col % 64)) & 1;
}

static inline void column_set_add(struct column_set *s, unsigned col)
{
    s->bits[col / 64] |= (uint64_t)1 << (col % 64);
}

/* The label of column COL: its register's name ("rbx"), or "r<COL>" (in
 * BUF) past readelf's table of names. */
const char *table_print_column_label(unsigned col, char *buf, size_t size);

/* "   LOC           CFA      rbx   ra    " for COLS; RA_COLUMN prints as "ra". */
void table_print_readelf_header(FILE *out, const struct column_set *cols, unsigned ra_column);

/*
 * One row in readelf's layout: LOC, the CFA rule, then each column of COLS.
 * RULES has UNWIND_MAX_COLUMNS entries (the evaluator's state) or, with
 * NRULES = UNWIND_COLUMNS, a stored row's; columns past NRULES print `u`.
 */
void table_print_readelf_row(FILE *out, uint64_t loc, const struct unwind_rule *cfa,
                              const struct unwind_rule *rules, unsigned nrules,
                              const struct column_set *cols);

/* Text of a CFA rule ("rsp+8", "exp") or a register rule ("c-16"), as above. */
void table_print_cfa_rule(char *buf, size_t size, const struct unwind_rule *cfa);
void table_print_reg_rule(char *buf, size_t size, const struct unwind_rule *rule);

/* A register rule as dwcheck's findings, excerpts and `dwsynth repair`
 * print it: as table_print_reg_rule, but for the two rules the readelf layout
 * both prints `u`: `unchanged` for a register the table does not mention
 * (x86_64's default rule: unwinders keep its value) and `undefined` for
 * DW_CFA_undefined (the value is lost).  `man dwcheck`, RULE NOTATION. */
void table_print_reg_rule_plain(char *buf, size_t size, const struct unwind_rule *rule);
#define RULE_TEXT_UNCHANGED "unchanged"
#define RULE_TEXT_UNDEFINED "undefined"

#endif
