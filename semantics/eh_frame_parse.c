/* SPDX-License-Identifier: Apache-2.0 */
/*
 * eh_frame_parse: entries of .eh_frame/.debug_frame and .eh_frame_hdr's
 * search table (see the header).
 */
#include "eh_frame_parse.h"

#include <string.h>

#include "kit/sorted_search.h"
#include "byte_reader.h"
#include "dwarf_constants.h"
#include "eh_pointer.h"

/* A reader over the view's [FROM, TO); pointers it decodes are at their run-time address. */
static void reader_over(struct byte_reader *r, const struct frame_view *v, uint64_t from, uint64_t to)
{
    byte_reader_init(r, v->bytes + from, (size_t)(to - from));
}

static uint64_t reader_addr(const struct frame_view *v, const struct byte_reader *r)
{
    return v->addr + (uint64_t)(r->start - v->bytes);
}

static int fail(const char **why, const char *reason)
{
    *why = reason;
    return -1;
}

int eh_frame_entry_read(const struct frame_view *v, uint64_t off, struct frame_entry *e, const char **why)
{
    struct byte_reader r;
    uint64_t length;
    if (off >= v->size)
        return fail(why, "entry starts past the end of the section");
    reader_over(&r, v, off, v->size);
    memset(e, 0, sizeof *e);
    e->offset = off;
    if (read_uint(&r, 4, &length) != 0)
        return fail(why, "length field runs past the end of the section");
    if (length == 0xffffffffu) {
        if (read_uint(&r, 8, &length) != 0)
            return fail(why, "64-bit length field runs past the end of the section");
        e->dwarf64 = 1;
    }
    e->length = length;
    if (length > byte_reader_left(&r))
        return fail(why, "entry runs past the end of the section");
    uint64_t content = off + (uint64_t)byte_reader_offset(&r);
    e->end = content + length;
    if (length == 0) {
        e->kind = FRAME_ENTRY_ZERO;
        e->body = e->end;
        return 0;
    }
    unsigned id_size = e->dwarf64 ? 8 : 4;
    if (read_uint(&r, id_size, &e->id) != 0 || length < id_size)
        return fail(why, "entry too short for its CIE id or CIE pointer");
    e->body = content + id_size;
    uint64_t cie_id = v->is_eh_frame ? 0 : e->dwarf64 ? UINT64_MAX : 0xffffffffu;
    e->kind = e->id == cie_id ? FRAME_ENTRY_CIE : FRAME_ENTRY_FDE;
    return 0;
}

int eh_frame_fde_cie_offset(const struct frame_view *v, const struct frame_entry *fde, uint64_t *cie_offset,
                            const char **why)
{
    uint64_t off;
    if (v->is_eh_frame) {
        /* The pointer counts back from its own field. */
        uint64_t field = fde->body - (fde->dwarf64 ? 8 : 4);
        if (fde->id > field)
            return fail(why, "CIE pointer points before the section");
        off = field - fde->id;
    } else {
        off = fde->id;
    }
    if (off >= v->size)
        return fail(why, "CIE pointer points past the section");
    *cie_offset = off;
    return 0;
}

/* The augmentation string at the reader: NUL-terminated inside the entry. */
static int read_augmentation(struct byte_reader *r, const char **aug, size_t *len)
{
    size_t n = strnlen((const char *)r->cur, byte_reader_left(r));
    if (n == byte_reader_left(r))
        return byte_reader_fail(r, "augmentation string runs past the entry");
    *aug = (const char *)r->cur;
    *len = n;
    r->cur += n + 1;
    return 0;
}

/* The personality pointer of a 'P' augmentation: its encoding, then the
 * pointer, pc-relative applied, any other application kept as written. */
static int read_personality(const struct frame_view *v, struct byte_reader *r, struct eh_frame_cie *cie)
{
    uint64_t enc, value;
    if (read_uint(r, 1, &enc) != 0)
        return -1;
    if ((enc & 0x70) == DW_EH_PE_aligned || enc == DW_EH_PE_omit)
        return byte_reader_fail(r, "unsupported personality pointer encoding");
    uint64_t field = reader_addr(v, r) + byte_reader_offset(r);
    if (read_eh_pointer(r, (uint8_t)(enc & 0x0f), 0, cie->addr_size, &value) != 0)
        return -1;
    if ((enc & 0x70) == DW_EH_PE_pcrel)
        value += field;
    cie->personality_encoding = (uint8_t)enc;
    cie->personality = value;
    return 0;
}

/* Augmentation letters after the string's 'z' (or all of them without 'z'). */
static int read_augmentation_data(const struct frame_view *v, struct byte_reader *r, const char *aug,
                                  size_t aug_len, struct eh_frame_cie *cie)
{
    const uint8_t *data_end = NULL;
    uint64_t v64 = 0;
    size_t i = 0;
    if (aug_len > 0 && aug[0] == 'z') {
        if (read_uleb128(r, &v64) != 0)
            return -1;
        if (v64 > byte_reader_left(r))
            return byte_reader_fail(r, "augmentation data runs past the entry");
        cie->has_z = 1;
        data_end = r->cur + v64;
        i = 1;
    }
    for (; i < aug_len; i++) {
        struct byte_reader within = *r;
        if (data_end)
            within.end = data_end;
        int rc = 0;
        switch (aug[i]) {
        case 'R': rc = read_uint(&within, 1, &v64); cie->fde_encoding = (uint8_t)v64; break;
        case 'L': rc = read_uint(&within, 1, &v64); cie->lsda_encoding = (uint8_t)v64; break;
        case 'P': rc = read_personality(v, &within, cie); break;
        case 'S': cie->signal_frame = 1; break;
        default:
            if (!data_end)
                return byte_reader_fail(r, "unknown augmentation without 'z'");
            i = aug_len;   /* 'z' says where the data ends: the rest is skipped */
            continue;
        }
        if (rc != 0)
            return byte_reader_fail(r, within.error ? within.error : "augmentation data too short");
        r->cur = within.cur;
    }
    if (data_end)
        r->cur = data_end;
    return 0;
}

int eh_frame_cie_parse(const struct frame_view *v, const struct frame_entry *e, struct eh_frame_cie *cie,
                       const char **why)
{
    struct byte_reader r;
    uint64_t version, ra, size;
    const char *aug;
    size_t aug_len;
    if (e->kind != FRAME_ENTRY_CIE)
        return fail(why, "not a CIE");
    memset(cie, 0, sizeof *cie);
    cie->offset = e->offset;
    cie->length = e->length;
    cie->dwarf64 = e->dwarf64;
    cie->id = e->id;
    cie->addr_size = 8;
    cie->fde_encoding = DW_EH_PE_absptr;
    cie->lsda_encoding = DW_EH_PE_omit;
    cie->personality_encoding = DW_EH_PE_omit;
    reader_over(&r, v, e->body, e->end);
    if (read_uint(&r, 1, &version) != 0)
        return fail(why, "CIE without a version");
    if (version != 1 && version != 3 && version != 4)
        return fail(why, "unsupported CIE version");
    cie->version = (uint8_t)version;
    if (read_augmentation(&r, &aug, &aug_len) != 0)
        return fail(why, r.error);
    cie->augmentation = aug;
    if (version == 4) {
        uint64_t segment;
        if (read_uint(&r, 1, &size) != 0 || read_uint(&r, 1, &segment) != 0)
            return fail(why, "CIE's address and segment sizes run past the entry");
        if ((size != 4 && size != 8) || segment != 0)
            return fail(why, "unsupported address or segment selector size");
        cie->addr_size = (unsigned)size;
    }
    if (read_uleb128(&r, &cie->code_align) != 0 || read_sleb128(&r, &cie->data_align) != 0 ||
        (version == 1 ? read_uint(&r, 1, &ra) : read_uleb128(&r, &ra)) != 0)
        return fail(why, r.error);
    if (ra > 0xffff)
        return fail(why, "return-address column out of range");
    cie->ra_column = (unsigned)ra;
    if (read_augmentation_data(v, &r, aug, aug_len, cie) != 0)
        return fail(why, r.error);
    cie->insns = r.cur;
    cie->insns_len = byte_reader_left(&r);
    return 0;
}

int eh_frame_fde_parse(const struct frame_view *v, const struct frame_entry *e, const struct eh_frame_cie *cie,
                       struct eh_frame_fde *fde, const char **why)
{
    struct byte_reader r;
    if (e->kind != FRAME_ENTRY_FDE)
        return fail(why, "not an FDE");
    memset(fde, 0, sizeof *fde);
    fde->offset = e->offset;
    fde->length = e->length;
    fde->dwarf64 = e->dwarf64;
    fde->cie_pointer = e->id;
    fde->cie = cie;
    reader_over(&r, v, e->body, e->end);
    uint64_t start = reader_addr(v, &r);
    if (read_eh_pointer(&r, cie->fde_encoding, start, cie->addr_size, &fde->pc_begin) != 0 ||
        read_eh_pointer(&r, cie->fde_encoding & 0x0f, 0, cie->addr_size, &fde->pc_range) != 0)
        return fail(why, r.error);
    if (cie->has_z) {
        uint64_t len;
        if (read_uleb128(&r, &len) != 0)
            return fail(why, r.error);
        if (len > byte_reader_left(&r))
            return fail(why, "augmentation data runs past the entry");
        if (cie->lsda_encoding != DW_EH_PE_omit && len > 0) {
            /* An unreadable LSDA pointer only loses landing pads: not fatal. */
            struct byte_reader data;
            byte_reader_init(&data, r.cur, (size_t)len);
            uint64_t lsda;
            if (read_eh_pointer(&data, cie->lsda_encoding, reader_addr(v, &r) + byte_reader_offset(&r),
                                cie->addr_size, &lsda) == 0)
                fde->lsda = lsda;
        }
        r.cur += len;
    }
    fde->insns = r.cur;
    fde->insns_len = byte_reader_left(&r);
    return 0;
}

/* ---- .eh_frame_hdr ---------------------------------------------------- */

int eh_frame_hdr_parse(const uint8_t *bytes, uint64_t size, uint64_t addr, struct eh_frame_hdr *hdr,
                       const char **why)
{
    struct byte_reader r;
    uint64_t version, ptr_enc, count_enc, table_enc;
    byte_reader_init(&r, bytes, (size_t)size);
    memset(hdr, 0, sizeof *hdr);
    hdr->addr = addr;
    if (read_uint(&r, 1, &version) != 0 || read_uint(&r, 1, &ptr_enc) != 0 ||
        read_uint(&r, 1, &count_enc) != 0 || read_uint(&r, 1, &table_enc) != 0)
        return fail(why, ".eh_frame_hdr shorter than its header");
    if (version != 1)
        return fail(why, "unsupported .eh_frame_hdr version");
    if (read_eh_pointer(&r, (uint8_t)ptr_enc, addr, 8, &hdr->eh_frame) != 0)
        return fail(why, r.error);
    if (count_enc == DW_EH_PE_omit || table_enc != (DW_EH_PE_datarel | DW_EH_PE_sdata4))
        return 0;   /* no table a search can use */
    uint64_t count;
    if (read_eh_pointer(&r, (uint8_t)count_enc, addr, 8, &count) != 0)
        return fail(why, r.error);
    if (count > byte_reader_left(&r) / 8)
        return fail(why, ".eh_frame_hdr's search table runs past its end");
    hdr->count = count;
    hdr->table = r.cur;
    return 0;
}

static int64_t table_field(const struct eh_frame_hdr *hdr, uint64_t i, unsigned which)
{
    int32_t v;
    memcpy(&v, hdr->table + i * 8 + which * 4, 4);
    return v;
}

static uint64_t hdr_start_key(const void *hdr, size_t i)
{
    const struct eh_frame_hdr *h = hdr;
    return h->addr + (uint64_t)table_field(h, i, 0);
}

int eh_frame_hdr_lookup(const struct eh_frame_hdr *hdr, uint64_t pc, uint64_t *fde_addr,
                        uint64_t *initial_location)
{
    if (hdr->count == 0 || hdr->addr + (uint64_t)table_field(hdr, 0, 0) > pc)
        return -1;
    /* the last entry starting at or before pc (the first one does) */
    size_t lo = sorted_count_at_most(hdr, hdr->count, hdr_start_key, pc) - 1;
    *initial_location = hdr->addr + (uint64_t)table_field(hdr, lo, 0);
    *fde_addr = hdr->addr + (uint64_t)table_field(hdr, lo, 1);
    return 0;
}

int eh_frame_find_fde_in_memory(const uint8_t *start, const uint8_t *hdr_bytes, const uint8_t *limit, uint64_t pc,
                                struct eh_frame_cie *cie, struct eh_frame_fde *fde)
{
    struct eh_frame_hdr hdr;
    const char *why;
    uint64_t fde_addr, initial, cie_off;
    if (hdr_bytes < start || hdr_bytes >= limit ||
        eh_frame_hdr_parse(hdr_bytes, (uint64_t)(limit - hdr_bytes), (uint64_t)(uintptr_t)hdr_bytes, &hdr,
                           &why) != 0 ||
        eh_frame_hdr_lookup(&hdr, pc, &fde_addr, &initial) != 0)
        return FRAME_NOT_COVERED;
    const uint8_t *section = (const uint8_t *)(uintptr_t)hdr.eh_frame;
    if (section < start || section >= limit || fde_addr < hdr.eh_frame)
        return FRAME_NOT_COVERED;
    struct frame_view v = {section, (uint64_t)(limit - section), hdr.eh_frame, 1};
    struct frame_entry fde_entry, cie_entry;
    if (eh_frame_entry_read(&v, fde_addr - hdr.eh_frame, &fde_entry, &why) != 0 ||
        fde_entry.kind != FRAME_ENTRY_FDE)
        return FRAME_NOT_COVERED;
    if (eh_frame_fde_cie_offset(&v, &fde_entry, &cie_off, &why) != 0 ||
        eh_frame_entry_read(&v, cie_off, &cie_entry, &why) != 0 || eh_frame_cie_parse(&v, &cie_entry, cie, &why) != 0 ||
        eh_frame_fde_parse(&v, &fde_entry, cie, fde, &why) != 0)
        return FRAME_MALFORMED;
    if (pc < fde->pc_begin || pc - fde->pc_begin >= fde->pc_range)
        return FRAME_NOT_COVERED;
    return FRAME_FOUND;
}
