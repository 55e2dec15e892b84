/* SPDX-License-Identifier: Apache-2.0 */
/*
 * debug_file: a separate debug file for a linked x86_64 ELF file — what
 * `objcopy --only-keep-debug` makes — with extra non-allocated sections
 * (dwsynth repair --debug-frame-only adds a .debug_frame this way, and
 * leaves the object itself untouched).
 *
 * gdb finds the file by the object's build-id, as
 * DIR/.build-id/NN/REST.debug under `set debug-file-directory DIR`
 * (debug_file_build_id_path), checks that its build-id note is the
 * object's, relocates its sections by their names and addresses, and reads
 * its .debug_frame (and .symtab, .debug_info ...) for the object.  gdb
 * looks for a separate debug file only when the object has no DWARF
 * debugging information (.debug_info) of its own.
 *
 * The file written:
 *
 *   the ELF header: the input's e_ident, e_type, e_machine, e_version,
 *     e_entry, e_flags; no program headers (e_phoff, e_phnum and
 *     e_phentsize 0: gdb places the sections by their headers);
 *   the input's sections, every one at its index (sh_link, sh_info and the
 *     symbols' st_shndx keep their meaning), in index order:
 *       - allocated sections (SHF_ALLOC) become SHT_NOBITS, their other
 *         fields kept (sh_offset is where they would lie, no byte is
 *         there), but for notes (SHT_NOTE), whose bytes are kept: gdb checks
 *         the build-id note;
 *       - non-allocated sections keep their bytes (.symtab and .strtab, so
 *         gdb has the symbols; .debug_*; .comment), as objcopy does;
 *       - .shstrtab, at its index, holds the input's names, then the new
 *         sections' names and the NAME.orig below;
 *       - an input section named like a new one is renamed NAME.orig (its
 *         bytes kept), so that gdb and readelf read the new one;
 *   the new sections, in the order given: SHT_PROGBITS, flags 0, address 0,
 *     at their alignment;
 *   the section header table (8-aligned).
 *
 * The input is a `struct elf_file` the caller opened (elf_file_open).
 * Every offset and size read from it is checked against the file's size,
 * and every sum against overflow, before use.  Errors: -1 and the reason
 * in ERR (never the file: callers print `tool: FILE: reason`).  The input
 * is never modified; the output is written through sys/output_file
 * (temporary file, then rename: nothing is left on failure but the
 * directories debug_file_write created).
 */
#ifndef DWCHECK_DEBUG_FILE_H
#define DWCHECK_DEBUG_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "elf_file.h"

/* A non-allocated section to add: NAME non-empty (e.g. ".debug_frame"),
 * SIZE BYTES (NULL when SIZE is 0), ALIGN a power of two up to 0x1000.
 * The bytes are the caller's. */
struct debug_section {
    const char *name;
    const uint8_t *bytes;
    uint64_t size;
    uint64_t align;
};

/*
 * The path gdb looks for EF's debug file at under debug-file-directory DIR:
 * DIR/.build-id/NN/REST.debug, the build-id of EF's GNU build-id note in
 * lowercase hex, NN its first byte, REST the others.  Written into PATH
 * (SIZE bytes).  Returns 0, or -1 with the reason in ERR: no build-id note
 * ("no build-id: gdb could not match a debug file to it"), a path longer
 * than SIZE.
 */
int debug_file_build_id_path(struct elf_file *ef, const char *dir, char *path, size_t size,
                             char *err, size_t errlen);

/*
 * Write the debug file of EF with the N sections SECS (n may be 0) to
 * OUT_PATH, creating OUT_PATH's missing parent directories first (mode
 * 0755, as `mkdir -p`; they stay if the write then fails).  An existing
 * file is replaced only once the new one is complete (a symbolic link is
 * followed); a new file gets the mode the umask allows.  A file without a
 * build-id gets a debug file too (gdb can then find it only through a
 * .gnu_debuglink).  Returns 0, or -1 with the reason in ERR: a file that
 * is not an ELF64 little-endian x86_64 ET_EXEC/ET_DYN, has no section
 * headers or no section name table, a section that lies past the end of
 * the file or whose alignment is no power of two; a new section with no name, no bytes, an alignment that is no
 * power of two up to a page, or the name of another new section or of
 * .shstrtab; an output that is the input file; a directory that cannot
 * be created; a read or write error.
 */
int debug_file_write(struct elf_file *ef, const struct debug_section *secs, size_t n,
                     const char *out_path, char *err, size_t errlen);

#endif
