/* SPDX-License-Identifier: Apache-2.0 */
/*
 * symbol_table_private: the symbol table's representation, shared by the
 * files of the symbol_table module only (symbol_table.c reads objects and
 * answers lookups, symbol_tree.c builds perf's tree and the ranges of its
 * descent, symbol_store.c writes and reads a table in the cache).
 */
#ifndef DWCHECK_PROFILE_SYMBOL_TABLE_PRIVATE_H
#define DWCHECK_PROFILE_SYMBOL_TABLE_PRIVATE_H

#include <stddef.h>
#include <stdint.h>

#include "symbol_table.h"

#define NONE (-1)
#define PERF_PAGE 4096u   /* perf's rounding of the last symbol's end */

struct symbol {
    uint64_t start, end;        /* perf's [start, end), in perf's addresses */
    size_t name;                /* offset in the table's names */
    uint8_t type, bind;
    uint8_t red;
    int32_t left, right, parent;   /* the red-black tree; NONE at a leaf */
};

/* From START up to the next range's start, the descent finds SYMBOL (or NONE). */
struct range {
    uint64_t start;
    int32_t symbol;
};

/* A range as the cache stores it (symbol_store): its start, its symbol's
 * start and the name's offset, or STORED_NO_NAME for no symbol. */
struct stored_range {
    uint64_t start, symbol_start, name;
};
#define STORED_NO_NAME UINT64_MAX

/* A PT_LOAD: own addresses [vaddr, vaddr + memsz) lie at file offset offset + (a - vaddr). */
struct segment {
    uint64_t vaddr, memsz, offset;
};

struct symbol_table {
    struct symbol *symbols;     /* every node ever inserted; erased ones are out of the tree */
    size_t nsymbols, symbols_cap;
    int32_t root;
    size_t in_tree;
    char *names;
    size_t names_len, names_cap;
    struct range *ranges;
    size_t nranges;
    struct segment *segments;   /* none: own addresses are perf's (kallsyms) */
    size_t nsegments;
    /* A table read from the cache is its file mapped, read in place: NRANGES
     * of STORED_RANGES, their names in STORED_NAMES (NAMES_LEN bytes, the
     * last a NUL); SYMBOLS, RANGES and NAMES are then empty. */
    const struct stored_range *stored_ranges;
    const char *stored_names;
    void *map;
    size_t map_size;
    char source[4096];          /* the file the symbols came from, "" if none */
};

/* Append NAME (LEN bytes) to T's names; its offset in *AT.  0, or -1 out of memory. */
int symbol_table_add_name(struct symbol_table *t, const char *name, size_t len, size_t *at);

/* Insert a symbol into T's tree as perf's __symbols__insert does.  0, or -1. */
int symbol_table_add(struct symbol_table *t, uint64_t start, uint64_t size, uint8_t bind, uint8_t type,
                     const char *name, size_t len);

/* symbols__fixup_end (KALLSYMS: the kernel's and modules' edge rule). */
void symbol_table_fixup_end(struct symbol_table *t, int kallsyms);

/* symbols__fixup_duplicate: one symbol per start, the one perf prefers. */
void symbol_table_fixup_duplicates(struct symbol_table *t);

/* The descent's answer at every address, into T->ranges.  0, or -1. */
int symbol_table_build_ranges(struct symbol_table *t);

#endif
