/* SPDX-License-Identifier: Apache-2.0 */
/*
 * emit_row: the H row of an abstract state (see emit_row.h).
 */
#include "emit_row.h"

#include <string.h>

#include "semantics/abi.h"

static size_t put_sleb(uint8_t *p, int64_t v)
{
    size_t n = 0;
    for (;;) {
        uint8_t b = v & 0x7f;
        v >>= 7;
        int done = (v == 0 && !(b & 0x40)) || (v == -1 && (b & 0x40));
        p[n++] = done ? b : (uint8_t)(b | 0x80);
        if (done)
            return n;
    }
}

/* A register that addresses the realigned frame: rbp (as GCC describes it),
 * else rsp.  Returns its number and ALIGNED-offset, or -1. */
static int aligned_anchor(const struct abstract_state *st, int64_t *k)
{
    static const unsigned prefer[] = {ABI_RBP, ABI_RSP};
    for (unsigned i = 0; i < 2; i++)
        if (st->reg[prefer[i]].kind == AV_ALIGNED) {
            *k = st->reg[prefer[i]].off;
            return (int)prefer[i];
        }
    return -1;
}

/* DW_OP_breg<reg> <off> [DW_OP_deref [DW_OP_plus_uconst <plus>]] into BUF. */
static uint32_t breg_expr(uint8_t *buf, int reg, int64_t off, int deref, int64_t plus)
{
    size_t n = 0;
    buf[n++] = (uint8_t)(0x70 + reg);   /* DW_OP_breg0 + reg */
    n += put_sleb(buf + n, off);
    if (deref) {
        buf[n++] = 0x06;                /* DW_OP_deref */
        if (plus > 0) {
            buf[n++] = 0x23;            /* DW_OP_plus_uconst */
            n += put_sleb(buf + n, plus) ;   /* small positive: same bytes as ULEB */
        }
    }
    return (uint32_t)n;
}

/* The CFA by a slot of the realigned frame that holds CFA + c (GCC's DRAP
 * save): DW_OP_breg<anchor> <off>; DW_OP_deref.  LIVE_ONLY: a slot still on
 * the stack (at or above rsp, when rsp is known), not one already popped.
 * The expression is written into BUF.  Returns 1 when ROW's CFA was set. */
static int drap_slot_cfa(const struct abstract_state *st, int anchor, int64_t k, int live_only,
                         struct unwind_row *row, uint8_t *buf)
{
    const struct abstract_value rsp = st->reg[ABI_RSP];
    for (unsigned i = 0; anchor >= 0 && i < st->nslots; i++) {
        const struct stack_slot *s = &st->slot[i];
        if (s->base != AV_ALIGNED || s->value.kind != AV_CFA || s->value.off > 0)
            continue;
        if (live_only && rsp.kind == AV_ALIGNED && s->off < rsp.off)
            continue;
        row->cfa.kind = CFA_RULE_EXPRESSION;
        row->cfa.expr = buf;
        row->cfa.expr_len = breg_expr(buf, anchor, s->off - k, 1, -s->value.off);
        return 1;   /* the lowest such slot */
    }
    return 0;
}

void emit_row_stack_end(struct unwind_row *row)
{
    memset(&row->cfa, 0, sizeof row->cfa);
    row->cfa = (struct unwind_rule){.kind = CFA_RULE_REG_OFFSET, .reg = ABI_RSP, .offset = ABI_ENTRY_CFA_OFFSET};
    for (unsigned c = 0; c < UNWIND_COLUMNS; c++)
        row->reg[c] = (struct unwind_rule){.kind = REG_RULE_UNREFERENCED};
    row->reg[ABI_RA].kind = REG_RULE_UNDEFINED;
}

void emit_row_from_state(const struct abstract_state *st, struct unwind_row *row,
                         struct synth_row_exprs *exprs)
{
    memset(&row->cfa, 0, sizeof row->cfa);
    memset(row->reg, 0, sizeof row->reg);
    if (st->outermost) {   /* clone's child */
        emit_row_stack_end(row);
        return;
    }
    const struct abstract_value rsp = st->reg[ABI_RSP], rbp = st->reg[ABI_RBP];
    int64_t k = 0;
    int anchor = aligned_anchor(st, &k);
    if (st->frame_pointer && rbp.kind == AV_CFA) {
        row->cfa = (struct unwind_rule){.kind = CFA_RULE_REG_OFFSET, .reg = ABI_RBP, .offset = -rbp.off};
    } else if (rsp.kind == AV_CFA) {
        row->cfa = (struct unwind_rule){.kind = CFA_RULE_REG_OFFSET, .reg = ABI_RSP, .offset = -rsp.off};
    } else {
        /* GCC's DRAP save while it is on the stack: from the push of the
         * DRAP register to its pop, GCC describes the CFA by that slot, not
         * by the register.  Only the slot survives a call: an unwinder
         * evaluates a call site's row with the callee's registers, where a
         * caller-saved register such as r10 holds garbage. */
        row->cfa.kind = CFA_RULE_UNKNOWN;
        if (!drap_slot_cfa(st, anchor, k, 1, row, exprs->bytes[UNWIND_COLUMNS])) {
            /* Any register holding CFA + k: rbp without the prologue idiom,
             * or a DRAP register such as r10 around a realignment. */
            for (unsigned r = 0; r < STATE_GPRS; r++)
                if (st->reg[r].kind == AV_CFA) {
                    row->cfa = (struct unwind_rule){.kind = CFA_RULE_REG_OFFSET, .reg = (uint16_t)r,
                                                    .offset = -st->reg[r].off};
                    break;
                }
        }
        if (row->cfa.kind == CFA_RULE_UNKNOWN)
            drap_slot_cfa(st, anchor, k, 0, row, exprs->bytes[UNWIND_COLUMNS]);
    }
    /* The return address and the callee-saved registers: by the slot that
     * holds their entry value (the highest one: the push of the prologue);
     * in the realigned frame, by an expression on its anchor register. */
    unsigned cols[ABI_NCALLEE_SAVED + 1];
    memcpy(cols, abi_callee_saved_regs, sizeof abi_callee_saved_regs);
    cols[ABI_NCALLEE_SAVED] = ABI_RA;
    for (unsigned c = 0; c <= ABI_NCALLEE_SAVED; c++) {
        unsigned r = cols[c];
        struct unwind_rule *rule = &row->reg[r];
        rule->kind = REG_RULE_UNKNOWN;
        const struct stack_slot *aligned_save = NULL;
        for (int i = st->nslots - 1; i >= 0; i--) {
            const struct stack_slot *s = &st->slot[i];
            if (s->value.kind != AV_ENTRY || s->value.reg != r || s->value.off != 0)
                continue;
            if (s->base == AV_CFA) {
                *rule = (struct unwind_rule){.kind = REG_RULE_OFFSET, .offset = s->off};
                break;
            }
            if (!aligned_save)
                aligned_save = s;
        }
        if (rule->kind == REG_RULE_UNKNOWN && aligned_save && anchor >= 0) {
            uint8_t *buf = exprs->bytes[r];
            rule->kind = REG_RULE_EXPRESSION;
            rule->expr = buf;
            rule->expr_len = breg_expr(buf, anchor, aligned_save->off - k, 0, 0);
        }
        if (rule->kind == REG_RULE_UNKNOWN && r != ABI_RA && st->reg[r].kind == AV_ENTRY &&
            st->reg[r].reg == r && st->reg[r].off == 0)
            rule->kind = REG_RULE_UNREFERENCED;   /* never saved: still its entry value */
    }
}
