/* SPDX-License-Identifier: Apache-2.0 */
/*
 * slot_truth: the truth of a register's save, as a state tells it (see the header).
 */
#include "slot_truth.h"

#include "semantics/abi.h"

/* Is V entry(REG)?  Unknown values are undecided. */
enum rule_verdict slot_truth_holds_entry(struct abstract_value v, unsigned reg)
{
    if (v.kind == AV_UNKNOWN)
        return RULE_UNDECIDED;
    return v.kind == AV_ENTRY && v.reg == reg && v.off == 0 ? RULE_HOLDS : RULE_FAILS;
}

/* Is entry(REG) in the slot at BASE + OFF?  A slot the state does not track
 * is still decided when it cannot hold the save: it lies below the stack
 * pointer's red zone (anything there is dead once a signal has run) or at
 * or above the CFA (the caller's frame); or the save is known to be
 * elsewhere (a save is a store of the register, which the state tracks:
 * the entry value sits in another slot, or still only in the register
 * itself).  A slot just below the stack pointer, in the red zone, is not
 * dead: an epilogue's pops leave their saves there, and a rule may still
 * name them (GCC and LLVM do until the ret) — when synthesis has lost what
 * such a slot holds, and no other slot holds the save, the rule is
 * undecided, even with the register holding its entry value again (the
 * pop that restored it read that slot). */
enum rule_verdict slot_holds_entry(const struct abstract_state *st, uint8_t base, int64_t off, unsigned reg)
{
    struct abstract_value v = abstract_state_slot_in(st, base, off);
    if (v.kind != AV_UNKNOWN)
        return slot_truth_holds_entry(v, reg);
    struct abstract_value rsp = st->reg[ABI_RSP];
    if (rsp.kind == base && off + 8 <= rsp.off - ABI_RED_ZONE)
        return RULE_FAILS;
    if (base == AV_CFA && off >= 0)
        return RULE_FAILS;
    for (unsigned i = 0; i < st->nslots; i++)
        if (slot_truth_holds_entry(st->slot[i].value, reg) == RULE_HOLDS)
            return RULE_FAILS;
    if (rsp.kind == base && off < rsp.off)
        return RULE_UNDECIDED;   /* in the red zone: perhaps popped from, perhaps lost */
    if (reg < STATE_GPRS && slot_truth_holds_entry(st->reg[reg], reg) == RULE_HOLDS)
        return RULE_FAILS;
    return RULE_UNDECIDED;
}

enum rule_verdict slot_truth_place_holds_entry(const struct abstract_state *st, int at_cfa, int64_t k_cfa,
                                               int at_aligned, int64_t k_aligned, unsigned reg)
{
    enum rule_verdict in_cfa = at_cfa ? slot_holds_entry(st, AV_CFA, k_cfa, reg) : RULE_UNDECIDED;
    enum rule_verdict in_aligned = at_aligned ? slot_holds_entry(st, AV_ALIGNED, k_aligned, reg) : RULE_UNDECIDED;
    if (!at_aligned || !at_cfa)
        return at_cfa ? in_cfa : in_aligned;
    int tracked_cfa = abstract_state_slot_in(st, AV_CFA, k_cfa).kind != AV_UNKNOWN;
    int tracked_aligned = abstract_state_slot_in(st, AV_ALIGNED, k_aligned).kind != AV_UNKNOWN;
    if (tracked_cfa != tracked_aligned)
        return tracked_cfa ? in_cfa : in_aligned;
    return in_cfa == in_aligned ? in_cfa : RULE_UNDECIDED;
}
