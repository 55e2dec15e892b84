/*
 * cfi_reader: the CIEs and FDEs of .eh_frame and .debug_frame, via libdwarf.
 *
 * libdwarf finds the entries, decodes pointer encodings (pc_begin, pc_range)
 * and augmentation data, and hands over each entry's instruction bytes; the
 * instructions themselves are decoded by cfa_program.  Entries are listed in
 * section order, CIEs, FDEs and zero terminators interleaved, as readelf
 * walks them.
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

#include "object/elf_file.h"

struct cfi_cie {
    uint64_t offset;            /* section offset of the length field */
    uint64_t length;            /* value of the length field */
    int dwarf64;                /* 64-bit DWARF format (0xffffffff escape) */
    uint64_t id;                /* CIE id field (0 in .eh_frame) */
    uint8_t version;
    const char *augmentation;   /* "zR", "zPLR", "" ... */
    uint64_t code_align;
    int64_t data_align;
    unsigned ra_column;
    unsigned addr_size;
    uint8_t fde_encoding;       /* DW_EH_PE_*; absptr without 'R' */
    uint8_t lsda_encoding;      /* DW_EH_PE_* of FDEs' LSDA pointers; omit without 'L' */
    int signal_frame;           /* 'S' in the augmentation */
    const uint8_t *insns;       /* initial instructions */
    size_t insns_len;
};

/* Why an FDE's range is not code of the file (FDE_SOUND: it is, or it is empty). */
enum cfi_fde_fault {
    FDE_SOUND,
    FDE_RANGE_WRAPS,            /* pc_begin + pc_range wraps around the address space */
    FDE_PAST_SEGMENT,           /* starts in an executable segment's code, ends past it */
    FDE_NOT_CODE,               /* starts outside the code of every executable segment */
};

struct cfi_fde {
    uint64_t offset;            /* section offset of the length field */
    uint64_t length;            /* value of the length field */
    int dwarf64;
    uint64_t cie_pointer;       /* raw CIE pointer field */
    const struct cfi_cie *cie;
    uint64_t pc_begin;          /* decoded initial location */
    uint64_t pc_range;          /* address range */
    uint64_t lsda;              /* address of the language-specific data (.gcc_except_table), or 0 */
    const uint8_t *insns;
    size_t insns_len;
    uint8_t fault;              /* enum cfi_fde_fault */
};

enum cfi_entry_kind { CFI_ENTRY_CIE, CFI_ENTRY_FDE, CFI_ENTRY_ZERO };

struct cfi_entry {
    enum cfi_entry_kind kind;
    uint64_t offset;
    const struct cfi_cie *cie;  /* CFI_ENTRY_CIE */
    const struct cfi_fde *fde;  /* CFI_ENTRY_FDE */
};

struct cfi_section {
    const char *name;           /* ".eh_frame" or ".debug_frame" */
    int is_eh_frame;
    uint64_t addr;              /* sh_addr */
    const uint8_t *bytes;
    uint64_t size;
    struct cfi_cie *cies;
    size_t ncies;
    struct cfi_fde *fdes;
    size_t nfdes;
    struct cfi_entry *entries;  /* section order */
    size_t nentries;
    /* libdwarf's handle and lists, kept alive while strings and bytes it
     * returned are in use; freed by cfi_section_release. */
    void *dwarf;
    void *dwarf_cies, *dwarf_fdes;
    long long dwarf_ncies, dwarf_nfdes;
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
