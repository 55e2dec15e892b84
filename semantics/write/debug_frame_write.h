/* SPDX-License-Identifier: Apache-2.0 */
/*
 * debug_frame_write: a whole .debug_frame section (DWARF's own call-frame
 * section) as bytes, from the same CIE and FDE specs as eh_frame_write.
 *
 * Purpose: dwsynth repair --debug-frame-only leaves the binary as it is
 * and writes the validated table into a separate debug file, where gdb
 * (and readelf, libdwarf) read .debug_frame; the instructions are those
 * cfi_encode gives for .eh_frame, only the framing differs.
 *
 * Users: dwsynth repair's debug file (object/debug_file); the tests, which
 * compare it byte for byte with what GNU as and ld write, read it back
 * with eh_frame_parse in .debug_frame mode, and have readelf print it.
 *
 * Format, as gas writes it for x86_64 under `.cfi_sections .debug_frame`
 * (dw2gencfi.c, cfi_finish and output_cie/output_fde) and ld keeps it:
 *   - 32-bit DWARF lengths, CIE id 0xffffffff, CIE version 1 (so
 *     ra_column <= 255, as gas refuses a larger one in version 1);
 *   - augmentation "", or "S" for a signal frame, as gas writes it: a
 *     letter without augmentation data, which gdb (dwarf2/frame.c
 *     decode_cie), readelf and eh_frame_parse read without 'z';
 *     no 'z', 'P', 'L' or 'R': the personality, LSDA encoding and the
 *     FDEs' LSDA pointers are not written (debuggers do not run
 *     personality routines; gas drops them from .debug_frame too);
 *   - then code_align (ULEB128), data_align (SLEB128), the ra column
 *     (one byte), the initial instructions as given;
 *   - an FDE: its CIE's offset from the start of the section (absolute,
 *     not relative as in .eh_frame), initial location and address range
 *     as 8-byte absolute values (no augmentation data), its instructions;
 *   - every entry padded with DW_CFA_nop to a multiple of 8, the address
 *     size: gas aligns each .debug_frame entry to 1 << (ffs(8) - 1), where
 *     .eh_frame's are aligned to 4;
 *   - all CIEs first, in the order given, then all FDEs in the order given
 *     (gas puts a CIE before its first FDE; the CIE pointers being
 *     absolute, readers take either order);
 *   - no terminator: ld writes none in .debug_frame.
 *
 * Invariants: addresses are written absolutely, so the bytes do not depend
 * on where the section lies (it is not loaded): one call, no address.
 * Pure: no I/O; the only allocation is OUT's growth.  On any failure, OUT
 * keeps the bytes it had.  The instruction bytes are copied as they are:
 * their validity is cfi_encode's and the caller's business.
 */
#ifndef DWCHECK_DEBUG_FRAME_WRITE_H
#define DWCHECK_DEBUG_FRAME_WRITE_H

#include <stddef.h>
#include <stdint.h>

#include "semantics/write/cfi_encode.h"
#include "semantics/write/eh_frame_write.h"

/*
 * The size in *SIZE of the .debug_frame that debug_frame_write would
 * write for these specs (eh_frame_write's; personality_encoding,
 * personality, lsda_encoding and every FDE's lsda are ignored).  Returns
 * 0, or -1 with *WHY (a static string) when they cannot be written: an
 * FDE naming no CIE, a return-address column past 255, an entry or the
 * section past 32-bit lengths and offsets.
 */
int debug_frame_size(const struct eh_cie_spec *cies, size_t ncies, const struct eh_fde_spec *fdes, size_t nfdes,
                     uint64_t *size, const char **why);

/*
 * Append to OUT the .debug_frame of CIES and FDES: exactly
 * debug_frame_size bytes.  Returns 0; -1 with *WHY (a static string) for
 * debug_frame_size's reasons; -2 when out of memory.
 */
int debug_frame_write(const struct eh_cie_spec *cies, size_t ncies, const struct eh_fde_spec *fdes, size_t nfdes,
                      struct cfi_bytes *out, const char **why);

#endif
