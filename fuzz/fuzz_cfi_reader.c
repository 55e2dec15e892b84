/*
 * libFuzzer target over the CFI reader.
 *
 * The input becomes the .eh_frame (first byte even) or .debug_frame (odd) of
 * a minimal ELF64 image held in a memfd; the whole semantics path then runs
 * on it: libelf loading, the section parser's enumeration, every CIE's and FDE's program,
 * H construction, and expression decoding/evaluation of every expression
 * rule.  The same bytes are also run straight through the pure evaluator as
 * a CFA program and as a DWARF expression.
 */
#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "object/elf_file.h"
#include "semantics/cfa_program.h"
#include "semantics/cfi_eval.h"
#include "semantics/cfi_reader.h"
#include "semantics/dwarf_expr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int fake_reg(void *arg, unsigned reg, uint64_t *value)
{
    (void)arg;
    *value = 0x7ffc0000 + reg * 8;
    return 0;
}

static int fake_mem(void *arg, uint64_t addr, unsigned size, uint64_t *value)
{
    (void)arg;
    (void)size;
    if (addr < 0x1000)
        return -1;
    *value = addr ^ 0x5a5a;
    return 0;
}

static void run_expression(const uint8_t *bytes, size_t len)
{
    struct dwarf_op ops[512];
    const char *error = NULL;
    if (len > 512)
        len = 512;
    int n = dwarf_expr_decode(bytes, len, 8, ops, 512, &error);
    if (n < 0)
        return;
    struct dwarf_expr_env env = {fake_reg, fake_mem, NULL};
    uint64_t cfa = 0x7ffd0000, result;
    dwarf_expr_eval(ops, (size_t)n, &env, &cfa, &result, &error);
    FILE *null = fopen("/dev/null", "w");
    if (null) {
        dwarf_expr_print(null, ops, (size_t)n);
        fclose(null);
    }
}

static void run_table(struct cfi_eval *ev, const struct eh_frame_fde *fde)
{
    struct unwind_table t;
    struct cfa_error err;
    if (cfi_eval_fde_table(ev, fde, &t, &err) != 0)
        return;
    for (size_t i = 0; i < t.nrows; i++) {
        const struct unwind_row *row = &t.rows[i];
        if (row->cfa.kind == CFA_RULE_EXPRESSION)
            run_expression(row->cfa.expr, row->cfa.expr_len);
        for (unsigned c = 0; c < UNWIND_COLUMNS; c++)
            if (row->reg[c].kind == REG_RULE_EXPRESSION || row->reg[c].kind == REG_RULE_VAL_EXPRESSION)
                run_expression(row->reg[c].expr, row->reg[c].expr_len);
        unwind_table_row_at(&t, row->start);
    }
    unwind_table_release(&t);
}

/* A minimal ELF64: header, the payload section, .shstrtab, section headers. */
static size_t build_elf(uint8_t *out, size_t cap, const uint8_t *payload, size_t n, int eh)
{
    static const char strtab[] = "\0.eh_frame\0.debug_frame\0.shstrtab";
    const size_t payload_off = sizeof(Elf64_Ehdr);
    const size_t strtab_off = payload_off + n;
    const size_t shdr_off = (strtab_off + sizeof strtab + 7) & ~(size_t)7;
    const size_t total = shdr_off + 4 * sizeof(Elf64_Shdr);
    if (total > cap)
        return 0;
    memset(out, 0, total);
    Elf64_Ehdr *eh_hdr = (Elf64_Ehdr *)out;
    memcpy(eh_hdr->e_ident, ELFMAG, SELFMAG);
    eh_hdr->e_ident[EI_CLASS] = ELFCLASS64;
    eh_hdr->e_ident[EI_DATA] = ELFDATA2LSB;
    eh_hdr->e_ident[EI_VERSION] = EV_CURRENT;
    eh_hdr->e_type = ET_DYN;
    eh_hdr->e_machine = EM_X86_64;
    eh_hdr->e_version = EV_CURRENT;
    eh_hdr->e_ehsize = sizeof(Elf64_Ehdr);
    eh_hdr->e_shoff = shdr_off;
    eh_hdr->e_shentsize = sizeof(Elf64_Shdr);
    eh_hdr->e_shnum = 4;
    eh_hdr->e_shstrndx = 3;
    memcpy(out + payload_off, payload, n);
    memcpy(out + strtab_off, strtab, sizeof strtab);
    Elf64_Shdr *sh = (Elf64_Shdr *)(out + shdr_off);
    sh[1].sh_name = eh ? 1 : 11;
    sh[1].sh_type = SHT_PROGBITS;
    sh[1].sh_flags = eh ? SHF_ALLOC : 0;
    sh[1].sh_addr = eh ? 0x2000 : 0;
    sh[1].sh_offset = payload_off;
    sh[1].sh_size = n;
    sh[1].sh_addralign = 8;
    sh[2].sh_type = SHT_NULL;        /* an unused slot: section tables with holes are legal */
    sh[3].sh_name = 24;
    sh[3].sh_type = SHT_STRTAB;
    sh[3].sh_offset = strtab_off;
    sh[3].sh_size = sizeof strtab;
    sh[3].sh_addralign = 1;
    return total;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 65536)
        return 0;
    int eh = !(data[0] & 1);
    data++;
    size--;

    /* The pure evaluator on the raw bytes. */
    struct cfa_cie_params params = {1, -8, 16, 8, 0x1b, 0x2000};
    static struct cfi_saved_row stack[UNWIND_REMEMBER_DEPTH];
    struct cfa_program prog = {
        .insns = data, .len = size, .cie = &params, .saved = stack, .stack_cap = UNWIND_REMEMBER_DEPTH,
    };
    struct cfi_state st;
    struct cfa_error cerr;
    cfa_program_state_init(&st, 0x1000);
    cfa_program_run(&prog, &st, &cerr);
    run_expression(data, size);

    static uint8_t image[65536 + 4096];
    size_t n = build_elf(image, sizeof image, data, size, eh);
    int fd = memfd_create("fuzz-elf", 0);
    if (fd < 0)
        return 0;
    if (write(fd, image, n) != (ssize_t)n) {
        close(fd);
        return 0;
    }
    char path[64], err[ELF_FILE_ERRLEN];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    struct elf_file ef;
    if (elf_file_open(&ef, path, err, sizeof err) == 0) {
        struct cfi_section s;
        if (cfi_section_read(&ef, eh ? ".eh_frame" : ".debug_frame", &s, err, sizeof err) > 0) {
            struct cfi_eval ev;
            if (cfi_eval_init(&ev, &s) == 0) {
                for (size_t i = 0; i < s.nfdes; i++)
                    run_table(&ev, &s.fdes[i]);
                for (size_t i = 0; i < s.ncies; i++) {
                    struct cfi_state final;
                    int all_nops;
                    cfi_eval_cie(&ev, &s.cies[i], NULL, NULL, &final, &all_nops, &cerr);
                }
                cfi_eval_release(&ev);
            }
            cfi_section_release(&s);
        }
        elf_file_close(&ef);
    }
    close(fd);
    return 0;
}
/* SPDX-License-Identifier: Apache-2.0 */
