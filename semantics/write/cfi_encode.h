/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cfi_encode: an FDE's call-frame instructions from its table H, the
 * inverse of cfa_program.
 *
 * Purpose: a table built or repaired outside DWARF (the validated table)
 * must be written back as bytes that libgcc, libunwind, gdb and perf read.
 * Given the parameters and the final state of the CIE the FDE will name,
 * the rows become, row after row: an advance of the smallest width that
 * holds the distance, then only what changed — the CFA by
 * def_cfa_offset or def_cfa_register where one operand changed, def_cfa
 * (or its _sf form) where both did, def_cfa_expression; each register by
 * restore where it returns to the CIE's rule, offset / offset_extended_sf,
 * val_offset(_sf), register, undefined, same_value, expression,
 * val_expression; and DW_CFA_GNU_args_size where a row's argument area
 * changes.  Rows that repeat the one before (rules and argument area) are
 * merged.  cfa_program_run on the bytes, from the same CIE state, gives H
 * back: decode(encode(H)) == H, rows merged where they are equal.
 *
 * Where a row comes back to the state an earlier change left (an epilogue
 * in the middle of a function), remember_state before that change and
 * restore_state at the return say it in two bytes, when that is shorter
 * than writing the change back (one level deep, within 64 rows).  Not
 * written: columns past the 17 a table keeps.
 *
 * Pure: bytes out into a buffer the caller releases; no libdwarf.
 */
#ifndef DWCHECK_CFI_ENCODE_H
#define DWCHECK_CFI_ENCODE_H

#include <stddef.h>
#include <stdint.h>

#include "semantics/cfa_program.h"
#include "semantics/unwind_table.h"

struct cfi_bytes {
    uint8_t *b;
    size_t n, cap;
};

void cfi_bytes_release(struct cfi_bytes *out);

/* Room for N more bytes in OUT (its capacity grown, its bytes kept): 0, or
 * -2 when out of memory.  For the section writers too. */
int cfi_bytes_reserve(struct cfi_bytes *out, uint64_t n);

/*
 * Append to OUT the instructions of an FDE covering T, whose CIE has
 * parameters CIE (code and data alignment) and leaves state INITIAL.
 * Returns 0; -1 with *WHY (a static string) when a rule cannot be written
 * with this CIE (an unknown rule, an offset that is no multiple of the
 * data alignment, an address not a multiple of the code alignment, a
 * register past DWARF's columns); -2 when out of memory.
 */
int cfi_encode_fde(const struct unwind_table *t, const struct cfa_cie_params *cie,
                   const struct cfi_state *initial, struct cfi_bytes *out, const char **why);

#endif
