/* SPDX-License-Identifier: Apache-2.0 */
/*
 * byte_writer: little-endian words and LEB128 values written into room
 * reserved before, the twin of semantics/byte_reader.h (here, below every
 * stage, so that object/'s ELF writers use it too).
 *
 * A writer covers [p, end) of a buffer that is the caller's, and knows
 * the run-time address of its next byte (for pc-relative fields).  The
 * section writers compute each entry's size first, reserve it, then write:
 * a write that would pass END writes nothing more and sets `overflow`, so
 * a size computed wrong is an error the caller sees, never a write past
 * the room.  le_store and the LEB128 encoders are the primitives, for
 * writers that place fields at offsets of their own.  Header only.
 */
#ifndef DWCHECK_KIT_BYTE_WRITER_H
#define DWCHECK_KIT_BYTE_WRITER_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* V little-endian (x86_64's order) in the WIDTH bytes at P. */
static inline void le_store(uint8_t *p, uint64_t v, unsigned width)
{
    for (unsigned i = 0; i < width; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* V as ULEB128 into B; returns its length (1 to 10). */
static inline size_t uleb128_encode(uint64_t v, uint8_t b[10])
{
    size_t n = 0;
    do {
        b[n] = v & 0x7f;
        v >>= 7;
        b[n++] |= v ? 0x80 : 0;
    } while (v);
    return n;
}

/* V as SLEB128 into B; returns its length (1 to 10). */
static inline size_t sleb128_encode(int64_t v, uint8_t b[10])
{
    size_t n = 0;
    for (;;) {
        uint8_t byte = v & 0x7f;
        v >>= 7;   /* arithmetic: gcc and clang shift signed values so */
        int done = (v == 0 && !(byte & 0x40)) || (v == -1 && (byte & 0x40));
        b[n++] = done ? byte : byte | 0x80;
        if (done)
            return n;
    }
}

struct byte_writer {
    uint8_t *p, *end;   /* the next byte, the end of the room */
    uint64_t addr;      /* the next byte's run-time address */
    int overflow;       /* a write did not fit: it and the later ones wrote nothing */
};

/* A writer over the N bytes at P, whose first byte will be at ADDR. */
static inline void byte_writer_init(struct byte_writer *w, uint8_t *p, size_t n, uint64_t addr)
{
    w->p = p;
    w->end = p + n;
    w->addr = addr;
    w->overflow = 0;
}

static inline int byte_writer_room(struct byte_writer *w, size_t n)
{
    if (w->overflow || (size_t)(w->end - w->p) < n)
        w->overflow = 1;
    return !w->overflow;
}

static inline void byte_writer_put(struct byte_writer *w, const void *bytes, size_t n)
{
    if (!byte_writer_room(w, n))
        return;
    if (n)
        memcpy(w->p, bytes, n);
    w->p += n;
    w->addr += n;
}

static inline void byte_writer_u8(struct byte_writer *w, uint8_t v)
{
    byte_writer_put(w, &v, 1);
}

/* V little-endian in WIDTH bytes (1 to 8). */
static inline void byte_writer_le(struct byte_writer *w, uint64_t v, unsigned width)
{
    uint8_t b[8];
    le_store(b, v, width);
    byte_writer_put(w, b, width);
}

static inline void byte_writer_uleb(struct byte_writer *w, uint64_t v)
{
    uint8_t b[10];
    byte_writer_put(w, b, uleb128_encode(v, b));
}

static inline void byte_writer_sleb(struct byte_writer *w, int64_t v)
{
    uint8_t b[10];
    byte_writer_put(w, b, sleb128_encode(v, b));
}

/* N bytes of V. */
static inline void byte_writer_fill(struct byte_writer *w, uint8_t v, size_t n)
{
    if (!byte_writer_room(w, n))
        return;
    memset(w->p, v, n);
    w->p += n;
    w->addr += n;
}

#endif
