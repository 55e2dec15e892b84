/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rule_words: unwind rules in plain words, for the lines of a finding that
 * say what the table claims and what the code does.
 *
 * A finding's `table:` line is rule_words_table of the DWARF rule ("the
 * CFA is rsp+8", "rbx is not described: unwinders take it as unchanged",
 * "rbx is undefined"), its `code:` line rule_words_code of synthesis's rule
 * ("the CFA is rsp+16", "rbx's entry value is saved at CFA-16"), or, where
 * synthesis has no rule, what the register holds ("rbx holds 0x0, and its
 * entry value is saved nowhere synthesis knows").  rule_words_change says
 * what an instruction did to a column, from synthesis's rows before and
 * after it ("moved rsp down 8", "saved rbx at CFA-16").
 *
 * An expression rule is named by its operations, as readelf prints them,
 * when they are short ("DW_OP_breg7 (rsp): 16"), else "a DWARF expression
 * (exp)".  COLUMN is a DWARF column (ABI_RA the return address) or -1 for
 * the CFA.
 * Every function writes at most SIZE bytes to BUF, NUL included, and never
 * fails (a rule it has no words for is named in the notation of `man
 * dwcheck`).  Pure: no state.
 */
#ifndef DWCHECK_RULE_WORDS_H
#define DWCHECK_RULE_WORDS_H

#include <stddef.h>

#include "semantics/unwind_table.h"

/* What the table's RULE says of COLUMN. */
void rule_words_table(char *buf, size_t size, int column, const struct unwind_rule *rule);

/* What synthesis's RULE says the code does to COLUMN.  VALUE: what the
 * register holds when RULE is unknown ("0x0", "rsi's entry value"), or
 * NULL / "" when synthesis does not know that either. */
void rule_words_code(char *buf, size_t size, int column, const struct unwind_rule *rule, const char *value);

/* What an instruction did to COLUMN when synthesis's rule went from BEFORE
 * to AFTER: "moved rsp down 8", "saved rbx at CFA-16", "restored rbx",
 * "made rbp the CFA's register"; "" when no short phrase says it. */
void rule_words_change(char *buf, size_t size, int column, const struct unwind_rule *before,
                       const struct unwind_rule *after);

#endif
