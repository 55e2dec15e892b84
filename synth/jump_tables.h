/* SPDX-License-Identifier: Apache-2.0 */
/*
 * jump_tables: where an indirect jump can go — switch tables and computed
 * gotos.
 *
 * A jump table is found from the instructions before its jump, lowered by
 * the decoder into IR_AUX_* facts:
 *   lea T(%rip),%t; movslq (%t,%i,4),%r; add %t,%r; jmp *%r
 *   (or add %r,%t; jmp *%t)
 *                        a position-independent table of 32-bit offsets
 *                        from the table (GCC and clang -fPIC/-fPIE), or
 *                        from a label of the code (glibc's vfprintf)
 *   jmp *T(,%i,8), or mov T(,%i,8),%r; jmp *%r
 *                        a table of addresses (non-PIC code; in a PIC file
 *                        its entries are R_X86_64_RELATIVE relocations)
 *   -O0: lea 0(,%i,4),%r; mov (%a,%b,1),%r32 with one of a, b the table
 * or, failing that, from the values the interpreter finds in those
 * registers at the jump (constants, or an entry loaded from a table of
 * addresses in another block): jump_tables_from_values, after a pass of
 * the dataflow.  Where the code bounds the index (cmp $N,%i; ja default)
 * exactly N + 1 entries are read, and those that leave the function hand
 * the frame to where they lead (its .cold part: a table exit); otherwise
 * entries are read while they name instructions of the function other than
 * padding, up to the next of its tables.
 *
 * A jump no table explains may be a computed goto (GCC's &&label): it may
 * reach any label whose address the function takes (address_taken_labels:
 * with a lea, an immediate moved into a register or memory in code that is
 * not moved at load time (ET_EXEC), or in a table of labels).
 *
 * Invariants: for the indirect jump at instruction index j, its targets are
 * targets[first[j] .. first[j] + count[j]) (instruction indices of the
 * function; first, count and read are NULL until a table is read); exits
 * with .jump == j are its cases outside the function, grouped by jump.
 *
 * What is found reaches the blocks and the fixpoint as data: synthesize
 * hands the targets, the exits (struct table_exit, cfg.h) and the labels to
 * cfg_build (struct cfg_links).  This module reads the blocks and their
 * states after a pass (jump_tables_from_values, jump_tables_find_labels):
 * a client of the cfg and the dataflow, never read by them.
 *
 * Ownership: struct jump_tables owns its arrays (jump_tables_release) and
 * lives for one pass of the block graph; struct known_tables and struct
 * address_taken_labels own theirs and live across passes (the caller frees
 * .table and .at).
 */
#ifndef DWCHECK_JUMP_TABLES_H
#define DWCHECK_JUMP_TABLES_H

#include <stddef.h>
#include <stdint.h>

#include "cfg.h"
#include "function_code.h"

/* A jump table: the indirect jump at index JUMP reads TABLE; entries are
 * 32-bit offsets from BASE, or addresses (BASE 0); BOUND is how many there
 * are when the code bounds the index before (cmp $N,%i; ja default), else 0. */
struct known_table {
    size_t jump;
    uint64_t table, base, bound;
};

/* Tables found from the interpreter's values, kept across passes. */
struct known_tables {
    struct known_table *table;
    size_t n, cap;
};

#define TABLE_OF_LABELS 2   /* read[j]: the entries are relative to a label of the code */

struct jump_tables {
    size_t *targets;             /* resolved jump-table targets, as instruction indices */
    size_t *first;               /* per instruction: its targets start here (indirect jumps) */
    uint32_t *count;             /* per instruction: how many (0: unresolved) */
    uint8_t *read;               /* per instruction: a table was found for it and read
                                    (TABLE_OF_LABELS: a computed goto's table of offsets) */
    size_t ntargets;
    struct table_exit *exits;    /* cases of bounded tables outside the function */
    size_t nexits, exits_cap;
};

/* Labels whose address the function takes, as instruction indices. */
struct address_taken_labels {
    size_t *at;
    size_t n;
    int sought;                  /* sought once per function */
};

/* Read the tables of FC's indirect jumps from EF (nothing when EF is NULL)
 * into JT (zeroed before): from the code's patterns, else from KT.  INDEX
 * (may be NULL) tells which function a case outside this one belongs to.
 * Returns 0, or -1 when out of memory. */
int jump_tables_resolve(struct jump_tables *jt, const struct function_code *fc, struct elf_file *ef,
                        const struct function_index *index, const struct known_tables *kt);

/* The number of resolved targets of the jump at index J. */
static inline uint32_t jump_tables_count(const struct jump_tables *jt, size_t j)
{
    return jt->count ? jt->count[j] : 0;
}

void jump_tables_release(struct jump_tables *jt);

/* After a pass of the dataflow over G: tables the values at reached
 * indirect jumps explain, that JT and KT do not, appended to KT.  Returns
 * how many, or (size_t)-1 when out of memory. */
size_t jump_tables_from_values(struct known_tables *kt, const struct jump_tables *jt, const struct cfg *g);

/* When a reached indirect jump of G has no table: the function's
 * address-taken labels (from EF) into LB.  Returns how many, or (size_t)-1
 * when out of memory. */
size_t jump_tables_find_labels(struct address_taken_labels *lb, const struct jump_tables *jt,
                               const struct cfg *g, struct elf_file *ef);

#endif
