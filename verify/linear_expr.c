/* SPDX-License-Identifier: Apache-2.0 */
/*
 * linear_expr: exact evaluation of linear expressions (see the header).
 */
#include "linear_expr.h"

#include "semantics/abi.h"
#include "semantics/dwarf_constants.h"
#include "semantics/dwarf_expr.h"
#include "semantics/unwind_limits.h"
#include "verify/slot_truth.h"

static int is_symbol(struct absval v)
{
    return v.kind == AV_CFA || v.kind == AV_ALIGNED || v.kind == AV_ENTRY;
}

static int known(struct absval v)
{
    return is_symbol(v) || v.kind == AV_CONST;
}

/* Which frames can name a place: the realigned frame is a fixed offset
 * from the CFA's when its rounding is to 16 bytes or less (the CFA being
 * 16-byte aligned); a read there names one slot two ways, left to z3. */
static int frames_overlap(const struct abs_state *st)
{
    return st->realigned == 1 && st->realign_log2 > 0 && st->realign_log2 <= 4;
}

/* A binary operation on numbers, as dwarf_expr_eval computes it; -1 when it
 * cannot be evaluated (division by zero). */
static int on_numbers(uint8_t o, uint64_t a, uint64_t b, uint64_t *v)
{
    switch (o) {
    case DW_OP_and: *v = a & b; return 0;
    case DW_OP_or: *v = a | b; return 0;
    case DW_OP_xor: *v = a ^ b; return 0;
    case DW_OP_plus: *v = a + b; return 0;
    case DW_OP_minus: *v = a - b; return 0;
    case DW_OP_mul: *v = a * b; return 0;
    case DW_OP_shl: *v = b >= 64 ? 0 : a << b; return 0;
    case DW_OP_shr: *v = b >= 64 ? 0 : a >> b; return 0;
    case DW_OP_shra: *v = b >= 64 ? ((int64_t)a < 0 ? ~(uint64_t)0 : 0) : (uint64_t)((int64_t)a >> b); return 0;
    case DW_OP_eq: *v = a == b; return 0;
    case DW_OP_ne: *v = a != b; return 0;
    case DW_OP_ge: *v = (int64_t)a >= (int64_t)b; return 0;
    case DW_OP_gt: *v = (int64_t)a > (int64_t)b; return 0;
    case DW_OP_le: *v = (int64_t)a <= (int64_t)b; return 0;
    case DW_OP_lt: *v = (int64_t)a < (int64_t)b; return 0;
    case DW_OP_div:
        if (b == 0)
            return -1;
        *v = ((int64_t)a == INT64_MIN && (int64_t)b == -1) ? a : (uint64_t)((int64_t)a / (int64_t)b);
        return 0;
    case DW_OP_mod:
        if (b == 0)
            return -1;
        *v = a % b;
        return 0;
    default:
        return -1;
    }
}

/* A + B or A - B (MINUS) when the result stays linear. */
static int add_values(struct absval a, struct absval b, int minus, struct absval *out)
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
        *out = (struct absval){AV_CONST, 0, (int64_t)((uint64_t)a.off - bo)};
        return 0;
    }
    return -1;
}

/* The names of PLACE (CFA + k or ALIGNED + k) in the two frames: both
 * when the realigned frame is a fixed offset from the CFA's (a rounding to
 * 16 bytes or less), else its own. */
static void place_names(const struct abs_state *st, struct absval place, int *at_cfa, int64_t *k_cfa,
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
static int deref(const struct abs_state *st, struct absval addr, struct absval *out)
{
    if (addr.kind != AV_CFA && addr.kind != AV_ALIGNED)
        return -1;
    if (!frames_overlap(st)) {
        *out = abs_state_slot_in(st, addr.kind, addr.off);
        return known(*out) ? 0 : -1;
    }
    int at_cfa, at_aligned;
    int64_t in_cfa, in_aligned;
    place_names(st, addr, &at_cfa, &in_cfa, &at_aligned, &in_aligned);
    struct absval c = abs_state_slot_in(st, AV_CFA, in_cfa), a = abs_state_slot_in(st, AV_ALIGNED, in_aligned);
    if (known(c) && known(a) && !absval_equal(c, a))
        return -1;
    *out = known(c) ? c : a;
    return known(*out) ? 0 : -1;
}

static int evaluate(const struct unwind_rule *rule, const struct abs_state *st, uint64_t rip, int push_cfa,
                    struct absval *out)
{
    struct dwarf_op ops[UNWIND_EXPR_MAX_OPS];
    const char *error;
    int n = dwarf_expr_decode(rule->expr, rule->expr_len, 8, ops, UNWIND_EXPR_MAX_OPS, &error);
    if (n < 0)
        return -1;
    struct absval stack[UNWIND_EXPR_STACK], a, b;
    size_t sp = 0;
    unsigned branches = 0;
#define NEED(k) do { if (sp < (size_t)(k)) return -1; } while (0)
#define PUSH(v) do { if (sp == UNWIND_EXPR_STACK) return -1; stack[sp++] = (v); } while (0)
    if (push_cfa)
        PUSH(((struct absval){AV_CFA, 0, 0}));
    for (size_t pc = 0; pc < (size_t)n;) {
        const struct dwarf_op *op = &ops[pc++];
        uint8_t o = op->opcode;
        uint64_t v;
        if (o >= DW_OP_lit0 && o <= DW_OP_lit31) {
            PUSH(((struct absval){AV_CONST, 0, o - DW_OP_lit0}));
            continue;
        }
        if ((o >= DW_OP_breg0 && o <= DW_OP_breg31) || o == DW_OP_bregx) {
            unsigned reg = (unsigned)op->operand1;
            a = reg == ABI_RA ? (struct absval){AV_CONST, 0, (int64_t)rip}
                : reg < STATE_GPRS ? st->reg[reg] : (struct absval){AV_UNKNOWN, 0, 0};
            if (!known(a) || add_values(a, (struct absval){AV_CONST, 0, op->operand2}, 0, &b) != 0)
                return -1;
            PUSH(b);
            continue;
        }
        switch (o) {
        case DW_OP_addr: case DW_OP_const1u: case DW_OP_const2u: case DW_OP_const4u: case DW_OP_const8u:
        case DW_OP_const1s: case DW_OP_const2s: case DW_OP_const4s: case DW_OP_const8s: case DW_OP_constu:
        case DW_OP_consts:
            PUSH(((struct absval){AV_CONST, 0, (int64_t)op->operand1}));
            break;
        case DW_OP_plus_uconst:
            NEED(1);
            if (add_values(stack[sp - 1], (struct absval){AV_CONST, 0, (int64_t)op->operand1}, 0, &stack[sp - 1]))
                return -1;
            break;
        case DW_OP_plus: case DW_OP_minus:
            NEED(2);
            b = stack[--sp];
            if (add_values(stack[sp - 1], b, o == DW_OP_minus, &stack[sp - 1]) != 0)
                return -1;
            break;
        case DW_OP_and: case DW_OP_or: case DW_OP_xor: case DW_OP_mul: case DW_OP_shl: case DW_OP_shr:
        case DW_OP_shra: case DW_OP_eq: case DW_OP_ne: case DW_OP_ge: case DW_OP_gt: case DW_OP_le:
        case DW_OP_lt: case DW_OP_div: case DW_OP_mod:
            NEED(2);
            b = stack[--sp];
            a = stack[sp - 1];
            if (a.kind != AV_CONST || b.kind != AV_CONST || on_numbers(o, (uint64_t)a.off, (uint64_t)b.off, &v))
                return -1;
            stack[sp - 1] = (struct absval){AV_CONST, 0, (int64_t)v};
            break;
        case DW_OP_deref:
            NEED(1);
            if (deref(st, stack[sp - 1], &stack[sp - 1]) != 0)
                return -1;
            break;
        case DW_OP_dup: NEED(1); a = stack[sp - 1]; PUSH(a); break;
        case DW_OP_drop: NEED(1); sp--; break;
        case DW_OP_over: NEED(2); a = stack[sp - 2]; PUSH(a); break;
        case DW_OP_pick: NEED(op->operand1 + 1); a = stack[sp - 1 - op->operand1]; PUSH(a); break;
        case DW_OP_swap: NEED(2); a = stack[sp - 1]; stack[sp - 1] = stack[sp - 2]; stack[sp - 2] = a; break;
        case DW_OP_rot:
            NEED(3);
            a = stack[sp - 1];
            stack[sp - 1] = stack[sp - 2];
            stack[sp - 2] = stack[sp - 3];
            stack[sp - 3] = a;
            break;
        case DW_OP_nop: break;
        case DW_OP_stack_value: pc = (size_t)n; break;
        case DW_OP_skip: case DW_OP_bra:
            if (++branches > UNWIND_EXPR_BRANCHES)
                return -1;
            if (o == DW_OP_bra) {
                NEED(1);
                a = stack[--sp];
                if (a.kind != AV_CONST)
                    return -1;
                if (a.off == 0)
                    break;
            }
            pc = dwarf_expr_branch_target(ops, (size_t)n, op->operand2);
            break;
        default:
            return -1;   /* deref_size, abs, neg, not ...: the prover's */
        }
    }
#undef NEED
#undef PUSH
    if (sp == 0 || !known(stack[sp - 1]))
        return -1;
    *out = stack[sp - 1];
    return 0;
}

int linear_expr_decide(const struct unwind_rule *rule, int is_cfa, unsigned reg, const struct abs_state *st,
                       uint64_t rip, enum rule_verdict *v)
{
    struct absval val;
    if (evaluate(rule, st, rip, !is_cfa, &val) != 0)
        return 0;
    if (is_cfa) {
        *v = val.kind == AV_CFA && val.off == 0 ? RULE_HOLDS : RULE_FAILS;
    } else if (rule->kind == REG_RULE_VAL_EXPRESSION) {
        *v = holds_entry(val, reg);
    } else if (val.kind == AV_CFA || val.kind == AV_ALIGNED) {
        int at_cfa, at_aligned;
        int64_t k_cfa, k_aligned;
        place_names(st, val, &at_cfa, &k_cfa, &at_aligned, &k_aligned);
        *v = place_holds_entry(st, at_cfa, k_cfa, at_aligned, k_aligned, reg);
    } else {
        return 0;   /* an address that is no stack place the state names */
    }
    return *v != RULE_FAILS;
}
