/*
 * Unit tests for verify/rules/prover: a rule, a state, a verdict.  The states
 * are written by hand (abstract_state's entry state and slots), the rules
 * as DWARF expression bytes, and every verdict is asked twice: with the
 * exact linear stage first (the default) and with every rule sent to z3
 * (--prove=all's solver_only); the two must agree wherever both decide.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "semantics/abi.h"
#include "semantics/dwarf_constants.h"
#include "synth/abstract_state.h"
#include "verify/rules/prover.h"

static struct unwind_rule cfa_expression(const uint8_t *bytes, size_t len)
{
    return (struct unwind_rule){.kind = CFA_RULE_EXPRESSION, .expr = bytes, .expr_len = (uint32_t)len};
}

/* The verdicts of the CFA rule RULE at RIP in ST, with the linear stage
 * and z3 alone; CX: the z3 run's counterexample. */
static void cfa_verdicts(const struct unwind_rule *rule, const struct abstract_state *st, uint64_t rip,
                         enum rule_verdict *linear, enum rule_verdict *solver, struct counterexample *cx)
{
    struct prover *p = prover_new(5000, 0), *z = prover_new(5000, 1);
    assert_non_null(p);
    assert_non_null(z);
    int timed_out = 0;
    struct counterexample ignored;
    memset(cx, 0, sizeof *cx);
    *linear = prover_cfa(p, rule, st, rip, &ignored, &timed_out);
    *solver = prover_cfa(z, rule, st, rip, cx, &timed_out);
    assert_int_equal(timed_out, 0);
    prover_free(p);
    prover_free(z);
}

/* The PLT's CFA: rsp + 8, plus 8 more from the 11th byte of a 16-byte
 * entry on (after its push): DW_OP_breg7 8; DW_OP_breg16 0; DW_OP_lit15;
 * DW_OP_and; DW_OP_lit11; DW_OP_ge; DW_OP_lit3; DW_OP_shl; DW_OP_plus. */
static const uint8_t plt_cfa[] = {0x77, 0x08, 0x80, 0x00, 0x3f, 0x1a, 0x3b, 0x2a, 0x33, 0x24, 0x22};

static void test_plt_cfa(void **state)
{
    (void)state;
    static struct abstract_state st;
    struct unwind_rule rule = cfa_expression(plt_cfa, sizeof plt_cfa);
    enum rule_verdict linear, solver;
    struct counterexample cx;
    /* The first bytes of an entry: nothing pushed, CFA = rsp + 8. */
    abstract_state_entry(&st);
    cfa_verdicts(&rule, &st, 0x1020, &linear, &solver, &cx);
    assert_int_equal(linear, RULE_HOLDS);
    assert_int_equal(solver, RULE_HOLDS);
    /* After the entry's push (rip & 15 = 11): CFA = rsp + 16. */
    st.reg[ABI_RSP].off = -16;
    cfa_verdicts(&rule, &st, 0x102b, &linear, &solver, &cx);
    assert_int_equal(linear, RULE_HOLDS);
    assert_int_equal(solver, RULE_HOLDS);
    /* The push done but the rule read before it: wrong, with the values
     * that show it. */
    cfa_verdicts(&rule, &st, 0x1026, &linear, &solver, &cx);
    assert_int_equal(linear, RULE_FAILS);
    assert_int_equal(solver, RULE_FAILS);
    assert_true(cx.present);
}

/* A DW_OP_bra on a value the state does not know (rbx's entry value):
 * the prover runs both ways and joins them.  Both ways give rsp + 8: the
 * rule holds whatever rbx was; one way rsp + 16: it cannot be decided. */
static void test_branch_on_unknown(void **state)
{
    (void)state;
    static struct abstract_state st;
    abstract_state_entry(&st);
    /* breg3 0; bra +4; breg7 8; skip +2; breg7 8 */
    static const uint8_t same[] = {0x73, 0x00, 0x28, 0x05, 0x00, 0x77, 0x08, 0x2f, 0x02, 0x00, 0x77, 0x08};
    static const uint8_t differ[] = {0x73, 0x00, 0x28, 0x05, 0x00, 0x77, 0x08, 0x2f, 0x02, 0x00, 0x77, 0x10};
    enum rule_verdict linear, solver;
    struct counterexample cx;
    struct unwind_rule rule = cfa_expression(same, sizeof same);
    cfa_verdicts(&rule, &st, 0x1000, &linear, &solver, &cx);
    assert_int_equal(solver, RULE_HOLDS);
    assert_int_equal(linear, RULE_HOLDS);   /* the linear stage leaves it to z3 */
    rule = cfa_expression(differ, sizeof differ);
    cfa_verdicts(&rule, &st, 0x1000, &linear, &solver, &cx);
    assert_int_equal(solver, RULE_UNDECIDED);
    assert_int_equal(linear, RULE_UNDECIDED);
}

/* An expression that cannot be evaluated is no CFA. */
static void test_division_by_zero(void **state)
{
    (void)state;
    static struct abstract_state st;
    abstract_state_entry(&st);
    /* breg7 8; lit0; div */
    static const uint8_t bytes[] = {0x77, 0x08, 0x30, 0x1b};
    enum rule_verdict linear, solver;
    struct counterexample cx;
    struct unwind_rule rule = cfa_expression(bytes, sizeof bytes);
    cfa_verdicts(&rule, &st, 0x1000, &linear, &solver, &cx);
    assert_int_not_equal(solver, RULE_HOLDS);
    assert_int_not_equal(linear, RULE_HOLDS);
}

/* rbx saved at CFA - 16 (a push after entry): DW_CFA_expression rbx
 * `breg7 0` names the slot while rsp points at it, not once rsp moved. */
static void test_register_save_address(void **state)
{
    (void)state;
    static struct abstract_state st;
    abstract_state_entry(&st);
    st.reg[ABI_RSP].off = -16;
    abstract_state_set_slot(&st, AV_CFA, -16, (struct abstract_value){AV_ENTRY, ABI_RBX, 0});
    static const uint8_t at_rsp[] = {0x77, 0x00};
    struct unwind_rule rule = {.kind = REG_RULE_EXPRESSION, .expr = at_rsp, .expr_len = sizeof at_rsp};
    struct prover *p = prover_new(5000, 0), *z = prover_new(5000, 1);
    struct counterexample cx;
    int timed_out = 0;
    assert_int_equal(prover_reg(p, &rule, ABI_RBX, &st, 0x1000, &cx, &timed_out), RULE_HOLDS);
    assert_int_equal(prover_reg(z, &rule, ABI_RBX, &st, 0x1000, &cx, &timed_out), RULE_HOLDS);
    st.reg[ABI_RSP].off = -24;   /* a sub $8 later: rsp is below the save */
    assert_int_equal(prover_reg(z, &rule, ABI_RBX, &st, 0x1004, &cx, &timed_out), RULE_FAILS);
    assert_true(cx.present);
    prover_free(p);
    prover_free(z);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plt_cfa),
        cmocka_unit_test(test_branch_on_unknown),
        cmocka_unit_test(test_division_by_zero),
        cmocka_unit_test(test_register_save_address),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
/* SPDX-License-Identifier: Apache-2.0 */
