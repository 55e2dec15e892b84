/* SPDX-License-Identifier: Apache-2.0 */
/*
 * abstract_state: what the interpreter knows at one instruction.
 *
 * Every general-purpose register and every tracked stack slot holds a
 * symbolic value: CFA + k, entry(R) + k (R's value when the function was
 * entered; the return address is entry(RA)), ALIGNED + k, a constant (an
 * address a RIP-relative lea computed: how jump tables are found), an entry
 * of the table of addresses at T (mov T(,%i,8),%r: a jump through it, in
 * another block, reads that table), or unknown.  Constants and table
 * entries live in registers only: a stored one is forgotten, so that the
 * slots hold the frame's facts.
 * ALIGNED is the stack pointer right after a realignment (and $-32,%rsp):
 * not a constant offset from the CFA, but fixed, so the frame below it (saved
 * registers, GCC's DRAP slot holding the CFA) is still tracked; slots live in
 * the CFA's space or in ALIGNED's.  The realignment itself is remembered
 * (the CFA offset it rounded down, and to what), so that rules computing the
 * same rounding from the CFA can be evaluated.  On entry
 * rsp = CFA - 8, the slot at CFA - 8 holds entry(RA), and every register
 * R holds entry(R).  Join is per-location equality: locations that differ
 * become unknown, so the lattice has finite height and fixpoints are reached
 * in a few passes.
 *
 * Only slots holding a known value are stored, at most STATE_MAX_SLOTS: when
 * full, spills give way before saved registers, and within each the slots
 * nearest the CFA are kept; so a state is small and fixed-size.
 */
#ifndef DWCHECK_ABSTRACT_STATE_H
#define DWCHECK_ABSTRACT_STATE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ir.h"

#define STATE_GPRS 16
#define STATE_MAX_SLOTS 24
#define STATE_RA 16           /* entry(RA): the return address */

/* AV_CLONE_RESULT: what a clone onto another stack (clone with a stack
 * argument not known to be 0, clone3) answers: 0 in the child only. */
enum abstract_value_kind { AV_UNKNOWN = 0, AV_CFA, AV_ENTRY, AV_ALIGNED, AV_CONST, AV_TABLE_ENTRY, AV_CLONE_RESULT };

struct abstract_value {
    uint8_t kind;
    uint8_t reg;              /* AV_ENTRY: DWARF register, or STATE_RA */
    int64_t off;              /* AV_TABLE_ENTRY: the table's address */
};

struct stack_slot {
    int64_t off;              /* base + off */
    struct abstract_value value;
    uint8_t base;             /* AV_CFA or AV_ALIGNED */
};

struct abstract_state {
    uint8_t nslots;
    uint8_t frame_pointer;    /* rbp was set from rsp: the CFA is rbp-based */
    uint8_t realigned;        /* ALIGNED exists: the stack was realigned once (2: paths
                                 disagree) */
    uint8_t realign_log2;     /* ALIGNED = (CFA + realign_from) & -(1 << realign_log2), the CFA
                                 being 16-byte aligned (the ABI); 0 when not known */
    int32_t realign_from;
    uint8_t outermost;        /* the path of clone's child, on the stack the call gave it:
                                 no caller, the end of the stack (nothing else is known) */
    struct abstract_value reg[STATE_GPRS];
    struct stack_slot slot[STATE_MAX_SLOTS];   /* sorted by (base, off); last, so that a
                                                  copy can stop at the slots in use */
};

/* DST := SRC, copying only the slots in use (a state is mostly slots). */
static inline void abstract_state_copy(struct abstract_state *dst, const struct abstract_state *src)
{
    memcpy(dst, src, offsetof(struct abstract_state, slot) + src->nslots * sizeof src->slot[0]);
}

/* The state on function entry. */
void abstract_state_entry(struct abstract_state *s);

/* A state where nothing is known (for code reached from nowhere we understand). */
void abstract_state_unknown(struct abstract_state *s);

/* The state of clone's child where it starts: the outermost frame. */
void abstract_state_outermost(struct abstract_state *s);

int abstract_value_equal(struct abstract_value a, struct abstract_value b);

/* V for people: "0x0", "CFA-16", "rax's entry value+8"; "" when it is
 * unknown or has no short name (ALIGNED, a table entry). */
void abstract_value_text(struct abstract_value v, char *buf, size_t size);
int abstract_state_equal(const struct abstract_state *a, const struct abstract_state *b);

/* INTO := INTO join FROM.  Returns 1 when INTO changed. */
int abstract_state_join(struct abstract_state *into, const struct abstract_state *from);

/* Apply one IR effect. */
void abstract_state_apply(struct abstract_state *s, const struct ir_effect *e);

/* Apply every effect of IN (not its control flow), and what its aux says
 * (the load of a table entry). */
void abstract_state_step(struct abstract_state *s, const struct ir_insn *in);

/* After a call returns: caller-saved registers are unknown, except those
 * in PRESERVED (bit R: the callee is known to give R back unchanged), and
 * the callee may have overwritten everything below the stack pointer. */
void abstract_state_after_call(struct abstract_state *s, uint32_t preserved);

/* The value in the slot at CFA + OFF, or unknown. */
struct abstract_value abstract_state_slot(const struct abstract_state *s, int64_t off);

/* Put V in the slot at BASE + OFF (unknown forgets it). */
void abstract_state_set_slot(struct abstract_state *s, uint8_t base, int64_t off, struct abstract_value v);

/* The value in the slot at BASE + OFF (BASE: AV_CFA or AV_ALIGNED), or unknown. */
struct abstract_value abstract_state_slot_in(const struct abstract_state *s, uint8_t base, int64_t off);

#endif
