/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sframe_parse: the reader of .sframe sections (SFrame V1, V2 and V3), and
 * their tables as H.
 *
 * SFrame ("Simple Frame", binutils 2.40+, `as --gsframe`, segment
 * PT_GNU_SFRAME) keeps, per function, rows of CFA = rsp or rbp + offset,
 * the frame pointer's save slot, and the return address at a fixed CFA-8
 * on x86_64.  Written from "The SFrame Format" (binutils' sframe-spec),
 * version by version:
 *
 *   V1 (binutils 2.40): 28-byte header, then 17-byte FDEs
 *      {int32 start, u32 size, u32 first FRE offset, u32 FRE count, u8 info},
 *      then the FREs.  No repetition block size: a PCMASK FDE (the PLT's)
 *      repeats every 16 bytes, the size of an x86_64 pltN entry, which is
 *      what V1's producers assumed (V2 made it a field).
 *   V2 (2.41-2.45): 20-byte FDEs (V1's, then u8 rep_size, u16 padding);
 *      errata: SFRAME_F_FDE_FUNC_START_PCREL (the start field counts from
 *      the field itself, else from the section's start), and an FRE with no
 *      data words says the return address is undefined (outermost frame).
 *   V3 (2.46): the FDE splits into a 16-byte index entry {int64 start,
 *      u32 size, u32 offset of the function's data in the FRE sub-section}
 *      and a 5-byte attribute {u16 FRE count, u8 info, u8 info2, u8
 *      rep_size} at that offset, the FREs right after it; info's bit 7
 *      marks a signal frame, info2 the FDE type: DEFAULT, or FLEX, whose
 *      FRE words are (control, offset) pairs for the CFA, RA and FP
 *      (control = regnum << 3 | deref_p << 1 | reg_p; a lone 0 is padding
 *      for an entity not tracked), so that rules like CFA = *(rbp-8) (GCC's
 *      DRAP) are written; a DEFAULT FDE without FREs is an outermost frame.
 *      SFRAME_F_FRAME_POINTER is gone.
 *
 * Every version: header {u16 magic 0xdee2, u8 version, u8 flags, u8
 * abi_arch, i8 fixed FP offset, i8 fixed RA offset, u8 auxiliary header
 * length, u32 FDE count, u32 FRE count, u32 FRE sub-section length, u32
 * FDE and FRE sub-section offsets from the header's end}; an FRE is {u8,
 * u16 or u32 start offset (the FDE's info says which), u8 info: bit 0 base
 * register (1 rsp, 0 rbp), bits 1-4 data-word count, bits 5-6 word size
 * (1, 2 or 4 bytes), bit 7 mangled RA} and its signed words.  On AMD64
 * (the only ABI read here: little-endian, x86_64 DWARF registers) a
 * DEFAULT FRE's words are CFA = base + w0, then FP saved at CFA + w1; the
 * RA's slot is the header's fixed offset (a header without one tracks RA
 * in w1 and FP in w2, the other ABIs' order).
 *
 * Layers: sframe_header_read, sframe_fde_read and sframe_fre_read decode
 * bytes exactly as written (what `readelf --sframe` prints, sframe_print);
 * sframe_fre_rules says what an FRE means (the recovery rule of the CFA,
 * FP and RA); sframe_fde_table builds the function's table H: CFA column,
 * rbp (6) and ra (16), one row per FRE over [start, next start) (a PCMASK
 * FDE's rows repeated in every block of the function); the rbp column is
 * unreferenced where FP is not tracked (its value is unchanged, as before a
 * DWARF push), ra undefined in an outermost-frame row, whose CFA is unset.
 *
 * Invariants: pure and bounded, like eh_frame_parse.  Nothing is trusted
 * before it is checked against the section: every offset and count read
 * from it is compared with what remains (in 64-bit arithmetic, so no sum
 * wraps) before a byte is read; the decoders never allocate; only
 * sframe_fde_table does, into the table it fills (capped at
 * SFRAME_MAX_ROWS rows).  A malformed section, FDE or FRE is reported with
 * a static reason and its section offset, never guessed at: each is a
 * `malformed-sframe` finding for the tools, never a crash.  All pointers
 * point into the view's bytes: the caller owns them.
 */
#ifndef DWCHECK_SEMANTICS_SFRAME_PARSE_H
#define DWCHECK_SEMANTICS_SFRAME_PARSE_H

#include <stddef.h>
#include <stdint.h>

#include "semantics/unwind_table.h"

#define SFRAME_MAGIC 0xdee2
#define SFRAME_VERSION_1 1
#define SFRAME_VERSION_2 2
#define SFRAME_VERSION_3 3

#define SFRAME_F_FDE_SORTED 0x1
#define SFRAME_F_FRAME_POINTER 0x2            /* V1 and V2 only */
#define SFRAME_F_FDE_FUNC_START_PCREL 0x4     /* V2 (erratum) and V3 */

#define SFRAME_ABI_AMD64_ENDIAN_LITTLE 3

#define SFRAME_HEADER_SIZE 28
#define SFRAME_V1_FDE_SIZE 17
#define SFRAME_V2_FDE_SIZE 20
#define SFRAME_V3_FDE_INDEX_SIZE 16
#define SFRAME_V3_FDE_ATTR_SIZE 5
#define SFRAME_MAX_DATA_WORDS 15              /* 4 bits of count */
#define SFRAME_V1_PCMASK_BLOCK 16             /* an x86_64 pltN entry */
#define SFRAME_MAX_ROWS (1u << 18)            /* rows of one function's table (a PLT of 2^17 entries) */

/* A .sframe section's bytes and where they are. */
struct sframe_view {
    const uint8_t *bytes;
    uint64_t size;
    uint64_t addr;              /* run-time address of bytes[0] (sh_addr) */
};

/* Where and why a section is malformed. */
struct sframe_error {
    const char *reason;         /* static */
    uint64_t offset;            /* section offset of the field or entry */
};

struct sframe_header {
    uint8_t version, flags, abi_arch, auxhdr_len;
    int8_t fixed_fp_offset;     /* 0: not fixed (SFRAME_CFA_FIXED_FP_INVALID) */
    int8_t fixed_ra_offset;     /* 0: not fixed; -8 on AMD64 */
    uint32_t num_fdes, num_fres, fre_len, fde_off, fre_off;
    uint64_t fdes;              /* section offset of the FDE sub-section */
    uint64_t fres;              /* section offset of the FRE sub-section */
    unsigned fde_size;          /* bytes a function takes there: 17, 20 or 16 (V3's index entry) */
};

enum sframe_pc_type { SFRAME_PC_INC = 0, SFRAME_PC_MASK = 1 };
enum sframe_fde_type { SFRAME_FDE_TYPE_DEFAULT = 0, SFRAME_FDE_TYPE_FLEX = 1 };

struct sframe_fde {
    uint32_t index;
    uint64_t offset;            /* section offset of the FDE (V3: of its index entry) */
    int64_t start_field;        /* the start address field as written */
    uint64_t pc;                /* the function's start address */
    uint32_t size;
    uint32_t fre_off;           /* its first FRE (V3: its attribute), from the FRE sub-section */
    uint32_t num_fres;
    uint8_t info, info2;        /* info2: V3 only */
    uint8_t rep_size;           /* PCMASK block size (V1: SFRAME_V1_PCMASK_BLOCK) */
    uint8_t fre_type;           /* 0, 1, 2: FRE start offsets of 1, 2, 4 bytes */
    uint8_t pc_type;            /* enum sframe_pc_type */
    uint8_t fde_type;           /* enum sframe_fde_type (DEFAULT before V3) */
    uint8_t pauth_key;          /* AArch64's; read, unused on AMD64 */
    uint8_t signal_frame;       /* V3 */
    uint64_t first_fre;         /* section offset of its first FRE */
};

struct sframe_fre {
    uint64_t offset;            /* section offset */
    uint64_t end;               /* section offset just past it (the next FRE's) */
    uint32_t start;             /* from the function's start (a PCMASK FDE: within a block) */
    uint8_t info;
    uint8_t base_reg;           /* 1: rsp, 0: rbp (SFRAME_BASE_REG_SP / _FP) */
    uint8_t count;              /* data words */
    uint8_t word_size;          /* 1, 2 or 4 bytes */
    uint8_t mangled_ra;         /* AArch64's; read, unused on AMD64 */
    int32_t words[SFRAME_MAX_DATA_WORDS];     /* sign-extended */
    uint32_t uwords[SFRAME_MAX_DATA_WORDS];   /* zero-extended (V3 control words) */
};

/* How one entity (CFA, FP, RA) is recovered: Base = reg_p ? reg : CFA;
 * value = deref_p ? *(Base + offset) : Base + offset. */
struct sframe_rule {
    uint8_t tracked;            /* 0: not described (FP unchanged) */
    uint8_t fixed;              /* from the header's fixed offset, not the FRE */
    uint8_t padding;            /* a FLEX FRE's lone 0 word for this entity */
    uint8_t reg_p, deref_p;
    uint16_t reg;               /* DWARF register number */
    int32_t offset;
};

struct sframe_rules {
    int ra_undefined;           /* no data words (V2+): the outermost frame */
    struct sframe_rule cfa, fp, ra;
};

/*
 * The header of V.  Checks the magic, the version (1 to 3), the flags the
 * version defines, the ABI (AMD64 little-endian), and that the FDE and FRE
 * sub-sections lie inside the section in that order, the FDEs' fixed-size
 * entries before the FRE sub-section.  Returns 0, or -1 with *ERR.
 */
int sframe_header_read(const struct sframe_view *v, struct sframe_header *h, struct sframe_error *err);

/*
 * FDE INDEX (< h->num_fdes) of V: its fields, its start address, and for
 * V3 its attribute.  Checks the FRE type, the FDE type, a PCMASK FDE's
 * block size and that its first FRE lies in the FRE sub-section.  Returns
 * 0, or -1 with *ERR.
 */
int sframe_fde_read(const struct sframe_view *v, const struct sframe_header *h, uint32_t index,
                    struct sframe_fde *fde, struct sframe_error *err);

/*
 * The FRE of FDE at section offset OFF (fde->first_fre, then each FRE's
 * end): start offset, info and data words, all inside the FRE sub-section.
 * Returns 0, or -1 with *ERR.
 */
int sframe_fre_read(const struct sframe_view *v, const struct sframe_header *h, const struct sframe_fde *fde,
                    uint64_t off, struct sframe_fre *fre, struct sframe_error *err);

/*
 * What FRE of FDE means on AMD64: the CFA's, FP's and RA's rules (the
 * header's fixed offsets where the FRE has none).  Returns 0, or -1 with
 * a static reason in *WHY: a V1 FRE without words (no CFA), more words
 * than AMD64 uses, FLEX words that do not pair up, a CFA based on itself.
 */
int sframe_fre_rules(const struct sframe_header *h, const struct sframe_fde *fde, const struct sframe_fre *fre,
                     struct sframe_rules *out, const char **why);

/*
 * Build FDE's table into T (initialised here; the caller releases it):
 * [fde->pc, fde->pc + size), its rows as described above.  Every FRE is
 * read and checked: its start within the function (a PCMASK FDE: within
 * its block), the starts increasing.  Returns 0, or -1 with *ERR (T then
 * holds the rows built so far, to be released); "out of memory" is a
 * reason too.
 */
int sframe_fde_table(const struct sframe_view *v, const struct sframe_header *h, const struct sframe_fde *fde,
                     struct unwind_table *t, struct sframe_error *err);

/*
 * The checks that span functions: the FDEs' FRE counts add up to the
 * header's, and an FDE sub-section that SFRAME_F_FDE_SORTED says is
 * sorted is (by start address).  Reads every FDE.  Returns 0, or -1 with
 * *ERR (an unreadable FDE is reported the same way).
 */
int sframe_section_check(const struct sframe_view *v, const struct sframe_header *h, struct sframe_error *err);

/* The FRE of FDE (read by sframe_fre_read from FIRST) that covers ADDR, into
 * *FRE: 1, or 0 when none does.  -1 with *ERR when an FRE cannot be read. */
int sframe_fde_fre_at(const struct sframe_view *v, const struct sframe_header *h, const struct sframe_fde *fde,
                      uint64_t addr, struct sframe_fre *fre, struct sframe_error *err);

#endif
