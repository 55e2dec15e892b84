/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cfi_reader: list a section's CIEs and FDEs through eh_frame_parse.
 */
#include "cfi_reader.h"

#include <stdlib.h>
#include <string.h>

#include "kit/sorted_search.h"
#include "object/code_bounds.h"
#include "sys/error.h"

static uint64_t cie_offset_key(const void *cies, size_t i)
{
    return ((const struct eh_frame_cie *)cies)[i].offset;
}

static const struct eh_frame_cie *find_cie(const struct cfi_section *s, uint64_t offset)
{
    /* CIEs are in section order */
    size_t n = sorted_count_at_most(s->cies, s->ncies, cie_offset_key, offset);
    return n > 0 && s->cies[n - 1].offset == offset ? &s->cies[n - 1] : NULL;
}

/* The entry after E: padding after a zero terminator is skipped bytewise. */
static uint64_t next_entry(const struct cfi_section *s, const struct frame_entry *e)
{
    uint64_t off = e->end;
    if (e->kind == FRAME_ENTRY_ZERO)
        while (off < s->size && s->bytes[off] == 0)
            off++;
    return off;
}

/* Walk the section's framing: count the entries, or (COUNTING 0) list them
 * and parse the CIEs; FDEs are parsed once every CIE is known. */
static int walk_entries(struct cfi_section *s, const struct frame_view *v, int counting, char *err,
                        size_t errlen)
{
    struct frame_entry e;
    const char *why;
    for (uint64_t off = 0; off < s->size; off = next_entry(s, &e)) {
        if (eh_frame_entry_read(v, off, &e, &why) != 0)
            return error_set(err, errlen, "entry at offset 0x%llx of %s: %s", (unsigned long long)off,
                             s->name, why);
        if (counting) {
            s->ncies += e.kind == FRAME_ENTRY_CIE;
            s->nfdes += e.kind == FRAME_ENTRY_FDE;
            s->nentries++;
            continue;
        }
        struct cfi_entry *out = &s->entries[s->nentries++];
        out->offset = off;
        if (e.kind == FRAME_ENTRY_ZERO) {
            out->kind = CFI_ENTRY_ZERO;
        } else if (e.kind == FRAME_ENTRY_CIE) {
            struct eh_frame_cie *c = &s->cies[s->ncies++];
            if (eh_frame_cie_parse(v, &e, c, &why) != 0)
                return error_set(err, errlen, "CIE at offset 0x%llx of %s: %s", (unsigned long long)off,
                                 s->name, why);
            out->kind = CFI_ENTRY_CIE;
            out->cie = c;
        } else {
            out->kind = CFI_ENTRY_FDE;
            out->fde = &s->fdes[s->nfdes];
            s->fdes[s->nfdes++].offset = off;   /* parsed by parse_fdes */
        }
    }
    return 0;
}

static int parse_fdes(struct cfi_section *s, const struct frame_view *v, char *err, size_t errlen)
{
    for (size_t i = 0; i < s->nfdes; i++) {
        struct eh_frame_fde *f = &s->fdes[i];
        uint64_t off = f->offset, cie_off;
        struct frame_entry e;
        const struct eh_frame_cie *cie;
        const char *why;
        if (eh_frame_entry_read(v, off, &e, &why) != 0 || eh_frame_fde_cie_offset(v, &e, &cie_off, &why) != 0)
            return error_set(err, errlen, "FDE at offset 0x%llx of %s: %s", (unsigned long long)off,
                             s->name, why);
        if (!(cie = find_cie(s, cie_off)))
            return error_set(err, errlen, "FDE at offset 0x%llx has no CIE at 0x%llx",
                             (unsigned long long)off, (unsigned long long)cie_off);
        if (eh_frame_fde_parse(v, &e, cie, f, &why) != 0)
            return error_set(err, errlen, "FDE at offset 0x%llx of %s: %s", (unsigned long long)off,
                             s->name, why);
    }
    return 0;
}

static int read_entries(struct cfi_section *s, char *err, size_t errlen)
{
    struct frame_view v = {s->bytes, s->size, s->addr, s->is_eh_frame};
    if (walk_entries(s, &v, 1, err, errlen) != 0)
        return -1;
    /* At most one entry per 4 bytes of a section the file holds. */
    s->cies = calloc(s->ncies + 1, sizeof *s->cies);
    s->fdes = calloc(s->nfdes + 1, sizeof *s->fdes);
    s->entries = calloc(s->nentries + 1, sizeof *s->entries);
    if (!s->cies || !s->fdes || !s->entries)
        return error_set(err, errlen, "out of memory");
    s->ncies = s->nfdes = s->nentries = 0;
    if (walk_entries(s, &v, 0, err, errlen) != 0)
        return -1;
    return parse_fdes(s, &v, err, errlen);
}

/* Each FDE's fault: whether its range is code of the file (see cfi_reader.h). */
static int classify_fdes(struct cfi_section *s, const struct elf_file *ef, char *err, size_t errlen)
{
    struct code_bounds code;
    if (code_bounds_init(&code, ef, err, errlen) != 0)
        return -1;
    for (size_t i = 0; i < s->nfdes; i++) {
        struct eh_frame_fde *f = &s->fdes[i];
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

    if (read_entries(out, err, errlen) != 0 || classify_fdes(out, ef, err, errlen) != 0) {
        cfi_section_release(out);
        return -1;
    }
    return 1;
}

void cfi_section_release(struct cfi_section *s)
{
    free(s->cies);
    free(s->fdes);
    free(s->entries);
    memset(s, 0, sizeof *s);
}
