/*
 * mutate_cfi: write a copy of an ELF file with one defect in its .eh_frame,
 * for the bad-input tests.
 *
 *   mutate_cfi IN OUT MUTATION
 *
 * Mutations (all on the first FDE unless said otherwise):
 *   cie-outside     the CIE pointer points before the start of the section
 *   cie-loop        the CIE pointer points at the FDE itself
 *   length-past-end the length field runs past the end of the section
 *   unknown-opcode  the first CFA instruction becomes 0x1c (DW_CFA_lo_user)
 *   overlong-leb    the longest FDE program becomes def_cfa_offset with an
 *                   11-byte ULEB128 operand
 *   truncate        the file is cut in the middle of .eh_frame
 *   section-past-end  .eh_frame's section header says it lies past the end of the file
 *
 * The entry layout is parsed here by hand, independently of the code under
 * test.  Exit status 0 on success, 2 on failure.
 */
#include <fcntl.h>
#include <gelf.h>
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

static void put32(size_t off, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        file_bytes[off + i] = (uint8_t)(v >> (8 * i));
}

static size_t skip_uleb(size_t off)
{
    while (file_bytes[off] & 0x80)
        off++;
    return off + 1;
}

/* File offset of the first instruction byte of the FDE at FDE_OFF, assuming a
 * "zR" CIE with pcrel sdata4 pointers (what GCC and clang emit on x86_64). */
static size_t fde_insns(size_t fde_off)
{
    size_t p = fde_off + 4 + 4 + 4 + 4;   /* length, CIE pointer, pc_begin, pc_range */
    return skip_uleb(p);                  /* augmentation data length (0) */
}

static size_t eh_shdr_off;   /* file offset of .eh_frame's section header */

static int find_eh_frame(const char *path, size_t *off, size_t *size)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0 || elf_version(EV_CURRENT) == EV_NONE)
        return -1;
    Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
    size_t shstrndx;
    if (!elf || elf_getshdrstrndx(elf, &shstrndx) != 0)
        return -1;
    Elf_Scn *scn = NULL;
    int found = -1;
    while ((scn = elf_nextscn(elf, scn)) != NULL) {
        GElf_Shdr sh;
        gelf_getshdr(scn, &sh);
        const char *name = elf_strptr(elf, shstrndx, sh.sh_name);
        if (name && strcmp(name, ".eh_frame") == 0) {
            GElf_Ehdr eh;
            gelf_getehdr(elf, &eh);
            eh_shdr_off = eh.e_shoff + elf_ndxscn(scn) * eh.e_shentsize;
            *off = sh.sh_offset;
            *size = sh.sh_size;
            found = 0;
            break;
        }
    }
    elf_end(elf);
    close(fd);
    return found;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: mutate_cfi IN OUT MUTATION\n");
        return 2;
    }
    const char *mutation = argv[3];
    size_t eh_off, eh_size;
    if (find_eh_frame(argv[1], &eh_off, &eh_size) != 0) {
        fprintf(stderr, "mutate_cfi: %s: no .eh_frame\n", argv[1]);
        return 2;
    }
    FILE *in = fopen(argv[1], "rb");
    if (!in)
        return 2;
    fseek(in, 0, SEEK_END);
    file_size = (size_t)ftell(in);
    rewind(in);
    file_bytes = malloc(file_size);
    if (!file_bytes || fread(file_bytes, 1, file_size, in) != file_size)
        return 2;
    fclose(in);

    /* Walk the entries: the first FDE, and the FDE with the longest program. */
    size_t first_fde = 0, longest_fde = 0, longest_len = 0;
    for (size_t p = eh_off; p + 8 <= eh_off + eh_size;) {
        uint32_t len = get32(p);
        if (len == 0 || len == 0xffffffffu)
            break;
        if (get32(p + 4) != 0) {
            if (!first_fde)
                first_fde = p;
            size_t insns = fde_insns(p);
            size_t n = p + 4 + len - insns;
            if (n > longest_len) {
                longest_len = n;
                longest_fde = p;
            }
        }
        p += 4 + len;
    }
    if (!first_fde) {
        fprintf(stderr, "mutate_cfi: %s: no FDE\n", argv[1]);
        return 2;
    }

    size_t out_size = file_size;
    if (strcmp(mutation, "cie-outside") == 0) {
        put32(first_fde + 4, (uint32_t)(first_fde - eh_off + 4 + 0x1000));
    } else if (strcmp(mutation, "cie-loop") == 0) {
        put32(first_fde + 4, 4);
    } else if (strcmp(mutation, "length-past-end") == 0) {
        put32(first_fde, 0x7ffffff0u);
    } else if (strcmp(mutation, "unknown-opcode") == 0) {
        file_bytes[fde_insns(first_fde)] = 0x1c;
    } else if (strcmp(mutation, "overlong-leb") == 0) {
        if (longest_len < 12) {
            fprintf(stderr, "mutate_cfi: no FDE program long enough\n");
            return 2;
        }
        size_t p = fde_insns(longest_fde);
        file_bytes[p] = 0x0e;
        memset(file_bytes + p + 1, 0x80, 10);
        file_bytes[p + 11] = 0x01;
    } else if (strcmp(mutation, "truncate") == 0) {
        out_size = eh_off + eh_size / 2;
    } else if (strcmp(mutation, "section-past-end") == 0) {
        /* Elf64_Shdr: sh_offset is the 64-bit field at byte 24. */
        uint64_t beyond = (uint64_t)file_size + 4096;
        for (int i = 0; i < 8; i++)
            file_bytes[eh_shdr_off + 24 + i] = (uint8_t)(beyond >> (8 * i));
    } else {
        fprintf(stderr, "mutate_cfi: unknown mutation %s\n", mutation);
        return 2;
    }
    FILE *out = fopen(argv[2], "wb");
    if (!out || fwrite(file_bytes, 1, out_size, out) != out_size || fclose(out) != 0)
        return 2;
    free(file_bytes);
    return 0;
}
/* SPDX-License-Identifier: Apache-2.0 */
