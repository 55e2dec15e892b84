/*
 * Unit tests for semantics/byte_reader.h: fixed-size little-endian reads,
 * sign extension, ULEB128/SLEB128 including the 64-bit limits, truncation and
 * over-long encodings.  Every expected value is worked out by hand in the
 * comments next to it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "semantics/byte_reader.h"

/* ---- helpers ------------------------------------------------------------- */

/* Decode BYTES as one ULEB128 and expect success, VALUE, and CONSUMED bytes. */
static void expect_uleb(const uint8_t *bytes, size_t n, uint64_t value, size_t consumed)
{
    struct byte_reader r;
    byte_reader_init(&r, bytes, n);
    uint64_t v = 0xdeadbeef;
    assert_int_equal(read_uleb128(&r, &v), 0);
    assert_true(v == value);
    assert_int_equal(byte_reader_offset(&r), consumed);
    assert_null(r.error);
}

static void expect_sleb(const uint8_t *bytes, size_t n, int64_t value, size_t consumed)
{
    struct byte_reader r;
    byte_reader_init(&r, bytes, n);
    int64_t v = 0x5a5a;
    assert_int_equal(read_sleb128(&r, &v), 0);
    assert_true(v == value);
    assert_int_equal(byte_reader_offset(&r), consumed);
    assert_null(r.error);
}

/* Expect failure with the error set, the cursor and the output untouched.
 * When OVERLONG, the reason must be the documented "over-long" one. */
static void expect_uleb_fail(const uint8_t *bytes, size_t n, int overlong)
{
    struct byte_reader r;
    byte_reader_init(&r, bytes, n);
    uint64_t v = 0x1234;
    assert_int_equal(read_uleb128(&r, &v), -1);
    assert_ptr_equal(r.cur, bytes);
    assert_int_equal(byte_reader_left(&r), n);
    assert_true(v == 0x1234);
    assert_non_null(r.error);
    if (overlong)
        assert_non_null(strstr(r.error, "over-long"));
}

static void expect_sleb_fail(const uint8_t *bytes, size_t n, int overlong)
{
    struct byte_reader r;
    byte_reader_init(&r, bytes, n);
    int64_t v = 0x1234;
    assert_int_equal(read_sleb128(&r, &v), -1);
    assert_ptr_equal(r.cur, bytes);
    assert_int_equal(byte_reader_left(&r), n);
    assert_true(v == 0x1234);
    assert_non_null(r.error);
    if (overlong)
        assert_non_null(strstr(r.error, "over-long"));
}

/* ---- fixed-size reads ---------------------------------------------------- */

static void test_init_and_offsets(void **state)
{
    (void)state;
    static const uint8_t buf[5] = {1, 2, 3, 4, 5};
    struct byte_reader r;
    byte_reader_init(&r, buf, sizeof buf);
    assert_ptr_equal(r.start, buf);
    assert_ptr_equal(r.cur, buf);
    assert_ptr_equal(r.end, buf + 5);
    assert_null(r.error);
    assert_int_equal(byte_reader_left(&r), 5);
    assert_int_equal(byte_reader_offset(&r), 0);
}

static void test_read_uint_sizes(void **state)
{
    (void)state;
    static const uint8_t buf[] = {
        0x11,                                           /* size 1 -> 0x11 */
        0x22, 0x33,                                     /* size 2 -> 0x3322 */
        0x44, 0x55, 0x66, 0x77,                         /* size 4 -> 0x77665544 */
        0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff, /* size 8 -> 0xffeeddccbbaa9988 */
    };
    struct byte_reader r;
    byte_reader_init(&r, buf, sizeof buf);
    uint64_t v;

    assert_int_equal(read_uint(&r, 1, &v), 0);
    assert_true(v == 0x11);
    assert_int_equal(byte_reader_offset(&r), 1);

    assert_int_equal(read_uint(&r, 2, &v), 0);
    assert_true(v == 0x3322);
    assert_int_equal(byte_reader_offset(&r), 3);

    assert_int_equal(read_uint(&r, 4, &v), 0);
    assert_true(v == 0x77665544);
    assert_int_equal(byte_reader_offset(&r), 7);

    assert_int_equal(read_uint(&r, 8, &v), 0);
    assert_true(v == 0xffeeddccbbaa9988ULL);
    assert_int_equal(byte_reader_offset(&r), 15);
    assert_int_equal(byte_reader_left(&r), 0);
    assert_null(r.error);
}

static void test_read_uint_past_end(void **state)
{
    (void)state;
    static const uint8_t buf[] = {0xaa, 0xbb, 0xcc};
    struct byte_reader r;
    byte_reader_init(&r, buf, sizeof buf);
    uint64_t v = 42;

    /* 4 bytes wanted, 3 left: fails, nothing consumed, output untouched. */
    assert_int_equal(read_uint(&r, 4, &v), -1);
    assert_ptr_equal(r.cur, buf);
    assert_true(v == 42);
    assert_non_null(r.error);
    const char *first = r.error;

    /* The reader still works for what is there: 2 bytes -> 0xbbaa. */
    assert_int_equal(read_uint(&r, 2, &v), 0);
    assert_true(v == 0xbbaa);

    /* A second failure of another kind keeps the first reason. */
    static const uint8_t leb[] = {0x80};
    struct byte_reader r2;
    byte_reader_init(&r2, leb, 0);
    assert_int_equal(read_uint(&r2, 1, &v), -1);
    const char *why = r2.error;
    assert_non_null(why);
    r2.end = leb + 1;
    assert_int_equal(read_uleb128(&r2, &v), -1);   /* truncated LEB128 */
    assert_ptr_equal(r2.error, why);
    assert_ptr_equal(r.error, first);

    /* Empty reader: even one byte fails. */
    struct byte_reader e;
    byte_reader_init(&e, buf, 0);
    assert_int_equal(read_uint(&e, 1, &v), -1);
    assert_non_null(e.error);
}

static void test_read_sint_sign_extension(void **state)
{
    (void)state;
    int64_t s;
    struct byte_reader r;

    static const uint8_t b80[] = {0x80};
    byte_reader_init(&r, b80, 1);
    assert_int_equal(read_sint(&r, 1, &s), 0);
    assert_true(s == -128);                         /* 0x80 as int8 */

    static const uint8_t b7f[] = {0x7f};
    byte_reader_init(&r, b7f, 1);
    assert_int_equal(read_sint(&r, 1, &s), 0);
    assert_true(s == 127);

    static const uint8_t bff[] = {0xff};
    byte_reader_init(&r, bff, 1);
    assert_int_equal(read_sint(&r, 1, &s), 0);
    assert_true(s == -1);

    static const uint8_t h8000[] = {0x00, 0x80};
    byte_reader_init(&r, h8000, 2);
    assert_int_equal(read_sint(&r, 2, &s), 0);
    assert_true(s == -32768);                       /* 0x8000 as int16 */

    static const uint8_t h7fff[] = {0xff, 0x7f};
    byte_reader_init(&r, h7fff, 2);
    assert_int_equal(read_sint(&r, 2, &s), 0);
    assert_true(s == 32767);

    static const uint8_t wm2[] = {0xfe, 0xff, 0xff, 0xff};
    byte_reader_init(&r, wm2, 4);
    assert_int_equal(read_sint(&r, 4, &s), 0);
    assert_true(s == -2);                           /* 0xfffffffe as int32 */

    /* Bit 15 set but bit 31 clear: a positive 32-bit value, 0x8000 = 32768. */
    static const uint8_t w8000[] = {0x00, 0x80, 0x00, 0x00};
    byte_reader_init(&r, w8000, 4);
    assert_int_equal(read_sint(&r, 4, &s), 0);
    assert_true(s == 32768);

    static const uint8_t wmin[] = {0x00, 0x00, 0x00, 0x80};
    byte_reader_init(&r, wmin, 4);
    assert_int_equal(read_sint(&r, 4, &s), 0);
    assert_true(s == INT32_MIN);

    static const uint8_t qmin[] = {0, 0, 0, 0, 0, 0, 0, 0x80};
    byte_reader_init(&r, qmin, 8);
    assert_int_equal(read_sint(&r, 8, &s), 0);
    assert_true(s == INT64_MIN);

    static const uint8_t qm3[] = {0xfd, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    byte_reader_init(&r, qm3, 8);
    assert_int_equal(read_sint(&r, 8, &s), 0);
    assert_true(s == -3);
    assert_int_equal(byte_reader_offset(&r), 8);

    /* Truncated signed read: fails, cursor unchanged. */
    byte_reader_init(&r, qm3, 3);
    s = 99;
    assert_int_equal(read_sint(&r, 4, &s), -1);
    assert_ptr_equal(r.cur, qm3);
    assert_true(s == 99);
    assert_non_null(r.error);
}

/* ---- ULEB128 ------------------------------------------------------------- */

static void test_uleb128_values(void **state)
{
    (void)state;
    static const uint8_t b0[] = {0x00};
    expect_uleb(b0, 1, 0, 1);
    static const uint8_t b2[] = {0x02};
    expect_uleb(b2, 1, 2, 1);
    static const uint8_t b127[] = {0x7f};
    expect_uleb(b127, 1, 127, 1);
    /* 0x80 0x01: 0 | 1<<7 = 128 */
    static const uint8_t b128[] = {0x80, 0x01};
    expect_uleb(b128, 2, 128, 2);
    /* 0x81 0x01: 1 | 1<<7 = 129 */
    static const uint8_t b129[] = {0x81, 0x01};
    expect_uleb(b129, 2, 129, 2);
    /* e5 8e 26: 0x65 | 0x0e<<7 | 0x26<<14 = 101 + 1792 + 622592 = 624485 */
    static const uint8_t b624485[] = {0xe5, 0x8e, 0x26};
    expect_uleb(b624485, 3, 624485, 3);
    /* Only the first value is read: trailing bytes stay. */
    static const uint8_t two[] = {0x90, 0x01, 0x05};     /* 0x10 + 128 = 144, then 5 */
    expect_uleb(two, 3, 144, 2);
    /* Non-minimal but in range: 0x80 0x00 is 0 in two bytes. */
    static const uint8_t padded[] = {0x80, 0x00};
    expect_uleb(padded, 2, 0, 2);
}

static void test_uleb128_64bit_limits(void **state)
{
    (void)state;
    /* ff*9 01: 9*7 = 63 one-bits, then bit 63 -> all 64 bits set. */
    static const uint8_t max[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01};
    expect_uleb(max, sizeof max, UINT64_MAX, 10);
    /* 80*9 01: only bit 63. */
    static const uint8_t top[] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01};
    expect_uleb(top, sizeof top, 0x8000000000000000ULL, 10);
    /* ff*9 00: bits 0..62 -> 0x7fffffffffffffff. */
    static const uint8_t i64max[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00};
    expect_uleb(i64max, sizeof i64max, 0x7fffffffffffffffULL, 10);
    /* 9 bytes, ff*8 7f: 63 one-bits = 2^63 - 1. */
    static const uint8_t nine[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f};
    expect_uleb(nine, sizeof nine, 0x7fffffffffffffffULL, 9);
}

static void test_uleb128_truncated(void **state)
{
    (void)state;
    static const uint8_t cont[] = {0x80};
    expect_uleb_fail(cont, 1, 0);
    static const uint8_t mid[] = {0xe5, 0x8e};          /* 624485 missing its last byte */
    expect_uleb_fail(mid, 2, 0);
    expect_uleb_fail(mid, 0, 0);                        /* nothing at all */
    /* UINT64_MAX missing its 10th byte. */
    static const uint8_t nine[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    expect_uleb_fail(nine, sizeof nine, 0);
}

static void test_uleb128_overlong(void **state)
{
    (void)state;
    /* 10th byte 0x02: bit 64 would be set. */
    static const uint8_t bit64[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02};
    expect_uleb_fail(bit64, sizeof bit64, 1);
    /* 10th byte 0x7f: bits 63..69. */
    static const uint8_t bits7f[] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x7f};
    expect_uleb_fail(bits7f, sizeof bits7f, 1);
    /* 11 bytes: 10th byte continues (0x81), 11th 0x01. */
    static const uint8_t eleven[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x81,
                                     0x01};
    expect_uleb_fail(eleven, sizeof eleven, 1);
    /* 11 bytes of padding for the value 0: still rejected (more than 10 bytes). */
    static const uint8_t zero11[] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
                                     0x00};
    expect_uleb_fail(zero11, sizeof zero11, 1);
    /* 12 bytes. */
    static const uint8_t twelve[] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
                                     0x80, 0x00};
    expect_uleb_fail(twelve, sizeof twelve, 1);
}

/* ---- SLEB128 ------------------------------------------------------------- */

static void test_sleb128_values(void **state)
{
    (void)state;
    static const uint8_t b0[] = {0x00};
    expect_sleb(b0, 1, 0, 1);
    static const uint8_t b2[] = {0x02};
    expect_sleb(b2, 1, 2, 1);
    /* 0x7e: 126, bit 6 set -> 126 - 128 = -2 */
    static const uint8_t m2[] = {0x7e};
    expect_sleb(m2, 1, -2, 1);
    /* 0x7f -> -1 */
    static const uint8_t m1[] = {0x7f};
    expect_sleb(m1, 1, -1, 1);
    /* 0x3f -> 63 (bit 6 clear) ; 0x40 -> 64 - 128 = -64 */
    static const uint8_t p63[] = {0x3f};
    expect_sleb(p63, 1, 63, 1);
    static const uint8_t m64[] = {0x40};
    expect_sleb(m64, 1, -64, 1);
    /* ff 00: 0x7f | 0<<7 = 127 */
    static const uint8_t p127[] = {0xff, 0x00};
    expect_sleb(p127, 2, 127, 2);
    /* 81 7f: 1 | 0x7f<<7 = 0x3f81, bit 13 set -> 0x3f81 - 0x4000 = -127 */
    static const uint8_t m127[] = {0x81, 0x7f};
    expect_sleb(m127, 2, -127, 2);
    /* 80 7f: 0x3f80 - 0x4000 = -128 */
    static const uint8_t m128[] = {0x80, 0x7f};
    expect_sleb(m128, 2, -128, 2);
    /* 80 01: 128 */
    static const uint8_t p128[] = {0x80, 0x01};
    expect_sleb(p128, 2, 128, 2);
    /* c0 bb 78: 0x40 | 0x3b<<7 | 0x78<<14 = 64 + 7552 + 1966080 = 1973696;
     * bit 20 set -> 1973696 - 2^21 (2097152) = -123456 */
    static const uint8_t m123456[] = {0xc0, 0xbb, 0x78};
    expect_sleb(m123456, 3, -123456, 3);
}

static void test_sleb128_64bit_limits(void **state)
{
    (void)state;
    /* INT64_MIN: bits 0..62 zero (80*9), 10th byte: bit 63 and sign padding -> 0x7f. */
    static const uint8_t min[] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x7f};
    expect_sleb(min, sizeof min, INT64_MIN, 10);
    /* INT64_MAX: bits 0..62 one (ff*9), 10th byte 0x00. */
    static const uint8_t max[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00};
    expect_sleb(max, sizeof max, INT64_MAX, 10);
    /* -1 in ten bytes: ff*9 7f. */
    static const uint8_t m1[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f};
    expect_sleb(m1, sizeof m1, -1, 10);
    /* 9 bytes 80*8 40: bit 62 is the sign of a 63-bit group -> -2^62. */
    static const uint8_t m2p62[] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x40};
    expect_sleb(m2p62, sizeof m2p62, -(INT64_C(1) << 62), 9);
}

static void test_sleb128_truncated(void **state)
{
    (void)state;
    static const uint8_t cont[] = {0xff};
    expect_sleb_fail(cont, 1, 0);
    static const uint8_t two[] = {0x80, 0x80};
    expect_sleb_fail(two, 2, 0);
    expect_sleb_fail(two, 0, 0);
    /* INT64_MIN missing its 10th byte. */
    static const uint8_t nine[] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80};
    expect_sleb_fail(nine, sizeof nine, 0);
}

static void test_sleb128_overlong_tenth_byte(void **state)
{
    (void)state;
    /* 80*9 01: bit 63 set with positive padding -> +2^63, does not fit int64. */
    static const uint8_t pos63[] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01};
    expect_sleb_fail(pos63, sizeof pos63, 1);
    /* 10th byte 0x7e: bit 63 clear, bits 64..69 set -> not a sign extension. */
    static const uint8_t bad7e[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7e};
    expect_sleb_fail(bad7e, sizeof bad7e, 1);
    /* 10th byte 0x3f: bits 63..68 set, bit 69 (the sign) clear. */
    static const uint8_t bad3f[] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x3f};
    expect_sleb_fail(bad3f, sizeof bad3f, 1);
    /* 12 bytes of -1. */
    static const uint8_t twelve[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                     0xff, 0x7f};
    expect_sleb_fail(twelve, sizeof twelve, 1);
}

/* An encoding of 11 bytes is over-long whatever its value, as for ULEB128
 * (test_uleb128_overlong rejects 80*10 00). */
static void test_sleb128_eleven_bytes_rejected(void **state)
{
    (void)state;
    /* -1 as ff*10 7f: 11 bytes. */
    static const uint8_t m1[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f};
    expect_sleb_fail(m1, sizeof m1, 1);
    /* 0 as 80*10 00: 11 bytes. */
    static const uint8_t z[] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00};
    expect_sleb_fail(z, sizeof z, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_init_and_offsets),
        cmocka_unit_test(test_read_uint_sizes),
        cmocka_unit_test(test_read_uint_past_end),
        cmocka_unit_test(test_read_sint_sign_extension),
        cmocka_unit_test(test_uleb128_values),
        cmocka_unit_test(test_uleb128_64bit_limits),
        cmocka_unit_test(test_uleb128_truncated),
        cmocka_unit_test(test_uleb128_overlong),
        cmocka_unit_test(test_sleb128_values),
        cmocka_unit_test(test_sleb128_64bit_limits),
        cmocka_unit_test(test_sleb128_truncated),
        cmocka_unit_test(test_sleb128_overlong_tenth_byte),
        cmocka_unit_test(test_sleb128_eleven_bytes_rejected),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
/* SPDX-License-Identifier: Apache-2.0 */
