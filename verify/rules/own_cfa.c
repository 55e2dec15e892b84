/* SPDX-License-Identifier: Apache-2.0 */
/*
 * own_cfa: rows with a CFA of their own, made canonical (see the header).
 */
#include "own_cfa.h"

#include "semantics/abi.h"
#include "semantics/dwarf_constants.h"
#include "semantics/dwarf_expr.h"

/* The value rsp's rule gives, as CFA + *K (the canonical CFA), from a row
 * whose CFA is the canonical CFA + DELTA: 0, or -1 when not of a form
 * read here (val_offset, or val_expression of one DW_OP_bregN). */
static int rsp_rule_value(const struct unwind_rule *r, const struct abstract_state *st, int64_t delta, int64_t *k)
{
    if (r->kind == REG_RULE_VAL_OFFSET) {
        *k = delta + r->offset;
        return 0;
    }
    if (r->kind != REG_RULE_VAL_EXPRESSION)
        return -1;
    struct dwarf_op op;
    const char *error;
    if (dwarf_expr_decode(r->expr, r->expr_len, 8, &op, 1, &error) != 1 || op.opcode < DW_OP_breg0 ||
        op.opcode > DW_OP_breg31)
        return -1;
    unsigned reg = op.opcode - DW_OP_breg0;
    if (reg >= STATE_GPRS || st->reg[reg].kind != AV_CFA)
        return -1;
    *k = st->reg[reg].off + op.operand2;
    return 0;
}

int own_cfa_canonical(const struct unwind_row *row, const struct abstract_state *st, struct unwind_row *out)
{
    const struct unwind_rule *cfa = &row->cfa;
    if (row->reg[ABI_RSP].kind == REG_RULE_UNREFERENCED || row->reg[ABI_RSP].kind == REG_RULE_SAME_VALUE ||
        cfa->kind != CFA_RULE_REG_OFFSET || cfa->reg >= STATE_GPRS || st->reg[cfa->reg].kind != AV_CFA)
        return 0;
    int64_t delta = st->reg[cfa->reg].off + cfa->offset, k;
    if (delta == 0)
        return 0;
    if (rsp_rule_value(&row->reg[ABI_RSP], st, delta, &k) != 0)
        return 0;
    if (k != 0)
        return -1;
    *out = *row;
    out->cfa.offset = cfa->offset - delta;
    out->reg[ABI_RSP] = (struct unwind_rule){.kind = REG_RULE_UNREFERENCED};
    for (unsigned c = 0; c < UNWIND_COLUMNS; c++)
        if (out->reg[c].kind == REG_RULE_OFFSET || out->reg[c].kind == REG_RULE_VAL_OFFSET)
            out->reg[c].offset += delta;
    return 1;
}
