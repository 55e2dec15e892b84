/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sframe_print: an .sframe section in the layout of `readelf --sframe`.
 *
 * The section is printed from what sframe_parse decodes, FRE by FRE, as
 * the readelf of the binutils that writes that version prints it, so the
 * two diff byte for byte:
 *
 *   V1: binutils 2.40's readelf (Debian 12).  Its quirks are kept: the RA
 *       column shows `u` when the header fixes the RA's offset; a PCMASK
 *       FDE's STARTPC is the FRE's offset in its block, not an address; the
 *       Flags line names one flag (SFRAME_F_FRAME_POINTER wins over
 *       SFRAME_F_FDE_SORTED, as 2.40's string copy does); a CFA offset the
 *       FRE lacks prints as -1 (its error value), and an RA cell the FRE
 *       lacks repeats the FP cell (its reused buffer).
 *   V2, V3: binutils 2.46's: one flag a line, the header's fixed FP and RA
 *       offsets, `f` for a fixed RA, `RA undefined` for an FRE without data
 *       words, `attr = "S"`/`"F"` for signal and flexible FDEs, and a
 *       flexible FRE's rules as `fp+16`, `(fp-8)` (dereferenced), `c-8`
 *       (CFA-based), `r12`, `U` (padding for an RA not tracked).
 *
 * Printers write to a FILE and never fail on their own; callers check
 * ferror() once at the end.
 */
#ifndef DWCHECK_SEMANTICS_SFRAME_PRINT_H
#define DWCHECK_SEMANTICS_SFRAME_PRINT_H

#include <stdio.h>

#include "semantics/sframe_parse.h"

/* "\n  Header :\n\n    Version: ..." up to "    Num FREs: N\n". */
void sframe_print_header(FILE *out, const struct sframe_header *h);

/* "\n    func idx [I]: pc = 0x..., size = N bytes" and the column headings. */
void sframe_print_fde_heading(FILE *out, const struct sframe_header *h, const struct sframe_fde *fde);

/* One FRE's row: "\n    <STARTPC>  sp+16     c-16      u            ". */
void sframe_print_fre(FILE *out, const struct sframe_header *h, const struct sframe_fde *fde,
                      const struct sframe_fre *fre);

/*
 * The whole section (named NAME): "Contents of the SFrame section NAME:",
 * the header, then every FDE and its FREs.  Returns 0, or -1 with *ERR
 * when part of it cannot be read (the output stops there).
 */
int sframe_print_section(FILE *out, const struct sframe_view *v, const char *name, struct sframe_error *err);

#endif
