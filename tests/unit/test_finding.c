/*
 * Unit tests for verify/audit/finding.h and the cells of verify/audit/excerpt.h: the
 * tables of finding kinds (every text said: what, why, how to fix) and of
 * unchecked reasons are complete and their names usable as keys
 * (kebab-case, unique); a finding's place prints as
 * func+0xoff or as its address; an excerpt's rules print as one cell each,
 * as findings print them (`unchanged` and `undefined` apart); rules in
 * words; identities in readelf's notation, as before.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "semantics/abi.h"
#include "semantics/unwind_table.h"
#include "verify/audit/excerpt.h"
#include "verify/audit/finding.h"
#include "verify/audit/finding_identity.h"
#include "verify/audit/rule_words.h"

/* Lower-case letters and single inner dashes: usable as a JSON key, a SARIF rule id. */
static int kebab_case(const char *s)
{
    if (!*s || *s == '-')
        return 0;
    for (const char *p = s; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p == '-' && p[1] && p[1] != '-')))
            return 0;
    return 1;
}

static void test_kinds_table_complete(void **state)
{
    (void)state;
    for (int k = 0; k < FINDING_KINDS; k++) {
        const char *name = finding_kind_name((enum finding_kind)k);
        const char *help = finding_kind_help((enum finding_kind)k);
        assert_true(kebab_case(name));
        assert_true(strlen(help) > 10 && help[strlen(help) - 1] == '.');
        /* SARIF rules' shortDescription and help (report/sarif_report). */
        const char *title = finding_kind_title((enum finding_kind)k);
        const char *advice = finding_kind_advice((enum finding_kind)k);
        assert_non_null(title);
        assert_non_null(advice);
        assert_true(strlen(title) > 5 && title[strlen(title) - 1] != '.');
        assert_true(strlen(advice) > 10 && advice[strlen(advice) - 1] == '.');
        /* The HTML report's explanation of the kind: what it means (the
         * help), why it matters, how to fix it; SARIF's help is the two. */
        const char *impact = finding_kind_impact((enum finding_kind)k);
        const char *remedy = finding_kind_remedy((enum finding_kind)k);
        assert_true(strlen(impact) > 20 && impact[strlen(impact) - 1] == '.');
        assert_true(strlen(remedy) > 20 && remedy[strlen(remedy) - 1] == '.');
        assert_int_equal(strlen(advice), strlen(impact) + 2 + strlen(remedy));
        assert_memory_equal(advice, impact, strlen(impact));
        assert_string_equal(advice + strlen(impact) + 2, remedy);
        assert_non_null(finding_kind_verdict((enum finding_kind)k));
        for (int j = 0; j < k; j++)
            assert_string_not_equal(name, finding_kind_name((enum finding_kind)j));
    }
    assert_string_equal(finding_kind_name(FINDING_KINDS), "?");
    assert_string_equal(finding_kind_help(FINDING_KINDS), "");
    assert_string_equal(finding_kind_title(FINDING_KINDS), "");
    assert_string_equal(finding_kind_advice(FINDING_KINDS), "");
    assert_string_equal(finding_kind_impact(FINDING_KINDS), "");
    assert_string_equal(finding_kind_remedy(FINDING_KINDS), "");
    assert_string_equal(finding_kind_verdict(FINDING_KINDS), "");
    /* A verdict for the kinds that name a rule of the table, none for the others. */
    assert_string_equal(finding_kind_verdict(FINDING_CFA_MISMATCH), "fails");
    assert_string_equal(finding_kind_verdict(FINDING_SFRAME_RA_MISMATCH), "fails");
    assert_true(strlen(finding_kind_verdict(FINDING_IMPRECISE)) > 5);
    assert_string_equal(finding_kind_verdict(FINDING_FDE_GAP), "");
    assert_string_equal(finding_kind_verdict(FINDING_NO_UNWIND_TABLE), "");
}

static void test_kinds_severities(void **state)
{
    (void)state;
    /* As dwcheck(1), docs/dwcheck.md and --help list them. */
    assert_int_equal(finding_kind_severity(FINDING_CFA_MISMATCH), SEVERITY_ERROR);
    assert_int_equal(finding_kind_severity(FINDING_CLOBBERED), SEVERITY_ERROR);
    assert_int_equal(finding_kind_severity(FINDING_MALFORMED_CFI), SEVERITY_ERROR);
    assert_int_equal(finding_kind_severity(FINDING_FDE_GAP), SEVERITY_WARNING);
    assert_int_equal(finding_kind_severity(FINDING_CALL_CLOBBERED_RULE), SEVERITY_WARNING);
    assert_int_equal(finding_kind_severity(FINDING_IMPRECISE), SEVERITY_INFO);
    assert_string_equal(finding_severity_name(SEVERITY_INFO), "info");
}

static void test_reasons_table(void **state)
{
    (void)state;
    for (int u = 0; u < UNCHECKED_REASONS; u++) {
        const char *id = finding_unchecked_reason_id((enum unchecked_reason)u);
        assert_true(kebab_case(id));
        assert_true(strlen(finding_unchecked_reason_text((enum unchecked_reason)u)) > strlen(id));
        for (int j = 0; j < u; j++) {
            assert_string_not_equal(id, finding_unchecked_reason_id((enum unchecked_reason)j));
            assert_string_not_equal(finding_unchecked_reason_text((enum unchecked_reason)u),
                                    finding_unchecked_reason_text((enum unchecked_reason)j));
        }
        /* Only the register-rule reasons count rules, not addresses. */
        assert_int_equal(finding_unchecked_reason_counts_rules((enum unchecked_reason)u),
                         u == UNCHECKED_SLOT_UNKNOWN || u == UNCHECKED_VALUE_UNKNOWN ||
                             u == UNCHECKED_RULE_TIMEOUT);
    }
    assert_string_equal(finding_unchecked_reason_id(UNCHECKED_PADDING), "padding");
    assert_string_equal(finding_unchecked_reason_id(UNCHECKED_REASONS), "?");
}

static void test_finding_where(void **state)
{
    (void)state;
    static struct finding f;
    char buf[FINDING_WHERE_LEN];
    f.address = 0x4c6e1;
    finding_where(buf, sizeof buf, &f);
    assert_string_equal(buf, "0x4c6e1");
    strcpy(f.function, "swapcontext");
    f.function_start = 0x4c677;
    finding_where(buf, sizeof buf, &f);
    assert_string_equal(buf, "swapcontext+0x6a");
    /* The longest name fits. */
    memset(f.function, 'x', sizeof f.function - 1);
    f.function_start = 0;
    f.address = UINT64_MAX;
    finding_where(buf, sizeof buf, &f);
    assert_int_equal(strlen(buf), sizeof f.function - 1 + strlen("+0xffffffffffffffff"));
}

static void test_excerpt_cells(void **state)
{
    (void)state;
    char buf[48];
    struct excerpt_rule cfa = {.kind = CFA_RULE_REG_OFFSET, .reg = ABI_RSP, .offset = 8};
    excerpt_rule_text(buf, sizeof buf, &cfa, 0);
    assert_string_equal(buf, "rsp+8");
    /* DW_CFA_register: one cell with a space in it. */
    struct excerpt_rule in_rax = {.kind = REG_RULE_REGISTER, .reg = 0};
    excerpt_rule_text(buf, sizeof buf, &in_rax, 1);
    assert_string_equal(buf, "r0 (rax)");
    struct excerpt_rule saved = {.kind = REG_RULE_OFFSET, .offset = -8};
    excerpt_rule_text(buf, sizeof buf, &saved, EXCERPT_NCOLUMNS - 1);
    assert_string_equal(buf, "c-8");
    struct excerpt_rule exp = {.kind = REG_RULE_EXPRESSION};
    excerpt_rule_text(buf, sizeof buf, &exp, 3);
    assert_string_equal(buf, "exp");
    struct excerpt_rule cfa_exp = {.kind = CFA_RULE_EXPRESSION, .reg = ABI_RSP};
    excerpt_rule_text(buf, sizeof buf, &cfa_exp, 0);
    assert_string_equal(buf, "exp");
    /* readelf's `u` is two rules: said apart (man dwcheck, RULE NOTATION). */
    struct excerpt_rule none = {.kind = REG_RULE_UNREFERENCED}, undefined = {.kind = REG_RULE_UNDEFINED},
                        same = {.kind = REG_RULE_SAME_VALUE};
    excerpt_rule_text(buf, sizeof buf, &none, 1);
    assert_string_equal(buf, "unchanged");
    excerpt_rule_text(buf, sizeof buf, &undefined, 1);
    assert_string_equal(buf, "undefined");
    excerpt_rule_text(buf, sizeof buf, &same, 1);
    assert_string_equal(buf, "s");
}

/* The words of a finding's `table:` and `code:` lines (verify/audit/rule_words). */
static void test_rule_words(void **state)
{
    (void)state;
    char buf[160];
    struct unwind_rule cfa = {.kind = CFA_RULE_REG_OFFSET, .reg = ABI_RSP, .offset = 8};
    struct unwind_rule cfa16 = {.kind = CFA_RULE_REG_OFFSET, .reg = ABI_RSP, .offset = 16};
    struct unwind_rule none = {.kind = REG_RULE_UNREFERENCED}, undefined = {.kind = REG_RULE_UNDEFINED};
    struct unwind_rule saved = {.kind = REG_RULE_OFFSET, .offset = -16}, unknown = {.kind = REG_RULE_UNKNOWN};
    rule_words_table(buf, sizeof buf, -1, &cfa);
    assert_string_equal(buf, "the CFA is rsp+8");
    rule_words_table(buf, sizeof buf, ABI_RBX, &none);
    assert_string_equal(buf, "rbx is not described: unwinders take it as unchanged");
    rule_words_table(buf, sizeof buf, ABI_RBX, &undefined);
    assert_string_equal(buf, "rbx is undefined: unwinders cannot restore it");
    rule_words_table(buf, sizeof buf, ABI_RA, &undefined);
    assert_string_equal(buf, "the return address is undefined: the stack ends here");
    rule_words_table(buf, sizeof buf, ABI_R12, &saved);
    assert_string_equal(buf, "r12's entry value is saved at CFA-16");
    rule_words_code(buf, sizeof buf, ABI_R12, &unknown, "rsi's entry value");
    assert_string_equal(buf, "r12 holds rsi's entry value; its own entry value is saved nowhere synthesis knows");
    rule_words_code(buf, sizeof buf, ABI_R12, &unknown, NULL);
    assert_string_equal(buf, "synthesis does not know where r12's entry value is here");
    /* An expression short enough is named by its operations. */
    static const uint8_t breg7_16[] = {0x77, 0x10};
    struct unwind_rule exp = {.kind = REG_RULE_EXPRESSION, .expr = breg7_16, .expr_len = 2};
    rule_words_code(buf, sizeof buf, ABI_R12, &exp, NULL);
    assert_string_equal(buf, "r12's entry value is saved where DW_OP_breg7 (rsp): 16 points");
    rule_words_change(buf, sizeof buf, -1, &cfa, &cfa16);
    assert_string_equal(buf, "moved rsp down 8");
    rule_words_change(buf, sizeof buf, -1, &cfa16, &cfa);
    assert_string_equal(buf, "moved rsp up 8");
    rule_words_change(buf, sizeof buf, ABI_RBX, &none, &saved);
    assert_string_equal(buf, "saved rbx at CFA-16");
    rule_words_change(buf, sizeof buf, ABI_RBX, &saved, &none);
    assert_string_equal(buf, "restored rbx");
    rule_words_change(buf, sizeof buf, ABI_RBX, &saved, &saved);
    assert_string_equal(buf, "");
}

/* Findings print `unchanged` and `undefined` where earlier versions printed
 * readelf's `u`: their identities (baselines, SARIF fingerprints) are the
 * same as those versions'. */
static void test_identity_keeps_readelf_notation(void **state)
{
    (void)state;
    struct finding now = {.kind = FINDING_CLOBBERED, .column = ABI_RBX, .insn_index = 2}, before;
    snprintf(now.function, sizeof now.function, "f");
    snprintf(now.dwarf, sizeof now.dwarf, "unchanged");
    snprintf(now.synth, sizeof now.synth, "c-16");
    before = now;
    snprintf(before.dwarf, sizeof before.dwarf, "u");
    struct finding_identity a, b;
    char fa[FINDING_FINGERPRINT_LEN], fb[FINDING_FINGERPRINT_LEN];
    finding_identity_of(&a, "/lib/libx.so", &now);
    finding_identity_of(&b, "/lib/libx.so", &before);
    assert_true(finding_identity_equal(&a, &b));
    finding_identity_fingerprint(fa, &a);
    finding_identity_fingerprint(fb, &b);
    assert_string_equal(fa, fb);
    snprintf(now.dwarf, sizeof now.dwarf, "undefined");
    finding_identity_of(&a, "/lib/libx.so", &now);
    assert_true(finding_identity_equal(&a, &b));
    /* Clone's child's synthesised `undefined` was always spelt out. */
    snprintf(now.synth, sizeof now.synth, "undefined");
    finding_identity_of(&a, "/lib/libx.so", &now);
    assert_string_equal(a.synth, "undefined");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kinds_table_complete),
        cmocka_unit_test(test_kinds_severities),
        cmocka_unit_test(test_reasons_table),
        cmocka_unit_test(test_finding_where),
        cmocka_unit_test(test_excerpt_cells),
        cmocka_unit_test(test_rule_words),
        cmocka_unit_test(test_identity_keeps_readelf_notation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
/* SPDX-License-Identifier: Apache-2.0 */
