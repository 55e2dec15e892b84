/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cfi_encode: call-frame instructions from a table (see the header).
 */
#include "cfi_encode.h"

#include <stdlib.h>
#include <string.h>

#include "kit/byte_writer.h"
#include "semantics/dwarf_constants.h"

void cfi_bytes_release(struct cfi_bytes *out)
{
    free(out->b);
    *out = (struct cfi_bytes){0};
}

int cfi_bytes_reserve(struct cfi_bytes *out, uint64_t n)
{
    if (n > SIZE_MAX - out->n)
        return -2;
    if (out->n + n <= out->cap)
        return 0;
    size_t cap = out->cap * 2 > out->n + n ? out->cap * 2 : out->n + (size_t)n;
    uint8_t *b = realloc(out->b, cap);
    if (!b)
        return -2;
    out->b = b;
    out->cap = cap;
    return 0;
}

static int put(struct cfi_bytes *out, const void *bytes, size_t n)
{
    if (cfi_bytes_reserve(out, n) != 0)
        return -2;
    if (n)
        memcpy(out->b + out->n, bytes, n);
    out->n += n;
    return 0;
}

static int put_byte(struct cfi_bytes *out, uint8_t v)
{
    return put(out, &v, 1);
}

static int put_uleb(struct cfi_bytes *out, uint64_t v)
{
    uint8_t b[10];
    return put(out, b, uleb128_encode(v, b));
}

static int put_sleb(struct cfi_bytes *out, int64_t v)
{
    uint8_t b[10];
    return put(out, b, sleb128_encode(v, b));
}

/* OP, then the operands as DWARF lays them out. */
static int op_reg(struct cfi_bytes *out, uint8_t op, unsigned reg)
{
    int rc = put_byte(out, op);
    return rc ? rc : put_uleb(out, reg);
}

static int op_reg_expr(struct cfi_bytes *out, uint8_t op, unsigned reg, const struct unwind_rule *r)
{
    int rc = reg == (unsigned)-1 ? put_byte(out, op) : op_reg(out, op, reg);
    if (!rc)
        rc = put_uleb(out, r->expr_len);
    return rc ? rc : put(out, r->expr, r->expr_len);
}

/* OFFSET / DATA_ALIGN in *F, when it divides. */
static int factored(int64_t offset, int64_t data_align, int64_t *f)
{
    if (data_align == 0 || offset % data_align != 0)
        return -1;
    *f = offset / data_align;
    return 0;
}

static int advance(struct cfi_bytes *out, uint64_t delta)
{
    int rc;
    if (delta < 0x40)
        return put_byte(out, (uint8_t)(DW_CFA_advance_loc | delta));
    if (delta <= 0xff) {
        uint8_t b[2] = {DW_CFA_advance_loc1, (uint8_t)delta};
        return put(out, b, 2);
    }
    if (delta <= 0xffff) {
        uint16_t v = (uint16_t)delta;   /* x86_64: little-endian, as the section */
        rc = put_byte(out, DW_CFA_advance_loc2);
        return rc ? rc : put(out, &v, 2);
    }
    uint32_t v = (uint32_t)delta;
    rc = put_byte(out, DW_CFA_advance_loc4);
    return rc ? rc : put(out, &v, 4);
}

static int set_cfa(struct cfi_bytes *out, const struct unwind_rule *now, const struct unwind_rule *want,
                   const struct cfa_cie_params *cie, const char **why)
{
    if (unwind_cfa_rule_equal(now, want))
        return 0;
    if (want->kind == CFA_RULE_EXPRESSION)
        return op_reg_expr(out, DW_CFA_def_cfa_expression, (unsigned)-1, want);
    if (want->kind != CFA_RULE_REG_OFFSET) {
        *why = "a CFA rule DWARF cannot state (unknown, or unset after a rule)";
        return -1;
    }
    int same_reg = now->kind == CFA_RULE_REG_OFFSET && now->reg == want->reg;
    int same_offset = now->kind == CFA_RULE_REG_OFFSET && now->offset == want->offset;
    int64_t f;
    int rc;
    if (same_offset)
        return op_reg(out, DW_CFA_def_cfa_register, want->reg);
    if (same_reg && want->offset >= 0) {
        rc = put_byte(out, DW_CFA_def_cfa_offset);
        return rc ? rc : put_uleb(out, (uint64_t)want->offset);
    }
    if (want->offset >= 0) {
        rc = op_reg(out, DW_CFA_def_cfa, want->reg);
        return rc ? rc : put_uleb(out, (uint64_t)want->offset);
    }
    if (factored(want->offset, cie->data_align, &f) != 0) {
        *why = "a negative CFA offset that is no multiple of the data alignment";
        return -1;
    }
    rc = same_reg ? put_byte(out, DW_CFA_def_cfa_offset_sf) : op_reg(out, DW_CFA_def_cfa_sf, want->reg);
    return rc ? rc : put_sleb(out, f);
}

static int set_column(struct cfi_bytes *out, unsigned c, const struct unwind_rule *now,
                      const struct unwind_rule *want, const struct unwind_rule *initial,
                      const struct cfa_cie_params *cie, const char **why)
{
    if (unwind_rule_equal(now, want))
        return 0;
    if (unwind_rule_equal(initial, want))
        return c < 64 ? put_byte(out, (uint8_t)(DW_CFA_restore | c)) : op_reg(out, DW_CFA_restore_extended, c);
    int64_t f;
    int rc;
    switch (want->kind) {
    case REG_RULE_UNDEFINED:
        return op_reg(out, DW_CFA_undefined, c);
    case REG_RULE_SAME_VALUE:
        return op_reg(out, DW_CFA_same_value, c);
    case REG_RULE_REGISTER:
        rc = op_reg(out, DW_CFA_register, c);
        return rc ? rc : put_uleb(out, want->reg);
    case REG_RULE_EXPRESSION:
        return op_reg_expr(out, DW_CFA_expression, c, want);
    case REG_RULE_VAL_EXPRESSION:
        return op_reg_expr(out, DW_CFA_val_expression, c, want);
    case REG_RULE_OFFSET: case REG_RULE_VAL_OFFSET:
        if (factored(want->offset, cie->data_align, &f) != 0) {
            *why = "a save slot whose offset is no multiple of the data alignment";
            return -1;
        }
        if (want->kind == REG_RULE_OFFSET && f >= 0 && c < 64)
            rc = put_byte(out, (uint8_t)(DW_CFA_offset | c));
        else if (f >= 0)
            rc = op_reg(out, want->kind == REG_RULE_OFFSET ? DW_CFA_offset_extended : DW_CFA_val_offset, c);
        else
            rc = op_reg(out, want->kind == REG_RULE_OFFSET ? DW_CFA_offset_extended_sf : DW_CFA_val_offset_sf, c);
        return rc ? rc : f >= 0 ? put_uleb(out, (uint64_t)f) : put_sleb(out, f);
    default:
        *why = "a register rule DWARF cannot state (unknown, or unmentioned where the CIE mentions it)";
        return -1;
    }
}

/* Rows equal for an unwinder: rules and argument area. */
static int same_row(const struct unwind_row *a, const struct unwind_row *b)
{
    return unwind_row_rules_equal(a, b) && a->args_size == b->args_size;
}

/* The instructions that turn row FROM into row TO. */
static int changes(struct cfi_bytes *out, const struct unwind_row *from, const struct unwind_row *to,
                   const struct cfa_cie_params *cie, const struct cfi_state *initial, const char **why)
{
    int rc = set_cfa(out, &from->cfa, &to->cfa, cie, why);
    if (!rc && to->args_size != from->args_size) {   /* landing pads' argument area */
        rc = put_byte(out, DW_CFA_GNU_args_size);
        if (!rc)
            rc = put_uleb(out, to->args_size);
    }
    for (unsigned c = 0; c < UNWIND_COLUMNS && !rc; c++)
        rc = set_column(out, c, &from->reg[c], &to->reg[c], &initial->col[c], cie, why);
    return rc;
}

/* How far ahead a row that returns to the state being left is sought. */
#define RETURN_LOOKAHEAD 64

/* Where T's rows come back to NOW after row I leaves it (an epilogue in the
 * middle of a function: the body's row again after it), when saying so
 * with remember_state / restore_state (2 bytes) is shorter than writing the
 * change back; else (size_t)-1. */
static size_t return_worth_remembering(const struct unwind_table *t, size_t i, const struct unwind_row *now,
                                       const struct cfa_cie_params *cie, const struct cfi_state *initial)
{
    for (size_t j = i + 1; j < t->nrows && j <= i + RETURN_LOOKAHEAD; j++) {
        if (!same_row(&t->rows[j], now))
            continue;
        if (same_row(&t->rows[j - 1], now))
            return (size_t)-1;
        struct cfi_bytes back = {0};
        const char *why;
        int rc = changes(&back, &t->rows[j - 1], now, cie, initial, &why);
        size_t n = back.n;
        cfi_bytes_release(&back);
        return rc == 0 && n > 2 ? j : (size_t)-1;
    }
    return (size_t)-1;
}

int cfi_encode_fde(const struct unwind_table *t, const struct cfa_cie_params *cie,
                   const struct cfi_state *initial, struct cfi_bytes *out, const char **why)
{
    struct unwind_row now = {.start = t->start, .cfa = initial->cfa};
    memcpy(now.reg, initial->col, sizeof now.reg);
    uint64_t loc = t->start;
    size_t restore_at = (size_t)-1;   /* the row a remember_state is waiting for */
    for (size_t i = 0; i < t->nrows; i++) {
        const struct unwind_row *row = &t->rows[i];
        if (i > 0 && same_row(&now, row))
            continue;   /* the row before goes on */
        if (row->start != loc) {
            if (row->start < loc || cie->code_align == 0 || (row->start - loc) % cie->code_align) {
                *why = "rows out of order, or not on the code alignment";
                return -1;
            }
            int rc = advance(out, (row->start - loc) / cie->code_align);
            if (rc)
                return rc;
            loc = row->start;
        }
        int rc;
        if (i == restore_at) {
            rc = put_byte(out, DW_CFA_restore_state);   /* back to the remembered row, which is ROW */
            restore_at = (size_t)-1;
        } else {
            rc = 0;
            if (i > 0 && restore_at == (size_t)-1 &&
                (restore_at = return_worth_remembering(t, i, &now, cie, initial)) != (size_t)-1)
                rc = put_byte(out, DW_CFA_remember_state);
            if (!rc)
                rc = changes(out, &now, row, cie, initial, why);
        }
        if (rc)
            return rc;
        now = *row;
    }
    return 0;
}
