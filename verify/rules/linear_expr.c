/* SPDX-License-Identifier: Apache-2.0 */
/*
 * linear_expr: exact evaluation of linear expressions (see the header).
 */
#include "linear_expr.h"

#include "semantics/abi.h"
#include "semantics/dwarf_expr.h"
#include "semantics/expr_machine.h"
#include "semantics/unwind_limits.h"
#include "verify/rules/slot_truth.h"

static int is_symbol(struct abstract_value v)
{
    return v.kind == AV_CFA || v.kind == AV_ALIGNED || v.kind == AV_ENTRY;
}

static int known(struct abstract_value v)
{
    return is_symbol(v) || v.kind == AV_CONST;
}

/* Which frames can name a place: the realigned frame is a fixed offset
 * from the CFA's when its rounding is to 16 bytes or less (the CFA being
 * 16-byte aligned); a read there names one slot two ways, left to z3. */
static int frames_overlap(const struct abstract_state *st)
{
    return st->realigned == 1 && st->realign_log2 > 0 && st->realign_log2 <= 4;
}

/* A + B or A - B (MINUS) when the result stays linear. */
static int add_values(struct abstract_value a, struct abstract_value b, int minus, struct abstract_value *out)
{
    uint64_t bo = (uint64_t)b.off;
    if (b.kind == AV_CONST && known(a)) {
        *out = a;
        out->off = (int64_t)((uint64_t)a.off + (minus ? 0 - bo : bo));
        return 0;
    }
    if (!minus && a.kind == AV_CONST && is_symbol(b)) {
        *out = b;
        out->off = (int64_t)((uint64_t)b.off + (uint64_t)a.off);
        return 0;
    }
    if (minus && is_symbol(a) && a.kind == b.kind && a.reg == b.reg) {
        *out = (struct abstract_value){AV_CONST, 0, (int64_t)((uint64_t)a.off - bo)};
        return 0;
    }
    return -1;
}

/* The names of PLACE (CFA + k or ALIGNED + k) in the two frames: both
 * when the realigned frame is a fixed offset from the CFA's (a rounding to
 * 16 bytes or less), else its own. */
static void place_names(const struct abstract_state *st, struct abstract_value place, int *at_cfa, int64_t *k_cfa,
                        int *at_aligned, int64_t *k_aligned)
{
    *at_cfa = place.kind == AV_CFA;
    *at_aligned = place.kind == AV_ALIGNED;
    *k_cfa = *k_aligned = place.off;
    if (!frames_overlap(st) || (!*at_cfa && !*at_aligned))
        return;
    int64_t shift = (int64_t)((uint64_t)(int64_t)st->realign_from & ~(uint64_t)15);   /* ALIGNED - CFA */
    if (*at_cfa)
        *k_aligned = (int64_t)((uint64_t)place.off - (uint64_t)shift);
    else
        *k_cfa = (int64_t)((uint64_t)place.off + (uint64_t)shift);
    *at_cfa = *at_aligned = 1;
}

/* The word at ADDR: the tracked slot there.  Where the two frames overlap
 * (ALIGNED = CFA + (from & -16)), the place has a name in each: the frame
 * that tracks it decides, and two that track it must agree. */
static int deref(const struct abstract_state *st, struct abstract_value addr, struct abstract_value *out)
{
    if (addr.kind != AV_CFA && addr.kind != AV_ALIGNED)
        return -1;
    if (!frames_overlap(st)) {
        *out = abstract_state_slot_in(st, addr.kind, addr.off);
        return known(*out) ? 0 : -1;
    }
    int at_cfa, at_aligned;
    int64_t in_cfa, in_aligned;
    place_names(st, addr, &at_cfa, &in_cfa, &at_aligned, &in_aligned);
    struct abstract_value c = abstract_state_slot_in(st, AV_CFA, in_cfa);
    struct abstract_value a = abstract_state_slot_in(st, AV_ALIGNED, in_aligned);
    if (known(c) && known(a) && !abstract_value_equal(c, a))
        return -1;
    *out = known(c) ? c : a;
    return known(*out) ? 0 : -1;
}

/* ---- the domain: values of the abstract state (struct abstract_value) ---------- */

struct linear_ctx {
    const struct abstract_state *st;
    uint64_t rip;
};

static int linear_constant(void *ctx, uint64_t k, void *out)
{
    (void)ctx;
    *(struct abstract_value *)out = (struct abstract_value){AV_CONST, 0, (int64_t)k};
    return 0;
}

static int linear_reg(void *ctx, unsigned reg, int64_t offset, void *out)
{
    const struct linear_ctx *l = ctx;
    struct abstract_value a = reg == ABI_RA ? (struct abstract_value){AV_CONST, 0, (int64_t)l->rip}
                      : reg < STATE_GPRS ? l->st->reg[reg] : (struct abstract_value){AV_UNKNOWN, 0, 0};
    if (!known(a) || add_values(a, (struct abstract_value){AV_CONST, 0, offset}, 0, out) != 0)
        return DWARF_EXPR_NO_REGISTER;
    return 0;
}

/* Only 8-byte words: a narrower read of a slot is the prover's. */
static int linear_deref(void *ctx, void *v, unsigned size)
{
    const struct linear_ctx *l = ctx;
    return size == 8 && deref(l->st, *(struct abstract_value *)v, v) == 0 ? 0 : DWARF_EXPR_NO_MEMORY;
}

/* abs, neg, not: the prover's. */
static int linear_unary(void *ctx, enum dwarf_unary f, void *v)
{
    (void)ctx;
    (void)f;
    (void)v;
    return DWARF_EXPR_INVALID;
}

/* Sums and differences that stay linear; the rest on numbers only. */
static int linear_binary(void *ctx, enum dwarf_binary f, void *a, const void *b)
{
    (void)ctx;
    struct abstract_value *x = a;
    const struct abstract_value *y = b;
    if (f == DWARF_BINARY_PLUS || f == DWARF_BINARY_MINUS)
        return add_values(*x, *y, f == DWARF_BINARY_MINUS, x) == 0 ? 0 : DWARF_EXPR_INVALID;
    uint64_t v;
    if (x->kind != AV_CONST || y->kind != AV_CONST || dwarf_binary_eval(f, (uint64_t)x->off, (uint64_t)y->off, &v))
        return DWARF_EXPR_INVALID;
    *x = (struct abstract_value){AV_CONST, 0, (int64_t)v};
    return 0;
}

static int linear_truth(void *ctx, const void *v)
{
    (void)ctx;
    const struct abstract_value *x = v;
    return x->kind == AV_CONST ? x->off != 0 : -1;
}

static const struct expr_domain linear = {
    .size = sizeof(struct abstract_value),
    .constant = linear_constant,
    .reg = linear_reg,
    .deref = linear_deref,
    .unary = linear_unary,
    .binary = linear_binary,
    .truth = linear_truth,
};

static int evaluate(const struct unwind_rule *rule, const struct abstract_state *st, uint64_t rip, int push_cfa,
                    struct abstract_value *out)
{
    struct dwarf_op ops[UNWIND_EXPR_MAX_OPS];
    const char *error;
    int n = dwarf_expr_decode(rule->expr, rule->expr_len, 8, ops, UNWIND_EXPR_MAX_OPS, &error);
    if (n < 0)
        return -1;
    struct linear_ctx ctx = {st, rip};
    const struct abstract_value cfa = {AV_CFA, 0, 0};
    if (expr_machine_run(&linear, &ctx, ops, (size_t)n, push_cfa ? &cfa : NULL, out, &error) != 0)
        return -1;
    return known(*out) ? 0 : -1;
}

int linear_expr_decide(const struct unwind_rule *rule, int is_cfa, unsigned reg, const struct abstract_state *st,
                       uint64_t rip, enum rule_verdict *v)
{
    struct abstract_value val;
    if (evaluate(rule, st, rip, !is_cfa, &val) != 0)
        return 0;
    if (is_cfa) {
        *v = val.kind == AV_CFA && val.off == 0 ? RULE_HOLDS : RULE_FAILS;
    } else if (rule->kind == REG_RULE_VAL_EXPRESSION) {
        *v = slot_truth_holds_entry(val, reg);
    } else if (val.kind == AV_CFA || val.kind == AV_ALIGNED) {
        int at_cfa, at_aligned;
        int64_t k_cfa, k_aligned;
        place_names(st, val, &at_cfa, &k_cfa, &at_aligned, &k_aligned);
        *v = slot_truth_place_holds_entry(st, at_cfa, k_cfa, at_aligned, k_aligned, reg);
    } else {
        return 0;   /* an address that is no stack place the state names */
    }
    return *v != RULE_FAILS;
}
