/*
 * Unit tests for semantics/unwind_table: row storage, the binary search over
 * half-open [start, end) ranges, rule equality and column names.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "semantics/unwind_table.h"

/* ---- append / row_at ----------------------------------------------------- */

static void test_init_and_release(void **state)
{
    (void)state;
    struct unwind_table t;
    memset(&t, 0xa5, sizeof t);
    unwind_table_init(&t, 0x1000, 0x2000);
    assert_true(t.start == 0x1000);
    assert_true(t.end == 0x2000);
    assert_null(t.rows);
    assert_int_equal(t.nrows, 0);
    assert_true(t.extra_columns[0] == 0 && t.extra_columns[1] == 0);
    assert_int_equal(t.signal_frame, 0);
    /* An empty table finds nothing. */
    assert_null(unwind_table_row_at(&t, 0x1000));
    assert_null(unwind_table_row_at(&t, 0));

    assert_non_null(unwind_table_append(&t, 0x1000, 0x1010));
    unwind_table_release(&t);
    assert_null(t.rows);
    assert_int_equal(t.nrows, 0);
    assert_int_equal(t.cap, 0);
    assert_null(unwind_table_row_at(&t, 0x1000));
}

static void test_append_returns_zeroed_row(void **state)
{
    (void)state;
    struct unwind_table t;
    unwind_table_init(&t, 0x1000, 0x2000);
    struct unwind_row *r = unwind_table_append(&t, 0x1000, 0x1004);
    assert_non_null(r);
    assert_true(r->start == 0x1000);
    assert_true(r->end == 0x1004);
    assert_int_equal(r->cfa.kind, CFA_RULE_UNSET);
    for (unsigned i = 0; i < UNWIND_COLUMNS; i++) {
        assert_int_equal(r->reg[i].kind, REG_RULE_UNREFERENCED);
        assert_true(r->reg[i].offset == 0);
        assert_null(r->reg[i].expr);
    }
    /* Fill it, then append more rows: the new ones are zeroed, the old kept. */
    r->cfa.kind = CFA_RULE_REG_OFFSET;
    r->cfa.reg = 7;
    r->cfa.offset = 8;
    for (int i = 0; i < 20; i++) {
        struct unwind_row *n = unwind_table_append(&t, 0x1004 + 4 * (uint64_t)i,
                                                   0x1008 + 4 * (uint64_t)i);
        assert_non_null(n);
        assert_int_equal(n->cfa.kind, CFA_RULE_UNSET);
        assert_true(n->cfa.offset == 0);
        n->cfa.kind = CFA_RULE_REG_OFFSET;
        n->cfa.offset = 16 + i;
    }
    assert_int_equal(t.nrows, 21);
    assert_true(t.cap >= 21);
    assert_int_equal(t.rows[0].cfa.kind, CFA_RULE_REG_OFFSET);
    assert_int_equal(t.rows[0].cfa.reg, 7);
    assert_true(t.rows[0].cfa.offset == 8);
    /* Row 20 was appended as [0x1004 + 4*19, ...) = [0x1050, 0x1054) with offset 35. */
    assert_true(t.rows[20].start == 0x1050);
    assert_true(t.rows[20].end == 0x1054);
    assert_true(t.rows[20].cfa.offset == 35);
    unwind_table_release(&t);
}

static void test_row_at_with_gaps(void **state)
{
    (void)state;
    struct unwind_table t;
    unwind_table_init(&t, 0x1000, 0x1031);
    /* row0 [0x1000,0x1004) row1 [0x1004,0x1010) gap [0x1010,0x1020)
     * row2 [0x1020,0x1030) row3 [0x1030,0x1031) */
    assert_non_null(unwind_table_append(&t, 0x1000, 0x1004));
    assert_non_null(unwind_table_append(&t, 0x1004, 0x1010));
    assert_non_null(unwind_table_append(&t, 0x1020, 0x1030));
    assert_non_null(unwind_table_append(&t, 0x1030, 0x1031));
    const struct unwind_row *r = t.rows;

    assert_null(unwind_table_row_at(&t, 0));
    assert_null(unwind_table_row_at(&t, 0xfff));            /* just before */
    assert_ptr_equal(unwind_table_row_at(&t, 0x1000), &r[0]);   /* first start */
    assert_ptr_equal(unwind_table_row_at(&t, 0x1003), &r[0]);   /* last byte of row0 */
    assert_ptr_equal(unwind_table_row_at(&t, 0x1004), &r[1]);   /* row0's end = row1's start */
    assert_ptr_equal(unwind_table_row_at(&t, 0x100f), &r[1]);
    assert_null(unwind_table_row_at(&t, 0x1010));           /* row1's end: the gap */
    assert_null(unwind_table_row_at(&t, 0x1018));
    assert_null(unwind_table_row_at(&t, 0x101f));
    assert_ptr_equal(unwind_table_row_at(&t, 0x1020), &r[2]);
    assert_ptr_equal(unwind_table_row_at(&t, 0x102f), &r[2]);
    assert_ptr_equal(unwind_table_row_at(&t, 0x1030), &r[3]);   /* one-byte row */
    assert_null(unwind_table_row_at(&t, 0x1031));           /* last end */
    assert_null(unwind_table_row_at(&t, 0x2000));           /* after */
    assert_null(unwind_table_row_at(&t, UINT64_MAX));
    unwind_table_release(&t);
}

static void test_row_at_single_row(void **state)
{
    (void)state;
    struct unwind_table t;
    unwind_table_init(&t, 0x10, 0x20);
    assert_non_null(unwind_table_append(&t, 0x10, 0x20));
    assert_null(unwind_table_row_at(&t, 0x0f));
    assert_ptr_equal(unwind_table_row_at(&t, 0x10), &t.rows[0]);
    assert_ptr_equal(unwind_table_row_at(&t, 0x1f), &t.rows[0]);
    assert_null(unwind_table_row_at(&t, 0x20));
    unwind_table_release(&t);

    /* A row reaching the top of the address space. */
    unwind_table_init(&t, 0xfffffffffffff000ULL, UINT64_MAX);
    assert_non_null(unwind_table_append(&t, 0xfffffffffffff000ULL, UINT64_MAX));
    assert_ptr_equal(unwind_table_row_at(&t, 0xfffffffffffffffeULL), &t.rows[0]);
    assert_null(unwind_table_row_at(&t, UINT64_MAX));       /* end is exclusive */
    assert_null(unwind_table_row_at(&t, 0xffffffffffffefffULL));
    unwind_table_release(&t);
}

static void test_row_at_many_rows(void **state)
{
    (void)state;
    /* 100 rows [0x1000 + 8i, 0x1000 + 8i + 4): 4 bytes covered, 4 bytes gap. */
    struct unwind_table t;
    unwind_table_init(&t, 0x1000, 0x1000 + 8 * 100);
    for (uint64_t i = 0; i < 100; i++)
        assert_non_null(unwind_table_append(&t, 0x1000 + 8 * i, 0x1000 + 8 * i + 4));
    assert_int_equal(t.nrows, 100);
    for (uint64_t i = 0; i < 100; i++) {
        uint64_t s = 0x1000 + 8 * i;
        assert_ptr_equal(unwind_table_row_at(&t, s), &t.rows[i]);
        assert_ptr_equal(unwind_table_row_at(&t, s + 3), &t.rows[i]);
        assert_null(unwind_table_row_at(&t, s + 4));
        assert_null(unwind_table_row_at(&t, s + 7));
    }
    assert_null(unwind_table_row_at(&t, 0xfff));
    assert_null(unwind_table_row_at(&t, 0x1000 + 8 * 100));
    /* Spot checks by hand: 0x1318 = 0x1000 + 8*99 is row 99; 0x1100 = row 32. */
    assert_ptr_equal(unwind_table_row_at(&t, 0x1318), &t.rows[99]);
    assert_ptr_equal(unwind_table_row_at(&t, 0x1102), &t.rows[32]);
    unwind_table_release(&t);
}

/* ---- rule equality ------------------------------------------------------- */

static struct unwind_rule mk(uint8_t kind, uint16_t reg, int64_t offset, const uint8_t *expr,
                             uint32_t expr_len)
{
    struct unwind_rule r;
    memset(&r, 0, sizeof r);
    r.kind = kind;
    r.reg = reg;
    r.offset = offset;
    r.expr = expr;
    r.expr_len = expr_len;
    return r;
}

static void test_unwind_rule_equal(void **state)
{
    (void)state;
    struct unwind_rule a, b;

    /* Offset rules compare the offset, not the unused reg. */
    a = mk(REG_RULE_OFFSET, 0, -8, NULL, 0);
    b = mk(REG_RULE_OFFSET, 5, -8, NULL, 0);
    assert_true(unwind_rule_equal(&a, &b));
    b = mk(REG_RULE_OFFSET, 0, -16, NULL, 0);
    assert_false(unwind_rule_equal(&a, &b));
    /* Same offset, different kind. */
    b = mk(REG_RULE_VAL_OFFSET, 0, -8, NULL, 0);
    assert_false(unwind_rule_equal(&a, &b));
    a = mk(REG_RULE_VAL_OFFSET, 0, -8, NULL, 0);
    assert_true(unwind_rule_equal(&a, &b));

    /* Register rules compare reg, not the unused offset. */
    a = mk(REG_RULE_REGISTER, 6, 0, NULL, 0);
    b = mk(REG_RULE_REGISTER, 6, 99, NULL, 0);
    assert_true(unwind_rule_equal(&a, &b));
    b = mk(REG_RULE_REGISTER, 7, 0, NULL, 0);
    assert_false(unwind_rule_equal(&a, &b));

    /* Expressions compare bytes, not pointers. */
    static const uint8_t e1[] = {0x77, 0x08};
    static const uint8_t e2[] = {0x77, 0x08};
    static const uint8_t e3[] = {0x77, 0x10};
    static const uint8_t e4[] = {0x77, 0x08, 0x06};
    a = mk(REG_RULE_EXPRESSION, 0, 0, e1, 2);
    b = mk(REG_RULE_EXPRESSION, 0, 0, e2, 2);
    assert_true(unwind_rule_equal(&a, &b));
    b = mk(REG_RULE_EXPRESSION, 0, 0, e3, 2);
    assert_false(unwind_rule_equal(&a, &b));
    b = mk(REG_RULE_EXPRESSION, 0, 0, e4, 3);            /* same prefix, longer */
    assert_false(unwind_rule_equal(&a, &b));
    b = mk(REG_RULE_VAL_EXPRESSION, 0, 0, e2, 2);        /* same bytes, other kind */
    assert_false(unwind_rule_equal(&a, &b));
    a = mk(REG_RULE_VAL_EXPRESSION, 0, 0, e1, 2);
    assert_true(unwind_rule_equal(&a, &b));

    /* Operand-less kinds: equal whatever the unused fields hold. */
    a = mk(REG_RULE_SAME_VALUE, 1, 2, e1, 2);
    b = mk(REG_RULE_SAME_VALUE, 3, 4, NULL, 0);
    assert_true(unwind_rule_equal(&a, &b));
    a = mk(REG_RULE_UNDEFINED, 0, 0, NULL, 0);
    b = mk(REG_RULE_UNDEFINED, 0, 8, NULL, 0);
    assert_true(unwind_rule_equal(&a, &b));
    b = mk(REG_RULE_SAME_VALUE, 0, 0, NULL, 0);
    assert_false(unwind_rule_equal(&a, &b));
    a = mk(REG_RULE_UNREFERENCED, 0, 0, NULL, 0);
    assert_false(unwind_rule_equal(&a, &b));
    b = mk(REG_RULE_UNREFERENCED, 0, 0, NULL, 0);
    assert_true(unwind_rule_equal(&a, &b));
    a = mk(REG_RULE_UNKNOWN, 0, 0, NULL, 0);
    assert_false(unwind_rule_equal(&a, &b));
}

static void test_cfa_rule_equal(void **state)
{
    (void)state;
    struct unwind_rule a, b;

    a = mk(CFA_RULE_REG_OFFSET, 7, 8, NULL, 0);
    b = mk(CFA_RULE_REG_OFFSET, 7, 8, NULL, 0);
    assert_true(unwind_cfa_rule_equal(&a, &b));
    b = mk(CFA_RULE_REG_OFFSET, 6, 8, NULL, 0);          /* other register */
    assert_false(unwind_cfa_rule_equal(&a, &b));
    b = mk(CFA_RULE_REG_OFFSET, 7, 16, NULL, 0);         /* other offset */
    assert_false(unwind_cfa_rule_equal(&a, &b));

    /* An expression CFA keeps the last reg/offset; they do not take part. */
    static const uint8_t e1[] = {0x77, 0x08, 0x80, 0x00, 0x3f, 0x1a};
    static const uint8_t e2[] = {0x77, 0x08, 0x80, 0x00, 0x3f, 0x1a};
    static const uint8_t e3[] = {0x77, 0x08, 0x80, 0x00, 0x3f, 0x1b};
    a = mk(CFA_RULE_EXPRESSION, 7, 8, e1, 6);
    b = mk(CFA_RULE_EXPRESSION, 6, 32, e2, 6);
    assert_true(unwind_cfa_rule_equal(&a, &b));
    b = mk(CFA_RULE_EXPRESSION, 7, 8, e3, 6);            /* last byte differs */
    assert_false(unwind_cfa_rule_equal(&a, &b));
    b = mk(CFA_RULE_EXPRESSION, 7, 8, e2, 5);            /* shorter */
    assert_false(unwind_cfa_rule_equal(&a, &b));
    b = mk(CFA_RULE_REG_OFFSET, 7, 8, NULL, 0);          /* same reg/offset, other kind */
    assert_false(unwind_cfa_rule_equal(&a, &b));

    a = mk(CFA_RULE_UNSET, 0, 0, NULL, 0);
    b = mk(CFA_RULE_UNSET, 7, 8, NULL, 0);
    assert_true(unwind_cfa_rule_equal(&a, &b));
    b = mk(CFA_RULE_UNKNOWN, 0, 0, NULL, 0);
    assert_false(unwind_cfa_rule_equal(&a, &b));
    a = mk(CFA_RULE_UNKNOWN, 1, 1, NULL, 0);
    assert_true(unwind_cfa_rule_equal(&a, &b));
}

/* ---- column names -------------------------------------------------------- */

static void test_column_names(void **state)
{
    (void)state;
    assert_string_equal(unwind_column_name(-1), "CFA");
    assert_string_equal(unwind_column_name(16), "ra");
    assert_string_equal(unwind_column_name(3), "rbx");
    assert_string_equal(unwind_column_name(17), "xmm0");
    assert_string_equal(unwind_column_name(0), "rax");
    assert_string_equal(unwind_column_name(1), "rdx");
    assert_string_equal(unwind_column_name(6), "rbp");
    assert_string_equal(unwind_column_name(7), "rsp");
    assert_string_equal(unwind_column_name(15), "r15");
    assert_string_equal(unwind_column_name(32), "xmm15");
    assert_string_equal(unwind_column_name(33), "st0");
    assert_string_equal(unwind_column_name(49), "rflags");
    assert_null(unwind_column_name(56));                 /* reserved */
    assert_string_equal(unwind_column_name(58), "fs.base");
    assert_string_equal(unwind_column_name(67), "xmm16");
    assert_string_equal(unwind_column_name(82), "xmm31");
    assert_null(unwind_column_name(83));                 /* reserved 83..117 */
    assert_null(unwind_column_name(100000));
}

/* psABI x86-64, DWARF register numbers: 118-125 are the AVX-512 mask
 * registers k0-k7 (binutils' dwarf_regnames_x86_64 agrees). */
static void test_column_names_mask_registers(void **state)
{
    (void)state;
    const char *k0 = unwind_column_name(118), *k7 = unwind_column_name(125);
    assert_null(unwind_column_name(117));
    assert_non_null(k0);
    assert_string_equal(k0, "k0");
    assert_non_null(k7);
    assert_string_equal(k7, "k7");
    assert_null(unwind_column_name(126));                /* reserved 126..129 */
    assert_null(unwind_column_name(127));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_init_and_release),
        cmocka_unit_test(test_append_returns_zeroed_row),
        cmocka_unit_test(test_row_at_with_gaps),
        cmocka_unit_test(test_row_at_single_row),
        cmocka_unit_test(test_row_at_many_rows),
        cmocka_unit_test(test_unwind_rule_equal),
        cmocka_unit_test(test_cfa_rule_equal),
        cmocka_unit_test(test_column_names),
        cmocka_unit_test(test_column_names_mask_registers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
/* SPDX-License-Identifier: Apache-2.0 */
