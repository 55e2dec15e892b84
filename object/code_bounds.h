/* SPDX-License-Identifier: Apache-2.0 */
/*
 * code_bounds: where a file's machine code can be, by its program headers.
 *
 * The code of a linked file is what its executable PT_LOAD segments map
 * from the file: [p_vaddr, p_vaddr + p_filesz), of which only the part whose
 * bytes lie in the file (p_offset + p_filesz cut at the end of the file)
 * counts.  Every range that a header or a table claims for code (a section,
 * a symbol, an FDE, the PLT's stubs) is checked against these regions before
 * anything is sized or iterated from it, so that no field of a crafted file
 * makes a tool allocate or loop beyond what the file holds.
 *
 * Invariants: regions are non-empty, lo < hi (none wraps around the address
 * space), hi - lo is at most the file's size, and they are sorted by lo.  A
 * file without executable segments has no code.
 */
#ifndef DWCHECK_CODE_BOUNDS_H
#define DWCHECK_CODE_BOUNDS_H

#include <stddef.h>
#include <stdint.h>

#include "elf_file.h"

struct code_region {
    uint64_t lo, hi;            /* [lo, hi): addresses whose bytes the file holds */
};

struct code_bounds {
    struct code_region *regions;
    size_t n;
};

/*
 * The code regions of EF, from its program headers and the size of its
 * file.  Returns 0, or -1 with a reason in ERR (out of memory, or the file
 * cannot be stat'ed); B then needs no release.
 */
int code_bounds_init(struct code_bounds *b, const struct elf_file *ef, char *err, size_t errlen);
void code_bounds_release(struct code_bounds *b);

/* The region holding address ADDR, or NULL. */
const struct code_region *code_bounds_at(const struct code_bounds *b, uint64_t addr);

/* Whether [LO, LO + SIZE) lies whole in one region (SIZE 0: whether LO does;
 * a range that wraps around the address space never does). */
int code_bounds_holds(const struct code_bounds *b, uint64_t lo, uint64_t size);

/*
 * Check the section headers of EF against the file and B: every section the
 * loaded image holds (SHF_ALLOC, not SHT_NOBITS) must have its bytes in the
 * file and its addresses must not wrap around the address space, every one
 * of code (SHF_EXECINSTR) must lie in a code region, and no other one may
 * claim addresses of code (the code's bytes would be read from it).  A header that claims more is corrupt, and what it claims is never
 * used: returns -1 with a reason naming the section in ERR; 0 when all hold.
 */
int code_bounds_check_sections(const struct code_bounds *b, const struct elf_file *ef, char *err,
                               size_t errlen);

#endif
