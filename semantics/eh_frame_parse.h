/* SPDX-License-Identifier: Apache-2.0 */
/*
 * eh_frame_parse: the one parser of call-frame sections' framing.
 *
 * Purpose: read the entries of .eh_frame and .debug_frame (length fields,
 * 32- and 64-bit DWARF, CIE ids and FDE CIE pointers, zero terminators),
 * a CIE's header (version, augmentation string and data: z, R, L, P, S;
 * alignment factors, return-address column), an FDE's header (pc_begin,
 * pc_range, augmentation data, LSDA pointer), and .eh_frame_hdr's binary
 * search table.  The instructions an entry carries are handed over as
 * bytes; cfa_program executes them.
 *
 * Users: semantics/cfi_reader (every entry of a file's section, for the
 * analysis and the printers) and the runtime's DWARF fallback (one FDE
 * found through .eh_frame_hdr, in a loaded object), so that both read a
 * table the same way; the encoders of the repair work invert it.
 *
 * Invariants: pure and bounded, like byte_reader.  It never allocates,
 * never reads outside the section view it is given, never trusts a length
 * before checking it against what remains, and reports a malformed entry
 * with a static reason instead of guessing.  All pointers it returns
 * point into the view's bytes: the caller owns them.
 *
 * Addresses: a view has the address its first byte has at run time (sh_addr
 * for a file's section; the pointer itself in a loaded object), so that
 * pc-relative pointers decode to addresses the table speaks of.
 */
#ifndef DWCHECK_EH_FRAME_PARSE_H
#define DWCHECK_EH_FRAME_PARSE_H

#include <stddef.h>
#include <stdint.h>

/* A call-frame section's bytes and where they are. */
struct frame_view {
    const uint8_t *bytes;
    uint64_t size;
    uint64_t addr;              /* run-time address of bytes[0] */
    int is_eh_frame;            /* .eh_frame rules (CIE id 0, relative CIE pointers), else .debug_frame's */
};

enum frame_entry_kind { FRAME_ENTRY_CIE, FRAME_ENTRY_FDE, FRAME_ENTRY_ZERO };

/* The framing of one entry. */
struct frame_entry {
    enum frame_entry_kind kind;
    uint64_t offset;            /* section offset of the length field */
    uint64_t length;            /* value of the length field */
    int dwarf64;                /* 64-bit DWARF format (0xffffffff escape) */
    uint64_t id;                /* CIE id, or the FDE's raw CIE pointer field */
    uint64_t body;              /* section offset just past the id field */
    uint64_t end;               /* section offset just past the entry */
};

struct eh_frame_cie {
    uint64_t offset;            /* section offset of the length field */
    uint64_t length;            /* value of the length field */
    int dwarf64;                /* 64-bit DWARF format (0xffffffff escape) */
    uint64_t id;                /* CIE id field (0 in .eh_frame) */
    uint8_t version;
    const char *augmentation;   /* "zR", "zPLR", "" ... (NUL-terminated inside the section) */
    uint64_t code_align;
    int64_t data_align;
    unsigned ra_column;
    unsigned addr_size;
    uint8_t fde_encoding;       /* DW_EH_PE_*; absptr without 'R' */
    uint8_t lsda_encoding;      /* DW_EH_PE_* of FDEs' LSDA pointers; omit without 'L' */
    uint8_t personality_encoding; /* DW_EH_PE_* of the personality pointer; omit without 'P' */
    uint64_t personality;       /* its value as encoded (the address of a GOT slot when indirect) */
    int has_z;                  /* FDEs carry an augmentation data length */
    int signal_frame;           /* 'S' in the augmentation */
    const uint8_t *insns;       /* initial instructions */
    size_t insns_len;
};

struct eh_frame_fde {
    uint64_t offset;            /* section offset of the length field */
    uint64_t length;            /* value of the length field */
    int dwarf64;
    uint64_t cie_pointer;       /* raw CIE pointer field */
    const struct eh_frame_cie *cie;
    uint64_t pc_begin;          /* decoded initial location */
    uint64_t pc_range;          /* address range */
    uint64_t lsda;              /* address of the language-specific data (.gcc_except_table), or 0 */
    const uint8_t *insns;
    size_t insns_len;
    uint8_t fault;              /* set by cfi_reader: enum cfi_fde_fault */
};

/*
 * The entry at section offset OFF.  A zero length field is a terminator
 * (FRAME_ENTRY_ZERO, ending 4 bytes on).  Returns 0, or -1 with a static
 * reason in *WHY when the entry runs past the view.
 */
int eh_frame_entry_read(const struct frame_view *v, uint64_t off, struct frame_entry *e, const char **why);

/* The section offset of the CIE an FDE names (relative in .eh_frame,
 * absolute in .debug_frame).  Returns 0, or -1 when it points outside. */
int eh_frame_fde_cie_offset(const struct frame_view *v, const struct frame_entry *fde, uint64_t *cie_offset,
                            const char **why);

/* Parse the CIE whose framing is E.  Returns 0, or -1 with *WHY. */
int eh_frame_cie_parse(const struct frame_view *v, const struct frame_entry *e, struct eh_frame_cie *cie,
                       const char **why);

/* Parse the FDE whose framing is E, of CIE.  An LSDA pointer that cannot be
 * read leaves lsda 0 (only landing pads are lost).  FAULT is left 0.
 * Returns 0, or -1 with *WHY. */
int eh_frame_fde_parse(const struct frame_view *v, const struct frame_entry *e, const struct eh_frame_cie *cie,
                       struct eh_frame_fde *fde, const char **why);

/* ---- .eh_frame_hdr ---------------------------------------------------- */

struct eh_frame_hdr {
    uint64_t addr;              /* run-time address of the header */
    uint64_t eh_frame;          /* address of .eh_frame (eh_frame_ptr) */
    uint64_t count;             /* entries of the search table (0: none usable) */
    const uint8_t *table;       /* pairs (initial location, FDE address), datarel sdata4 */
};

/*
 * Parse the header of BYTES[0, SIZE) at run-time address ADDR.  A table in
 * another encoding than the linkers' datarel sdata4 pairs is left unused
 * (count 0).  Returns 0, or -1 with *WHY.
 */
int eh_frame_hdr_parse(const uint8_t *bytes, uint64_t size, uint64_t addr, struct eh_frame_hdr *hdr,
                       const char **why);

/* The address of the FDE whose initial location is the greatest not above
 * PC, and that location; -1 when every entry starts above PC (or none). */
int eh_frame_hdr_lookup(const struct eh_frame_hdr *hdr, uint64_t pc, uint64_t *fde_addr,
                        uint64_t *initial_location);

/* How a search for the FDE that covers an address ends. */
enum frame_search { FRAME_FOUND = 0, FRAME_NOT_COVERED = -1, FRAME_MALFORMED = -2 };

/*
 * In an object mapped in this process (addresses are pointers): the FDE
 * covering PC and its CIE, found through the .eh_frame_hdr at HDR; nothing
 * outside [START, LIMIT) (the segment that holds HDR) is read.
 * FRAME_NOT_COVERED when the header, its table or the entry it gives does
 * not lead to an FDE covering PC; FRAME_MALFORMED when that FDE or its CIE
 * cannot be parsed.  What the runtime's DWARF fallback does first.
 */
int eh_frame_find_fde_in_memory(const uint8_t *start, const uint8_t *hdr, const uint8_t *limit, uint64_t pc,
                                struct eh_frame_cie *cie, struct eh_frame_fde *fde);

#endif
