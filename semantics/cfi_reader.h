/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cfi_reader: the CIEs and FDEs of a file's .eh_frame or .debug_frame.
 *
 * The section's entries are parsed by eh_frame_parse (the parser the
 * runtime's DWARF fallback uses too), and listed in section order, CIEs,
 * FDEs and zero terminators interleaved, as readelf walks them; the
 * instructions themselves are decoded by cfa_program.  A malformed entry
 * makes the whole section unreadable, with the entry's offset and the
 * reason.
 *
 * Every FDE is listed, whatever range it claims, so that the section prints
 * as readelf prints it; but an FDE whose range is not code of the file (it
 * wraps around the address space, runs past the end of the executable
 * segment it starts in, or starts in none: see object/code_bounds) carries
 * its fault, and is left out of every table built for code (fde_lookup,
 * the function index, the compiled tables).  No size or loop downstream
 * is then taken from a range the file does not hold.
 *
 * All byte pointers point into section data owned by the elf_file, so a
 * cfi_section must be released before its elf_file is closed.
 */
#ifndef DWCHECK_CFI_READER_H
#define DWCHECK_CFI_READER_H

#include <stddef.h>
#include <stdint.h>

#include "eh_frame_parse.h"
#include "object/elf_file.h"

/* Why an FDE's range is not code of the file (FDE_SOUND: it is, or it is
 * empty): struct eh_frame_fde's fault. */
enum cfi_fde_fault {
    FDE_SOUND,
    FDE_RANGE_WRAPS,            /* pc_begin + pc_range wraps around the address space */
    FDE_PAST_SEGMENT,           /* starts in an executable segment's code, ends past it */
    FDE_NOT_CODE,               /* starts outside the code of every executable segment */
};

enum cfi_entry_kind { CFI_ENTRY_CIE, CFI_ENTRY_FDE, CFI_ENTRY_ZERO };

struct cfi_entry {
    enum cfi_entry_kind kind;
    uint64_t offset;
    const struct eh_frame_cie *cie;  /* CFI_ENTRY_CIE */
    const struct eh_frame_fde *fde;  /* CFI_ENTRY_FDE */
};

struct cfi_section {
    const char *name;           /* ".eh_frame" or ".debug_frame" */
    int is_eh_frame;
    uint64_t addr;              /* sh_addr */
    const uint8_t *bytes;
    uint64_t size;
    struct eh_frame_cie *cies;
    size_t ncies;
    struct eh_frame_fde *fdes;
    size_t nfdes;
    struct cfi_entry *entries;  /* section order */
    size_t nentries;
};

/*
 * Read section NAME (".eh_frame" or ".debug_frame") of EF.
 * Returns 1 when read, 0 when the file has no such section (OUT untouched),
 * -1 with a reason in ERR when the section is malformed or unreadable.
 */
int cfi_section_read(struct elf_file *ef, const char *name, struct cfi_section *out,
                     char *err, size_t errlen);

void cfi_section_release(struct cfi_section *s);

#endif
