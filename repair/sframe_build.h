/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sframe_build: the validated table as the bytes of a new .sframe
 * (dwsynth repair --sframe[=1|2|3]).
 *
 * Purpose: unwinders that read SFrame instead of DWARF (glibc's backtrace,
 * the kernel's user-space unwinder, perf) get the same table as the new
 * .eh_frame, for the functions SFrame can express.  The functions are the
 * FDEs the new .eh_frame holds (the file's sound FDEs, kept or repaired, and
 * the added ones it writes), taken by address; each is written by
 * semantics/write/sframe_write from its H_valid rows, or left to .eh_frame and
 * listed with the reason SFrame cannot say its rows (a CFA from a DWARF
 * expression, ra elsewhere than CFA-8, rbp in a register ...; or its range
 * overlaps the function before it).
 *
 * The table must have been built with every FDE's rows (validated_table_build
 * with EVERY_TABLE).  As for .eh_frame: prepare (sizes known), place the
 * section, then write it at its address.
 */
#ifndef DWCHECK_SFRAME_BUILD_H
#define DWCHECK_SFRAME_BUILD_H

#include <stddef.h>
#include <stdint.h>

#include "repair/eh_frame_build.h"
#include "repair/repair_result.h"
#include "semantics/write/sframe_write.h"
#include "verify/audit/audit_input.h"
#include "verify/validated_table.h"

struct sframe_build {
    struct sframe_writer w;
    struct repair_sframe summary;         /* for the report; .left points at LEFT */
    struct repair_sframe_left *left;
    size_t nleft;
    struct cfi_bytes sframe;              /* after sframe_build_write */
};

/*
 * Decide VT's functions as SFrame VERSION (1, 2, 3): the FDEs EB writes into
 * the new .eh_frame, by address; AF names those left out.  Returns 0, or -1
 * with a reason in ERR (out of memory).
 */
int sframe_build_prepare(struct sframe_build *b, unsigned version, const struct validated_table *vt,
                         const struct eh_frame_build *eb, struct audit_input *af, char *err, size_t errlen);

/* The section at ADDR into B->sframe.  Returns 0, or -1 with ERR. */
int sframe_build_write(struct sframe_build *b, uint64_t addr, char *err, size_t errlen);

void sframe_build_release(struct sframe_build *b);

#endif
