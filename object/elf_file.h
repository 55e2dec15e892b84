/* SPDX-License-Identifier: Apache-2.0 */
/*
 * elf_file: one analysed ELF file, loaded with libelf.
 *
 * A `struct elf_file` owns everything read from one file: the descriptor,
 * the libelf handle, the section table, the symbols (static and dynamic) and
 * the program headers.  Every later stage borrows pointers into it (section
 * bytes, symbol names), so those pointers live exactly as long as the
 * elf_file; `elf_file_close()` frees them all at once.
 *
 * Errors are reported through the return value (-1) and a message naming the
 * reason (never the file: callers print `tool: FILE: reason`).  Nothing here
 * prints or exits.
 */
#ifndef DWCHECK_ELF_FILE_H
#define DWCHECK_ELF_FILE_H

#include <gelf.h>
#include <stddef.h>
#include <stdint.h>

struct elf_section {
    const char *name;       /* from .shstrtab; "" when unnamed */
    size_t index;           /* section header index */
    uint32_t type;          /* SHT_* */
    uint64_t flags;         /* SHF_* */
    uint64_t addr;          /* sh_addr */
    uint64_t offset;        /* sh_offset in the file */
    uint64_t size;          /* sh_size (compressed size if SHF_COMPRESSED) */
    Elf_Scn *scn;
    const uint8_t *bytes;   /* loaded on demand by elf_file_section_bytes */
    uint64_t nbytes;        /* size of bytes (after decompression) */
    int loaded;
};

struct elf_symbol {
    const char *name;
    uint64_t value;
    uint64_t size;
    uint16_t shndx;
    uint8_t type;           /* STT_* */
    uint8_t bind;           /* STB_* */
    uint8_t dynamic;        /* 1 when read from .dynsym */
};

struct elf_file {
    char *path;
    int fd;
    Elf *elf;
    GElf_Ehdr ehdr;
    int is_64;              /* ELFCLASS64 */
    struct elf_section *sections;
    size_t nsections;
    struct elf_symbol *symbols;   /* static then dynamic; see elf_file_load_symbols */
    size_t nsymbols;
    int symbols_loaded;
    GElf_Phdr *phdrs;
    size_t nphdrs;
    struct elf_relative *relatives;   /* sorted by address; see elf_file_relative_at */
    size_t nrelatives;
    int relatives_loaded;
    uint8_t **owned;              /* [nowned] section bytes made here, not libelf's
                                     (object/object_layout's relocated copies) */
    size_t nowned;
};

/* An R_X86_64_RELATIVE relocation: the loader stores bias + VALUE at ADDR. */
struct elf_relative {
    uint64_t addr, value;
};

/* Message buffer size callers should give to functions taking `err`. */
#define ELF_FILE_ERRLEN 256

/* elf_file_open's reasons for a file that is not ELF at all (no ELF magic),
 * or empty: the ones dwcheck skips rather than fails on. */
#define ELF_FILE_NOT_ELF "not an ELF file"
#define ELF_FILE_EMPTY "file is empty"

/*
 * Open PATH and read its ELF header, section table and program headers.
 * Returns 0 on success; -1 with a reason in ERR on failure, in which case EF
 * needs no release.  Only what the tools can read is accepted: a regular
 * file (a FIFO, a device are refused without waiting on them), whose header
 * is whole, little-endian ELFCLASS64 for EM_X86_64, of an executable or
 * shared object (ET_EXEC, ET_DYN).  Anything else gets its true reason:
 * "not an ELF file", "file is empty", "not a regular file (FIFO)",
 * "truncated ELF header (10 of 64 bytes)", "not an x86_64 ELF file (machine
 * AArch64)", "big-endian ELF file: ...", "relocatable object (ET_REL): link
 * it first; ...", "truncated file: section headers lie past the end ...".
 */
int elf_file_open(struct elf_file *ef, const char *path, char *err, size_t errlen);

/* elf_file_open that accepts a relocatable object (ET_REL) too: for reading
 * the symbols of an object just assembled (dwsynth annotate), or for
 * object/object_layout to place it (dwcheck).  Its sections' addresses are
 * not final: nothing is analysed in one before it is placed. */
int elf_file_open_object(struct elf_file *ef, const char *path, char *err, size_t errlen);

/* Free everything the file owns.  Safe on a zeroed struct. */
void elf_file_close(struct elf_file *ef);

/* The first section named NAME, or NULL. */
struct elf_section *elf_file_section(struct elf_file *ef, const char *name);

/*
 * The bytes of SEC (decompressed when SHF_COMPRESSED); NULL with a reason in
 * ERR when they cannot be read (e.g. the section lies past the end of the
 * file).  SHT_NOBITS sections yield an empty, non-NULL buffer.  The bytes
 * belong to EF.
 */
const uint8_t *elf_file_section_bytes(struct elf_file *ef, struct elf_section *sec,
                                      uint64_t *nbytes, char *err, size_t errlen);

/*
 * Read .symtab and .dynsym into ef->symbols (once).  A missing table is not
 * an error.  Returns 0, or -1 with a reason in ERR.
 */
int elf_file_load_symbols(struct elf_file *ef, char *err, size_t errlen);

/* The section containing virtual address ADDR (SHF_ALLOC sections only), or NULL. */
struct elf_section *elf_file_section_at(struct elf_file *ef, uint64_t addr);

/*
 * The address the dynamic loader stores at ADDR through an
 * R_X86_64_RELATIVE relocation, in the file's own addresses (the
 * relocation's addend): 1 and *VALUE, or 0 when none applies there.  A
 * position-independent file's tables of addresses hold them so.  The
 * relocations of the loaded image (SHT_RELA sections with SHF_ALLOC) are
 * read on first use; ones that cannot be read count as absent.
 */
int elf_file_relative_at(struct elf_file *ef, uint64_t addr, uint64_t *value);

#endif
