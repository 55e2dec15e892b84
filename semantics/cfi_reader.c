/*
 * cfi_reader: enumerate CIEs and FDEs with libdwarf.
 */
#include "cfi_reader.h"

#include <libdwarf/dwarf.h>
#include <libdwarf/libdwarf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eh_pointer.h"
#include "object/code_bounds.h"
#include "object/error.h"

static int dwarf_fail(Dwarf_Debug dbg, Dwarf_Error derr, char *err, size_t errlen,
                      const char *what)
{
    error_set(err, errlen, "%s: %s", what, derr ? dwarf_errmsg(derr) : "libdwarf error");
    if (derr)
        dwarf_dealloc(dbg, derr, DW_DLA_ERROR);
    return -1;
}

/* Parse the augmentation data of a 'z' CIE for the FDE pointer encoding. */
static void parse_augmentation(struct cfi_cie *cie, const uint8_t *data, Dwarf_Unsigned len)
{
    const char *a = cie->augmentation;
    cie->fde_encoding = DW_EH_PE_absptr;
    cie->lsda_encoding = DW_EH_PE_omit;
    cie->signal_frame = strchr(a, 'S') != NULL;
    if (a[0] != 'z')
        return;
    Dwarf_Unsigned pos = 0;
    for (const char *p = a + 1; *p && pos < len; p++) {
        switch (*p) {
        case 'R':
            cie->fde_encoding = data[pos++];
            break;
        case 'L':
            cie->lsda_encoding = data[pos++];
            break;
        case 'P': {
            /* encoding byte, then a pointer we do not need: stop here, 'R'
             * normally precedes nothing after P in GCC's "zPLR", so skip by size */
            uint8_t enc = data[pos++];
            unsigned size;
            switch (enc & 0x0f) {
            case DW_EH_PE_udata2: case DW_EH_PE_sdata2: size = 2; break;
            case DW_EH_PE_udata4: case DW_EH_PE_sdata4: size = 4; break;
            case DW_EH_PE_udata8: case DW_EH_PE_sdata8: case DW_EH_PE_absptr: size = 8; break;
            default: return; /* uleb/sleb personality pointers: nothing after matters here */
            }
            if ((enc & 0x70) == DW_EH_PE_aligned)
                return;
            pos += size;
            break;
        }
        default:
            break;
        }
    }
}

/* Whether [p, p + n) lies inside the section's bytes (libdwarf's lengths are
 * checked, not trusted). */
static int within(const struct cfi_section *s, const void *p, Dwarf_Unsigned n)
{
    const uint8_t *b = p;
    return b >= s->bytes && b <= s->bytes + s->size && n <= (Dwarf_Unsigned)(s->bytes + s->size - b);
}

static int by_offset_cie(const void *a, const void *b)
{
    const struct cfi_cie *x = a, *y = b;
    return x->offset < y->offset ? -1 : x->offset > y->offset;
}

static int by_offset_fde(const void *a, const void *b)
{
    const struct cfi_fde *x = a, *y = b;
    return x->offset < y->offset ? -1 : x->offset > y->offset;
}

static const struct cfi_cie *find_cie(const struct cfi_section *s, uint64_t offset)
{
    size_t lo = 0, hi = s->ncies;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->cies[mid].offset < offset)
            lo = mid + 1;
        else if (s->cies[mid].offset > offset)
            hi = mid;
        else
            return &s->cies[mid];
    }
    return NULL;
}

/* Read the length and id/pointer fields of the entry at OFF straight from the bytes. */
static int read_entry_header(const struct cfi_section *s, uint64_t off, uint64_t *length,
                             int *dwarf64, uint64_t *id, uint64_t *next)
{
    const uint8_t *p = s->bytes + off;
    uint64_t left = s->size - off;
    if (left < 4)
        return -1;
    uint32_t l32 = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    uint64_t hdr = 4;
    *dwarf64 = 0;
    *length = l32;
    if (l32 == 0xffffffffu) {
        if (left < 12)
            return -1;
        uint64_t l = 0;
        for (int i = 0; i < 8; i++)
            l |= (uint64_t)p[4 + i] << (8 * i);
        *length = l;
        *dwarf64 = 1;
        hdr = 12;
    }
    if (*length > left - hdr)
        return -1;
    *next = off + hdr + *length;
    *id = 0;
    unsigned idsize = *dwarf64 ? 8 : 4;
    if (*length >= idsize)
        for (unsigned i = 0; i < idsize; i++)
            *id |= (uint64_t)p[hdr + i] << (8 * i);
    return 0;
}

static int collect(Dwarf_Debug dbg, struct cfi_section *s, Dwarf_Cie *cie_list, Dwarf_Signed ncie,
                   Dwarf_Fde *fde_list, Dwarf_Signed nfde, char *err, size_t errlen)
{
    Dwarf_Error derr = NULL;
    s->cies = calloc((size_t)ncie + 1, sizeof *s->cies);
    s->fdes = calloc((size_t)nfde + 1, sizeof *s->fdes);
    if (!s->cies || !s->fdes)
        return error_set(err, errlen, "out of memory");
    for (Dwarf_Signed i = 0; i < ncie; i++) {
        struct cfi_cie *c = &s->cies[i];
        Dwarf_Unsigned bytes_in_cie, code_align, insns_len, aug_len = 0;
        Dwarf_Small version;
        char *aug;
        Dwarf_Signed data_align;
        Dwarf_Half ra, offset_size;
        Dwarf_Ptr insns;
        Dwarf_Small *aug_data = NULL;
        Dwarf_Off off;
        if (dwarf_get_cie_info_b(cie_list[i], &bytes_in_cie, &version, &aug, &code_align,
                                 &data_align, &ra, &insns, &insns_len, &offset_size,
                                 &derr) != DW_DLV_OK)
            return dwarf_fail(dbg, derr, err, errlen, "bad CIE");
        if (dwarf_cie_section_offset(dbg, cie_list[i], &off, &derr) != DW_DLV_OK)
            return dwarf_fail(dbg, derr, err, errlen, "bad CIE offset");
        if (aug && aug[0] == 'z' &&
            dwarf_get_cie_augmentation_data(cie_list[i], &aug_data, &aug_len, &derr) == DW_DLV_ERROR)
            return dwarf_fail(dbg, derr, err, errlen, "bad CIE augmentation data");
        c->offset = off;
        c->version = version;
        c->augmentation = aug ? aug : "";
        c->code_align = code_align;
        c->data_align = data_align;
        c->ra_column = ra;
        c->addr_size = 8;
        if (!within(s, insns, insns_len))
            return error_set(err, errlen, "CIE at offset 0x%llx: instructions lie outside %s",
                        (unsigned long long)off, s->name);
        c->insns = insns;
        c->insns_len = insns_len;
        parse_augmentation(c, aug_data, aug_data ? aug_len : 0);
        uint64_t next;
        if (off >= s->size ||
            read_entry_header(s, off, &c->length, &c->dwarf64, &c->id, &next) != 0)
            return error_set(err, errlen, "CIE at offset 0x%llx runs past the end of %s",
                        (unsigned long long)off, s->name);
    }
    s->ncies = (size_t)ncie;
    qsort(s->cies, s->ncies, sizeof *s->cies, by_offset_cie);

    for (Dwarf_Signed i = 0; i < nfde; i++) {
        struct cfi_fde *f = &s->fdes[i];
        Dwarf_Addr low_pc;
        Dwarf_Unsigned func_len, fde_byte_len, insns_len;
        Dwarf_Ptr fde_bytes, insns;
        Dwarf_Off cie_off, fde_off;
        Dwarf_Signed cie_index;
        if (dwarf_get_fde_range(fde_list[i], &low_pc, &func_len, &fde_bytes, &fde_byte_len,
                                &cie_off, &cie_index, &fde_off, &derr) != DW_DLV_OK)
            return dwarf_fail(dbg, derr, err, errlen, "bad FDE");
        if (dwarf_get_fde_instr_bytes(fde_list[i], &insns, &insns_len, &derr) != DW_DLV_OK)
            return dwarf_fail(dbg, derr, err, errlen, "bad FDE instructions");
        f->offset = fde_off;
        f->pc_begin = low_pc;
        f->pc_range = func_len;
        if (!within(s, insns, insns_len))
            return error_set(err, errlen, "FDE at offset 0x%llx: instructions lie outside %s",
                        (unsigned long long)fde_off, s->name);
        f->insns = insns;
        f->insns_len = insns_len;
        /* dwarf_get_fde_range's cie_offset is the raw pointer field; ask for the CIE. */
        Dwarf_Cie dcie;
        if (dwarf_get_cie_of_fde(fde_list[i], &dcie, &derr) != DW_DLV_OK ||
            dwarf_cie_section_offset(dbg, dcie, &cie_off, &derr) != DW_DLV_OK)
            return dwarf_fail(dbg, derr, err, errlen, "FDE without a CIE");
        f->cie = find_cie(s, cie_off);
        uint64_t next;
        if (!f->cie)
            return error_set(err, errlen, "FDE at offset 0x%llx has no CIE at 0x%llx",
                        (unsigned long long)fde_off, (unsigned long long)cie_off);
        f->lsda = 0;
        Dwarf_Small *aug = NULL;
        Dwarf_Unsigned aug_len = 0;
        int aug_rc = f->cie->lsda_encoding == DW_EH_PE_omit ? DW_DLV_NO_ENTRY
                     : dwarf_get_fde_augmentation_data(fde_list[i], &aug, &aug_len, &derr);
        if (aug_rc == DW_DLV_ERROR) {
            dwarf_dealloc(dbg, derr, DW_DLA_ERROR);
            derr = NULL;
        }
        if (aug_rc == DW_DLV_OK && aug && within(s, aug, aug_len)) {
            /* An unreadable LSDA pointer only loses landing pads: not fatal. */
            struct byte_reader r;
            byte_reader_init(&r, aug, aug_len);
            uint64_t lsda;
            if (read_eh_pointer(&r, f->cie->lsda_encoding, s->addr + (uint64_t)(aug - s->bytes), 8,
                                &lsda) == 0)
                f->lsda = lsda;
        }
        if (fde_off >= s->size ||
            read_entry_header(s, fde_off, &f->length, &f->dwarf64, &f->cie_pointer, &next) != 0)
            return error_set(err, errlen, "FDE at offset 0x%llx runs past the end of %s",
                        (unsigned long long)fde_off, s->name);
    }
    s->nfdes = (size_t)nfde;
    qsort(s->fdes, s->nfdes, sizeof *s->fdes, by_offset_fde);
    return 0;
}

/* Walk the section's framing and list entries in order, zero terminators included. */
static int list_entries(struct cfi_section *s, char *err, size_t errlen)
{
    size_t cap = s->ncies + s->nfdes + 8;
    s->entries = calloc(cap, sizeof *s->entries);
    if (!s->entries)
        return error_set(err, errlen, "out of memory");
    size_t ci = 0, fi = 0;
    uint64_t off = 0;
    while (off < s->size) {
        if (s->nentries == cap) {
            size_t ncap = cap * 2;
            struct cfi_entry *n = realloc(s->entries, ncap * sizeof *n);
            if (!n)
                return error_set(err, errlen, "out of memory");
            s->entries = n;
            cap = ncap;
        }
        struct cfi_entry *e = &s->entries[s->nentries];
        uint64_t length, id, next;
        int dwarf64;
        if (read_entry_header(s, off, &length, &dwarf64, &id, &next) != 0)
            return error_set(err, errlen, "entry at offset 0x%llx of %s runs past the end of the section",
                        (unsigned long long)off, s->name);
        e->offset = off;
        if (length == 0) {
            e->kind = CFI_ENTRY_ZERO;
        } else if (ci < s->ncies && s->cies[ci].offset == off) {
            e->kind = CFI_ENTRY_CIE;
            e->cie = &s->cies[ci++];
        } else if (fi < s->nfdes && s->fdes[fi].offset == off) {
            e->kind = CFI_ENTRY_FDE;
            e->fde = &s->fdes[fi++];
        } else {
            return error_set(err, errlen, "entry at offset 0x%llx of %s was not decoded",
                        (unsigned long long)off, s->name);
        }
        s->nentries++;
        off = next;
        if (length == 0)   /* padding after a terminator is skipped bytewise */
            while (off < s->size && s->bytes[off] == 0)
                off++;
    }
    return 0;
}

/* Each FDE's fault: whether its range is code of the file (see cfi_reader.h). */
static int classify_fdes(struct cfi_section *s, const struct elf_file *ef, char *err, size_t errlen)
{
    struct code_bounds code;
    if (code_bounds_init(&code, ef, err, errlen) != 0)
        return -1;
    for (size_t i = 0; i < s->nfdes; i++) {
        struct cfi_fde *f = &s->fdes[i];
        if (f->pc_begin + f->pc_range < f->pc_begin)
            f->fault = FDE_RANGE_WRAPS;
        else if (f->pc_range == 0 || code_bounds_holds(&code, f->pc_begin, f->pc_range))
            f->fault = FDE_SOUND;
        else
            f->fault = code_bounds_at(&code, f->pc_begin) ? FDE_PAST_SEGMENT : FDE_NOT_CODE;
    }
    code_bounds_release(&code);
    return 0;
}

int cfi_section_read(struct elf_file *ef, const char *name, struct cfi_section *out,
                     char *err, size_t errlen)
{
    struct elf_section *sec = elf_file_section(ef, name);
    if (!sec || sec->type == SHT_NOBITS)
        return 0;
    memset(out, 0, sizeof *out);
    out->name = sec->name;
    out->is_eh_frame = strcmp(name, ".eh_frame") == 0;
    out->addr = sec->addr;
    out->bytes = elf_file_section_bytes(ef, sec, &out->size, err, errlen);
    if (!out->bytes)
        return -1;

    Dwarf_Debug dbg = NULL;
    Dwarf_Error derr = NULL;
    int rc = dwarf_elf_init_b(ef->elf, DW_DLC_READ, DW_GROUPNUMBER_ANY, NULL, NULL, &dbg, &derr);
    if (rc == DW_DLV_ERROR) {
        error_set(err, errlen, "libdwarf cannot read the file: %s", dwarf_errmsg(derr));
        dwarf_dealloc_error(NULL, derr);
        return -1;
    }
    if (rc == DW_DLV_NO_ENTRY)
        return error_set(err, errlen, "libdwarf cannot read the file");

    Dwarf_Cie *cies = NULL;
    Dwarf_Fde *fdes = NULL;
    Dwarf_Signed ncie = 0, nfde = 0;
    rc = out->is_eh_frame ? dwarf_get_fde_list_eh(dbg, &cies, &ncie, &fdes, &nfde, &derr)
                          : dwarf_get_fde_list(dbg, &cies, &ncie, &fdes, &nfde, &derr);
    out->dwarf = dbg;
    int result = 1;
    if (rc == DW_DLV_ERROR) {
        dwarf_fail(dbg, derr, err, errlen, "malformed call frame information");
        result = -1;
    } else if (rc == DW_DLV_OK) {
        out->dwarf_cies = cies;
        out->dwarf_fdes = fdes;
        out->dwarf_ncies = ncie;
        out->dwarf_nfdes = nfde;
        if (collect(dbg, out, cies, ncie, fdes, nfde, err, errlen) != 0 ||
            classify_fdes(out, ef, err, errlen) != 0 || list_entries(out, err, errlen) != 0)
            result = -1;
    } else if (list_entries(out, err, errlen) != 0) {
        /* No entries at all: only zero terminators may be present. */
        result = -1;
    }
    if (result < 0)
        cfi_section_release(out);
    return result;
}

void cfi_section_release(struct cfi_section *s)
{
    if (s->dwarf) {
        Dwarf_Debug dbg = s->dwarf;
        Dwarf_Error derr = NULL;
        if (s->dwarf_cies || s->dwarf_fdes)
            dwarf_fde_cie_list_dealloc(dbg, s->dwarf_cies, s->dwarf_ncies, s->dwarf_fdes,
                                       s->dwarf_nfdes);
        dwarf_finish(dbg, &derr);
    }
    free(s->cies);
    free(s->fdes);
    free(s->entries);
    memset(s, 0, sizeof *s);
}
