/* SPDX-License-Identifier: Apache-2.0 */
/*
 * abstract_state: values, join and the transfer function of IR effects.
 */
#include "abstract_state.h"

#include <stdio.h>
#include <string.h>

#include "semantics/abi.h"
#include "semantics/unwind_table.h"

static const struct abstract_value unknown_value = {AV_UNKNOWN, 0, 0};

void abstract_state_entry(struct abstract_state *s)
{
    memset(s, 0, sizeof *s);
    for (unsigned r = 0; r < STATE_GPRS; r++)
        s->reg[r] = (struct abstract_value){AV_ENTRY, (uint8_t)r, 0};
    s->reg[ABI_RSP] = (struct abstract_value){AV_CFA, 0, -8};
    s->slot[0] = (struct stack_slot){-8, {AV_ENTRY, STATE_RA, 0}, AV_CFA};
    s->nslots = 1;
}

void abstract_state_unknown(struct abstract_state *s)
{
    memset(s, 0, sizeof *s);
}

void abstract_state_outermost(struct abstract_state *s)
{
    memset(s, 0, sizeof *s);
    s->outermost = 1;
}

void abstract_value_text(struct abstract_value v, char *buf, size_t size)
{
    long long k = (long long)v.off;
    switch (v.kind) {
    case AV_CONST:
        snprintf(buf, size, "%s0x%llx", k < 0 ? "-" : "", k < 0 ? -(unsigned long long)k : (unsigned long long)k);
        break;
    case AV_CFA: snprintf(buf, size, "CFA%+lld", k); break;
    case AV_ENTRY:
        snprintf(buf, size, k ? "%s's entry value%+lld" : "%s's entry value",
                 v.reg == STATE_RA ? "ra" : unwind_column_name(v.reg), k);
        break;
    default: buf[0] = '\0'; break;
    }
}

int abstract_value_equal(struct abstract_value a, struct abstract_value b)
{
    if (a.kind != b.kind)
        return 0;
    if (a.kind == AV_UNKNOWN)
        return 1;
    return a.reg == b.reg && a.off == b.off;
}

int abstract_state_equal(const struct abstract_state *a, const struct abstract_state *b)
{
    if (a->nslots != b->nslots || a->frame_pointer != b->frame_pointer ||
        a->realigned != b->realigned || a->realign_log2 != b->realign_log2 ||
        a->realign_from != b->realign_from || a->outermost != b->outermost)
        return 0;
    for (unsigned r = 0; r < STATE_GPRS; r++)
        if (!abstract_value_equal(a->reg[r], b->reg[r]))
            return 0;
    for (unsigned i = 0; i < a->nslots; i++)
        if (a->slot[i].off != b->slot[i].off || a->slot[i].base != b->slot[i].base ||
            !abstract_value_equal(a->slot[i].value, b->slot[i].value))
            return 0;
    return 1;
}

static int slot_before(const struct stack_slot *x, uint8_t base, int64_t off)
{
    return x->base < base || (x->base == base && x->off < off);
}

int abstract_state_join(struct abstract_state *into, const struct abstract_state *from)
{
    int changed = 0;
    /* Clone's child and any other path: nothing is known. */
    if (into->outermost != from->outermost) {
        struct abstract_state unknown;
        abstract_state_unknown(&unknown);
        changed = !abstract_state_equal(into, &unknown);
        abstract_state_unknown(into);
        return changed;
    }
    for (unsigned r = 0; r < STATE_GPRS; r++)
        if (!abstract_value_equal(into->reg[r], from->reg[r]) && into->reg[r].kind != AV_UNKNOWN) {
            into->reg[r] = unknown_value;
            changed = 1;
        }
    /* Keep the slots both states agree on (both sorted: one merge). */
    unsigned n = 0, j = 0;
    for (unsigned i = 0; i < into->nslots; i++) {
        const struct stack_slot *x = &into->slot[i];
        while (j < from->nslots && slot_before(&from->slot[j], x->base, x->off))
            j++;
        if (j < from->nslots && from->slot[j].base == x->base && from->slot[j].off == x->off &&
            abstract_value_equal(from->slot[j].value, x->value))
            into->slot[n++] = *x;
        else
            changed = 1;
    }
    into->nslots = (uint8_t)n;
    if (into->frame_pointer && !from->frame_pointer) {
        into->frame_pointer = 0;
        changed = 1;
    }
    if (into->realigned != from->realigned && into->realigned != 2) {
        into->realigned = 2;   /* paths disagree: no new realignment is trusted */
        changed = 1;
    }
    if (into->realign_log2 &&
        (into->realign_log2 != from->realign_log2 || into->realign_from != from->realign_from)) {
        into->realign_log2 = 0;   /* two different roundings: neither is known */
        changed = 1;
    }
    return changed;
}

struct abstract_value abstract_state_slot_in(const struct abstract_state *s, uint8_t base, int64_t off)
{
    for (unsigned i = 0; i < s->nslots; i++)
        if (s->slot[i].off == off && s->slot[i].base == base)
            return s->slot[i].value;
    return unknown_value;
}

struct abstract_value abstract_state_slot(const struct abstract_state *s, int64_t off)
{
    return abstract_state_slot_in(s, AV_CFA, off);
}

/* Forget slots of BASE overlapping [off, off + size). */
static void forget_slots(struct abstract_state *s, uint8_t base, int64_t off, int64_t size)
{
    unsigned n = 0;
    for (unsigned i = 0; i < s->nslots; i++) {
        int64_t lo = s->slot[i].off;
        if (s->slot[i].base != base || lo + 8 <= off || lo >= off + size)
            s->slot[n++] = s->slot[i];
    }
    s->nslots = (uint8_t)n;
}

void abstract_state_set_slot(struct abstract_state *s, uint8_t base, int64_t off, struct abstract_value v)
{
    forget_slots(s, base, off, 8);
    if (v.kind == AV_UNKNOWN)
        return;
    if (s->nslots == STATE_MAX_SLOTS) {
        /* Full: give up the lowest slot of the same space, spills (values
         * that are not a saved register) before saves; the other space
         * stays.  A new slot lower than that victim is not kept. */
        int victim = -1;
        for (int pass = 0; pass < 2 && victim < 0; pass++)
            for (unsigned i = 0; i < s->nslots; i++)
                if (s->slot[i].base == base && (pass || s->slot[i].value.kind != AV_ENTRY) &&
                    (victim < 0 || s->slot[i].off < s->slot[victim].off))
                    victim = (int)i;
        if (victim < 0 || (off < s->slot[victim].off &&
                           (v.kind != AV_ENTRY || s->slot[victim].value.kind == AV_ENTRY)))
            return;
        memmove(&s->slot[victim], &s->slot[victim + 1],
                (size_t)(s->nslots - (unsigned)victim - 1) * sizeof s->slot[0]);
        s->nslots--;
    }
    unsigned i = s->nslots;
    while (i > 0 && !slot_before(&s->slot[i - 1], base, off)) {
        s->slot[i] = s->slot[i - 1];
        i--;
    }
    s->slot[i] = (struct stack_slot){off, v, base};
    s->nslots++;
}

/* Whether [off, off + size) of BASE overlaps a slot holding a saved register. */
static int overlaps_save(const struct abstract_state *s, uint8_t base, int64_t off, int64_t size)
{
    for (unsigned i = 0; i < s->nslots; i++) {
        const struct stack_slot *slot = &s->slot[i];
        if (slot->base == base && slot->value.kind == AV_ENTRY && slot->off + 8 > off &&
            slot->off < off + size)
            return 1;
    }
    return 0;
}

/* The stack space and offset a register's value addresses, if any. */
static int frame_address(const struct abstract_state *s, uint8_t reg, int64_t disp, uint8_t *base,
                         int64_t *off)
{
    if (reg >= STATE_GPRS)
        return 0;
    struct abstract_value v = s->reg[reg];
    if (v.kind != AV_CFA && v.kind != AV_ALIGNED)
        return 0;
    *base = v.kind;
    *off = v.off + disp;
    return 1;
}

static void set_reg(struct abstract_state *s, uint8_t r, struct abstract_value v)
{
    if (r >= STATE_GPRS)
        return;
    s->reg[r] = v;
    if (r == ABI_RBP)
        s->frame_pointer = 0;
}

/* A + B as the machine adds (modulo 2^64, no overflow to trap on). */
static int64_t add_wrapping(int64_t a, int64_t b)
{
    return (int64_t)((uint64_t)a + (uint64_t)b);
}

/* A value that a known amount can move: a place in the frame, an entry
 * value, a constant (not a table's entry, whose offset names the table). */
static int offsettable(struct abstract_value v)
{
    return v.kind == AV_CFA || v.kind == AV_ENTRY || v.kind == AV_ALIGNED || v.kind == AV_CONST;
}

/* Linux x86_64's clone and clone3: the child starts on the stack the
 * caller gave it, where nothing of this frame is (glibc's clone says so
 * with `.cfi_undefined rip`).  clone's stack is its second argument (rsi):
 * 0 keeps the child on a copy of this stack (fork), where the frame is
 * the parent's.  clone3's is in the structure it is given: taken as
 * another stack.  vfork's child runs on this stack too. */
#define SYS_CLONE 56
#define SYS_CLONE3 435
static int clones_onto_another_stack(const struct abstract_state *s)
{
    const struct abstract_value nr = s->reg[ABI_RAX], stack = s->reg[ABI_RSI];
    if (nr.kind != AV_CONST)
        return 0;
    if (nr.off == SYS_CLONE3)
        return 1;
    return nr.off == SYS_CLONE && !(stack.kind == AV_CONST && stack.off == 0);
}

void abstract_state_apply(struct abstract_state *s, const struct ir_effect *e)
{
    struct abstract_value v = unknown_value;
    switch (e->kind) {
    case IR_SET:
        if (e->src < STATE_GPRS && s->reg[e->src].kind != AV_UNKNOWN &&
            (s->reg[e->src].kind != AV_TABLE_ENTRY || e->imm == 0)) {
            v = s->reg[e->src];
            v.off = add_wrapping(v.off, e->imm);
        } else if (e->src == IR_REG_NONE) {
            v = (struct abstract_value){AV_CONST, 0, e->imm};
        }
        set_reg(s, e->dst, v);
        /*   push %rbp
         *   mov  %rsp,%rbp
         * sets up a frame pointer: compilers describe the CFA from rbp from
         * here on.  (lea k(%rsp),%rbp merely points rbp into the frame.) */
        if (e->dst == ABI_RBP && e->src == ABI_RSP && e->imm == 0 &&
            (v.kind == AV_CFA || v.kind == AV_ALIGNED)) {
            struct abstract_value saved = abstract_state_slot_in(s, v.kind, v.off);
            s->frame_pointer = saved.kind == AV_ENTRY && saved.reg == ABI_RBP && saved.off == 0;
        }
        return;
    case IR_LOAD: {
        uint8_t base;
        int64_t off;
        if (frame_address(s, e->base, e->imm, &base, &off))
            v = abstract_state_slot_in(s, base, off);
        set_reg(s, e->dst, v);
        return;
    }
    case IR_STORE: {
        uint8_t base;
        int64_t off;
        if (!frame_address(s, e->base, e->imm, &base, &off))
            return;   /* through other pointers: assumed not to hit the frame (as objtool) */
        struct abstract_value stored = e->size == 8 && e->src < STATE_GPRS ? s->reg[e->src] : unknown_value;
        if (stored.kind == AV_CONST || stored.kind == AV_TABLE_ENTRY)
            stored = unknown_value;
        /* A pointer into the frame that was loaded or computed elsewhere (not
         * rsp or rbp) may be stale — a local's address copied before the
         * local moved — and compilers never write over a saved register
         * through one: such a store does not destroy a save. */
        if (e->base != ABI_RSP && e->base != ABI_RBP && stored.kind != AV_ENTRY &&
            overlaps_save(s, base, off, e->size ? e->size : 8))
            return;
        if (e->size == 8 && e->src < STATE_GPRS)
            abstract_state_set_slot(s, base, off, stored);
        else
            forget_slots(s, base, off, e->size ? e->size : 8);
        return;
    }
    case IR_AND:
        if (e->dst >= STATE_GPRS)
            return;
        if (s->reg[e->dst].kind == AV_ENTRY && e->imm == -1)
            return;
        /*   and $-32,%rsp
         * realigns the stack: its new value is unknown relative to the CFA
         * but fixed, the base of the frame below.  One realignment per
         * function is tracked. */
        int64_t align = -(int64_t)e->imm;
        if (e->dst == ABI_RSP && s->reg[e->dst].kind == AV_CFA && align >= 2 &&
            (align & (align - 1)) == 0 && !s->realigned) {
            int64_t from = s->reg[e->dst].off;
            s->reg[e->dst] = (struct abstract_value){AV_ALIGNED, 0, 0};
            s->realigned = 1;
            if (from >= INT32_MIN && from <= INT32_MAX) {
                s->realign_from = (int32_t)from;
                s->realign_log2 = (uint8_t)__builtin_ctzll((unsigned long long)align);
            }
            return;
        }
        set_reg(s, e->dst, unknown_value);
        return;
    case IR_CLOBBER:
        set_reg(s, e->dst, unknown_value);
        return;
    case IR_SYSCALL:
        set_reg(s, e->dst,
                clones_onto_another_stack(s) ? (struct abstract_value){AV_CLONE_RESULT, 0, 0} : unknown_value);
        return;
    case IR_ADD: case IR_SUB: {
        if (e->dst >= STATE_GPRS)
            return;
        struct abstract_value a = s->reg[e->dst], b = e->src < STATE_GPRS ? s->reg[e->src] : unknown_value;
        if (e->kind == IR_SUB && e->src == e->dst)
            v = (struct abstract_value){AV_CONST, 0, 0};
        else if (b.kind == AV_CONST && offsettable(a)) {
            v = a;
            v.off = add_wrapping(v.off, e->kind == IR_ADD ? b.off : (int64_t)(0 - (uint64_t)b.off));
        } else if (e->kind == IR_ADD && a.kind == AV_CONST && offsettable(b)) {
            v = b;
            v.off = add_wrapping(v.off, a.off);
        }
        set_reg(s, e->dst, v);
        return;
    }
    }
}

void abstract_state_step(struct abstract_state *s, const struct ir_insn *in)
{
    /* mov D(%b,%i,8),%r with b a constant: an entry of the table at b + D. */
    int64_t table = 0;
    if (in->aux == IR_AUX_LOAD_ABS64)
        table = (int64_t)in->target;
    else if (in->aux == IR_AUX_LOAD_INDEX64 && in->aux_reg[1] < STATE_GPRS &&
             s->reg[in->aux_reg[1]].kind == AV_CONST)
        table = s->reg[in->aux_reg[1]].off + (int64_t)in->target;
    for (unsigned i = 0; i < in->neffects; i++)
        abstract_state_apply(s, &in->effects[i]);
    if (table > 0)
        set_reg(s, in->aux_reg[0], (struct abstract_value){AV_TABLE_ENTRY, 0, table});
}

void abstract_state_after_call(struct abstract_state *s, uint32_t preserved)
{
    for (unsigned r = 0; r < STATE_GPRS; r++)
        if (!abi_callee_saved(r) && r != ABI_RSP && !(preserved & (1u << r)))
            s->reg[r] = unknown_value;
    struct abstract_value rsp = s->reg[ABI_RSP];
    if (rsp.kind == AV_CFA || rsp.kind == AV_ALIGNED)
        forget_slots(s, rsp.kind, INT64_MIN / 2, rsp.off - INT64_MIN / 2);
}
