/*
 * rule_eval: three-valued evaluation of DWARF rules in abstract states.
 */
#include "rule_eval.h"

#include "semantics/abi.h"
#include "semantics/dwarf_expr.h"

/* CFA-relative values become CFA_BASE + k and values relative to a realigned
 * stack ALIGNED_BASE + k; anything else is unavailable. */
struct concrete {
    const struct abs_state *st;
    uint64_t cfa_base, aligned_base;
    uint64_t rip;
};

#define SPACE_SPAN 0x100000000ull   /* offsets within a frame stay below 4 GiB */

static int concrete_value(const struct concrete *c, struct absval v, uint64_t *out)
{
    if (v.kind == AV_CFA)
        *out = c->cfa_base + (uint64_t)v.off;
    else if (v.kind == AV_ALIGNED)
        *out = c->aligned_base + (uint64_t)v.off;
    else
        return -1;
    return 0;
}

static int concrete_reg(void *arg, unsigned reg, uint64_t *value)
{
    const struct concrete *c = arg;
    if (reg == ABI_RA) {
        *value = c->rip;
        return 0;
    }
    return reg < STATE_GPRS ? concrete_value(c, c->st->reg[reg], value) : -1;
}

/* The stack space and offset of a concrete address. */
static int concrete_slot(const struct concrete *c, uint64_t addr, uint8_t *base, int64_t *off)
{
    if (addr - c->cfa_base + SPACE_SPAN / 2 < SPACE_SPAN) {
        *base = AV_CFA;
        *off = (int64_t)(addr - c->cfa_base);
        return 0;
    }
    if (addr - c->aligned_base + SPACE_SPAN / 2 < SPACE_SPAN) {
        *base = AV_ALIGNED;
        *off = (int64_t)(addr - c->aligned_base);
        return 0;
    }
    return -1;
}

static int concrete_mem(void *arg, uint64_t addr, unsigned size, uint64_t *value)
{
    const struct concrete *c = arg;
    uint8_t base;
    int64_t off;
    if (size != 8 || concrete_slot(c, addr, &base, &off) != 0)
        return -1;
    return concrete_value(c, abs_state_slot_in(c->st, base, off), value);
}

/* Evaluate an expression twice, with two unrelated pairs of bases: 0 with the
 * symbolic address (*BASE + *OFF) when both runs agree on it, -1 otherwise. */
static int eval_in_state(const uint8_t *expr, uint32_t len, const struct abs_state *st,
                         uint64_t rip, int push_cfa, uint8_t *base, int64_t *off)
{
    struct dwarf_op ops[64];
    const char *error;
    int n = len <= 64 ? dwarf_expr_decode(expr, len, 8, ops, 64, &error) : -1;
    if (n < 0)
        return -1;
    static const uint64_t cfa_bases[2] = {0x7ff000001000ull, 0x10000000000ull};
    static const uint64_t aligned_bases[2] = {0x500000000000ull, 0x300000000000ull};
    uint8_t got_base[2];
    int64_t got_off[2];
    for (int i = 0; i < 2; i++) {
        struct concrete c = {st, cfa_bases[i], aligned_bases[i], rip};
        struct dwarf_expr_env env = {concrete_reg, concrete_mem, &c};
        uint64_t init = cfa_bases[i], result;
        if (dwarf_expr_eval(ops, (size_t)n, &env, push_cfa ? &init : NULL, &result, &error) != 0 ||
            concrete_slot(&c, result, &got_base[i], &got_off[i]) != 0)
            return -1;
    }
    if (got_base[0] != got_base[1] || got_off[0] != got_off[1])
        return -1;
    *base = got_base[0];
    *off = got_off[0];
    return 0;
}

/* Is V entry(REG)?  Unknown values are undecided. */
static enum rule_verdict holds_entry(struct absval v, unsigned reg)
{
    if (v.kind == AV_UNKNOWN)
        return RULE_UNDECIDED;
    return v.kind == AV_ENTRY && v.reg == reg && v.off == 0 ? RULE_HOLDS : RULE_FAILS;
}

/* Is entry(REG) in the slot at BASE + OFF?  A slot the state does not track
 * is still decided when it cannot hold the save: it lies below the stack
 * pointer (anything there is dead once a call or signal has run) or at or
 * above the CFA (the caller's frame); or the save is known to be elsewhere
 * (a save is a store of the register, which the state tracks: the entry
 * value sits in another slot, or still only in the register itself). */
static enum rule_verdict slot_holds_entry(const struct abs_state *st, uint8_t base, int64_t off,
                                          unsigned reg)
{
    struct absval v = abs_state_slot_in(st, base, off);
    if (v.kind != AV_UNKNOWN)
        return holds_entry(v, reg);
    struct absval rsp = st->reg[ABI_RSP];
    if (rsp.kind == base && off + 8 <= rsp.off)
        return RULE_FAILS;
    if (base == AV_CFA && off >= 0)
        return RULE_FAILS;
    for (unsigned i = 0; i < st->nslots; i++)
        if (holds_entry(st->slot[i].value, reg) == RULE_HOLDS)
            return RULE_FAILS;
    if (reg < STATE_GPRS && holds_entry(st->reg[reg], reg) == RULE_HOLDS)
        return RULE_FAILS;
    return RULE_UNDECIDED;
}

enum rule_verdict rule_eval_reg(const struct unwind_rule *rule, unsigned reg,
                                const struct abs_state *st, uint64_t rip)
{
    int64_t k;
    uint8_t base;
    switch (rule->kind) {
    case REG_RULE_UNDEFINED:
        return RULE_HOLDS;
    case REG_RULE_UNREFERENCED: case REG_RULE_SAME_VALUE:
        return reg < STATE_GPRS ? holds_entry(st->reg[reg], reg) : RULE_UNDECIDED;
    case REG_RULE_OFFSET:
        return slot_holds_entry(st, AV_CFA, rule->offset, reg);
    case REG_RULE_REGISTER:
        return rule->reg < STATE_GPRS ? holds_entry(st->reg[rule->reg], reg) : RULE_UNDECIDED;
    case REG_RULE_EXPRESSION:
        if (eval_in_state(rule->expr, rule->expr_len, st, rip, 1, &base, &k) != 0)
            return RULE_UNDECIDED;
        return slot_holds_entry(st, base, k, reg);
    default:
        return RULE_UNDECIDED;
    }
}

enum rule_verdict rule_eval_cfa(const struct unwind_rule *cfa, const struct abs_state *st,
                                uint64_t rip)
{
    int64_t k;
    uint8_t base;
    switch (cfa->kind) {
    case CFA_RULE_REG_OFFSET: {
        if (cfa->reg >= STATE_GPRS)
            return RULE_UNDECIDED;
        struct absval v = st->reg[cfa->reg];
        /* ALIGNED + k and entry(R) + k are fixed but unknown relative to
         * the CFA (a function may be handed its stack in a register). */
        if (v.kind != AV_CFA)
            return RULE_UNDECIDED;
        return v.off + cfa->offset == 0 ? RULE_HOLDS : RULE_FAILS;
    }
    case CFA_RULE_EXPRESSION:
        if (eval_in_state(cfa->expr, cfa->expr_len, st, rip, 0, &base, &k) != 0)
            return RULE_UNDECIDED;
        return base == AV_CFA && k == 0 ? RULE_HOLDS : RULE_FAILS;
    case CFA_RULE_UNSET:
        return RULE_FAILS;
    default:
        return RULE_UNDECIDED;
    }
}
