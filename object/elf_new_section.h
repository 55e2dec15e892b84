/* SPDX-License-Identifier: Apache-2.0 */
/*
 * elf_new_section: a section that object/elf_rewrite adds to a copy of a
 * file, as its two halves share it: elf_rewrite's callers fill it in and
 * read back where it went, and object/elf_layout places it.  Types only,
 * so that elf_layout, beneath elf_rewrite, needs nothing of elf_rewrite.h.
 *
 * Ownership: the name and the bytes are the caller's, borrowed for the
 * call they are handed to.
 */
#ifndef DWCHECK_ELF_NEW_SECTION_H
#define DWCHECK_ELF_NEW_SECTION_H

#include <stdint.h>

/* A section to add: SHT_PROGBITS, SHF_ALLOC. */
struct elf_new_section {
    const char *name;        /* in: non-empty, e.g. ".eh_frame" */
    uint64_t size;           /* in: bytes */
    uint64_t align;          /* in: a power of two, 1 to 0x1000 */
    uint64_t addr;           /* out of elf_rewrite_plan: its run-time address (before any load bias) */
    uint64_t offset;         /* out of elf_rewrite_plan: its offset in the output */
    const uint8_t *bytes;    /* in for elf_rewrite_write: SIZE bytes (NULL when SIZE is 0) */
};

#endif
