/* SPDX-License-Identifier: Apache-2.0 */
/*
 * unwind_table: the one model of an unwind table, H.
 *
 * An FDE's table is a list of rows covering half-open address ranges
 * [start, end); a row maps each column — the CFA, then every x86_64 DWARF
 * register, RA = 16 — to a rule.  semantics/ builds H from DWARF, synth/ from
 * machine code, compile/ consumes it and verify/ compares two of them.
 *
 * Register numbers are DWARF numbers everywhere (rax 0, rdx 1, rcx 2, rbx 3,
 * rsi 4, rdi 5, rbp 6, rsp 7, r8-r15 8-15, RA 16).  DWARF may also describe
 * columns past 16 (xmm6-15 in Windows-ABI thunks); the evaluator tracks them
 * up to UNWIND_MAX_COLUMNS so they print exactly, while a stored table keeps
 * the 17 columns an unwinder restores and records which others were described.
 *
 * "Unknown" is a rule kind, never an abort: synthesis emits it where it cannot
 * decide, and every consumer handles it.
 */
#ifndef DWCHECK_UNWIND_TABLE_H
#define DWCHECK_UNWIND_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "semantics/abi.h"

#define UNWIND_COLUMNS 17         /* rax..r15 and RA (semantics/abi.h numbers them) */
#define UNWIND_MAX_COLUMNS 128    /* DWARF columns the evaluator tracks */

enum cfa_rule_kind {
    CFA_RULE_UNSET = 0,         /* no DW_CFA_def_cfa* seen yet */
    CFA_RULE_REG_OFFSET,        /* reg + offset */
    CFA_RULE_EXPRESSION,        /* value of expr */
    CFA_RULE_UNKNOWN,           /* synthesis could not decide */
};

enum reg_rule_kind {
    REG_RULE_UNREFERENCED = 0,  /* no instruction mentions the column */
    REG_RULE_UNDEFINED,         /* u */
    REG_RULE_SAME_VALUE,        /* s */
    REG_RULE_OFFSET,            /* c+N: saved at CFA+N */
    REG_RULE_VAL_OFFSET,        /* v+N: value is CFA+N */
    REG_RULE_REGISTER,          /* value is in register reg */
    REG_RULE_EXPRESSION,        /* exp: saved at address expr */
    REG_RULE_VAL_EXPRESSION,    /* vexp: value is expr */
    REG_RULE_UNKNOWN,           /* synthesis could not decide */
};

/* One rule.  `expr` points into the section that holds the FDE (borrowed). */
struct unwind_rule {
    uint8_t kind;          /* cfa_rule_kind for the CFA, reg_rule_kind otherwise */
    uint16_t reg;          /* CFA_RULE_REG_OFFSET, REG_RULE_REGISTER */
    uint32_t expr_len;
    int64_t offset;        /* CFA_RULE_REG_OFFSET, REG_RULE_OFFSET, REG_RULE_VAL_OFFSET;
                              a CFA expression keeps the last reg/offset (see cfa_program) */
    const uint8_t *expr;   /* *_EXPRESSION */
};

struct unwind_row {
    uint64_t start, end;                   /* [start, end) */
    struct unwind_rule cfa;
    struct unwind_rule reg[UNWIND_COLUMNS];
    uint64_t args_size;                    /* DWARF's DW_CFA_GNU_args_size in effect: the bytes of
                                              pushed arguments an unwinder pops before it enters a
                                              landing pad.  Not a rule (the comparisons of rules
                                              ignore it); kept so that a table written back keeps it */
};

/* The table of one FDE (or one synthesised function). */
struct unwind_table {
    uint64_t start, end;                   /* the FDE's [pc_begin, pc_end) */
    struct unwind_row *rows;               /* sorted, non-overlapping */
    size_t nrows, cap;
    uint64_t extra_columns[2];             /* columns >= 17 that DWARF described */
    int signal_frame;                      /* "S" augmentation */
    struct unwind_expr_chunk *exprs;       /* storage for expressions the table owns */
};

void unwind_table_init(struct unwind_table *t, uint64_t start, uint64_t end);
void unwind_table_release(struct unwind_table *t);

/* Append a row; returns it (zeroed but for start/end), or NULL when out of memory. */
struct unwind_row *unwind_table_append(struct unwind_table *t, uint64_t start, uint64_t end);

/* A copy of expression BYTES owned by T (freed with it), or NULL when out of
 * memory.  For tables whose expressions are not borrowed from a section. */
const uint8_t *unwind_table_keep_expr(struct unwind_table *t, const uint8_t *bytes, uint32_t len);

/* The row covering ADDR, or NULL (binary search). */
const struct unwind_row *unwind_table_row_at(const struct unwind_table *t, uint64_t addr);

/* Equality of register rules: same kind, same operands (expressions bytewise). */
int unwind_rule_equal(const struct unwind_rule *a, const struct unwind_rule *b);

/* Equality of CFA rules (operands a rule does not use are ignored). */
int unwind_cfa_rule_equal(const struct unwind_rule *a, const struct unwind_rule *b);

/* Whether two rows have the same rules in every column (their address
 * ranges are ignored). */
int unwind_row_rules_equal(const struct unwind_row *a, const struct unwind_row *b);

/* The call-clobbered register (rax, rcx, rdx, rsi, rdi, r8-r11: DWARF
 * number) that RULE reads, a CFA rule when IS_CFA, anywhere in its
 * expression; or -1.  At a call such a rule reads what the callee left. */
int unwind_rule_call_clobbered_read(const struct unwind_rule *rule, int is_cfa);

/* Name of a column: "CFA" for -1, "ra" for 16, "rbx" etc.; NULL past known names. */
const char *unwind_column_name(int column);

#endif
