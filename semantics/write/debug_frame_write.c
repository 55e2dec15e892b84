/* SPDX-License-Identifier: Apache-2.0 */
/*
 * debug_frame_write: .debug_frame from eh_frame_write's specs (see the
 * header).
 *
 * As in eh_frame_write, sizes come first and from the specs alone:
 * debug_frame_size validates every spec and adds up the entries, the
 * writer reserves that much at once and fills it.  Nothing depends on an
 * address here, so nothing can fail once the room is there.
 */
#include "debug_frame_write.h"

#include <stdlib.h>
#include <string.h>

#include "kit/byte_writer.h"
#include "semantics/dwarf_constants.h"

#define ADDR_SIZE 8                 /* x86_64: initial location and range */
#define ENTRY_ALIGN ADDR_SIZE       /* gas aligns .debug_frame entries to the address size */
#define CIE_ID 0xffffffffu          /* .debug_frame's 32-bit CIE id */
#define FDE_HEAD (4 + 4 + ADDR_SIZE + ADDR_SIZE)   /* length, CIE pointer, location, range */

static int fail(const char **why, const char *reason)
{
    *why = reason;
    return -1;
}

/* ---- sizes ---------------------------------------------------------------- */

/* gas's augmentation in .debug_frame: "S" for a signal frame, else "". */
static const char *augmentation(const struct eh_cie_spec *c)
{
    return c->signal_frame ? "S" : "";
}

/* An entry padded as gas pads .debug_frame's, to the address size. */
static int entry_size(uint64_t head, size_t insns_len, uint64_t *size)
{
    return eh_frame_write_entry_size(head, insns_len, ENTRY_ALIGN, size);
}

static int cie_size(const struct eh_cie_spec *c, uint64_t *size, const char **why)
{
    uint8_t tmp[10];
    if (c->ra_column > 0xff)
        return fail(why, "return-address column past 255 (a version 1 CIE's one byte)");
    /* length, id, version, augmentation and its NUL, alignments, ra column */
    uint64_t head = 4 + 4 + 1 + strlen(augmentation(c)) + 1 + uleb128_encode(c->code_align, tmp) +
                    sleb128_encode(c->data_align, tmp) + 1;
    if (entry_size(head, c->insns_len, size) != 0)
        return fail(why, "CIE too long for a 32-bit length");
    return 0;
}

static int fde_size(const struct eh_fde_spec *f, size_t ncies, uint64_t *size, const char **why)
{
    if (f->cie >= ncies)
        return fail(why, "FDE names a CIE that is not in the list");
    if (entry_size(FDE_HEAD, f->insns_len, size) != 0)
        return fail(why, "FDE too long for a 32-bit length");
    return 0;
}

int debug_frame_size(const struct eh_cie_spec *cies, size_t ncies, const struct eh_fde_spec *fdes, size_t nfdes,
                     uint64_t *size, const char **why)
{
    uint64_t total = 0, n;
    for (size_t i = 0; i < ncies + nfdes; i++) {
        int rc = i < ncies ? cie_size(&cies[i], &n, why) : fde_size(&fdes[i - ncies], ncies, &n, why);
        if (rc != 0)
            return rc;
        total += n;
        /* CIE pointers are 32-bit section offsets */
        if (total > UINT32_MAX)
            return fail(why, ".debug_frame past 4 GiB (32-bit CIE pointers)");
    }
    *size = total;
    return 0;
}

/* ---- bytes ---------------------------------------------------------------- */


/* DW_CFA_nop to the end of the SIZE bytes at START. */
static void pad(struct byte_writer *w, const uint8_t *start, uint64_t size)
{
    byte_writer_fill(w, DW_CFA_nop, (size_t)size - (size_t)(w->p - start));
}

static void write_cie(struct byte_writer *w, const struct eh_cie_spec *c, uint64_t size)
{
    const uint8_t *start = w->p;
    const char *aug = augmentation(c);
    byte_writer_le(w, size - 4, 4);
    byte_writer_le(w, CIE_ID, 4);
    byte_writer_u8(w, 1);         /* version */
    byte_writer_put(w, aug, strlen(aug) + 1);
    byte_writer_uleb(w, c->code_align);
    byte_writer_sleb(w, c->data_align);
    byte_writer_u8(w, (uint8_t)c->ra_column);
    byte_writer_put(w, c->insns, c->insns_len);
    pad(w, start, size);
}

static void write_fde(struct byte_writer *w, const struct eh_fde_spec *f, uint64_t cie_offset, uint64_t size)
{
    const uint8_t *start = w->p;
    byte_writer_le(w, size - 4, 4);
    byte_writer_le(w, cie_offset, 4);   /* from the start of the section */
    byte_writer_le(w, f->pc_begin, ADDR_SIZE);
    byte_writer_le(w, f->pc_range, ADDR_SIZE);
    byte_writer_put(w, f->insns, f->insns_len);
    pad(w, start, size);
}

int debug_frame_write(const struct eh_cie_spec *cies, size_t ncies, const struct eh_fde_spec *fdes, size_t nfdes,
                      struct cfi_bytes *out, const char **why)
{
    uint64_t total, size;
    if (debug_frame_size(cies, ncies, fdes, nfdes, &total, why) != 0)
        return -1;
    if (cfi_bytes_reserve(out, total) != 0)
        return -2;
    uint64_t *cie_offsets = malloc((ncies ? ncies : 1) * sizeof *cie_offsets);
    if (!cie_offsets)
        return -2;
    /* Sizes are validated: every entry is written.  out->n moves last. */
    struct byte_writer w;
    byte_writer_init(&w, out->b + out->n, (size_t)total, 0);
    for (size_t i = 0; i < ncies; i++) {
        cie_offsets[i] = w.addr;   /* from the start of the section */
        cie_size(&cies[i], &size, why);
        write_cie(&w, &cies[i], size);
    }
    for (size_t k = 0; k < nfdes; k++) {
        fde_size(&fdes[k], ncies, &size, why);
        write_fde(&w, &fdes[k], cie_offsets[fdes[k].cie], size);
    }
    free(cie_offsets);
    if (w.overflow || w.addr != total) {
        *why = "internal error: .debug_frame's entries do not fill the size computed for them";
        return -1;
    }
    out->n += (size_t)total;
    return 0;
}
