/* SPDX-License-Identifier: Apache-2.0 */
/*
 * elf_rewrite: a copy of a linked x86_64 ELF file with new allocated
 * sections, in a new read-only loadable segment (dwsynth repair adds a new
 * .eh_frame and .eh_frame_hdr this way, and with --sframe an .sframe).
 *
 * The input's bytes stay where they are, byte for byte, but for the ELF
 * header's e_phoff, e_phnum, e_shoff and e_shnum and the section headers
 * of .shstrtab and of the sections renamed.  The new bytes follow them:
 *
 *   the new section headers, right after the input's section header table
 *     when that is the input's last bytes (it then stays in place);
 *   a new read-only PT_LOAD (p_align 0x1000): the program header table
 *     (unless it takes a PT_LOAD of its own, last: below), then the new
 *     sections in the order given, each at its alignment;
 *   a copy of .shstrtab with the new names appended (its header points
 *     there), then the section header table unless it stayed in place.
 *
 * The program header table holds the old entries, the new PT_LOAD(s) where
 * the order by address puts them, PT_PHDR (if any) pointing at the table,
 * PT_GNU_EH_FRAME at a new section named .eh_frame_hdr and PT_GNU_SFRAME
 * at a new section named .sframe (each appended when the file has none,
 * re-pointed when it has one).  It must be where every loader looks:
 * Linux before 5.18 at the first PT_LOAD's p_vaddr - p_offset + e_phoff
 * (AT_PHDR), since then in the PT_LOAD holding e_phoff; ld.so at PT_PHDR
 * for the main program, and at its own base + e_phoff for itself (a static
 * PIE's start-up likewise, through AT_PHDR); ld.so (glibc) for a library
 * at PT_PHDR, else in the first PT_LOAD whose pages map e_phoff.  So:
 *   - a file the kernel may run or that may read its own headers (an
 *     ET_EXEC, a file with PT_INTERP, or one with an entry point that
 *     needs no library: programs, ld.so, static PIEs) has its table at
 *     offset T and address T + the first PT_LOAD's p_vaddr - p_offset:
 *       - an ET_EXEC's new PT_LOAD lies below its first one's page (and
 *         above 64 KiB) when it fits there, the table at its start;
 *       - else the new PT_LOAD starts with the table at T = the new bytes'
 *         start when those pages are free: above the segments, or between
 *         them (files linked with 2 MiB pages);
 *       - else the table takes a PT_LOAD of its own, last in the file, past
 *         the new sections and names, which so fill the file up to the
 *         first offset whose pages are free (a .bss past the file's end
 *         takes them); zeros (a hole, sparse on disk) fill what they do
 *         not.  The sections' PT_LOAD lies in the pages above all others;
 *   - a library (none of those) has its table at the start of the new
 *     PT_LOAD, at the same distance when those pages are free, else in
 *     the first page above its segments;
 *   - a shared object without PT_PHDR gains one.
 * New PT_LOADs share no page with the input's, and all stay sorted by
 * address (an input whose PT_LOADs are not is refused).  A copy is written sparse: whole blocks of zeros, and the
 * hole, take no disk.
 * An existing section named like a new one is renamed NAME.orig (NAME.orig2
 * ... when a repaired file is repaired again), so that gdb, readelf and
 * perf read the new one.
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
 * written through sys/output_file (nothing is left on failure).
 */
#ifndef DWCHECK_ELF_REWRITE_H
#define DWCHECK_ELF_REWRITE_H

#include <stddef.h>
#include <stdint.h>

#include "elf_file.h"
#include "elf_new_section.h"

/* Where the new sections' segment goes (what readelf -lW shows of its PT_LOAD). */
struct elf_rewrite_segment {
    uint64_t offset, addr, size;
    size_t phnum;            /* entries in the new program header table */
    uint64_t hole;           /* zeros the copy holds besides alignment (sparse on disk): elf_rewrite.h */
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
