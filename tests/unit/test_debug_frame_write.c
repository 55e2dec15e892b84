/*
 * Unit tests of debug_frame_write, with programs assembled and linked here
 * (cc) into a temporary directory:
 *   - the .debug_frame GNU as and ld write under `.cfi_sections
 *     .debug_frame`, byte for byte: a CIE with a personality and LSDAs
 *     (dropped, as gas drops them) and three FDEs padded 0 to 7 bytes, and
 *     a signal frame's CIE ("S");
 *   - every CIE and FDE of libc's .eh_frame written as .debug_frame and
 *     read back by eh_frame_parse in .debug_frame mode;
 *   - the same section added to a small library with objcopy, and printed
 *     by readelf -wf: every CIE and FDE where it was written, every range;
 *   - the refusals.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "object/elf_file.h"
#include "semantics/cfi_reader.h"
#include "semantics/write/debug_frame_write.h"
#include "semantics/dwarf_constants.h"
#include "semantics/eh_frame_parse.h"

#define LIBC "/usr/lib/x86_64-linux-gnu/libc.so.6"

#define TEST_DIR "/tmp/test_debug_frame_write.XXXXXX"
#include "tests/unit/test_shell.h"



static void write_bytes(const char *path, const void *bytes, size_t n)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    assert_int_equal(fwrite(bytes, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
}

/* GCC's CIE instructions: def_cfa rsp+8; offset r16 (rip) at cfa-8. */
static const uint8_t gcc_cie_insns[] = {0x0c, 0x07, 0x08, 0x90, 0x01};

static struct eh_cie_spec gcc_cie(void)
{
    return (struct eh_cie_spec){.code_align = 1, .data_align = -8, .ra_column = 16,
                                .personality_encoding = DW_EH_PE_omit, .lsda_encoding = DW_EH_PE_omit,
                                .insns = gcc_cie_insns, .insns_len = sizeof gcc_cie_insns};
}

/* ---- GNU as + ld, byte for byte ------------------------------------------ */

/*
 * f (push %rbp; mov %rsp,%rbp; nop; pop %rbp; ret) with a personality and
 * an LSDA, g (sub/add $24,%rsp), k (sub/add $8,%rsp and args_size): 12, 6
 * and 8 bytes of instructions, entries of 36, 30 and 32 bytes padded to 40,
 * 32 and 32.  One CIE: gas drops the personality from .debug_frame.
 */
static const char plain_s[] =
    "\t.cfi_sections .debug_frame\n"
    "\t.data\npslot: .quad 0\nlsda1: .long 0\n"
    "\t.text\n"
    "\t.globl f\n\t.type f,@function\nf:\n\t.cfi_startproc\n"
    "\t.cfi_personality 0x9b, pslot\n\t.cfi_lsda 0x1b, lsda1\n"
    "\tpushq %rbp\n\t.cfi_def_cfa_offset 16\n\t.cfi_offset 6, -16\n"
    "\tmovq %rsp, %rbp\n\t.cfi_def_cfa_register 6\n\tnop\n"
    "\tpopq %rbp\n\t.cfi_def_cfa 7, 8\n\tret\n\t.cfi_endproc\n\t.size f, .-f\n"
    "\t.globl g\n\t.type g,@function\ng:\n\t.cfi_startproc\n"
    "\tsubq $24, %rsp\n\t.cfi_def_cfa_offset 32\n\taddq $24, %rsp\n\t.cfi_def_cfa_offset 8\n"
    "\tret\n\t.cfi_endproc\n\t.size g, .-g\n"
    "\t.globl k\n\t.type k,@function\nk:\n\t.cfi_startproc\n"
    "\tsubq $8, %rsp\n\t.cfi_def_cfa_offset 16\n\t.cfi_escape 0x2e, 0x08\n"
    "\taddq $8, %rsp\n\t.cfi_def_cfa_offset 8\n\tret\n\t.cfi_endproc\n\t.size k, .-k\n";

/* h: push/pop %rbx in a signal frame: a CIE "S" of its own. */
static const char signal_s[] =
    "\t.cfi_sections .debug_frame\n\t.text\n"
    "\t.globl h\n\t.type h,@function\nh:\n\t.cfi_startproc\n\t.cfi_signal_frame\n"
    "\tpushq %rbx\n\t.cfi_adjust_cfa_offset 8\n\t.cfi_offset 3, -16\n"
    "\tpopq %rbx\n\t.cfi_adjust_cfa_offset -8\n\t.cfi_restore 3\n\tret\n\t.cfi_endproc\n\t.size h, .-h\n";

/* A small library with no unwind tables at all, for objcopy to add to. */
static const char bare_s[] = "\t.text\n\t.globl z\n\t.type z,@function\nz:\n\tret\n\t.size z, .-z\n";

static int group_setup(void **state)
{
    (void)state;
    if (!mkdtemp(dir))
        return -1;
    write_bytes(at("plain.s"), plain_s, strlen(plain_s));
    write_bytes(at("signal.s"), signal_s, strlen(signal_s));
    write_bytes(at("bare.s"), bare_s, strlen(bare_s));
    return run("cd %s && cc -shared -nostdlib -o plain.so plain.s && cc -shared -nostdlib -o signal.so signal.s && "
               "cc -shared -nostdlib -o bare.so bare.s", dir) == 0 ? 0 : -1;
}

static int group_teardown(void **state)
{
    (void)state;
    return run("rm -rf %s", dir) == 0 ? 0 : -1;
}

/* The FDE spec of function NAME of EF: its symbol's address and size. */
static struct eh_fde_spec fde_of(struct elf_file *ef, const char *name, const uint8_t *insns, size_t n)
{
    for (size_t i = 0; i < ef->nsymbols; i++)
        if (strcmp(ef->symbols[i].name, name) == 0 && ef->symbols[i].size)
            return (struct eh_fde_spec){.cie = 0, .pc_begin = ef->symbols[i].value,
                                        .pc_range = ef->symbols[i].size, .insns = insns, .insns_len = n};
    fail_msg("no symbol %s", name);
    return (struct eh_fde_spec){0};
}

/* What debug_frame_write writes for CIE and FDES equals the .debug_frame of EF. */
static void assert_gas_bytes(struct elf_file *ef, const struct eh_cie_spec *cie, const struct eh_fde_spec *fdes,
                             size_t nfdes)
{
    char err[ELF_FILE_ERRLEN];
    struct elf_section *sec = elf_file_section(ef, ".debug_frame");
    assert_non_null(sec);
    uint64_t n, size;
    const uint8_t *gas = elf_file_section_bytes(ef, sec, &n, err, sizeof err);
    assert_non_null(gas);
    struct cfi_bytes out = {0};
    const char *why = NULL;
    assert_int_equal(debug_frame_size(cie, 1, fdes, nfdes, &size, &why), 0);
    assert_int_equal(debug_frame_write(cie, 1, fdes, nfdes, &out, &why), 0);
    assert_int_equal(out.n, size);
    assert_int_equal(out.n, n);
    assert_memory_equal(out.b, gas, n);
    cfi_bytes_release(&out);
}

static void open_linked(struct elf_file *ef, const char *name)
{
    char err[ELF_FILE_ERRLEN];
    assert_int_equal(elf_file_open(ef, at(name), err, sizeof err), 0);
    assert_int_equal(elf_file_load_symbols(ef, err, sizeof err), 0);
}

static void test_bytes_of_gas(void **state)
{
    (void)state;
    static const uint8_t f_insns[] = {0x41, 0x0e, 0x10, 0x86, 0x02, 0x43, 0x0d, 0x06, 0x42, 0x0c, 0x07, 0x08};
    static const uint8_t g_insns[] = {0x44, 0x0e, 0x20, 0x44, 0x0e, 0x08};
    static const uint8_t k_insns[] = {0x44, 0x0e, 0x10, 0x2e, 0x08, 0x44, 0x0e, 0x08};
    static const uint8_t h_insns[] = {0x41, 0x0e, 0x10, 0x83, 0x02, 0x41, 0x0e, 0x08, 0xc3};
    struct elf_file ef;
    open_linked(&ef, "plain.so");
    /* the personality and LSDAs are ignored, as gas ignores them */
    struct eh_cie_spec cie = gcc_cie();
    cie.personality_encoding = 0x9b;
    cie.personality = 0x4000;
    cie.lsda_encoding = DW_EH_PE_pcrel | DW_EH_PE_sdata4;
    struct eh_fde_spec fdes[] = {fde_of(&ef, "f", f_insns, sizeof f_insns), fde_of(&ef, "g", g_insns, sizeof g_insns),
                                 fde_of(&ef, "k", k_insns, sizeof k_insns)};
    fdes[0].lsda = 0x4008;
    assert_int_equal(fdes[0].pc_range, 7);
    assert_gas_bytes(&ef, &cie, fdes, 3);
    elf_file_close(&ef);

    open_linked(&ef, "signal.so");
    cie = gcc_cie();
    cie.signal_frame = 1;
    struct eh_fde_spec h = fde_of(&ef, "h", h_insns, sizeof h_insns);
    assert_gas_bytes(&ef, &cie, &h, 1);
    elf_file_close(&ef);
}

/* ---- libc's entries, read back ------------------------------------------- */

/* The specs of every CIE and FDE of FILE's .eh_frame (personalities and
 * LSDAs kept: the writer must ignore them). */
struct specs {
    struct elf_file ef;
    struct cfi_section cs;
    struct eh_cie_spec *cies;
    struct eh_fde_spec *fdes;
};

static void specs_read(struct specs *s, const char *path)
{
    char err[ELF_FILE_ERRLEN];
    assert_int_equal(elf_file_open(&s->ef, path, err, sizeof err), 0);
    assert_int_equal(cfi_section_read(&s->ef, ".eh_frame", &s->cs, err, sizeof err), 1);
    s->cies = calloc(s->cs.ncies + 1, sizeof *s->cies);
    s->fdes = calloc(s->cs.nfdes + 1, sizeof *s->fdes);
    assert_true(s->cies && s->fdes);
    for (size_t i = 0; i < s->cs.ncies; i++) {
        const struct eh_frame_cie *c = &s->cs.cies[i];
        s->cies[i] = (struct eh_cie_spec){c->code_align, c->data_align, c->ra_column, c->signal_frame,
                                          c->personality_encoding, c->personality, c->lsda_encoding,
                                          c->insns, c->insns_len};
    }
    for (size_t k = 0; k < s->cs.nfdes; k++) {
        const struct eh_frame_fde *f = &s->cs.fdes[k];
        s->fdes[k] = (struct eh_fde_spec){(size_t)(f->cie - s->cs.cies), f->pc_begin, f->pc_range, f->lsda,
                                          f->insns, f->insns_len};
    }
}

static void specs_release(struct specs *s)
{
    free(s->cies);
    free(s->fdes);
    cfi_section_release(&s->cs);
    elf_file_close(&s->ef);
}

/* INSNS[0, N) as written: SPEC's bytes, then only DW_CFA_nop padding. */
static void assert_insns(const uint8_t *insns, size_t n, const uint8_t *spec, size_t spec_len)
{
    assert_true(n >= spec_len && n - spec_len < 8);
    if (spec_len)
        assert_memory_equal(insns, spec, spec_len);
    for (size_t i = spec_len; i < n; i++)
        assert_int_equal(insns[i], DW_CFA_nop);
}

static void assert_cie(const struct eh_frame_cie *got, const struct eh_cie_spec *want)
{
    assert_int_equal(got->id, 0xffffffffu);
    assert_int_equal(got->version, 1);
    assert_string_equal(got->augmentation, want->signal_frame ? "S" : "");
    assert_int_equal(got->signal_frame, !!want->signal_frame);
    assert_int_equal(got->code_align, want->code_align);
    assert_int_equal(got->data_align, want->data_align);
    assert_int_equal(got->ra_column, want->ra_column);
    assert_int_equal(got->fde_encoding, DW_EH_PE_absptr);
    assert_int_equal(got->personality_encoding, DW_EH_PE_omit);
    assert_int_equal(got->lsda_encoding, DW_EH_PE_omit);
    assert_insns(got->insns, got->insns_len, want->insns, want->insns_len);
}

/*
 * Walk OUT as a .debug_frame reader does, and check every entry against
 * the specs: the CIEs first and in order, then the FDEs in order, each
 * naming its CIE's offset; 8-byte entries; no terminator.
 */
static void assert_read_back(const struct cfi_bytes *out, const struct specs *s)
{
    struct frame_view v = {out->b, out->n, 0, 0};
    uint64_t *offs = calloc(s->cs.ncies + 1, sizeof *offs);
    assert_non_null(offs);
    struct frame_entry e = {.end = 0};
    struct eh_frame_cie cie;
    struct eh_frame_fde fde;
    const char *why = NULL;
    size_t i = 0, k = 0;
    for (uint64_t off = 0; off < out->n; off = e.end) {
        assert_int_equal(eh_frame_entry_read(&v, off, &e, &why), 0);
        assert_int_not_equal(e.kind, FRAME_ENTRY_ZERO);
        assert_int_equal((e.end - e.offset) % 8, 0);
        if (e.kind == FRAME_ENTRY_CIE) {
            assert_true(i < s->cs.ncies && k == 0);
            assert_int_equal(eh_frame_cie_parse(&v, &e, &cie, &why), 0);
            assert_cie(&cie, &s->cies[i]);
            offs[i++] = off;
            continue;
        }
        assert_true(k < s->cs.nfdes);
        const struct eh_fde_spec *want = &s->fdes[k++];
        uint64_t cie_off;
        struct frame_entry ce;
        assert_int_equal(eh_frame_fde_cie_offset(&v, &e, &cie_off, &why), 0);
        assert_int_equal(cie_off, offs[want->cie]);
        assert_int_equal(e.id, cie_off);
        assert_int_equal(eh_frame_entry_read(&v, cie_off, &ce, &why), 0);
        assert_int_equal(eh_frame_cie_parse(&v, &ce, &cie, &why), 0);
        assert_int_equal(eh_frame_fde_parse(&v, &e, &cie, &fde, &why), 0);
        assert_int_equal(fde.pc_begin, want->pc_begin);
        assert_int_equal(fde.pc_range, want->pc_range);
        assert_int_equal(fde.lsda, 0);
        assert_insns(fde.insns, fde.insns_len, want->insns, want->insns_len);
    }
    assert_int_equal(e.end, out->n);
    assert_int_equal(i, s->cs.ncies);
    assert_int_equal(k, s->cs.nfdes);
    free(offs);
}

static void test_round_trip_libc(void **state)
{
    (void)state;
    if (access(LIBC, R_OK) != 0) {
        printf("# skipped: no %s\n", LIBC);
        return;
    }
    struct specs s;
    specs_read(&s, LIBC);
    size_t signal = 0, lsdas = 0;
    for (size_t i = 0; i < s.cs.ncies; i++)
        signal += s.cies[i].signal_frame != 0;
    for (size_t k = 0; k < s.cs.nfdes; k++)
        lsdas += s.fdes[k].lsda != 0;
    uint64_t size;
    struct cfi_bytes out = {0};
    const char *why = NULL;
    assert_int_equal(debug_frame_size(s.cies, s.cs.ncies, s.fdes, s.cs.nfdes, &size, &why), 0);
    assert_int_equal(debug_frame_write(s.cies, s.cs.ncies, s.fdes, s.cs.nfdes, &out, &why), 0);
    assert_int_equal(out.n, size);
    assert_read_back(&out, &s);
    printf("# %s: %zu CIEs (%zu signal frames), %zu FDEs (%zu LSDAs dropped): .debug_frame of %llu bytes "
           "(.eh_frame %llu), read back equal\n", LIBC, s.cs.ncies, signal, s.cs.nfdes, lsdas,
           (unsigned long long)out.n, (unsigned long long)s.cs.size);
    assert_true(s.cs.nfdes > 1000);
    cfi_bytes_release(&out);
    specs_release(&s);
}

/* ---- readelf, an independent reader ---------------------------------------- */

/*
 * Check readelf's listing IN of the .debug_frame of S, SIZE bytes, with no
 * help from eh_frame_parse: each entry's header line, in order, each
 * starting where the one before ends, the last ending at SIZE; each FDE
 * naming the offset readelf gave its CIE.  Returns the number of "S" CIEs.
 */
static size_t assert_readelf_listing(FILE *in, const struct specs *s, uint64_t size)
{
    char line[512], aug[16];
    size_t i = 0, k = 0, signal = 0;
    unsigned long long off, len, id, cie, lo, hi, next = 0;
    unsigned long long *cie_offsets = calloc(s->cs.ncies + 1, sizeof *cie_offsets);
    assert_non_null(cie_offsets);
    int in_section = 0;
    while (fgets(line, sizeof line, in)) {
        if (strstr(line, "Contents of the"))
            in_section = strstr(line, ".debug_frame") != NULL;
        if (!in_section)
            continue;
        if (sscanf(line, "%llx %llx %llx FDE cie=%llx pc=%llx..%llx", &off, &len, &id, &cie, &lo, &hi) == 6) {
            assert_true(k < s->cs.nfdes);
            const struct eh_fde_spec *want = &s->fdes[k++];
            assert_int_equal(off, next);
            assert_int_equal(cie, cie_offsets[want->cie]);
            assert_int_equal(id, cie);
            assert_int_equal(lo, want->pc_begin);
            assert_int_equal(hi, want->pc_begin + want->pc_range);
            next = off + 4 + len;
        } else if (sscanf(line, "%llx %llx %llx CIE", &off, &len, &id) == 3) {
            assert_true(i < s->cs.ncies && k == 0);
            assert_int_equal(off, next);
            assert_int_equal(id, 0xffffffffu);
            cie_offsets[i++] = off;
            next = off + 4 + len;
        } else if (sscanf(line, " Augmentation: \"%15[^\"]\"", aug) == 1) {
            assert_string_equal(aug, "S");
            assert_true(s->cies[i - 1].signal_frame);
            signal++;
        } else if (sscanf(line, " Return address column: %llu", &lo) == 1) {
            assert_int_equal(lo, s->cies[i - 1].ra_column);
        }
    }
    assert_int_equal(i, s->cs.ncies);
    assert_int_equal(k, s->cs.nfdes);
    assert_int_equal(next, size);
    free(cie_offsets);
    return signal;
}

static void test_readelf_reads_it(void **state)
{
    (void)state;
    if (access(LIBC, R_OK) != 0) {
        printf("# skipped: no %s\n", LIBC);
        return;
    }
    struct specs s;
    specs_read(&s, LIBC);
    struct cfi_bytes out = {0};
    const char *why = NULL;
    assert_int_equal(debug_frame_write(s.cies, s.cs.ncies, s.fdes, s.cs.nfdes, &out, &why), 0);
    write_bytes(at("libc.debug_frame"), out.b, out.n);
    assert_int_equal(run("cd %s && objcopy --add-section .debug_frame=libc.debug_frame "
                         "--set-section-flags .debug_frame=readonly,debug bare.so with.so && "
                         "readelf -wf with.so > listing 2> warnings", dir), 0);
    FILE *in = fopen(at("listing"), "r");
    assert_non_null(in);
    size_t signal = assert_readelf_listing(in, &s, out.n);
    fclose(in);
    assert_int_equal(run("test ! -s %s", at("warnings")), 0);
    size_t want = 0;
    for (size_t i = 0; i < s.cs.ncies; i++)
        want += s.cies[i].signal_frame != 0;
    assert_int_equal(signal, want);
    printf("# readelf -wf: %zu CIEs (%zu \"S\") and %zu FDEs, each where the one before ends, "
           "every CIE pointer and range as written\n", s.cs.ncies, signal, s.cs.nfdes);
    cfi_bytes_release(&out);
    specs_release(&s);
}

/* ---- refusals --------------------------------------------------------------- */

static void test_refusals(void **state)
{
    (void)state;
    static const uint8_t insns[] = {0x41, 0x0e, 0x10};
    struct eh_cie_spec cie = gcc_cie();
    struct eh_fde_spec fde = {.cie = 0, .pc_begin = 0x1000, .pc_range = 0x10, .insns = insns, .insns_len = 3};
    struct cfi_bytes out = {0};
    const char *why = NULL;
    uint64_t size;
    /* something already in OUT stays as it was */
    assert_int_equal(debug_frame_write(&cie, 1, &fde, 1, &out, &why), 0);
    assert_int_equal(out.n, 24 + 32);
    uint8_t *kept = malloc(out.n);
    assert_non_null(kept);
    memcpy(kept, out.b, out.n);
    size_t kept_n = out.n;
    /* a column version 1 cannot hold */
    cie.ra_column = 256;
    assert_int_equal(debug_frame_size(&cie, 1, &fde, 1, &size, &why), -1);
    assert_non_null(strstr(why, "255"));
    why = NULL;
    assert_int_equal(debug_frame_write(&cie, 1, &fde, 1, &out, &why), -1);
    assert_non_null(strstr(why, "255"));
    cie.ra_column = 255;
    assert_int_equal(debug_frame_size(&cie, 1, &fde, 1, &size, &why), 0);
    /* no such CIE, or none at all */
    fde.cie = 1;
    why = NULL;
    assert_int_equal(debug_frame_write(&cie, 1, &fde, 1, &out, &why), -1);
    assert_non_null(strstr(why, "CIE"));
    fde.cie = 0;
    assert_int_equal(debug_frame_write(NULL, 0, &fde, 1, &out, &why), -1);
    assert_int_equal(out.n, kept_n);
    assert_memory_equal(out.b, kept, kept_n);
    /* nothing at all is an empty section */
    assert_int_equal(debug_frame_size(NULL, 0, NULL, 0, &size, &why), 0);
    assert_int_equal(size, 0);
    free(kept);
    cfi_bytes_release(&out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bytes_of_gas),
        cmocka_unit_test(test_round_trip_libc),
        cmocka_unit_test(test_readelf_reads_it),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests_name("test_debug_frame_write", tests, group_setup, group_teardown);
}
/* SPDX-License-Identifier: Apache-2.0 */
