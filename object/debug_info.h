/* SPDX-License-Identifier: Apache-2.0 */
/*
 * debug_info: names and source lines for an object's addresses, from its
 * own symbols and line table or from its separate debug file.
 *
 * Purpose: a finding in a stripped library must still say where it is.
 * Debian installs debug files as /usr/lib/debug/.build-id/NN/REST.debug
 * (the object's GNU build-id, split after its first byte), and some
 * objects name theirs in .gnu_debuglink (looked for next to the object, in
 * its .debug/ folder, and under /usr/lib/debug).  A debug file is used
 * only when its build-id is the object's (found by .gnu_debuglink for an
 * object without a build-id: when the debug file has none either).
 *
 * Names: the function symbol (.symtab, then .dynsym) whose range holds the
 * address, from the debug file first.  Lines: the .debug_line row that
 * covers the address, as "file:line", read with libdwarf on first use:
 * only the compilation unit .debug_aranges says holds the address (a few
 * findings in libc need a few of its 1,500 units), every unit when there
 * are no ranges to go by or after DEBUG_INFO_UNITS_ONE_BY_ONE units.
 *
 * Ownership: a debug_info borrows the object's elf_file and owns the debug
 * file it opened and the tables it built; release it before the object.
 * Bounded: at most DEBUG_INFO_MAX_ROWS line rows are kept.
 */
#ifndef DWCHECK_DEBUG_INFO_H
#define DWCHECK_DEBUG_INFO_H

#include <stddef.h>
#include <stdint.h>

#include "object/elf_file.h"

#define DEBUG_INFO_MAX_ROWS ((size_t)16 << 20)
#define DEBUG_INFO_UNITS_ONE_BY_ONE 64

struct debug_line_row;

struct debug_info {
    struct elf_file *object;            /* borrowed */
    struct elf_file debug;              /* the separate debug file, when found */
    int have_debug;
    char debug_path[4096];
    const struct elf_symbol **functions;   /* function symbols with a size, by address */
    size_t nfunctions;
    int lines_read;                     /* every unit's rows are in */
    void *dwarf;                        /* libdwarf's handle while units are read one by one */
    void *aranges;                      /* its address ranges (Dwarf_Arange *) */
    long long naranges;
    uint64_t units_read[DEBUG_INFO_UNITS_ONE_BY_ONE];   /* their offsets */
    size_t nunits_read;
    struct debug_line_row *rows;        /* by address */
    size_t nrows, rows_cap;
    char **files;                       /* file names the rows point at */
    size_t nfiles;
    uint32_t *file_slots;               /* hash table of files: index + 1, 0 empty */
    size_t nfile_slots;
};

/* Find OBJECT's debug information (none is not an error).  Returns 0, or -1
 * when out of memory. */
int debug_info_open(struct debug_info *di, struct elf_file *object);
void debug_info_close(struct debug_info *di);

/* The function symbol whose range holds ADDR: its name and *START, or NULL. */
const char *debug_info_function(const struct debug_info *di, uint64_t addr, uint64_t *start);

/* A name for the function of ADDR whose code starts at *START (0: unknown):
 * its symbol (then *START is the symbol's), else "SECTION+0xOFF" of *START
 * (or of ADDR), else "0x..." — never "".  Writes at most SIZE bytes. */
void debug_info_name(const struct debug_info *di, uint64_t addr, uint64_t *start, char *buf, size_t size);

/* "file:line" of the instruction at ADDR into BUF (a path too long for it
 * keeps its end: "...dir/file.c:12"); 0, or -1 when unknown. */
int debug_info_line(struct debug_info *di, uint64_t addr, char *buf, size_t size);

/*
 * Every row of EF's .debug_line tables, in table order, to FN: the address,
 * the line (0 at the end of a sequence) and the file's name (NULL there),
 * borrowed for the call.  FN returns 0 to go on, non-zero to stop.
 * Returns 0 (a file without DWARF has no rows), FN's non-zero value, or -1
 * with a reason in ERR when libdwarf cannot read the tables.
 */
typedef int (*debug_line_fn)(void *arg, uint64_t addr, uint32_t line, const char *file);
int debug_line_rows(struct elf_file *ef, debug_line_fn fn, void *arg, char *err, size_t errlen);

#endif
