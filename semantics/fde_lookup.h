/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fde_lookup: the DWARF row that covers an address.
 *
 * FDEs sorted by address, with the table (H) of the last FDE asked for kept,
 * so that a walk through a function's addresses builds each table once.
 * Only FDEs whose range is code of the file are looked up: an empty one, or
 * one with a fault (cfi_reader.h), covers no address here.
 * Borrows the section; release before the section.
 */
#ifndef DWCHECK_FDE_LOOKUP_H
#define DWCHECK_FDE_LOOKUP_H

#include "cfi_eval.h"
#include "cfi_reader.h"
#include "unwind_table.h"

struct fde_lookup {
    struct cfi_eval ev;
    const struct eh_frame_fde **by_pc;  /* FDEs with a non-empty range and no fault, by pc_begin */
    size_t n;
    size_t current;                /* index in by_pc of `table`, or (size_t)-1 */
    struct unwind_table table;
    int table_ok;
    struct cfa_error table_error;  /* why the current FDE's program is malformed */
};

/* Returns 0, or -1 when out of memory. */
int fde_lookup_init(struct fde_lookup *l, const struct cfi_section *s);
void fde_lookup_release(struct fde_lookup *l);

/* The FDE covering ADDR (the last one starting at or before it), or NULL. */
const struct eh_frame_fde *fde_lookup_fde(struct fde_lookup *l, uint64_t addr);

/* The row covering ADDR, or NULL when no FDE covers it or its program is
 * malformed (then *FDE is still set and l->table_error says why). */
const struct unwind_row *fde_lookup_row(struct fde_lookup *l, uint64_t addr,
                                        const struct eh_frame_fde **fde);

#endif
