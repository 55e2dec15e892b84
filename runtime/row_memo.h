/* SPDX-License-Identifier: Apache-2.0 */
/*
 * row_memo: the rows the DWARF fallback interpreted for one object file,
 * kept by address, so that an address space walks each return address's
 * .eh_frame program once however many samples pass through it.
 *
 * One memo per object file (object_file.c), shared by every space that
 * maps the file, so guarded by a lock of its own: address spaces are not
 * async-signal-safe, and this process's walks (which are) never use one.
 * A kept row's expressions point into the file's mapped image, which
 * lives as long as the memo.  The memo grows with the addresses met, up to
 * ROW_MEMO_MAX rows; past that, rows are interpreted each time.
 */
#ifndef DWUNWIND_ROW_MEMO_H
#define DWUNWIND_ROW_MEMO_H

#include <stdint.h>

#include "dwunwind.h"
#include "objects.h"

#define ROW_MEMO_MAX (1u << 16)

struct dwu_row_memo;

/* An empty memo, or NULL when out of memory. */
struct dwu_row_memo *dwu_row_memo_new(void);

void dwu_row_memo_free(struct dwu_row_memo *memo);

/* dwu_dwarf_step (dwarf_fallback.h) with the row at LOOKUP_PC kept in
 * MEMO: the same results. */
int dwu_row_memo_step(struct dwu_row_memo *memo, const struct dwu_object *obj, uint64_t lookup_pc,
                      const struct dwu_regs *in, struct dwu_regs *out, const struct dwu_memory *mem);

#endif
