/*
 * Unit tests for verify/rules/slot_truth: what a state says of a register's save
 * in a slot it does not track.  The states are written by hand: after an
 * epilogue's pops (rsp = CFA-8) the saves lie in the red zone, where a rule
 * may still name them; beyond the red zone a slot is dead; at or above the
 * CFA it is the caller's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "semantics/abi.h"
#include "verify/rules/slot_truth.h"

/* The state at a ret after `pop %rbx`: rsp = CFA-8, rbx holds its entry
 * value again, and synthesis has lost the slot it was popped from. */
static void state_at_ret(struct abstract_state *st)
{
    abstract_state_entry(st);
    st->nslots = 0;
}

static void test_red_zone(void **state)
{
    (void)state;
    static struct abstract_state st;
    state_at_ret(&st);
    /* c-16: popped a moment ago, in the red zone: not known, not dead. */
    assert_int_equal(slot_holds_entry(&st, AV_CFA, -16, ABI_RBX), RULE_UNDECIDED);
    assert_int_equal(slot_holds_entry(&st, AV_CFA, -8 - ABI_RED_ZONE, ABI_RBX), RULE_UNDECIDED);
    /* Past the red zone a signal may have written it: a save there is lost. */
    assert_int_equal(slot_holds_entry(&st, AV_CFA, -16 - ABI_RED_ZONE, ABI_RBX), RULE_FAILS);
    /* The caller's frame never holds this function's save. */
    assert_int_equal(slot_holds_entry(&st, AV_CFA, 0, ABI_RBX), RULE_FAILS);
}

static void test_tracked(void **state)
{
    (void)state;
    static struct abstract_state st;
    state_at_ret(&st);
    abstract_state_set_slot(&st, AV_CFA, -16, (struct abstract_value){AV_ENTRY, ABI_RBX, 0});
    assert_int_equal(slot_holds_entry(&st, AV_CFA, -16, ABI_RBX), RULE_HOLDS);
    assert_int_equal(slot_holds_entry(&st, AV_CFA, -16, ABI_R12), RULE_FAILS);
    /* In the red zone, with the save known in another slot: not there. */
    assert_int_equal(slot_holds_entry(&st, AV_CFA, -24, ABI_RBX), RULE_FAILS);
    /* Above rsp, untracked, with the save known elsewhere: not there. */
    st.reg[ABI_RSP].off = -64;
    assert_int_equal(slot_holds_entry(&st, AV_CFA, -24, ABI_RBX), RULE_FAILS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_red_zone),
        cmocka_unit_test(test_tracked),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
/* SPDX-License-Identifier: Apache-2.0 */
