/*
 * rule_eval: three-valued evaluation of DWARF rules in abstract states.
 */
#include "rule_eval.h"

#include "semantics/abi.h"
#include "semantics/dwarf_expr.h"
#include "semantics/unwind_limits.h"

/* CFA-relative values become CFA_BASE + k and values relative to a realigned
 * stack ALIGNED_BASE + k; anything else is unavailable.  When the state knows
 * the realignment, ALIGNED_BASE is that rounding of CFA_BASE (TIED), so an
 * expression that rounds the CFA itself lands on the realigned frame. */
struct concrete {
    const struct abs_state *st;
    uint64_t cfa_base, aligned_base;
    uint64_t rip;
    int tied;
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

static int near(uint64_t addr, uint64_t base)
{
    return addr - base + SPACE_SPAN / 2 < SPACE_SPAN;
}

/* A word of the frame an expression reads: the tracked slot at ADDR, in the
 * realigned frame or the CFA's (tied bases are close: the space where the
 * state has a value is the one meant). */
static int concrete_mem(void *arg, uint64_t addr, unsigned size, uint64_t *value)
{
    const struct concrete *c = arg;
    uint64_t in_aligned, in_cfa;
    if (size != 8)
        return -1;
    int have_aligned = near(addr, c->aligned_base) &&
        concrete_value(c, abs_state_slot_in(c->st, AV_ALIGNED, (int64_t)(addr - c->aligned_base)), &in_aligned) == 0;
    int have_cfa = near(addr, c->cfa_base) &&
        concrete_value(c, abs_state_slot_in(c->st, AV_CFA, (int64_t)(addr - c->cfa_base)), &in_cfa) == 0;
    /* Both spaces tracking the word, differently: one of them is stale. */
    if (have_aligned && have_cfa && in_aligned != in_cfa)
        return -1;
    if (!have_aligned && !have_cfa)
        return -1;
    *value = have_aligned ? in_aligned : in_cfa;
    return 0;
}

/* Where an expression's value lies: CFA + CFA_OFF (HAS_CFA) and/or ALIGNED +
 * ALIGNED_OFF (HAS_ALIGNED); both when the realignment is a fixed offset. */
struct place {
    int has_cfa, has_aligned;
    int64_t cfa_off, aligned_off;
};

/* Evaluate an expression concretely, with unrelated bases each time and
 * CFAs in different positions modulo the realignment (any 16-byte aligned
 * CFA is possible): a space in which every run gives the same offset holds
 * the value.  Returns 0 with *AT, or -1 (undecided). */
static int eval_in_state(const uint8_t *expr, uint32_t len, const struct abs_state *st,
                         uint64_t rip, int push_cfa, struct place *at)
{
    struct dwarf_op ops[UNWIND_EXPR_MAX_OPS];
    const char *error;
    int n = dwarf_expr_decode(expr, len, 8, ops, UNWIND_EXPR_MAX_OPS, &error);
    if (n < 0)
        return -1;
    /* Tied: every 16-byte position of the CFA modulo the alignment (up to
     * 4 KiB: 256 runs); else three runs, the CFA at unrelated bases. */
    int tied = st->realigned == 1 && st->realign_log2 > 0 && st->realign_log2 <= 12;
    uint64_t align = tied ? (uint64_t)1 << st->realign_log2 : 64;
    int runs = tied ? (align / 16 > 3 ? (int)(align / 16) : 3) : 3;
    uint64_t cfa[256], aligned[256], result[256];
    for (int i = 0; i < runs; i++) {
        uint64_t residue = tied ? (uint64_t)(16 * i) % align : (uint64_t[]){0, 16, 48}[i];
        cfa[i] = 0x7ff000100000ull - (uint64_t)i * 0x10000000ull + residue;
        aligned[i] = tied ? (cfa[i] + (uint64_t)(int64_t)st->realign_from) & ~(align - 1)
                          : 0x300000000000ull + (uint64_t)i * 0x100000000000ull;
        struct concrete c = {st, cfa[i], aligned[i], rip, tied};
        struct dwarf_expr_env env = {concrete_reg, concrete_mem, &c};
        uint64_t init = cfa[i];
        if (dwarf_expr_eval(ops, (size_t)n, &env, push_cfa ? &init : NULL, &result[i], &error) != 0)
            return -1;
    }
    *at = (struct place){1, st->realigned == 1, (int64_t)(result[0] - cfa[0]), (int64_t)(result[0] - aligned[0])};
    for (int i = 0; i < runs; i++) {
        at->has_cfa &= near(result[i], cfa[i]) && (int64_t)(result[i] - cfa[i]) == at->cfa_off;
        at->has_aligned &= near(result[i], aligned[i]) && (int64_t)(result[i] - aligned[i]) == at->aligned_off;
    }
    return at->has_cfa || at->has_aligned ? 0 : -1;
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
    switch (rule->kind) {
    case REG_RULE_UNDEFINED:
        return RULE_HOLDS;
    case REG_RULE_UNREFERENCED: case REG_RULE_SAME_VALUE:
        return reg < STATE_GPRS ? holds_entry(st->reg[reg], reg) : RULE_UNDECIDED;
    case REG_RULE_OFFSET:
        return slot_holds_entry(st, AV_CFA, rule->offset, reg);
    case REG_RULE_REGISTER:
        return rule->reg < STATE_GPRS ? holds_entry(st->reg[rule->reg], reg) : RULE_UNDECIDED;
    case REG_RULE_EXPRESSION: {
        struct place at;
        if (eval_in_state(rule->expr, rule->expr_len, st, rip, 1, &at) != 0)
            return RULE_UNDECIDED;
        if (!at.has_aligned)
            return slot_holds_entry(st, AV_CFA, at.cfa_off, reg);
        if (!at.has_cfa)
            return slot_holds_entry(st, AV_ALIGNED, at.aligned_off, reg);
        /* One place named in both spaces (a realignment that is a fixed
         * offset): the space that tracks the word decides; both tracking it
         * must agree (one may be stale). */
        enum rule_verdict in_cfa = slot_holds_entry(st, AV_CFA, at.cfa_off, reg);
        enum rule_verdict in_aligned = slot_holds_entry(st, AV_ALIGNED, at.aligned_off, reg);
        int tracked_cfa = abs_state_slot_in(st, AV_CFA, at.cfa_off).kind != AV_UNKNOWN;
        int tracked_aligned = abs_state_slot_in(st, AV_ALIGNED, at.aligned_off).kind != AV_UNKNOWN;
        if (tracked_cfa != tracked_aligned)
            return tracked_cfa ? in_cfa : in_aligned;
        return in_cfa == in_aligned ? in_cfa : RULE_UNDECIDED;
    }
    default:
        return RULE_UNDECIDED;
    }
}

enum rule_verdict rule_eval_cfa(const struct unwind_rule *cfa, const struct abs_state *st,
                                uint64_t rip)
{
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
    case CFA_RULE_EXPRESSION: {
        struct place at;
        if (eval_in_state(cfa->expr, cfa->expr_len, st, rip, 0, &at) != 0)
            return RULE_UNDECIDED;
        return at.has_cfa && at.cfa_off == 0 ? RULE_HOLDS : RULE_FAILS;
    }
    case CFA_RULE_UNSET:
        return RULE_FAILS;
    default:
        return RULE_UNDECIDED;
    }
}
