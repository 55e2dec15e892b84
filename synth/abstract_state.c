/*
 * abstract_state: values, join and the transfer function of IR effects.
 */
#include "abstract_state.h"

#include <string.h>

#include "semantics/abi.h"

static const struct absval unknown_value = {AV_UNKNOWN, 0, 0};

void abs_state_entry(struct abs_state *s)
{
    memset(s, 0, sizeof *s);
    for (unsigned r = 0; r < STATE_GPRS; r++)
        s->reg[r] = (struct absval){AV_ENTRY, (uint8_t)r, 0};
    s->reg[ABI_RSP] = (struct absval){AV_CFA, 0, -8};
    s->slot[0] = (struct stack_slot){-8, {AV_ENTRY, STATE_RA, 0}};
    s->nslots = 1;
}

void abs_state_unknown(struct abs_state *s)
{
    memset(s, 0, sizeof *s);
}

int absval_equal(struct absval a, struct absval b)
{
    if (a.kind != b.kind)
        return 0;
    if (a.kind == AV_UNKNOWN)
        return 1;
    return a.reg == b.reg && a.off == b.off;
}

int abs_state_equal(const struct abs_state *a, const struct abs_state *b)
{
    if (a->nslots != b->nslots || a->frame_pointer != b->frame_pointer)
        return 0;
    for (unsigned r = 0; r < STATE_GPRS; r++)
        if (!absval_equal(a->reg[r], b->reg[r]))
            return 0;
    for (unsigned i = 0; i < a->nslots; i++)
        if (a->slot[i].off != b->slot[i].off || !absval_equal(a->slot[i].value, b->slot[i].value))
            return 0;
    return 1;
}

int abs_state_join(struct abs_state *into, const struct abs_state *from)
{
    int changed = 0;
    for (unsigned r = 0; r < STATE_GPRS; r++)
        if (!absval_equal(into->reg[r], from->reg[r]) && into->reg[r].kind != AV_UNKNOWN) {
            into->reg[r] = unknown_value;
            changed = 1;
        }
    /* Keep the slots both states agree on. */
    unsigned n = 0;
    for (unsigned i = 0; i < into->nslots; i++) {
        struct absval v = abs_state_slot(from, into->slot[i].off);
        if (absval_equal(v, into->slot[i].value))
            into->slot[n++] = into->slot[i];
        else
            changed = 1;
    }
    into->nslots = (uint8_t)n;
    if (into->frame_pointer && !from->frame_pointer) {
        into->frame_pointer = 0;
        changed = 1;
    }
    return changed;
}

struct absval abs_state_slot(const struct abs_state *s, int64_t off)
{
    for (unsigned i = 0; i < s->nslots; i++)
        if (s->slot[i].off == off)
            return s->slot[i].value;
    return unknown_value;
}

/* Forget slots overlapping [off, off + size). */
static void forget_slots(struct abs_state *s, int64_t off, int64_t size)
{
    unsigned n = 0;
    for (unsigned i = 0; i < s->nslots; i++) {
        int64_t lo = s->slot[i].off;
        if (lo + 8 <= off || lo >= off + size)
            s->slot[n++] = s->slot[i];
    }
    s->nslots = (uint8_t)n;
}

static void set_slot(struct abs_state *s, int64_t off, struct absval v)
{
    forget_slots(s, off, 8);
    if (v.kind == AV_UNKNOWN)
        return;
    if (s->nslots == STATE_MAX_SLOTS) {
        /* Full: drop the slot farthest below the CFA (a spill, not a save). */
        if (off < s->slot[0].off)
            return;
        memmove(&s->slot[0], &s->slot[1], (STATE_MAX_SLOTS - 1) * sizeof s->slot[0]);
        s->nslots--;
    }
    unsigned i = s->nslots;
    while (i > 0 && s->slot[i - 1].off > off) {
        s->slot[i] = s->slot[i - 1];
        i--;
    }
    s->slot[i] = (struct stack_slot){off, v};
    s->nslots++;
}

static void set_reg(struct abs_state *s, uint8_t r, struct absval v)
{
    if (r >= STATE_GPRS)
        return;
    s->reg[r] = v;
    if (r == ABI_RBP)
        s->frame_pointer = 0;
}

void abs_state_apply(struct abs_state *s, const struct ir_effect *e)
{
    struct absval v = unknown_value;
    switch (e->kind) {
    case IR_SET:
        if (e->src < STATE_GPRS && s->reg[e->src].kind != AV_UNKNOWN) {
            v = s->reg[e->src];
            v.off += e->imm;
        }
        set_reg(s, e->dst, v);
        /*   push %rbp
         *   mov  %rsp,%rbp
         * sets up a frame pointer: compilers describe the CFA from rbp from
         * here on.  (lea k(%rsp),%rbp merely points rbp into the frame.) */
        if (e->dst == ABI_RBP && e->src == ABI_RSP && e->imm == 0 && v.kind == AV_CFA) {
            struct absval saved = abs_state_slot(s, v.off);
            s->frame_pointer = saved.kind == AV_ENTRY && saved.reg == ABI_RBP && saved.off == 0;
        }
        return;
    case IR_LOAD:
        if (e->base < STATE_GPRS && s->reg[e->base].kind == AV_CFA)
            v = abs_state_slot(s, s->reg[e->base].off + e->imm);
        set_reg(s, e->dst, v);
        return;
    case IR_STORE:
        if (e->base < STATE_GPRS && s->reg[e->base].kind == AV_CFA) {
            int64_t off = s->reg[e->base].off + e->imm;
            if (e->size == 8 && e->src < STATE_GPRS)
                set_slot(s, off, s->reg[e->src]);
            else
                forget_slots(s, off, e->size ? e->size : 8);
        }
        /* Stores through other pointers are assumed not to hit saved slots
         * (objtool makes the same assumption). */
        return;
    case IR_AND:
        /* Realignment: the result depends on the run-time CFA. */
        if (e->dst < STATE_GPRS && s->reg[e->dst].kind == AV_ENTRY && e->imm == -1)
            return;
        set_reg(s, e->dst, unknown_value);
        return;
    case IR_CLOBBER:
        set_reg(s, e->dst, unknown_value);
        return;
    }
}

void abs_state_step(struct abs_state *s, const struct ir_insn *in)
{
    for (unsigned i = 0; i < in->neffects; i++)
        abs_state_apply(s, &in->effects[i]);
}

void abs_state_after_call(struct abs_state *s)
{
    for (unsigned r = 0; r < STATE_GPRS; r++)
        if (!abi_callee_saved(r) && r != ABI_RSP)
            s->reg[r] = unknown_value;
    if (s->reg[ABI_RSP].kind == AV_CFA)
        forget_slots(s, INT64_MIN / 2, s->reg[ABI_RSP].off - INT64_MIN / 2);
}
