/* SPDX-License-Identifier: Apache-2.0 */
/*
 * elf_layout: where object/elf_rewrite puts a copy's new bytes (the layout
 * and the loaders' constraints are in elf_rewrite.h), for its two phases
 * to compute alike.  Internal to elf_rewrite.
 *
 * Every number read from the file that places or sizes something is
 * checked against the file's size, and every sum of them against
 * overflow, before it is used.
 */
#ifndef DWCHECK_ELF_LAYOUT_H
#define DWCHECK_ELF_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include "elf_file.h"
#include "elf_new_section.h"

#define ELF_PHDR_SIZE 56u        /* sizeof(Elf64_Phdr) */
#define ELF_SHDR_SIZE 64u        /* sizeof(Elf64_Shdr) */
/* Linux's binfmt_elf reads at most a page of program headers. */
#define ELF_MAX_PHDRS (0x1000u / ELF_PHDR_SIZE)

/* Where everything goes. */
struct elf_layout {
    uint64_t file_size;
    uint64_t seg_offset, seg_addr, seg_size;   /* the new sections' PT_LOAD */
    GElf_Phdr *phdrs;            /* the new program header table */
    size_t nphdrs;
    uint64_t phdr_offset, phdr_addr;           /* where it goes */
    int phdr_apart;              /* in a PT_LOAD of its own, last in the file and below the sections' in
                                    memory (else at the start of theirs) */
    uint64_t *sec_offset;        /* of each new section */
    size_t shnum, shstrndx;      /* the input's section count (with index 0), .shstrtab's index */
    uint64_t str_in_offset, str_in_size;   /* the input's .shstrtab */
    uint64_t str_offset, str_size;         /* its copy: the input's bytes, then NAMES */
    char *names;                 /* a NUL (the input's last name may lack one), each new NAME, NAME.origN */
    size_t names_len;
    uint32_t *name_at;           /* each new section's name in the copy */
    uint32_t *orig_at;           /* its NAME.orig (.orig2 ...), 0 when no section of the input is named NAME */
    uint64_t shdr_offset;        /* the section header table */
    int shdr_in_place;           /* it stays at the input's e_shoff (the input's last bytes) */
    uint64_t hole;               /* zeros before the table when apart, past the 8-alignment */
};

/*
 * Place the N sections SECS of a copy of EF (elf_rewrite_plan's checks and
 * refusals): 0, or -1 with the reason in ERR.  L is released on failure.
 */
int elf_layout_plan(struct elf_file *ef, const struct elf_new_section *secs, size_t n,
                    struct elf_layout *l, char *err, size_t errlen);

void elf_layout_release(struct elf_layout *l);

/* The name of EF's section INDEX, or "" when it has none that can be read. */
const char *elf_layout_section_name(struct elf_file *ef, size_t shstrndx, size_t index);

#endif
