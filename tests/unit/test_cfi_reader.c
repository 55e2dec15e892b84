/*
 * Unit tests of cfi_reader and cfi_eval on sections built byte by byte:
 * 64-bit DWARF lengths (0xffffffff escape, 8-byte CIE id and pointer) in
 * .debug_frame, a 32-bit .eh_frame with a pc-relative FDE, and a zero
 * terminator.  Each image is a minimal ELF64 written to a memfd.
 */
#include <elf.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include "object/elf_file.h"
#include "semantics/cfi_eval.h"
#include "semantics/cfi_reader.h"

/* ELF64 with one section NAME (at address ADDR) holding BYTES, written to a memfd. */
static int make_elf(const char *name, uint64_t addr, const uint8_t *bytes, size_t n, char *path)
{
    uint8_t image[8192];
    char strtab[64] = "";
    size_t name_off = 1, shstr_off = 1 + strlen(name) + 1;
    memcpy(strtab + 1, name, strlen(name) + 1);
    memcpy(strtab + shstr_off, ".shstrtab", 10);
    size_t strtab_len = shstr_off + 10;
    size_t data_off = sizeof(Elf64_Ehdr), str_off = data_off + n;
    size_t sh_off = (str_off + strtab_len + 7) & ~(size_t)7;
    size_t total = sh_off + 3 * sizeof(Elf64_Shdr);
    assert_true(total <= sizeof image);
    memset(image, 0, total);
    Elf64_Ehdr *eh = (Elf64_Ehdr *)image;
    memcpy(eh->e_ident, ELFMAG, SELFMAG);
    eh->e_ident[EI_CLASS] = ELFCLASS64;
    eh->e_ident[EI_DATA] = ELFDATA2LSB;
    eh->e_ident[EI_VERSION] = EV_CURRENT;
    eh->e_type = ET_DYN;
    eh->e_machine = EM_X86_64;
    eh->e_version = EV_CURRENT;
    eh->e_ehsize = sizeof(Elf64_Ehdr);
    eh->e_shoff = sh_off;
    eh->e_shentsize = sizeof(Elf64_Shdr);
    eh->e_shnum = 3;
    eh->e_shstrndx = 2;
    memcpy(image + data_off, bytes, n);
    memcpy(image + str_off, strtab, strtab_len);
    Elf64_Shdr *sh = (Elf64_Shdr *)(image + sh_off);
    sh[1] = (Elf64_Shdr){.sh_name = (Elf64_Word)name_off, .sh_type = SHT_PROGBITS,
                         .sh_flags = addr ? SHF_ALLOC : 0, .sh_addr = addr,
                         .sh_offset = data_off, .sh_size = n, .sh_addralign = 8};
    sh[2] = (Elf64_Shdr){.sh_name = (Elf64_Word)shstr_off, .sh_type = SHT_STRTAB,
                         .sh_offset = str_off, .sh_size = strtab_len, .sh_addralign = 1};
    int fd = memfd_create("cfi-test", 0);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, image, total), (ssize_t)total);
    sprintf(path, "/proc/self/fd/%d", fd);
    return fd;
}

static void put64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* A DWARF64 .debug_frame: CIE at 0 (length 0x14 after the 12-byte header),
 * FDE at 0x20 covering [0x1000, 0x1006) with: advance 1; def_cfa_offset 16;
 * offset rbx, 2 (c-16). */
static void test_dwarf64_debug_frame(void **state)
{
    (void)state;
    uint8_t s[0x50];
    memset(s, 0, sizeof s);
    /* CIE: 0xffffffff, length 0x14, id 0xffffffffffffffff, version 3, "", caf 1, daf -8, ra 16,
     * def_cfa rsp 8, offset r16 1, padding. */
    memset(s, 0xff, 4);
    put64(s + 4, 0x14);
    memset(s + 12, 0xff, 8);
    const uint8_t cie_body[] = {3, 0, 1, 0x78, 16, 0x0c, 7, 8, 0x90, 1, 0, 0};
    memcpy(s + 20, cie_body, sizeof cie_body);
    /* FDE at 0x20: length 0x24; CIE pointer 0; pc 0x1000; range 6; insns. */
    memset(s + 0x20, 0xff, 4);
    put64(s + 0x24, 0x24);
    put64(s + 0x2c, 0);
    put64(s + 0x34, 0x1000);
    put64(s + 0x3c, 6);
    const uint8_t insns[] = {0x41, 0x0e, 16, 0x83, 2, 0, 0, 0, 0, 0, 0, 0};
    memcpy(s + 0x44, insns, sizeof insns);
    char path[64], err[ELF_FILE_ERRLEN];
    int fd = make_elf(".debug_frame", 0, s, sizeof s, path);
    struct elf_file ef;
    assert_int_equal(elf_file_open(&ef, path, err, sizeof err), 0);
    struct cfi_section cs;
    assert_int_equal(cfi_section_read(&ef, ".debug_frame", &cs, err, sizeof err), 1);
    assert_int_equal(cs.ncies, 1);
    assert_int_equal(cs.nfdes, 1);
    assert_true(cs.cies[0].dwarf64);
    assert_int_equal(cs.cies[0].length, 0x14);
    assert_true(cs.cies[0].id == UINT64_MAX);
    const struct eh_frame_fde *f = &cs.fdes[0];
    assert_true(f->dwarf64);
    assert_int_equal(f->offset, 0x20);
    assert_int_equal(f->length, 0x24);
    assert_int_equal(f->cie_pointer, 0);
    assert_int_equal(f->pc_begin, 0x1000);
    assert_int_equal(f->pc_range, 6);
    assert_int_equal(f->insns_len, sizeof insns);
    /* H: [0x1000,0x1001) rsp+8, rbx unreferenced; [0x1001,0x1006) rsp+16, rbx c-16. */
    struct cfi_eval ev;
    assert_int_equal(cfi_eval_init(&ev, &cs), 0);
    struct unwind_table t;
    struct cfa_error e;
    assert_int_equal(cfi_eval_fde_table(&ev, f, &t, &e), 0);
    assert_int_equal(t.nrows, 2);
    assert_int_equal(t.rows[0].start, 0x1000);
    assert_int_equal(t.rows[0].end, 0x1001);
    assert_int_equal(t.rows[0].cfa.offset, 8);
    assert_int_equal(t.rows[0].reg[3].kind, REG_RULE_UNREFERENCED);
    assert_int_equal(t.rows[1].end, 0x1006);
    assert_int_equal(t.rows[1].cfa.reg, 7);
    assert_int_equal(t.rows[1].cfa.offset, 16);
    assert_int_equal(t.rows[1].reg[3].kind, REG_RULE_OFFSET);
    assert_int_equal(t.rows[1].reg[3].offset, -16);
    assert_int_equal(t.rows[1].reg[16].offset, -8);
    unwind_table_release(&t);
    cfi_eval_release(&ev);
    cfi_section_release(&cs);
    elf_file_close(&ef);
    close(fd);
}

/* A 32-bit .eh_frame at address 0x2000: "zR" CIE with pcrel sdata4 FDE
 * pointers, one FDE whose pc field at 0x2020 holds -0x1020 (so pc_begin is
 * 0x1000), and a zero terminator. */
static void test_eh_frame_pcrel_and_terminator(void **state)
{
    (void)state;
    const uint8_t s[] = {
        0x14, 0, 0, 0, 0, 0, 0, 0, 1, 'z', 'R', 0, 1, 0x78, 16, 1, 0x1b,
        0x0c, 7, 8, 0x90, 1, 0, 0,                                /* CIE, 0x18 bytes */
        0x14, 0, 0, 0, 0x1c, 0, 0, 0,                             /* FDE at 0x18: CIE ptr 0x1c */
        0xe0, 0xef, 0xff, 0xff,                                   /* pc: 0x2020 - 0x1020 */
        0x10, 0, 0, 0, 0, 0x41, 0x0e, 16, 0, 0, 0, 0,             /* range 16; aug 0; insns */
        0, 0, 0, 0,                                               /* zero terminator at 0x30 */
    };
    char path[64], err[ELF_FILE_ERRLEN];
    int fd = make_elf(".eh_frame", 0x2000, s, sizeof s, path);
    struct elf_file ef;
    assert_int_equal(elf_file_open(&ef, path, err, sizeof err), 0);
    struct cfi_section cs;
    assert_int_equal(cfi_section_read(&ef, ".eh_frame", &cs, err, sizeof err), 1);
    assert_int_equal(cs.nfdes, 1);
    assert_int_equal(cs.fdes[0].pc_begin, 0x1000);
    assert_int_equal(cs.fdes[0].pc_range, 16);
    assert_int_equal(cs.fdes[0].cie_pointer, 0x1c);
    assert_int_equal(cs.nentries, 3);
    assert_int_equal(cs.entries[0].kind, CFI_ENTRY_CIE);
    assert_int_equal(cs.entries[1].kind, CFI_ENTRY_FDE);
    assert_int_equal(cs.entries[2].kind, CFI_ENTRY_ZERO);
    assert_int_equal(cs.entries[2].offset, 0x30);
    cfi_section_release(&cs);
    elf_file_close(&ef);
    close(fd);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dwarf64_debug_frame),
        cmocka_unit_test(test_eh_frame_pcrel_and_terminator),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
/* SPDX-License-Identifier: Apache-2.0 */
