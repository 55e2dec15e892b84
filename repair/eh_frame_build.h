/* SPDX-License-Identifier: Apache-2.0 */
/*
 * eh_frame_build: the validated table as the bytes of a new .eh_frame and
 * .eh_frame_hdr.
 *
 * Purpose: dwsynth repair writes H_valid into a copy of the file.  Every
 * FDE H_valid keeps as DWARF gave it is copied as the compiler wrote it
 * (its instructions byte for byte: remember/restore_state, args_size and
 * columns past the 17 a table keeps are all preserved), with its CIE's
 * personality and its LSDA; every repaired FDE is encoded from its H_valid
 * rows by cfi_encode under its own CIE; every added FDE under one new CIE
 * (GCC's: code alignment 1, data alignment -8, ra 16, CFA rsp+8, ra at
 * CFA-8).  FDEs whose range is no code (cfi_reader's faults) are left out.
 *
 * A repaired FDE whose DWARF program describes what H does not keep —
 * columns past the 17 — is not re-encoded: it is kept as it was and
 * listed, with the reason, among the FDEs not repaired.  So is one
 * cfi_encode refuses.  (The landing pads' argument area,
 * DW_CFA_GNU_args_size, is kept: H's rows carry it.)
 *
 * Limit: an FDE copied as written keeps its bytes; one whose program placed
 * rows with DW_CFA_set_loc (an address in the CIE's pointer encoding,
 * pc-relative ones included) would need encoding again to move.  No
 * compiler or assembler writes set_loc for x86_64, and none of this
 * system's FDEs (2,006 files) uses it.
 *
 * Sizes do not depend on addresses: prepare, then ask the sizes, place the
 * sections (object/elf_rewrite), then write them at their addresses.
 */
#ifndef DWCHECK_EH_FRAME_BUILD_H
#define DWCHECK_EH_FRAME_BUILD_H

#include <stddef.h>
#include <stdint.h>

#include "semantics/write/cfi_encode.h"
#include "semantics/cfi_reader.h"
#include "semantics/write/eh_frame_write.h"
#include "verify/validated_table.h"

/* An FDE H_valid repairs that is written as it was, and why. */
struct unrepaired_fde {
    const struct validated_fde *fde;
    const char *why;                  /* static */
};

struct eh_frame_build {
    struct eh_cie_spec *cies;         /* the file's CIEs, then the new one */
    size_t ncies;
    struct eh_fde_spec *fdes;
    size_t nfdes;
    struct cfi_bytes *encoded;        /* per FDE: its instructions when encoded here */
    size_t cap;                       /* entries of the per-FDE arrays */
    uint64_t *pc_begins, *fde_addrs;  /* per FDE, for the header */
    struct unrepaired_fde *unrepaired;
    size_t nunrepaired;
    size_t dropped;                   /* the file's FDEs of no code, left out */
    uint64_t eh_frame_size, eh_frame_hdr_size;
    struct cfi_bytes eh_frame, eh_frame_hdr;   /* after eh_frame_build_write */
};

/*
 * The specs of VT's FDEs (the file's section EH gave them; EH may have no
 * entries when the file had no .eh_frame), encoded where repaired, and the
 * sections' sizes.  Returns 0, or -1 with a reason in ERR (out of memory, a
 * CIE whose pointer encodings cannot be written again).
 */
int eh_frame_build_prepare(struct eh_frame_build *b, const struct validated_table *vt,
                           const struct cfi_section *eh, char *err, size_t errlen);

/* Write both sections, .eh_frame at EH_FRAME_ADDR and .eh_frame_hdr at
 * HDR_ADDR, into B->eh_frame and B->eh_frame_hdr.  Returns 0, or -1 with ERR. */
int eh_frame_build_write(struct eh_frame_build *b, uint64_t eh_frame_addr, uint64_t hdr_addr, char *err,
                         size_t errlen);

void eh_frame_build_release(struct eh_frame_build *b);

#endif
