/* SPDX-License-Identifier: Apache-2.0 */
/*
 * eh_frame_write: .eh_frame and .eh_frame_hdr written at given addresses
 * (see the header).
 *
 * Sizes come first and from the specs alone: eh_frame_size validates every
 * spec and adds up the entries, the writer reserves that much at once and
 * then fills it, so that only a pointer's range (which depends on where it
 * is written) can fail while writing, and no allocation can.
 */
#include "eh_frame_write.h"

#include <stdlib.h>
#include <string.h>

#include "kit/byte_writer.h"
#include "semantics/dwarf_constants.h"

#define ADDR_SIZE 8                 /* x86_64: absptr's width */
#define ENTRY_ALIGN 4               /* entries' padding, as gas's (see entry_size) */
#define FDE_ENCODING (DW_EH_PE_pcrel | DW_EH_PE_sdata4)
#define ENTRY_MAX 0xfffffff0u       /* an entry's bytes, well below the 64-bit escape 0xffffffff */

static int fail(const char **why, const char *reason)
{
    *why = reason;
    return -1;
}

/* ---- sizes ---------------------------------------------------------------- */

/* The width of a pointer in encoding ENC (the indirect bit aside), or 0
 * when the writer does not support ENC (see the header for why). */
static unsigned pointer_width(uint8_t enc)
{
    unsigned app = enc & 0x70;
    if (app != DW_EH_PE_absptr && app != DW_EH_PE_pcrel)
        return 0;
    switch (enc & 0x0f) {
    case DW_EH_PE_absptr: return ADDR_SIZE;
    case DW_EH_PE_udata8:
    case DW_EH_PE_sdata8: return 8;
    case DW_EH_PE_udata4:
    case DW_EH_PE_sdata4: return 4;
    default: return 0;
    }
}

/* GCC's augmentation letters, in GCC's order (gas's output_cie). */
static void augmentation(const struct eh_cie_spec *c, char aug[6])
{
    char *p = aug;
    *p++ = 'z';
    if (c->personality_encoding != DW_EH_PE_omit)
        *p++ = 'P';
    if (c->lsda_encoding != DW_EH_PE_omit)
        *p++ = 'L';
    *p++ = 'R';
    if (c->signal_frame)
        *p++ = 'S';
    *p = '\0';
}

/* A CIE's augmentation data: 'P' (encoding, pointer), 'L' (encoding), 'R' (encoding). */
static size_t cie_aug_data_len(const struct eh_cie_spec *c)
{
    size_t n = 1;
    if (c->personality_encoding != DW_EH_PE_omit)
        n += 1 + pointer_width(c->personality_encoding);
    if (c->lsda_encoding != DW_EH_PE_omit)
        n += 1;
    return n;
}

/* An FDE's augmentation data: the LSDA pointer when its CIE says 'L'. */
static size_t fde_aug_data_len(const struct eh_cie_spec *c)
{
    return c->lsda_encoding != DW_EH_PE_omit ? pointer_width(c->lsda_encoding) : 0;
}

int eh_frame_write_entry_size(uint64_t head, size_t insns_len, unsigned align, uint64_t *size)
{
    if (insns_len > ENTRY_MAX)
        return -1;
    *size = (head + insns_len + align - 1) / align * align;
    return *size > ENTRY_MAX ? -1 : 0;
}

/* gas pads every .eh_frame entry to 4 (only an object's last FDE to 8,
 * which ld keeps inside the entry: libc's FDEs are 4 mod 8 as often as 0). */
static int entry_size(uint64_t head, size_t insns_len, uint64_t *size)
{
    return eh_frame_write_entry_size(head, insns_len, ENTRY_ALIGN, size);
}

static int cie_size(const struct eh_cie_spec *c, uint64_t *size, const char **why)
{
    uint8_t tmp[10];
    char aug[6];
    if (c->personality_encoding != DW_EH_PE_omit && !pointer_width(c->personality_encoding))
        return fail(why, "unsupported personality pointer encoding (not absptr, udata4/8 or sdata4/8, "
                         "absolute or pc-relative)");
    if (c->lsda_encoding != DW_EH_PE_omit && !pointer_width(c->lsda_encoding))
        return fail(why, "unsupported LSDA pointer encoding (not absptr, udata4/8 or sdata4/8, "
                         "absolute or pc-relative)");
    if (c->ra_column > 0xff)
        return fail(why, "return-address column past 255 (a version 1 CIE's one byte)");
    augmentation(c, aug);
    /* length, id, version, augmentation, alignments, ra column, data length (one byte: below 128) */
    uint64_t head = 4 + 4 + 1 + strlen(aug) + 1 + uleb128_encode(c->code_align, tmp) + sleb128_encode(c->data_align, tmp) + 1 + 1 +
                    cie_aug_data_len(c);
    if (entry_size(head, c->insns_len, size) != 0)
        return fail(why, "CIE too long for a 32-bit length");
    return 0;
}

static int fde_size(const struct eh_fde_spec *f, const struct eh_cie_spec *cies, size_t ncies, uint64_t *size,
                    const char **why)
{
    if (f->cie >= ncies)
        return fail(why, "FDE names a CIE that is not in the list");
    const struct eh_cie_spec *c = &cies[f->cie];
    if (f->lsda != 0 && c->lsda_encoding == DW_EH_PE_omit)
        return fail(why, "FDE has an LSDA but its CIE no LSDA encoding");
    /* pc_range is read in the format of the FDE encoding, sdata4: sign-extended */
    if (f->pc_range > INT32_MAX)
        return fail(why, "FDE range past 2 GiB (pc_range is sdata4)");
    /* length, CIE pointer, pc_begin, pc_range, augmentation data length, data */
    if (entry_size(4 + 4 + 4 + 4 + 1 + fde_aug_data_len(c), f->insns_len, size) != 0)
        return fail(why, "FDE too long for a 32-bit length");
    return 0;
}

int eh_frame_size(const struct eh_cie_spec *cies, size_t ncies, const struct eh_fde_spec *fdes, size_t nfdes,
                  uint64_t *size, const char **why)
{
    uint64_t total = 4, n;   /* the zero terminator */
    for (size_t i = 0; i < ncies + nfdes; i++) {
        int rc = i < ncies ? cie_size(&cies[i], &n, why) : fde_size(&fdes[i - ncies], cies, ncies, &n, why);
        if (rc != 0)
            return rc;
        total += n;
        /* CIE pointers are 32-bit distances within the section */
        if (total > UINT32_MAX)
            return fail(why, ".eh_frame past 4 GiB (32-bit CIE pointers)");
    }
    *size = total;
    return 0;
}

/* ---- bytes ---------------------------------------------------------------- */


static int fits_sdata4(uint64_t raw)
{
    int64_t s = (int64_t)raw;
    return s >= INT32_MIN && s <= INT32_MAX;
}

/* VALUE in encoding ENC (supported: pointer_width), relative to its own
 * field when ENC is pc-relative.  -1 when it does not fit the width. */
static int put_pointer(struct byte_writer *c, uint8_t enc, uint64_t value)
{
    uint64_t raw = (enc & 0x70) == DW_EH_PE_pcrel ? value - c->addr : value;
    unsigned width = pointer_width(enc);
    if (width == 4 && ((enc & 0x0f) == DW_EH_PE_sdata4 ? !fits_sdata4(raw) : raw > UINT32_MAX))
        return -1;
    byte_writer_le(c, raw, width);
    return 0;
}

/* DW_CFA_nop up to SIZE bytes from START: what GCC's alignment leaves. */
static void pad(struct byte_writer *c, const uint8_t *start, uint64_t size)
{
    byte_writer_fill(c, DW_CFA_nop, (size_t)size - (size_t)(c->p - start));
}

static int write_cie(struct byte_writer *c, const struct eh_cie_spec *s, uint64_t size, const char **why)
{
    char aug[6];
    uint8_t *start = c->p;
    augmentation(s, aug);
    byte_writer_le(c, size - 4, 4);
    byte_writer_le(c, 0, 4);              /* .eh_frame's CIE id */
    byte_writer_u8(c, 1);               /* version */
    byte_writer_put(c, aug, strlen(aug) + 1);
    byte_writer_uleb(c, s->code_align);
    byte_writer_sleb(c, s->data_align);
    byte_writer_u8(c, (uint8_t)s->ra_column);
    byte_writer_u8(c, (uint8_t)cie_aug_data_len(s));
    if (s->personality_encoding != DW_EH_PE_omit) {
        byte_writer_u8(c, s->personality_encoding);
        if (put_pointer(c, s->personality_encoding, s->personality) != 0)
            return fail(why, "personality pointer out of its encoding's range at this address");
    }
    if (s->lsda_encoding != DW_EH_PE_omit)
        byte_writer_u8(c, s->lsda_encoding);
    byte_writer_u8(c, FDE_ENCODING);
    byte_writer_put(c, s->insns, s->insns_len);
    pad(c, start, size);
    return 0;
}

static int write_fde(struct byte_writer *c, const struct eh_fde_spec *f, const struct eh_cie_spec *cie,
                     uint64_t cie_addr, uint64_t size, const char **why)
{
    uint8_t *start = c->p;
    byte_writer_le(c, size - 4, 4);
    byte_writer_le(c, c->addr - cie_addr, 4);   /* counts back from this very field */
    if (put_pointer(c, FDE_ENCODING, f->pc_begin) != 0)
        return fail(why, "pc_begin beyond +-2 GiB of its FDE (pcrel sdata4)");
    byte_writer_le(c, f->pc_range, 4);
    size_t lsda_width = fde_aug_data_len(cie);
    byte_writer_u8(c, (uint8_t)lsda_width);
    /* A zero field is "no LSDA" to libgcc, pc-relative or not (read_encoded_value_with_base). */
    if (lsda_width && f->lsda == 0)
        byte_writer_le(c, 0, (unsigned)lsda_width);
    else if (lsda_width && put_pointer(c, cie->lsda_encoding, f->lsda) != 0)
        return fail(why, "LSDA pointer out of its encoding's range at this address");
    byte_writer_put(c, f->insns, f->insns_len);
    pad(c, start, size);
    return 0;
}

/* Every entry at C, CIEs first so that every FDE's CIE pointer counts back;
 * sizes already validated by eh_frame_size. */
static int write_entries(struct byte_writer *c, const struct eh_cie_spec *cies, size_t ncies,
                         const struct eh_fde_spec *fdes, size_t nfdes, uint64_t *cie_addrs, uint64_t *fde_addrs,
                         const char **why)
{
    uint64_t size;
    for (size_t i = 0; i < ncies; i++) {
        cie_addrs[i] = c->addr;
        if (cie_size(&cies[i], &size, why) != 0 || write_cie(c, &cies[i], size, why) != 0)
            return -1;
    }
    for (size_t k = 0; k < nfdes; k++) {
        const struct eh_fde_spec *f = &fdes[k];
        if (fde_addrs)
            fde_addrs[k] = c->addr;
        if (fde_size(f, cies, ncies, &size, why) != 0 ||
            write_fde(c, f, &cies[f->cie], cie_addrs[f->cie], size, why) != 0)
            return -1;
    }
    byte_writer_le(c, 0, 4);   /* the terminator */
    return 0;
}

int eh_frame_write(const struct eh_cie_spec *cies, size_t ncies, const struct eh_fde_spec *fdes, size_t nfdes,
                   uint64_t addr, struct cfi_bytes *out, uint64_t *fde_addrs, const char **why)
{
    uint64_t total;
    if (eh_frame_size(cies, ncies, fdes, nfdes, &total, why) != 0)
        return -1;
    if (cfi_bytes_reserve(out, total) != 0)
        return -2;
    uint64_t *cie_addrs = malloc((ncies ? ncies : 1) * sizeof *cie_addrs);
    if (!cie_addrs)
        return -2;
    /* Written past out->n, which moves only on success: a failure keeps OUT's bytes. */
    struct byte_writer c;
    byte_writer_init(&c, out->b + out->n, (size_t)total, addr);
    int rc = write_entries(&c, cies, ncies, fdes, nfdes, cie_addrs, fde_addrs, why);
    free(cie_addrs);
    if (rc == 0 && (c.overflow || c.p != out->b + out->n + total))
        rc = fail(why, "internal error: .eh_frame's entries do not fill the size computed for them");
    if (rc == 0)
        out->n += (size_t)total;
    return rc;
}

/* ---- .eh_frame_hdr -------------------------------------------------------- */

uint64_t eh_frame_hdr_size(size_t n)
{
    return 12 + 8 * (uint64_t)n;
}

struct hdr_entry {
    uint64_t pc, fde;
};

static int by_pc(const void *a, const void *b)
{
    const struct hdr_entry *x = a, *y = b;
    if (x->pc != y->pc)
        return x->pc < y->pc ? -1 : 1;
    return x->fde < y->fde ? -1 : x->fde > y->fde;
}

/* The search table's pairs, datarel sdata4: offsets from the header. */
static int put_table(struct byte_writer *c, uint64_t hdr_addr, const struct hdr_entry *e, size_t n, const char **why)
{
    for (size_t i = 0; i < n; i++) {
        if (!fits_sdata4(e[i].pc - hdr_addr) || !fits_sdata4(e[i].fde - hdr_addr))
            return fail(why, "a pc_begin or an FDE beyond +-2 GiB of .eh_frame_hdr (datarel sdata4)");
        byte_writer_le(c, e[i].pc - hdr_addr, 4);
        byte_writer_le(c, e[i].fde - hdr_addr, 4);
    }
    return 0;
}

int eh_frame_hdr_write(uint64_t hdr_addr, uint64_t eh_frame_addr, const uint64_t *pc_begins,
                       const uint64_t *fde_addrs, size_t n, struct cfi_bytes *out, const char **why)
{
    if ((uint64_t)n > UINT32_MAX)
        return fail(why, "more FDEs than fde_count (udata4) holds");
    uint64_t size = eh_frame_hdr_size(n);
    if (cfi_bytes_reserve(out, size) != 0)
        return -2;
    struct hdr_entry *e = malloc((n ? n : 1) * sizeof *e);
    if (!e)
        return -2;
    for (size_t i = 0; i < n; i++)
        e[i] = (struct hdr_entry){pc_begins[i], fde_addrs[i]};
    qsort(e, n, sizeof *e, by_pc);   /* the readers search it by bisection */
    struct byte_writer c;
    byte_writer_init(&c, out->b + out->n, (size_t)size, hdr_addr);
    const uint8_t head[4] = {1, DW_EH_PE_pcrel | DW_EH_PE_sdata4, DW_EH_PE_udata4, DW_EH_PE_datarel | DW_EH_PE_sdata4};
    byte_writer_put(&c, head, sizeof head);
    int rc = 0;
    if (put_pointer(&c, DW_EH_PE_pcrel | DW_EH_PE_sdata4, eh_frame_addr) != 0)
        rc = fail(why, ".eh_frame beyond +-2 GiB of .eh_frame_hdr (pcrel sdata4)");
    else {
        byte_writer_le(&c, n, 4);
        rc = put_table(&c, hdr_addr, e, n, why);
    }
    if (rc == 0 && (c.overflow || c.p != out->b + out->n + size))
        rc = fail(why, "internal error: .eh_frame_hdr does not fill the size computed for it");
    free(e);
    if (rc == 0)
        out->n += (size_t)size;
    return rc;
}
