/*
 * synth_asserts: cmocka assertions on abstract values and rows, shared by
 * the synthesis unit tests.  Macros, so that a failure names the caller's
 * line.  Include after <cmocka.h>, synth/abstract_state.h and
 * semantics/unwind_table.h.
 */
#ifndef DWCHECK_TESTS_SYNTH_ASSERTS_H
#define DWCHECK_TESTS_SYNTH_ASSERTS_H

#define assert_unknown(val) assert_int_equal((val).kind, AV_UNKNOWN)

#define assert_cfa(val, k)                                                     \
    do {                                                                       \
        struct abstract_value cfa_v_ = (val);                                          \
        assert_int_equal(cfa_v_.kind, AV_CFA);                                 \
        assert_true(cfa_v_.off == (int64_t)(k));                               \
    } while (0)

#define assert_entry(val, r, k)                                                \
    do {                                                                       \
        struct abstract_value ent_v_ = (val);                                          \
        assert_int_equal(ent_v_.kind, AV_ENTRY);                               \
        assert_int_equal(ent_v_.reg, (r));                                     \
        assert_true(ent_v_.off == (int64_t)(k));                               \
    } while (0)

#define assert_cfa_rule(row, r, k)                                             \
    do {                                                                       \
        assert_int_equal((row).cfa.kind, CFA_RULE_REG_OFFSET);                 \
        assert_int_equal((row).cfa.reg, (r));                                  \
        assert_true((row).cfa.offset == (int64_t)(k));                         \
    } while (0)

#define assert_saved_at(row, r, k)                                             \
    do {                                                                       \
        assert_int_equal((row).reg[(r)].kind, REG_RULE_OFFSET);                \
        assert_true((row).reg[(r)].offset == (int64_t)(k));                    \
    } while (0)

#endif
/* SPDX-License-Identifier: Apache-2.0 */
