/* SPDX-License-Identifier: Apache-2.0 */
/*
 * unwind_table: storage and lookup for H.
 */
#include "unwind_table.h"

#include <stdlib.h>
#include <string.h>

#include "kit/sorted_search.h"
#include "abi.h"
#include "dwarf_constants.h"
#include "dwarf_expr.h"
#include "unwind_limits.h"

void unwind_table_init(struct unwind_table *t, uint64_t start, uint64_t end)
{
    memset(t, 0, sizeof *t);
    t->start = start;
    t->end = end;
}

struct unwind_expr_chunk {
    struct unwind_expr_chunk *next;
    size_t used;
    uint8_t bytes[4096 - 2 * sizeof(void *)];
};

const uint8_t *unwind_table_keep_expr(struct unwind_table *t, const uint8_t *bytes, uint32_t len)
{
    if (len > sizeof t->exprs->bytes)
        return NULL;
    if (!t->exprs || t->exprs->used + len > sizeof t->exprs->bytes) {
        struct unwind_expr_chunk *c = malloc(sizeof *c);
        if (!c)
            return NULL;
        c->next = t->exprs;
        c->used = 0;
        t->exprs = c;
    }
    uint8_t *p = t->exprs->bytes + t->exprs->used;
    memcpy(p, bytes, len);
    t->exprs->used += len;
    return p;
}

void unwind_table_release(struct unwind_table *t)
{
    while (t->exprs) {
        struct unwind_expr_chunk *next = t->exprs->next;
        free(t->exprs);
        t->exprs = next;
    }
    free(t->rows);
    memset(t, 0, sizeof *t);
}

struct unwind_row *unwind_table_append(struct unwind_table *t, uint64_t start, uint64_t end)
{
    if (t->nrows == t->cap) {
        size_t ncap = t->cap ? t->cap * 2 : 8;
        struct unwind_row *n = realloc(t->rows, ncap * sizeof *n);
        if (!n)
            return NULL;
        t->rows = n;
        t->cap = ncap;
    }
    struct unwind_row *r = &t->rows[t->nrows++];
    memset(r, 0, sizeof *r);
    r->start = start;
    r->end = end;
    return r;
}

static uint64_t row_start_key(const void *rows, size_t i)
{
    return ((const struct unwind_row *)rows)[i].start;
}

const struct unwind_row *unwind_table_row_at(const struct unwind_table *t, uint64_t addr)
{
    /* Rows are sorted and do not overlap: the last one starting at or
     * before ADDR is the only one that can hold it. */
    size_t n = sorted_count_at_most(t->rows, t->nrows, row_start_key, addr);
    return n > 0 && addr < t->rows[n - 1].end ? &t->rows[n - 1] : NULL;
}

int unwind_rule_equal(const struct unwind_rule *a, const struct unwind_rule *b)
{
    if (a->kind != b->kind)
        return 0;
    switch (a->kind) {
    case REG_RULE_OFFSET: case REG_RULE_VAL_OFFSET:
        return a->offset == b->offset;
    case REG_RULE_REGISTER:
        return a->reg == b->reg;
    case REG_RULE_EXPRESSION: case REG_RULE_VAL_EXPRESSION:
        return a->expr_len == b->expr_len && memcmp(a->expr, b->expr, a->expr_len) == 0;
    default:
        return 1;
    }
}

int unwind_row_rules_equal(const struct unwind_row *a, const struct unwind_row *b)
{
    if (!unwind_cfa_rule_equal(&a->cfa, &b->cfa))
        return 0;
    for (unsigned c = 0; c < UNWIND_COLUMNS; c++)
        if (!unwind_rule_equal(&a->reg[c], &b->reg[c]))
            return 0;
    return 1;
}

int unwind_cfa_rule_equal(const struct unwind_rule *a, const struct unwind_rule *b)
{
    if (a->kind != b->kind)
        return 0;
    switch (a->kind) {
    case CFA_RULE_REG_OFFSET:
        return a->reg == b->reg && a->offset == b->offset;
    case CFA_RULE_EXPRESSION:
        return a->expr_len == b->expr_len && memcmp(a->expr, b->expr, a->expr_len) == 0;
    default:
        return 1;
    }
}

const char *unwind_column_name(int column)
{
    if (column < 0)
        return "CFA";
    if (column == ABI_RA)
        return "ra";
    return dwarf_reg_name((unsigned)column);
}

int unwind_rule_call_clobbered_read(const struct unwind_rule *rule, int is_cfa)
{
    const uint8_t *expr = NULL;
    size_t len = 0;
    if (is_cfa && rule->kind == CFA_RULE_REG_OFFSET)
        return abi_call_clobbered(rule->reg) ? (int)rule->reg : -1;
    if (!is_cfa && rule->kind == REG_RULE_REGISTER)
        return abi_call_clobbered(rule->reg) ? (int)rule->reg : -1;
    if ((is_cfa && rule->kind == CFA_RULE_EXPRESSION) ||
        (!is_cfa && (rule->kind == REG_RULE_EXPRESSION || rule->kind == REG_RULE_VAL_EXPRESSION))) {
        expr = rule->expr;
        len = rule->expr_len;
    }
    struct dwarf_op ops[UNWIND_EXPR_MAX_OPS];
    const char *why;
    int n = expr ? dwarf_expr_decode(expr, len, 8, ops, UNWIND_EXPR_MAX_OPS, &why) : 0;
    for (int i = 0; i < n; i++) {
        uint8_t o = ops[i].opcode;
        uint64_t reg = o >= DW_OP_reg0 && o <= DW_OP_reg31 ? (uint64_t)(o - DW_OP_reg0)
                       : (o >= DW_OP_breg0 && o <= DW_OP_breg31) || o == DW_OP_bregx || o == DW_OP_regx
                           ? ops[i].operand1
                           : UINT64_MAX;
        if (reg <= ABI_R15 && abi_call_clobbered((unsigned)reg))
            return (int)reg;
    }
    return -1;
}
