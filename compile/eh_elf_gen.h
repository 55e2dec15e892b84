/* SPDX-License-Identifier: Apache-2.0 */
/*
 * eh_elf_gen: an object's unwind tables (H) compiled to C.
 *
 * The generated file defines the entry point of runtime/dwunwind.h,
 * `dwu_eh_elf_step(pc, in, out, mem)`, for one object:
 *   - every row of every table becomes an entry of a sorted array of row
 *     starts (32-bit offsets) with the number of its row body; neighbours
 *     with the same body merge, and the space between FDEs is a row with no
 *     information;
 *   - a page index, 32 bits per 64 bytes of code, holds the row body itself
 *     where one row covers the page (most pages), and otherwise where the
 *     page's few entries are: a cold lookup touches one or two cache lines
 *     of tables;
 *   - each distinct row body — the code that computes the CFA and restores
 *     rip, rsp, rbp, rbx, r12-r15 and whatever else the row describes — is
 *     written once, as one case of a switch (libc's 24,000 rows have a few
 *     hundred bodies);
 *   - each distinct DWARF expression is a C function.
 * Memory reads go straight to memory when MEM is NULL and through
 * MEM->read otherwise (the bounds-checked mode).
 *
 * The generated C includes nothing but <stdint.h> and <string.h>: the ABI
 * declarations of dwunwind.h are copied into it.
 */
#ifndef DWCHECK_EH_ELF_GEN_H
#define DWCHECK_EH_ELF_GEN_H

#include <stddef.h>
#include <stdio.h>

#include "runtime/identity.h"
#include "semantics/unwind_table.h"

struct eh_elf_stats {
    size_t tables;          /* FDE tables compiled */
    size_t rows;            /* rows in those tables */
    size_t entries;         /* entries of the row array, after merging and gaps */
    size_t bodies;          /* distinct row bodies */
    size_t expressions;     /* distinct DWARF expressions */
};

/*
 * Write the C of the eh_elf for TABLES (any order; overlapping parts of a
 * later table are dropped) to OUT.  PROVENANCE (NULL, or per table NULL or
 * one enum provenance of verify/validated_table per row) makes each row's
 * step set DWU_FLAG_SYNTHESISED or DWU_FLAG_UNCHECKED in the registers it
 * gives (dwcompile --repair).  OBJECT names the object in a comment
 * (escaped: no path can end the comment or inject code);
 * ID is its identity, which the runtime checks before using the eh_elf.
 * Returns 0, or -1 with a reason in ERR (code spanning 4 GiB or more, an
 * undecodable expression, out of memory, or a write error: the system's
 * reason, `No space left on device`, OUT's error indicator then set, so
 * that the caller can name the output rather than the object).
 */
int eh_elf_generate(FILE *out, const struct unwind_table *const *tables, const uint8_t *const *provenance,
                    size_t ntables, const char *object, const struct dwu_identity *id,
                    struct eh_elf_stats *stats, char *err, size_t errlen);

#endif
