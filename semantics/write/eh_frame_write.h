/* SPDX-License-Identifier: Apache-2.0 */
/*
 * eh_frame_write: a whole .eh_frame section (CIEs, FDEs, zero terminator)
 * and its .eh_frame_hdr, as bytes, at given run-time addresses: the
 * inverse of eh_frame_parse's framing.
 *
 * Purpose: a validated unwind table is written back into a binary (dwsynth
 * repair puts it in a new loadable segment).  cfi_encode gives each FDE's
 * instruction bytes; this module frames them as the linkers do, so that
 * libgcc, libunwind, gdb and perf read the result like any ld output.
 *
 * Users: dwsynth repair (through the validated table); the tests, which
 * read what it writes back with eh_frame_parse and with libgcc's
 * __register_frame/_Unwind_Find_FDE.
 *
 * Format, as GCC and GNU ld write it on x86_64:
 *   - 32-bit DWARF lengths, CIE id 0, CIE version 1 (so ra_column <= 255);
 *   - augmentation "z", then "P" with a personality, "L" with an LSDA
 *     encoding, "R", and "S" for a signal frame, the data in that order;
 *   - every FDE's pc_begin and pc_range in DW_EH_PE_pcrel|sdata4 (0x1b):
 *     pc_begin within +-2 GiB of its field, pc_range below 2 GiB;
 *   - all CIEs first, in the order given, then all FDEs in the order given,
 *     so that every CIE pointer counts back, as .eh_frame requires;
 *   - each entry padded with DW_CFA_nop to a multiple of 4 bytes, as gas
 *     pads them (frag_align 2 between entries, 8 only after an object's
 *     last FDE: libc's FDEs are 4 mod 8 as often as 0), then a 4-byte
 *     zero terminator;
 *   - the personality and LSDA pointers re-encoded at their new field with
 *     the encoding given: a format of absptr (8 bytes), udata4, sdata4,
 *     udata8 or sdata8, applied absolutely or pc-relative, the indirect bit
 *     kept.  Other encodings (LEB128, 2-byte, textrel, datarel, funcrel,
 *     aligned) are refused: LEB128 would make a size depend on an address,
 *     and the others need bases a section writer does not know.
 *
 * Invariants: a section's size depends on the specs alone, never on the
 * addresses (every pointer has a fixed width), so that a caller lays out
 * first (eh_frame_size, eh_frame_hdr_size) and writes second, at the
 * addresses the layout gave.  Pure: no I/O; the only allocation is OUT's
 * growth (and a scratch array freed before returning).  On any failure,
 * OUT keeps the bytes it had.  The instruction bytes are copied as they
 * are: their validity is cfi_encode's and the caller's business.
 */
#ifndef DWCHECK_EH_FRAME_WRITE_H
#define DWCHECK_EH_FRAME_WRITE_H

#include <stddef.h>
#include <stdint.h>

#include "semantics/write/cfi_encode.h"

/* One CIE to write.  The fields mean what struct eh_frame_cie's fields mean. */
struct eh_cie_spec {
    uint64_t code_align;
    int64_t data_align;
    unsigned ra_column;             /* <= 255 (version 1's one-byte column) */
    int signal_frame;               /* 'S' */
    uint8_t personality_encoding;   /* DW_EH_PE_*, DW_EH_PE_omit when none */
    uint64_t personality;           /* the value as encoded: a GOT slot's address when DW_EH_PE_indirect */
    uint8_t lsda_encoding;          /* DW_EH_PE_omit when its FDEs carry no LSDA pointer */
    const uint8_t *insns;           /* initial instructions, copied as they are */
    size_t insns_len;
};

/* One FDE to write. */
struct eh_fde_spec {
    size_t cie;                     /* index into the CIE array */
    uint64_t pc_begin, pc_range;
    uint64_t lsda;                  /* address of its LSDA; 0 = none, written as a zero field (libgcc
                                     * reads a zero field as no LSDA whatever the encoding) when the
                                     * CIE has an LSDA encoding; must be 0 when it has none */
    const uint8_t *insns;           /* instructions (cfi_encode_fde's output), copied as they are */
    size_t insns_len;
};

/*
 * The size in *SIZE of the .eh_frame that eh_frame_write would write for
 * these specs, wherever it is written.  Returns 0, or -1 with *WHY (a
 * static string) when the specs cannot be written at any address: an FDE
 * naming no CIE, an LSDA without an LSDA encoding, an unsupported pointer
 * encoding, a return-address column past 255, an entry or a section
 * past 32-bit lengths.
 */
int eh_frame_size(const struct eh_cie_spec *cies, size_t ncies, const struct eh_fde_spec *fdes, size_t nfdes,
                  uint64_t *size, const char **why);

/*
 * Append to OUT the .eh_frame of CIES and FDES, its first byte at run-time
 * address ADDR (a multiple of 4; ld aligns .eh_frame to 8).  FDE_ADDRS
 * (NULL, or NFDES entries) receives each FDE's address, for the header
 * (partly written when the call fails).  Appends exactly eh_frame_size
 * bytes and returns 0; -1 with *WHY (a static string) when something
 * cannot be encoded (eh_frame_size's reasons, a pointer out of its
 * encoding's range at this address); -2 when out of memory.
 */
int eh_frame_write(const struct eh_cie_spec *cies, size_t ncies, const struct eh_fde_spec *fdes, size_t nfdes,
                   uint64_t addr, struct cfi_bytes *out, uint64_t *fde_addrs, const char **why);

/* The size of an entry (CIE or FDE) of HEAD bytes, length field included,
 * then INSNS_LEN bytes of instructions, padded with DW_CFA_nop to a
 * multiple of ALIGN (a power of two): 0, or -1 past a 32-bit length.  For
 * the .debug_frame writer too. */
int eh_frame_write_entry_size(uint64_t head, size_t insns_len, unsigned align, uint64_t *size);

/* The size of the .eh_frame_hdr of N FDEs: 12 bytes, then 8 per FDE. */
uint64_t eh_frame_hdr_size(size_t n);

/*
 * Append to OUT the .eh_frame_hdr, at run-time address HDR_ADDR, of the
 * .eh_frame at EH_FRAME_ADDR whose FDEs start at PC_BEGINS[k] and lie at
 * FDE_ADDRS[k]: version 1, eh_frame_ptr pcrel|sdata4 (0x1b), fde_count
 * udata4 (0x03), and the search table datarel|sdata4 (0x3b), pairs
 * (pc_begin, FDE address) sorted by pc_begin (then FDE address), as ld
 * --eh-frame-hdr writes it.  Appends eh_frame_hdr_size(N) bytes and returns
 * 0; -1 with *WHY when an address is beyond +-2 GiB of HDR_ADDR (or N does
 * not fit 32 bits); -2 when out of memory.
 */
int eh_frame_hdr_write(uint64_t hdr_addr, uint64_t eh_frame_addr, const uint64_t *pc_begins,
                       const uint64_t *fde_addrs, size_t n, struct cfi_bytes *out, const char **why);

#endif
