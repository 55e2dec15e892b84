/* SPDX-License-Identifier: Apache-2.0 */
/*
 * identity: which build of an object an eh_elf was compiled from.
 *
 * An object's identity is its GNU build-id note, or, for an object without
 * one, a 64-bit FNV-1a hash of its .eh_frame_hdr (which moves with every
 * change of the code's layout).  dwcompile writes the identity of its input
 * into the eh_elf; the runtime computes it from the loaded object's program
 * headers and ignores an eh_elf whose identity differs (a stale file would
 * unwind with another build's rows).
 *
 * The model and its reading from bytes (dwu_identity_*, dwu_fnv1a) are
 * part of the runtime's ABI (an eh_elf holds an identity's bytes), so they
 * live here, header-only and pure — bytes in, no allocation, no library —
 * because the runtime links only libc and libdl, and the tools include the
 * same functions so that they compute exactly what the runtime does.
 * identity_of_file, the same reading on an elf_file (libelf), is the tools'
 * (object/identity.h).  Nothing here owns memory: an identity is a value.
 */
#ifndef DWUNWIND_IDENTITY_H
#define DWUNWIND_IDENTITY_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define DWU_IDENTITY_MAX 64
enum { DWU_IDENTITY_NONE = 0, DWU_IDENTITY_BUILD_ID = 1, DWU_IDENTITY_HDR_HASH = 2 };

struct dwu_identity {
    uint8_t kind;                      /* DWU_IDENTITY_* */
    uint8_t len;
    uint8_t bytes[DWU_IDENTITY_MAX];
};

/* The build-id among the ELF notes in [NOTES, NOTES + SIZE); 0 if found. */
static inline int dwu_identity_from_notes(const uint8_t *notes, size_t size, struct dwu_identity *id)
{
    size_t at = 0;
    while (size - at >= 12 && at <= size) {
        uint32_t namesz, descsz, type;
        memcpy(&namesz, notes + at, 4);
        memcpy(&descsz, notes + at + 4, 4);
        memcpy(&type, notes + at + 8, 4);
        size_t name_at = at + 12, desc_at = name_at + ((namesz + 3u) & ~3u);
        if (namesz > size || descsz > size || desc_at > size || descsz > size - desc_at)
            return -1;
        if (type == 3 && namesz == 4 && memcmp(notes + name_at, "GNU", 4) == 0 && descsz > 0 &&
            descsz <= DWU_IDENTITY_MAX) {
            id->kind = DWU_IDENTITY_BUILD_ID;
            id->len = (uint8_t)descsz;
            memcpy(id->bytes, notes + desc_at, descsz);
            return 0;
        }
        at = desc_at + ((descsz + 3u) & ~3u);
    }
    return -1;
}

/* 64-bit FNV-1a of N bytes at P, going on from the hash H of those before. */
#define DWU_FNV1A_BASIS 1469598103934665603ull
static inline uint64_t dwu_fnv1a_more(uint64_t h, const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

/* 64-bit FNV-1a of N bytes at P. */
static inline uint64_t dwu_fnv1a(const void *p, size_t n)
{
    return dwu_fnv1a_more(DWU_FNV1A_BASIS, p, n);
}

static inline void dwu_identity_from_hdr(const uint8_t *hdr, size_t size, struct dwu_identity *id)
{
    uint64_t h = dwu_fnv1a(hdr, size);
    id->kind = DWU_IDENTITY_HDR_HASH;
    id->len = 8;
    memcpy(id->bytes, &h, 8);
}

static inline int dwu_identity_equal(const struct dwu_identity *a, const uint8_t *b)
{
    return a->kind == b[0] && a->len == b[1] && memcmp(a->bytes, b + 2, a->len) == 0;
}

#endif
