/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit tests for the shared kit: kit/grow.h (room made, capacity doubled,
 * the array kept when the size overflows), kit/sorted_search.h (the count
 * of keys at or below a key, and below it: empty, below the first, equal
 * keys, past the last, against a linear count; GROW in place) and semantics/byte_writer.h (words and
 * LEB128 values as the DWARF standard's examples give them and as
 * byte_reader.h reads them back; a write past the room sets the overflow
 * and writes nothing).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "kit/grow.h"
#include "kit/sorted_search.h"
#include "semantics/byte_reader.h"
#include "kit/byte_writer.h"

static void test_grow_array(void **state)
{
    (void)state;
    size_t cap = 0;
    int *a = grow_array(NULL, &cap, 1, sizeof *a);
    assert_non_null(a);
    assert_int_equal(cap, GROW_FIRST);
    for (int i = 0; i < 1000; i++) {
        int *b = grow_array(a, &cap, (size_t)i + 1, sizeof *b);
        assert_non_null(b);
        a = b;
        a[i] = i;
        assert_true(cap >= (size_t)i + 1 && cap <= 2 * ((size_t)i + 1) + GROW_FIRST);
    }
    for (int i = 0; i < 1000; i++)
        assert_int_equal(a[i], i);
    /* A size past SIZE_MAX: NULL, the array and its capacity unchanged. */
    size_t before = cap;
    assert_null(grow_array(a, &cap, SIZE_MAX / 4, 16));
    assert_int_equal(cap, before);
    assert_null(grow_array(a, &cap, SIZE_MAX, 1));
    assert_int_equal(cap, before);
    assert_int_equal(a[999], 999);
    /* Enough room: the same array. */
    assert_ptr_equal(grow_array(a, &cap, 10, sizeof *a), a);
    free(a);
}

static void test_grow_in_place(void **state)
{
    (void)state;
    struct pair {
        uint64_t a, b;
    } *p = NULL;
    size_t cap = 0;
    for (size_t i = 0; i < 100; i++) {
        assert_int_equal(GROW(p, cap, i + 1), 0);
        p[i] = (struct pair){i, 2 * i};
    }
    assert_true(cap >= 100);
    struct pair *before = p;
    size_t cap_before = cap;
    assert_int_equal(GROW(p, cap, SIZE_MAX / 8), -1);   /* past SIZE_MAX bytes */
    assert_ptr_equal(p, before);
    assert_int_equal(cap, cap_before);
    for (size_t i = 0; i < 100; i++)
        assert_true(p[i].a == i && p[i].b == 2 * i);
    free(p);
}

static uint64_t key_of(const void *array, size_t i)
{
    return ((const uint64_t *)array)[i];
}

static size_t linear_count(const uint64_t *keys, size_t n, uint64_t k)
{
    size_t c = 0;
    for (size_t i = 0; i < n; i++)
        c += keys[i] <= k;
    return c;
}

static void test_sorted_search(void **state)
{
    (void)state;
    const uint64_t keys[] = {10, 20, 20, 20, 30, 40, 40, UINT64_MAX - 1};
    size_t n = sizeof keys / sizeof keys[0];
    assert_int_equal(sorted_count_at_most(keys, 0, key_of, 100), 0);
    assert_int_equal(sorted_count_at_most(keys, n, key_of, 9), 0);
    assert_int_equal(sorted_count_at_most(keys, n, key_of, 10), 1);
    assert_int_equal(sorted_count_at_most(keys, n, key_of, 20), 4);   /* the last of equal keys */
    assert_int_equal(sorted_count_at_most(keys, n, key_of, 39), 5);
    assert_int_equal(sorted_count_at_most(keys, n, key_of, UINT64_MAX), n);
    assert_int_equal(sorted_count_below(keys, n, key_of, 0), 0);
    assert_int_equal(sorted_count_below(keys, n, key_of, 20), 1);   /* the first of equal keys */
    assert_int_equal(sorted_count_below(keys, n, key_of, 21), 4);
    for (uint64_t k = 0; k < 50; k++)
        for (size_t m = 0; m < n; m++)
            assert_int_equal(sorted_count_at_most(keys, m, key_of, k), linear_count(keys, m, k));
}

static void test_byte_writer_words(void **state)
{
    (void)state;
    uint8_t buf[16];
    struct byte_writer w;
    byte_writer_init(&w, buf, sizeof buf, 0x1000);
    byte_writer_u8(&w, 0xab);
    byte_writer_le(&w, 0x0102, 2);
    byte_writer_le(&w, 0x0a0b0c0d, 4);
    byte_writer_le(&w, 0x1122334455667788ull, 8);
    assert_false(w.overflow);
    assert_int_equal(w.addr, 0x1000 + 15);
    const uint8_t want[15] = {0xab, 0x02, 0x01, 0x0d, 0x0c, 0x0b, 0x0a,
                              0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11};
    assert_memory_equal(buf, want, sizeof want);
    /* Two bytes do not fit in the one left: nothing written, overflow set,
     * and so for every write after it. */
    buf[15] = 0x5a;
    byte_writer_le(&w, 0xffff, 2);
    assert_true(w.overflow);
    assert_int_equal(buf[15], 0x5a);
    byte_writer_u8(&w, 0);
    assert_int_equal(buf[15], 0x5a);
    assert_int_equal(w.addr, 0x1000 + 15);
}

static void test_byte_writer_leb128(void **state)
{
    (void)state;
    /* The DWARF 5 standard's examples (7.6, figures 22 and 23). */
    uint8_t b[10];
    assert_int_equal(uleb128_encode(2, b), 1);
    assert_int_equal(b[0], 2);
    assert_int_equal(uleb128_encode(127, b), 1);
    assert_int_equal(b[0], 127);
    assert_int_equal(uleb128_encode(128, b), 2);
    assert_memory_equal(b, ((uint8_t[]){0x80, 1}), 2);
    assert_int_equal(uleb128_encode(12857, b), 2);
    assert_memory_equal(b, ((uint8_t[]){0xb9, 0x64}), 2);
    assert_int_equal(sleb128_encode(-2, b), 1);
    assert_int_equal(b[0], 0x7e);
    assert_int_equal(sleb128_encode(-127, b), 2);
    assert_memory_equal(b, ((uint8_t[]){0x81, 0x7f}), 2);
    assert_int_equal(sleb128_encode(-128, b), 2);
    assert_memory_equal(b, ((uint8_t[]){0x80, 0x7f}), 2);
    assert_int_equal(sleb128_encode(128, b), 2);
    assert_memory_equal(b, ((uint8_t[]){0x80, 0x01}), 2);
    assert_int_equal(uleb128_encode(UINT64_MAX, b), 10);
    assert_int_equal(sleb128_encode(INT64_MIN, b), 10);

    /* Round trips through byte_reader. */
    const uint64_t u[] = {0, 1, 63, 64, 127, 128, 16383, 16384, 1ull << 35, UINT64_MAX - 1, UINT64_MAX};
    const int64_t s[] = {0, 1, -1, 63, 64, -64, -65, 8191, -8192, INT64_MAX, INT64_MIN};
    uint8_t buf[256];
    struct byte_writer w;
    byte_writer_init(&w, buf, sizeof buf, 0);
    for (size_t i = 0; i < sizeof u / sizeof u[0]; i++) {
        byte_writer_uleb(&w, u[i]);
        byte_writer_sleb(&w, s[i]);
    }
    assert_false(w.overflow);
    struct byte_reader r;
    byte_reader_init(&r, buf, (size_t)w.addr);
    for (size_t i = 0; i < sizeof u / sizeof u[0]; i++) {
        uint64_t uv;
        int64_t sv;
        assert_int_equal(read_uleb128(&r, &uv), 0);
        assert_true(uv == u[i]);
        assert_int_equal(read_sleb128(&r, &sv), 0);
        assert_true(sv == s[i]);
    }
    assert_int_equal(byte_reader_left(&r), 0);
}

static void test_byte_writer_fill(void **state)
{
    (void)state;
    uint8_t buf[8] = {0};
    struct byte_writer w;
    byte_writer_init(&w, buf, sizeof buf, 0);
    byte_writer_fill(&w, 0x90, 5);
    byte_writer_fill(&w, 0x11, 4);   /* past the room */
    assert_true(w.overflow);
    assert_memory_equal(buf, ((uint8_t[]){0x90, 0x90, 0x90, 0x90, 0x90, 0, 0, 0}), 8);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grow_array),
        cmocka_unit_test(test_grow_in_place),
        cmocka_unit_test(test_sorted_search),
        cmocka_unit_test(test_byte_writer_words),
        cmocka_unit_test(test_byte_writer_leb128),
        cmocka_unit_test(test_byte_writer_fill),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
