/*
 * mutate_headers: write a copy of an ELF file with one size field changed,
 * for the bad-input tests of sizes read from headers.
 *
 *   mutate_headers IN OUT MUTATION VALUE
 *
 * Mutations (VALUE is a number, decimal or 0x-prefixed):
 *   section-size NAME  sh_size of section NAME becomes VALUE
 *                      (the mutation is written `section-size:.plt`)
 *   fde-range          the pc_range field of the last FDE of .eh_frame
 *                      (4 bytes: a "zR" CIE with pcrel sdata4 pointers, what
 *                      GCC and clang emit on x86_64) becomes VALUE
 *   section-info NAME  sh_info of section NAME becomes VALUE (4 bytes;
 *                      written `section-info:.rela.dyn`)
 *   exec-filesz        p_filesz of the first executable PT_LOAD becomes VALUE
 *   symbol-size NAME   st_size of symbol NAME in .symtab becomes VALUE
 *                      (written `symbol-size:_fini`)
 *
 * The headers are found with libelf; the bytes are changed in a copy of the
 * file, independently of the code under test.  Exit status 0 on success, 2
 * on failure.
 */
#include <fcntl.h>
#include <gelf.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static uint8_t *file_bytes;
static size_t file_size;

static uint32_t get32(size_t off)
{
    return (uint32_t)file_bytes[off] | (uint32_t)file_bytes[off + 1] << 8 |
           (uint32_t)file_bytes[off + 2] << 16 | (uint32_t)file_bytes[off + 3] << 24;
}

static void put(size_t off, uint64_t v, unsigned size)
{
    for (unsigned i = 0; i < size; i++)
        file_bytes[off + i] = (uint8_t)(v >> (8 * i));
}

static int fail(const char *what)
{
    fprintf(stderr, "mutate_headers: %s\n", what);
    return 2;
}

/* Section NAME's header: its file offset in *SHDR_OFF, the header in *SH. */
static int find_section(Elf *elf, const char *name, size_t *shdr_off, GElf_Shdr *sh)
{
    size_t shstrndx;
    GElf_Ehdr eh;
    if (elf_getshdrstrndx(elf, &shstrndx) != 0 || !gelf_getehdr(elf, &eh))
        return -1;
    for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn)) != NULL;) {
        const char *n;
        if (gelf_getshdr(scn, sh) && (n = elf_strptr(elf, shstrndx, sh->sh_name)) && strcmp(n, name) == 0) {
            *shdr_off = eh.e_shoff + elf_ndxscn(scn) * eh.e_shentsize;
            return 0;
        }
    }
    return -1;
}

/* File offset of the last FDE of .eh_frame, or 0. */
static size_t last_fde(Elf *elf)
{
    size_t shdr_off, last = 0;
    GElf_Shdr sh;
    if (find_section(elf, ".eh_frame", &shdr_off, &sh) != 0 || sh.sh_offset + sh.sh_size > file_size)
        return 0;
    for (size_t p = sh.sh_offset; p + 16 <= sh.sh_offset + sh.sh_size;) {
        uint32_t len = get32(p);
        if (len == 0 || len == 0xffffffffu)
            break;
        if (get32(p + 4) != 0)
            last = p;
        p += 4 + (size_t)len;
    }
    return last;
}

/* File offset of the st_size field of symbol NAME in .symtab, or 0. */
static size_t symbol_size_field(Elf *elf, const char *name)
{
    for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn)) != NULL;) {
        GElf_Shdr s;
        if (!gelf_getshdr(scn, &s) || s.sh_type != SHT_SYMTAB)
            continue;
        Elf_Data *data = elf_getdata(scn, NULL);
        size_t n = data ? data->d_size / sizeof(Elf64_Sym) : 0;
        for (size_t i = 0; i < n; i++) {
            GElf_Sym sym;
            const char *sname;
            if (gelf_getsym(data, (int)i, &sym) && (sname = elf_strptr(elf, s.sh_link, sym.st_name)) &&
                strcmp(sname, name) == 0)
                return s.sh_offset + i * sizeof(Elf64_Sym) + offsetof(Elf64_Sym, st_size);
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 5)
        return fail("usage: mutate_headers IN OUT MUTATION VALUE");
    const char *mutation = argv[3];
    char *end;
    unsigned long long value = strtoull(argv[4], &end, 0);
    if (*end)
        return fail("bad VALUE");
    FILE *in = fopen(argv[1], "rb");
    if (!in)
        return fail("cannot open IN");
    fseek(in, 0, SEEK_END);
    file_size = (size_t)ftell(in);
    rewind(in);
    file_bytes = malloc(file_size);
    if (!file_bytes || fread(file_bytes, 1, file_size, in) != file_size)
        return fail("cannot read IN");
    fclose(in);
    if (elf_version(EV_CURRENT) == EV_NONE)
        return fail("libelf");
    Elf *elf = elf_memory((char *)file_bytes, file_size);
    GElf_Ehdr eh;
    if (!elf || !gelf_getehdr(elf, &eh) || gelf_getclass(elf) != ELFCLASS64)
        return fail("IN is not a 64-bit ELF file");

    if (strncmp(mutation, "section-size:", 13) == 0) {
        size_t shdr_off;
        GElf_Shdr sh;
        if (find_section(elf, mutation + 13, &shdr_off, &sh) != 0)
            return fail("no such section");
        put(shdr_off + offsetof(Elf64_Shdr, sh_size), value, 8);
    } else if (strncmp(mutation, "section-info:", 13) == 0) {
        size_t shdr_off;
        GElf_Shdr sh;
        if (find_section(elf, mutation + 13, &shdr_off, &sh) != 0)
            return fail("no such section");
        put(shdr_off + offsetof(Elf64_Shdr, sh_info), value, 4);
    } else if (strcmp(mutation, "fde-range") == 0) {
        size_t fde = last_fde(elf);
        if (!fde)
            return fail("no FDE");
        put(fde + 12, value, 4);   /* length, CIE pointer, pc_begin, then pc_range */
    } else if (strcmp(mutation, "exec-filesz") == 0) {
        size_t i;
        for (i = 0; i < eh.e_phnum; i++) {
            GElf_Phdr ph;
            if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD && (ph.p_flags & PF_X))
                break;
        }
        if (i == eh.e_phnum)
            return fail("no executable PT_LOAD");
        put(eh.e_phoff + i * eh.e_phentsize + offsetof(Elf64_Phdr, p_filesz), value, 8);
    } else if (strncmp(mutation, "symbol-size:", 12) == 0) {
        size_t field = symbol_size_field(elf, mutation + 12);
        if (!field)
            return fail("no such symbol");
        put(field, value, 8);
    } else {
        return fail("unknown mutation");
    }
    elf_end(elf);
    FILE *out = fopen(argv[2], "wb");
    if (!out || fwrite(file_bytes, 1, file_size, out) != file_size || fclose(out) != 0)
        return fail("cannot write OUT");
    free(file_bytes);
    return 0;
}
/* SPDX-License-Identifier: Apache-2.0 */
