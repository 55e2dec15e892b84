/*
 * elf_rewrite: a copy of a linked x86_64 ELF file with new allocated
 * sections, in a new read-only loadable segment (dwsynth repair adds a new
 * .eh_frame and .eh_frame_hdr this way, and with --sframe an .sframe).
 *
 * The input's bytes stay where they are, byte for byte; of the ELF header
 * only e_phoff, e_phnum, e_shoff and e_shnum change.  After them come:
 *
 *   zeros (a hole, when needed) up to O, an 8-aligned offset, mapped at
 *   address V (V and O alike modulo the page):
 *     the new segment (PT_LOAD, PF_R, p_align 0x1000):
 *       the program header table: the old entries, the new PT_LOAD right
 *         after the last PT_LOAD, PT_PHDR (if any) pointing at this table,
 *         PT_GNU_EH_FRAME at a new section named .eh_frame_hdr and
 *         PT_GNU_SFRAME at a new section named .sframe (each appended
 *         when the file has none, re-pointed when it has one)
 *       the new sections, in the order given, each at its alignment
 *   a copy of .shstrtab with the new names appended (its header points here)
 *   the section header table: every section at its old index (symbols and
 *     sh_link refer to them), then the new sections
 *
 * For what the kernel may run (an executable, or a library with PT_INTERP),
 * V - O is the first PT_LOAD's p_vaddr - p_offset, so every way a loader
 * finds the program headers in memory gives the new table: the kernel's
 * load base + e_phoff (before Linux 5.18), the PT_LOAD holding e_phoff
 * (since), PT_PHDR (ld.so for the main program); O grows (a hole, sparse
 * on disk) when the segments' .bss reaches past the file.  A library only
 * ld.so maps (it finds the table in the PT_LOAD that holds e_phoff) has
 * O at the file's end and V in the first page above the segments, so that
 * no hole grows it.  V's page lies above every PT_LOAD's end, rounded up to
 * a page, so PT_LOADs stay sorted by address and share no page; O is at
 * least the file's size rounded up to 8.
 * An existing section named like a new one is renamed NAME.orig, so that
 * gdb, readelf and perf read the new one.
 *
 * Two phases, because the caller's section contents depend on their
 * addresses but their sizes do not: elf_rewrite_plan places the sections,
 * elf_rewrite_write writes the copy with their bytes.  Both take the input
 * as a `struct elf_file` the caller opened (elf_file_open refuses what is
 * not an x86_64 executable or shared object, or whose header tables lie
 * past its end); the plan is computed again, alike, by the write.
 *
 * Errors: -1 and the reason in ERR (never the file: callers print
 * `tool: FILE: reason`).  The input is never modified; the output is
 * written through object/output_file (nothing is left on failure).
 */
#ifndef DWCHECK_ELF_REWRITE_H
#define DWCHECK_ELF_REWRITE_H

#include <stddef.h>
#include <stdint.h>

#include "elf_file.h"

/* A section to add: SHT_PROGBITS, SHF_ALLOC. */
struct elf_new_section {
    const char *name;        /* in: non-empty, e.g. ".eh_frame" */
    uint64_t size;           /* in: bytes */
    uint64_t align;          /* in: a power of two, 1 to 0x1000 */
    uint64_t addr;           /* out of elf_rewrite_plan: its run-time address (before any load bias) */
    uint64_t offset;         /* out of elf_rewrite_plan: its offset in the output */
    const uint8_t *bytes;    /* in for elf_rewrite_write: SIZE bytes (NULL when SIZE is 0) */
};

/* Where the new segment goes (what readelf -lW shows of its PT_LOAD). */
struct elf_rewrite_segment {
    uint64_t offset, addr, size;
    size_t phnum;            /* entries in the new program header table */
};

/*
 * Place the N sections SECS of a copy of EF: fill each one's addr and
 * offset, and *SEG (when not NULL).  Returns 0, or -1 with the reason in
 * ERR: a file that is not ELF64 x86_64 little-endian ET_EXEC/ET_DYN, has no
 * section headers or no PT_LOAD, whose segments or .shstrtab do not fit the
 * file, or whose new layout would not fit the address space; a section with
 * no name, an alignment that is not a power of two up to a page, two new
 * sections of one name.
 */
int elf_rewrite_plan(struct elf_file *ef, struct elf_new_section *secs, size_t n,
                     struct elf_rewrite_segment *seg, char *err, size_t errlen);

/*
 * Write the copy of EF with SECS (as planned, with their bytes) to OUT_PATH
 * (followed through symbolic links; an existing file is replaced only when
 * the copy is complete), with the input's permission bits.  Returns 0, or
 * -1 with the reason in ERR: the plan's refusals, sections that are not as
 * planned, an output that is the input file, a read or write error.
 */
int elf_rewrite_write(struct elf_file *ef, const struct elf_new_section *secs, size_t n,
                      const char *out_path, char *err, size_t errlen);

#endif
