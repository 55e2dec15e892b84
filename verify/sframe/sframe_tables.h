/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sframe_tables: a file's .sframe section as tables of H, for the audit.
 *
 * Purpose: dwcheck evaluates every SFrame row in the state synthesis
 * derives at each address (verify/sframe/sframe_check), as it does DWARF rows; it
 * needs the row covering an address, and which code the section covers at
 * all.  This module reads the section (semantics/sframe_parse: V1, V2, V3)
 * once through, building each SFrame FDE's table to check it, and keeps
 * the FDEs sorted by address; a lookup builds the table of the FDE it
 * lands in again, and keeps that one (addresses come function by function,
 * as fde_lookup's do): memory for one table, not the section's rows.
 *
 * Nothing is trusted: a header that does not decode leaves no table; an
 * FDE that does not read, or whose FREs do not make a table, is left out
 * (its rows are never checked) and reported; so are the checks across
 * FDEs (FRE counts, the sorted flag) and FDEs that overlap, which an
 * unwinder's binary search cannot tell apart.  Each report is one message
 * to a callback, with the section offset it is about and, for an FDE whose
 * start could be read, the function's address: verify/sframe/sframe_check makes
 * `malformed-sframe` findings of them.  Never a crash, whatever the bytes.
 *
 * Ownership: the section's bytes belong to the elf_file, which must
 * outlive the sframe_tables (a lookup reads them); a row returned lives
 * until the next lookup.  sframe_tables_release frees everything else.
 */
#ifndef DWCHECK_SFRAME_TABLES_H
#define DWCHECK_SFRAME_TABLES_H

#include <stddef.h>
#include <stdint.h>

#include "object/elf_file.h"
#include "semantics/sframe_parse.h"
#include "semantics/unwind_table.h"

/* One SFrame FDE that reads, over code. */
struct sframe_function {
    struct sframe_fde fde;          /* index, offset, and what its table is built from */
    uint64_t start, end;            /* [start, end) */
    uint64_t rows_start, rows_end;  /* what its rows cover (contiguous: from its first
                                       FRE's start to its end); empty when it has none */
    int malformed;                  /* its FREs make no table (reported): no rows */
};

struct sframe_tables {
    int present;                    /* the file has a .sframe section */
    int header_ok;                  /* its header decodes: HEADER holds it */
    struct sframe_header header;
    struct sframe_view view;        /* the section's bytes (the elf_file's) */
    uint64_t section_addr;          /* sh_addr of the section */
    size_t fdes;                    /* FDEs the header counts (0 when it does not decode) */
    struct sframe_function *funcs;  /* the FDEs that read, over code, by start address */
    size_t n;
    size_t current;                 /* the function whose table TABLE is, or (size_t)-1 */
    struct unwind_table table;
};

/* A malformed part: at section offset OFFSET; FUNC_ADDR the address of the
 * function it is about, or 0 when it concerns the section (or the FDE's
 * start could not be read).  MESSAGE is whole and borrowed for the call. */
typedef void (*sframe_malformed_fn)(void *arg, uint64_t func_addr, uint64_t offset, const char *message);

/*
 * Read EF's .sframe into T (initialised here; release with
 * sframe_tables_release).  A file without the section gives T->present 0.
 * Malformed parts go to FN (ARG) as they are found.  Returns 0, or -1 when
 * out of memory (T then holds what was read).
 */
int sframe_tables_read(struct sframe_tables *t, struct elf_file *ef, sframe_malformed_fn fn, void *arg);
void sframe_tables_release(struct sframe_tables *t);

/* The SFrame row covering ADDR, or NULL; *FUNC (may be NULL) its function. */
const struct unwind_row *sframe_tables_row_at(struct sframe_tables *t, uint64_t addr,
                                              const struct sframe_function **func);

/* How SFrame's rows cover an address range (an FDE reported malformed
 * counts as covering its range: it is said once). */
enum sframe_coverage {
    SFRAME_COVERED,                 /* a row at every address */
    SFRAME_GAP,                     /* FDEs overlap it, but some addresses have no row */
    SFRAME_UNCOVERED,               /* no SFrame FDE overlaps it */
};

/* How T covers [LO, HI); for SFRAME_GAP, the first stretch without a row
 * in [*GAP_LO, *GAP_HI).  (Of FDEs that overlap one another, reported
 * malformed, one that starts before LO may be missed.) */
enum sframe_coverage sframe_tables_coverage(const struct sframe_tables *t, uint64_t lo, uint64_t hi,
                                            uint64_t *gap_lo, uint64_t *gap_hi);

#endif
