/* SPDX-License-Identifier: Apache-2.0 */
/*
 * byte_reader: bounds-checked little-endian reads over a byte range.
 *
 * Every read either succeeds and advances the cursor, or fails (returns -1),
 * leaves the cursor where it was, and sets `error` to a static reason.  The
 * reader never allocates and never reads outside [cur, end), so it is safe
 * on hostile input; the CFA-program evaluator and the expression decoder are
 * built on it.  LEB128 values that do not fit 64 bits are rejected as
 * over-long rather than silently truncated.
 */
#ifndef DWCHECK_BYTE_READER_H
#define DWCHECK_BYTE_READER_H

#include <stddef.h>
#include <stdint.h>

struct byte_reader {
    const uint8_t *start;   /* for offsets in messages */
    const uint8_t *cur;
    const uint8_t *end;
    const char *error;      /* static string, set by the first failed read */
};

static inline void byte_reader_init(struct byte_reader *r, const uint8_t *p, size_t n)
{
    r->start = p;
    r->cur = p;
    r->end = p + n;
    r->error = NULL;
}

static inline size_t byte_reader_left(const struct byte_reader *r)
{
    return (size_t)(r->end - r->cur);
}

static inline size_t byte_reader_offset(const struct byte_reader *r)
{
    return (size_t)(r->cur - r->start);
}

static inline int byte_reader_fail(struct byte_reader *r, const char *why)
{
    if (!r->error)
        r->error = why;
    return -1;
}

/* Unsigned little-endian integer of SIZE bytes (1, 2, 4 or 8). */
static inline int read_uint(struct byte_reader *r, unsigned size, uint64_t *out)
{
    if (byte_reader_left(r) < size)
        return byte_reader_fail(r, "operand runs past the end of the data");
    uint64_t v = 0;
    for (unsigned i = 0; i < size; i++)
        v |= (uint64_t)r->cur[i] << (8 * i);
    r->cur += size;
    *out = v;
    return 0;
}

/* Signed little-endian integer of SIZE bytes, sign-extended. */
static inline int read_sint(struct byte_reader *r, unsigned size, int64_t *out)
{
    uint64_t v;
    if (read_uint(r, size, &v) != 0)
        return -1;
    if (size < 8 && (v >> (8 * size - 1)) & 1)
        v |= ~(uint64_t)0 << (8 * size);
    *out = (int64_t)v;
    return 0;
}

static inline int read_uleb128(struct byte_reader *r, uint64_t *out)
{
    const uint8_t *p = r->cur;
    uint64_t v = 0;
    unsigned shift = 0;
    for (;;) {
        if (p >= r->end)
            return byte_reader_fail(r, "LEB128 value runs past the end of the data");
        uint8_t b = *p++;
        uint64_t bits = b & 0x7f;
        if (shift >= 64 ? bits != 0 : shift > 57 && (bits >> (64 - shift)) != 0)
            return byte_reader_fail(r, "over-long LEB128 value");
        if (shift < 64)
            v |= bits << shift;
        shift += 7;
        if (!(b & 0x80))
            break;
        if (shift >= 70)
            return byte_reader_fail(r, "over-long LEB128 value");
    }
    r->cur = p;
    *out = v;
    return 0;
}

static inline int read_sleb128(struct byte_reader *r, int64_t *out)
{
    const uint8_t *p = r->cur;
    uint64_t v = 0;
    unsigned shift = 0;
    uint8_t b;
    do {
        if (p >= r->end)
            return byte_reader_fail(r, "LEB128 value runs past the end of the data");
        if (shift >= 70)   /* an 11th byte */
            return byte_reader_fail(r, "over-long LEB128 value");
        b = *p++;
        /* The 10th byte holds bit 63; its other bits must repeat the sign. */
        if (shift == 63 && (b & 0x7e) != ((b & 1) ? 0x7e : 0))
            return byte_reader_fail(r, "over-long LEB128 value");
        v |= (uint64_t)(b & 0x7f) << shift;
        shift += 7;
    } while (b & 0x80);
    if (shift < 64 && (b & 0x40))
        v |= ~(uint64_t)0 << shift;
    r->cur = p;
    *out = (int64_t)v;
    return 0;
}

#endif
