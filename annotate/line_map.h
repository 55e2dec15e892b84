/* SPDX-License-Identifier: Apache-2.0 */
/*
 * line_map: instruction address to source line, from .debug_line.
 *
 * Built with libdwarf from an object or executable assembled with `-g`.
 * Only the rows of one source file are kept as lines; rows of other files
 * (an #include, a .include) keep their address with line 0, so that an
 * address inside them maps to no line of the source rather than to the
 * line before.  GAS emits one row per source line that emits an
 * instruction, at the line's first byte; a row covers the addresses up to
 * the next row.
 */
#ifndef DWCHECK_LINE_MAP_H
#define DWCHECK_LINE_MAP_H

#include <stddef.h>
#include <stdint.h>

#include "object/elf_file.h"

struct line_row {
    uint64_t addr;
    uint32_t line;           /* 0: another file, or the end of a sequence */
    uint32_t order;          /* position in the table, to sort stably */
};

struct line_map {
    struct line_row *rows;   /* sorted by address */
    size_t nrows;
};

/*
 * Read EF's .debug_line, keeping SOURCE's lines (SOURCE names the file as
 * the compiler was given it; names are compared after resolving them).
 * A file without line information gives an empty map.  Returns 0, or -1
 * with a reason in ERR.
 */
int line_map_read(struct line_map *m, struct elf_file *ef, const char *source, char *err,
                  size_t errlen);
void line_map_release(struct line_map *m);

/* The source line of the instruction at ADDR, or 0 when unknown. */
uint32_t line_map_line_at(const struct line_map *m, uint64_t addr);

#endif
