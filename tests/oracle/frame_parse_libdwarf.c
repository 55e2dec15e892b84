/*
 * frame_parse_libdwarf: the section parser (semantics/eh_frame_parse,
 * through cfi_reader) against libdwarf on one file's .eh_frame and
 * .debug_frame, and its .eh_frame_hdr search against the linker's table.
 *
 *   frame_parse_libdwarf FILE
 *
 * libdwarf enumerates the CIEs and FDEs on its own; for each, the parser
 * must give the same offset, version, augmentation, alignment factors,
 * return-address column, pc_begin, pc_range, instruction bytes (the same
 * place, the same length) and LSDA address (decoded from the augmentation
 * data libdwarf hands over).  Then every FDE the analysis looks up (a
 * non-empty range of code) must be what the runtime's search through the
 * file's .eh_frame_hdr finds for its first address.
 *
 * Prints one line per difference (at most 20) and a summary; exit 0 when
 * they agree, 1 when not, 2 when the file cannot be read.
 */
#include <libdwarf/dwarf.h>
#include <libdwarf/libdwarf.h>
#include <stdio.h>
#include <string.h>

#include "object/elf_file.h"
#include "semantics/cfi_reader.h"
#include "semantics/eh_pointer.h"

static unsigned long differences;
static unsigned long compared;

#define DIFFER(...)                                                                  \
    do {                                                                             \
        if (differences++ < 20) {                                                    \
            printf(__VA_ARGS__);                                                     \
            putchar('\n');                                                           \
        }                                                                            \
    } while (0)

static const struct eh_frame_fde *fde_at(const struct cfi_section *s, uint64_t off)
{
    for (size_t i = 0; i < s->nfdes; i++)
        if (s->fdes[i].offset == off)
            return &s->fdes[i];
    return NULL;
}

static const struct eh_frame_cie *cie_at(const struct cfi_section *s, uint64_t off)
{
    for (size_t i = 0; i < s->ncies; i++)
        if (s->cies[i].offset == off)
            return &s->cies[i];
    return NULL;
}

static void compare_cie(Dwarf_Debug dbg, const struct cfi_section *s, Dwarf_Cie dc)
{
    Dwarf_Unsigned bytes, code_align, insns_len;
    Dwarf_Small version;
    char *aug;
    Dwarf_Signed data_align;
    Dwarf_Half ra, offset_size;
    Dwarf_Ptr insns;
    Dwarf_Off off;
    Dwarf_Error e = NULL;
    if (dwarf_get_cie_info_b(dc, &bytes, &version, &aug, &code_align, &data_align, &ra, &insns, &insns_len,
                             &offset_size, &e) != DW_DLV_OK ||
        dwarf_cie_section_offset(dbg, dc, &off, &e) != DW_DLV_OK) {
        DIFFER("%s: libdwarf cannot read a CIE", s->name);
        return;
    }
    const struct eh_frame_cie *c = cie_at(s, off);
    compared++;
    if (!c) {
        DIFFER("%s: CIE at 0x%llx: not listed by the parser", s->name, (unsigned long long)off);
        return;
    }
    if (c->version != version || strcmp(c->augmentation, aug ? aug : "") != 0 ||
        c->code_align != code_align || c->data_align != data_align || c->ra_column != ra ||
        c->insns != (const uint8_t *)insns || c->insns_len != insns_len)
        DIFFER("%s: CIE at 0x%llx: parser v%u \"%s\" cf=%llu df=%lld ra=%u insns +%zu/%zu; "
               "libdwarf v%u \"%s\" cf=%llu df=%lld ra=%u insns +%zu/%llu",
               s->name, (unsigned long long)off, c->version, c->augmentation,
               (unsigned long long)c->code_align, (long long)c->data_align, c->ra_column,
               (size_t)(c->insns - s->bytes), c->insns_len, version, aug ? aug : "",
               (unsigned long long)code_align, (long long)data_align, ra,
               (size_t)((const uint8_t *)insns - s->bytes), (unsigned long long)insns_len);
}

static void compare_fde(const struct cfi_section *s, Dwarf_Fde df)
{
    Dwarf_Addr low;
    Dwarf_Unsigned len, fde_len, insns_len, aug_len = 0;
    Dwarf_Ptr fde_bytes, insns;
    Dwarf_Off cie_off, off;
    Dwarf_Signed cie_index;
    Dwarf_Small *aug = NULL;
    Dwarf_Error e = NULL;
    if (dwarf_get_fde_range(df, &low, &len, &fde_bytes, &fde_len, &cie_off, &cie_index, &off, &e) != DW_DLV_OK ||
        dwarf_get_fde_instr_bytes(df, &insns, &insns_len, &e) != DW_DLV_OK) {
        DIFFER("%s: libdwarf cannot read an FDE", s->name);
        return;
    }
    const struct eh_frame_fde *f = fde_at(s, off);
    compared++;
    if (!f) {
        DIFFER("%s: FDE at 0x%llx: not listed by the parser", s->name, (unsigned long long)off);
        return;
    }
    uint64_t lsda = 0;
    if (f->cie->lsda_encoding != DW_EH_PE_omit &&
        dwarf_get_fde_augmentation_data(df, &aug, &aug_len, &e) == DW_DLV_OK && aug && aug_len > 0) {
        struct byte_reader r;
        byte_reader_init(&r, aug, aug_len);
        if (read_eh_pointer(&r, f->cie->lsda_encoding, s->addr + (uint64_t)(aug - s->bytes), 8, &lsda) != 0)
            lsda = 0;
    }
    if (f->pc_begin != low || f->pc_range != len || f->insns != (const uint8_t *)insns ||
        f->insns_len != insns_len || f->lsda != lsda)
        DIFFER("%s: FDE at 0x%llx: parser pc=0x%llx+0x%llx insns +%zu/%zu lsda 0x%llx; "
               "libdwarf pc=0x%llx+0x%llx insns +%zu/%llu lsda 0x%llx",
               s->name, (unsigned long long)off, (unsigned long long)f->pc_begin,
               (unsigned long long)f->pc_range, (size_t)(f->insns - s->bytes), f->insns_len,
               (unsigned long long)f->lsda, (unsigned long long)low, (unsigned long long)len,
               (size_t)((const uint8_t *)insns - s->bytes), (unsigned long long)insns_len,
               (unsigned long long)lsda);
}

/* libdwarf's entries of one section against the parser's. */
static int compare_section(struct elf_file *ef, const char *name)
{
    struct cfi_section s;
    char err[512];
    int rc = cfi_section_read(ef, name, &s, err, sizeof err);
    if (rc == 0)
        return 0;
    Dwarf_Debug dbg = NULL;
    Dwarf_Error e = NULL;
    if (dwarf_elf_init_b(ef->elf, DW_DLC_READ, DW_GROUPNUMBER_ANY, NULL, NULL, &dbg, &e) != DW_DLV_OK) {
        if (rc > 0)
            cfi_section_release(&s);
        return 0;   /* libdwarf gives no opinion on this file */
    }
    Dwarf_Cie *cies = NULL;
    Dwarf_Fde *fdes = NULL;
    Dwarf_Signed ncie = 0, nfde = 0;
    int drc = strcmp(name, ".eh_frame") == 0 ? dwarf_get_fde_list_eh(dbg, &cies, &ncie, &fdes, &nfde, &e)
                                            : dwarf_get_fde_list(dbg, &cies, &ncie, &fdes, &nfde, &e);
    if (rc < 0 && drc == DW_DLV_OK)
        DIFFER("%s: the parser refuses what libdwarf reads: %s", name, err);
    else if (rc > 0 && drc == DW_DLV_ERROR)
        DIFFER("%s: libdwarf refuses what the parser reads: %s", name, dwarf_errmsg(e));
    if (rc > 0 && drc == DW_DLV_OK) {
        if ((size_t)ncie != s.ncies || (size_t)nfde != s.nfdes)
            DIFFER("%s: parser %zu CIEs, %zu FDEs; libdwarf %lld, %lld", name, s.ncies, s.nfdes,
                   (long long)ncie, (long long)nfde);
        for (Dwarf_Signed i = 0; i < ncie; i++)
            compare_cie(dbg, &s, cies[i]);
        for (Dwarf_Signed i = 0; i < nfde; i++)
            compare_fde(&s, fdes[i]);
    }
    if (drc == DW_DLV_OK)
        dwarf_fde_cie_list_dealloc(dbg, cies, ncie, fdes, nfde);
    dwarf_finish(dbg, &e);
    if (rc > 0)
        cfi_section_release(&s);
    return 0;
}

/* Every FDE the analysis looks up, found again through .eh_frame_hdr as the
 * runtime finds it (the file's bytes at their link-time addresses). */
static void compare_hdr(struct elf_file *ef)
{
    struct elf_section *sec = elf_file_section(ef, ".eh_frame_hdr");
    struct cfi_section s;
    char err[512];
    uint64_t size;
    if (!sec || sec->type == SHT_NOBITS || cfi_section_read(ef, ".eh_frame", &s, err, sizeof err) <= 0)
        return;
    const uint8_t *bytes = elf_file_section_bytes(ef, sec, &size, err, sizeof err);
    struct eh_frame_hdr hdr;
    const char *why;
    if (!bytes || eh_frame_hdr_parse(bytes, size, sec->addr, &hdr, &why) != 0) {
        DIFFER(".eh_frame_hdr: %s", bytes ? why : err);
    } else if (hdr.eh_frame != s.addr) {
        DIFFER(".eh_frame_hdr: eh_frame_ptr 0x%llx, .eh_frame at 0x%llx", (unsigned long long)hdr.eh_frame,
               (unsigned long long)s.addr);
    } else {
        for (size_t i = 0; i < s.nfdes; i++) {
            const struct eh_frame_fde *f = &s.fdes[i];
            uint64_t at, initial;
            if (f->pc_range == 0 || f->fault != FDE_SOUND)
                continue;
            compared++;
            if (eh_frame_hdr_lookup(&hdr, f->pc_begin, &at, &initial) != 0 || initial != f->pc_begin)
                DIFFER(".eh_frame_hdr: no entry for the FDE at 0x%llx (pc 0x%llx)", (unsigned long long)f->offset,
                       (unsigned long long)f->pc_begin);
            else if (at != s.addr + f->offset &&
                     (at < s.addr || !fde_at(&s, at - s.addr) || fde_at(&s, at - s.addr)->pc_begin != f->pc_begin))
                DIFFER(".eh_frame_hdr: pc 0x%llx leads to 0x%llx, not an FDE starting there",
                       (unsigned long long)f->pc_begin, (unsigned long long)at);
        }
    }
    cfi_section_release(&s);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: frame_parse_libdwarf FILE\n");
        return 2;
    }
    struct elf_file ef;
    char err[512];
    if (elf_file_open(&ef, argv[1], err, sizeof err) != 0) {
        fprintf(stderr, "frame_parse_libdwarf: %s: %s\n", argv[1], err);
        return 2;
    }
    compare_section(&ef, ".eh_frame");
    compare_section(&ef, ".debug_frame");
    compare_hdr(&ef);
    elf_file_close(&ef);
    printf("%s: %lu entries compared, %lu differences\n", argv[1], compared, differences);
    return differences ? 1 : 0;
}
/* SPDX-License-Identifier: Apache-2.0 */
