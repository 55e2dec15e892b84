/* SPDX-License-Identifier: Apache-2.0 */
/*
 * symbol_sources: the files perf reads an object's symbols from, in perf's
 * order (symbol.c's binary_type_symtab, dso.c's
 * dso__read_binary_type_filename), each opened as perf's symsrc: a regular
 * ELF file whose build-id is the object's when that is known, with its
 * .symtab and .dynsym read.
 */
#ifndef DWCHECK_PROFILE_SYMBOL_SOURCES_H
#define DWCHECK_PROFILE_SYMBOL_SOURCES_H

#include <stddef.h>
#include <stdint.h>

#include "object/elf_file.h"
#include "runtime/identity.h"

#define DEBUG_ROOT "/usr/lib/debug"

struct symbol_build_id {
    uint8_t bytes[DWU_IDENTITY_MAX];
    size_t len;                 /* 0: unknown */
};

/* The GNU build-id note of the first of .note.gnu.build-id, .notes, .note
 * (elf_read_build_id), or len 0. */
void symbol_build_id_read(struct elf_file *ef, struct symbol_build_id *id);

/* Equal as perf compares them: it keeps build-ids in 20 bytes, padded with zeros. */
int symbol_build_id_same(const struct symbol_build_id *a, const struct symbol_build_id *b);

int symbol_regular_file(const char *path);

/* The section of index INDEX (1-based, as st_shndx), or NULL. */
struct elf_section *symbol_section_by_index(struct elf_file *ef, size_t index);

/* One opened candidate (symsrc). */
struct symbol_source {
    struct elf_file ef;
    int open;
    struct elf_section *symtab, *dynsym;
    const struct elf_symbol *static_syms, *dynamic_syms;   /* in table order, from index 1 */
    size_t nstatic, ndynamic;
    char path[4096];
};

/* Open PATH as a candidate: a regular ELF file whose build-id is ID's when
 * ID is known (symsrc__init rejects a mismatch, and a file without one).
 * 0, or -1 (S then holds nothing to close). */
int symbol_source_open(struct symbol_source *s, const char *path, const struct symbol_build_id *id);

/* Find S's .symtab and .dynsym and read them. */
void symbol_source_load(struct symbol_source *s);

void symbol_source_close(struct symbol_source *s);

/*
 * The candidate files of perf's binary_type_symtab order (symbol.c,
 * dso__read_binary_type_filename in dso.c), into PATHS (MAX of them):
 *   DEBUGLINK: the .gnu_debuglink name, the first existing of NAME (from the
 *     working directory), DIR/NAME, DIR/.debug/NAME, /usr/lib/debug/DIR/NAME;
 *   BUILD_ID_CACHE, _DEBUGINFO: perf's build-id cache ($PERF_BUILDID_DIR, else
 *     ~/.debug): .build-id/NN/REST/elf and .../debug;
 *   FEDORA_DEBUGINFO: /usr/lib/debug/PATH.debug;
 *   UBUNTU_DEBUGINFO: /usr/lib/debug/PATH;
 *   BUILDID_DEBUGINFO: /usr/lib/debug/.build-id/NN/REST.debug;
 *   SYSTEM_PATH_DSO: PATH.
 * (MIXEDUP_UBUNTU_DEBUGINFO, after PATH, is left out.)
 */
size_t symbol_sources_candidates(const char *path, struct elf_file *object, const struct symbol_build_id *id,
                                 char (*paths)[4096], size_t max);

#endif
