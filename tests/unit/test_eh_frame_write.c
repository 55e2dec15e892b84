/*
 * Unit tests of eh_frame_write: the bytes GNU as and ld write for a small
 * table (personality and LSDAs), byte for byte; every CIE and FDE of libc
 * and libstdc++ written at another address and read back by eh_frame_parse,
 * and found through the .eh_frame_hdr written with them; libgcc's own FDE
 * search (__register_frame, _Unwind_Find_FDE) on a section written in
 * memory at its own address; and the refusals.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "object/elf_file.h"
#include "semantics/cfi_reader.h"
#include "semantics/dwarf_constants.h"
#include "semantics/eh_frame_parse.h"
#include "semantics/write/eh_frame_write.h"

#define EH_PE_INDIRECT 0x80   /* DW_EH_PE_indirect: dwarf_constants.h has no name for it */

/* libgcc's registration of frames and search for the FDE of a pc
 * (unwind-dw2-fde.h; exported by libgcc_s since GCC_3.0). */
void __register_frame(void *begin);
void __deregister_frame(void *begin);
struct dwarf_eh_bases {
    void *tbase, *dbase, *func;
};
const void *_Unwind_Find_FDE(void *pc, struct dwarf_eh_bases *bases);

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
 * `as g.s && ld --eh-frame-hdr -e _start`, g.s being two functions f
 * (0x401000, 7 bytes: push %rbp; mov %rsp,%rbp; nop; pop %rbp; ret) and g
 * (0x401007, 9 bytes: sub $24,%rsp; add $24,%rsp; ret) with
 * `.cfi_personality 0x9b, pslot` (0x403000) and `.cfi_lsda 0x1b, lsda1`
 * (0x403008) / lsda2 (0x40300c): .eh_frame at 0x402020 (ld wrote no
 * terminator: no crtend in the link) and .eh_frame_hdr at 0x402000.
 */
static const uint8_t ld_eh_frame[] = {
    0x1c, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x7a, 0x50, 0x4c, 0x52, 0x00, 0x01, 0x78,
    0x10, 0x07, 0x9b, 0xcd, 0x0f, 0x00, 0x00, 0x1b, 0x1b, 0x0c, 0x07, 0x08, 0x90, 0x01, 0x00, 0x00,
    0x20, 0x00, 0x00, 0x00, 0x24, 0x00, 0x00, 0x00, 0xb8, 0xef, 0xff, 0xff, 0x07, 0x00, 0x00, 0x00,
    0x04, 0xb7, 0x0f, 0x00, 0x00, 0x41, 0x0e, 0x10, 0x86, 0x02, 0x43, 0x0d, 0x06, 0x42, 0x0c, 0x07,
    0x08, 0x00, 0x00, 0x00, 0x18, 0x00, 0x00, 0x00, 0x48, 0x00, 0x00, 0x00, 0x9b, 0xef, 0xff, 0xff,
    0x09, 0x00, 0x00, 0x00, 0x04, 0x97, 0x0f, 0x00, 0x00, 0x44, 0x0e, 0x20, 0x44, 0x0e, 0x08, 0x00,
};
static const uint8_t ld_eh_frame_hdr[] = {
    0x01, 0x1b, 0x03, 0x3b, 0x1c, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0xf0, 0xff, 0xff,
    0x40, 0x00, 0x00, 0x00, 0x07, 0xf0, 0xff, 0xff, 0x64, 0x00, 0x00, 0x00,
};

static void test_bytes_of_gnu_ld(void **state)
{
    (void)state;
    static const uint8_t f_insns[] = {0x41, 0x0e, 0x10, 0x86, 0x02, 0x43, 0x0d, 0x06, 0x42, 0x0c, 0x07, 0x08};
    static const uint8_t g_insns[] = {0x44, 0x0e, 0x20, 0x44, 0x0e, 0x08};
    struct eh_cie_spec cie = gcc_cie();
    cie.personality_encoding = EH_PE_INDIRECT | DW_EH_PE_pcrel | DW_EH_PE_sdata4;
    cie.personality = 0x403000;
    cie.lsda_encoding = DW_EH_PE_pcrel | DW_EH_PE_sdata4;
    const struct eh_fde_spec fdes[] = {
        {.cie = 0, .pc_begin = 0x401000, .pc_range = 7, .lsda = 0x403008, .insns = f_insns, .insns_len = sizeof f_insns},
        {.cie = 0, .pc_begin = 0x401007, .pc_range = 9, .lsda = 0x40300c, .insns = g_insns, .insns_len = sizeof g_insns},
    };
    struct cfi_bytes out = {0}, hdr = {0};
    uint64_t size, fde_addrs[2];
    const char *why = NULL;
    assert_int_equal(eh_frame_size(&cie, 1, fdes, 2, &size, &why), 0);
    assert_int_equal(size, sizeof ld_eh_frame + 4);
    assert_int_equal(eh_frame_write(&cie, 1, fdes, 2, 0x402020, &out, fde_addrs, &why), 0);
    assert_int_equal(out.n, size);
    assert_memory_equal(out.b, ld_eh_frame, sizeof ld_eh_frame);
    assert_memory_equal(out.b + sizeof ld_eh_frame, "\0\0\0\0", 4);
    assert_int_equal(fde_addrs[0], 0x402040);
    assert_int_equal(fde_addrs[1], 0x402064);
    /* the header's entries given out of order: the writer sorts them */
    const uint64_t pcs[] = {0x401007, 0x401000}, at[] = {fde_addrs[1], fde_addrs[0]};
    assert_int_equal(eh_frame_hdr_write(0x402000, 0x402020, pcs, at, 2, &hdr, &why), 0);
    assert_int_equal(hdr.n, eh_frame_hdr_size(2));
    assert_int_equal(hdr.n, sizeof ld_eh_frame_hdr);
    assert_memory_equal(hdr.b, ld_eh_frame_hdr, sizeof ld_eh_frame_hdr);
    cfi_bytes_release(&out);
    cfi_bytes_release(&hdr);
}

/* ---- real files, written elsewhere and read back ------------------------- */

/* INSNS[0, N) as written: SPEC's bytes, then only DW_CFA_nop padding. */
static void assert_insns(const uint8_t *insns, size_t n, const uint8_t *spec, size_t spec_len)
{
    assert_true(n >= spec_len && n - spec_len < 4);
    if (spec_len)
        assert_memory_equal(insns, spec, spec_len);
    for (size_t i = spec_len; i < n; i++)
        assert_int_equal(insns[i], DW_CFA_nop);
}

static void assert_cie(const struct eh_frame_cie *got, const struct eh_cie_spec *want)
{
    assert_int_equal(got->version, 1);
    assert_int_equal(got->fde_encoding, DW_EH_PE_pcrel | DW_EH_PE_sdata4);
    assert_int_equal(got->code_align, want->code_align);
    assert_int_equal(got->data_align, want->data_align);
    assert_int_equal(got->ra_column, want->ra_column);
    assert_int_equal(got->signal_frame, !!want->signal_frame);
    assert_int_equal(got->personality_encoding, want->personality_encoding);
    if (want->personality_encoding != DW_EH_PE_omit)
        assert_int_equal(got->personality, want->personality);
    assert_int_equal(got->lsda_encoding, want->lsda_encoding);
    assert_insns(got->insns, got->insns_len, want->insns, want->insns_len);
}

/*
 * The FDE's LSDA is WANT; none is a zero field, what libgcc reads as none
 * in any encoding (eh_frame_parse applies pcrel even to zero: the field's
 * bytes are looked at instead).  The field lies just before the
 * instructions: the augmentation data holds nothing else.
 */
static void assert_lsda(const struct eh_frame_fde *fde, const struct eh_frame_cie *cie, uint64_t want)
{
    if (cie->lsda_encoding == DW_EH_PE_omit || want != 0) {
        assert_int_equal(fde->lsda, want);
        return;
    }
    unsigned fmt = cie->lsda_encoding & 0x0f;
    size_t width = fmt == DW_EH_PE_udata4 || fmt == DW_EH_PE_sdata4 ? 4 : 8;
    for (size_t i = 1; i <= width; i++)
        assert_int_equal(fde->insns[-(ptrdiff_t)i], 0);
}

/*
 * Walk the section written at ADDR as any reader does, and check every
 * entry against the specs: the CIEs first and in order, then the FDEs in
 * order at FDE_ADDRS, each naming its CIE.
 */
static void assert_read_back(const struct cfi_bytes *out, uint64_t addr, const struct eh_cie_spec *cies,
                             size_t ncies, const struct eh_fde_spec *fdes, size_t nfdes, const uint64_t *fde_addrs)
{
    struct frame_view v = {out->b, out->n, addr, 1};
    uint64_t *cie_offsets = calloc(ncies + 1, sizeof *cie_offsets);
    assert_non_null(cie_offsets);
    struct frame_entry e;
    struct eh_frame_cie cie;
    struct eh_frame_fde fde;
    const char *why = NULL;
    size_t i = 0, k = 0;
    for (uint64_t off = 0;; off = e.end) {
        assert_int_equal(eh_frame_entry_read(&v, off, &e, &why), 0);
        if (e.kind == FRAME_ENTRY_ZERO)
            break;
        assert_int_equal((e.end - e.offset) % 4, 0);
        if (e.kind == FRAME_ENTRY_CIE) {
            assert_true(i < ncies && k == 0);
            assert_int_equal(eh_frame_cie_parse(&v, &e, &cie, &why), 0);
            assert_cie(&cie, &cies[i]);
            cie_offsets[i++] = off;
            continue;
        }
        assert_true(k < nfdes);
        const struct eh_fde_spec *want = &fdes[k];
        uint64_t cie_off;
        struct frame_entry ce;
        assert_int_equal(addr + off, fde_addrs[k]);
        assert_int_equal(eh_frame_fde_cie_offset(&v, &e, &cie_off, &why), 0);
        assert_int_equal(cie_off, cie_offsets[want->cie]);
        assert_int_equal(eh_frame_entry_read(&v, cie_off, &ce, &why), 0);
        assert_int_equal(eh_frame_cie_parse(&v, &ce, &cie, &why), 0);
        assert_int_equal(eh_frame_fde_parse(&v, &e, &cie, &fde, &why), 0);
        assert_int_equal(fde.pc_begin, want->pc_begin);
        assert_int_equal(fde.pc_range, want->pc_range);
        assert_lsda(&fde, &cie, want->lsda);
        assert_insns(fde.insns, fde.insns_len, want->insns, want->insns_len);
        k++;
    }
    assert_int_equal(e.end, out->n);
    assert_int_equal(i, ncies);
    assert_int_equal(k, nfdes);
    free(cie_offsets);
}

struct hdr_probe {
    uint64_t pc, range, fde;
};

static int by_pc(const void *a, const void *b)
{
    const struct hdr_probe *x = a, *y = b;
    return x->pc < y->pc ? -1 : x->pc > y->pc;
}

/*
 * The header written for the FDES at FDE_ADDRS leads to each FDE from its
 * first and its last byte, wherever no other FDE starts at or inside it
 * (duplicated starts and nested FDEs answer for one another).  Returns
 * how many FDEs were checked.
 */
static size_t assert_header_finds(uint64_t hdr_addr, uint64_t eh_frame_addr, const struct eh_fde_spec *fdes,
                                  size_t nfdes, const uint64_t *fde_addrs)
{
    uint64_t *pcs = calloc(nfdes + 1, sizeof *pcs);
    struct hdr_probe *p = calloc(nfdes + 1, sizeof *p);
    assert_true(pcs && p);
    for (size_t k = 0; k < nfdes; k++) {
        pcs[k] = fdes[k].pc_begin;
        p[k] = (struct hdr_probe){fdes[k].pc_begin, fdes[k].pc_range, fde_addrs[k]};
    }
    struct cfi_bytes out = {0};
    const char *why = NULL;
    assert_int_equal(eh_frame_hdr_write(hdr_addr, eh_frame_addr, pcs, fde_addrs, nfdes, &out, &why), 0);
    assert_int_equal(out.n, eh_frame_hdr_size(nfdes));
    struct eh_frame_hdr hdr;
    assert_int_equal(eh_frame_hdr_parse(out.b, out.n, hdr_addr, &hdr, &why), 0);
    assert_int_equal(hdr.eh_frame, eh_frame_addr);
    assert_int_equal(hdr.count, nfdes);
    qsort(p, nfdes, sizeof *p, by_pc);
    size_t checked = 0;
    for (size_t i = 0; i < nfdes; i++) {
        uint64_t fde_addr, initial, last = p[i].pc + p[i].range - 1;
        assert_int_equal(eh_frame_hdr_lookup(&hdr, p[i].pc, &fde_addr, &initial), 0);
        assert_int_equal(initial, p[i].pc);
        if ((i > 0 && p[i - 1].pc == p[i].pc) || p[i].range == 0 || (i + 1 < nfdes && p[i + 1].pc <= last))
            continue;
        assert_int_equal(fde_addr, p[i].fde);
        assert_int_equal(eh_frame_hdr_lookup(&hdr, last, &fde_addr, &initial), 0);
        assert_int_equal(fde_addr, p[i].fde);
        checked++;
    }
    cfi_bytes_release(&out);
    free(pcs);
    free(p);
    return checked;
}

static void round_trip_file(const char *path)
{
    if (access(path, R_OK) != 0) {
        printf("# skipped: no %s\n", path);
        return;
    }
    char err[ELF_FILE_ERRLEN];
    struct elf_file ef;
    assert_int_equal(elf_file_open(&ef, path, err, sizeof err), 0);
    struct cfi_section cs;
    assert_int_equal(cfi_section_read(&ef, ".eh_frame", &cs, err, sizeof err), 1);
    struct eh_cie_spec *cies = calloc(cs.ncies + 1, sizeof *cies);
    struct eh_fde_spec *fdes = calloc(cs.nfdes + 1, sizeof *fdes);
    uint64_t *fde_addrs = calloc(cs.nfdes + 1, sizeof *fde_addrs);
    assert_true(cies && fdes && fde_addrs);
    size_t personalities = 0, lsdas = 0, signal = 0;
    for (size_t i = 0; i < cs.ncies; i++) {
        const struct eh_frame_cie *c = &cs.cies[i];
        cies[i] = (struct eh_cie_spec){c->code_align, c->data_align, c->ra_column, c->signal_frame,
                                       c->personality_encoding, c->personality, c->lsda_encoding,
                                       c->insns, c->insns_len};
        personalities += c->personality_encoding != DW_EH_PE_omit;
        signal += c->signal_frame != 0;
    }
    for (size_t k = 0; k < cs.nfdes; k++) {
        const struct eh_frame_fde *f = &cs.fdes[k];
        fdes[k] = (struct eh_fde_spec){(size_t)(f->cie - cs.cies), f->pc_begin, f->pc_range, f->lsda,
                                       f->insns, f->insns_len};
        lsdas += f->lsda != 0;
    }
    /* Elsewhere: every pc-relative pointer changes, every value must not. */
    uint64_t addr = cs.addr + 0x10000000, size;
    struct cfi_bytes out = {0};
    const char *why = NULL;
    assert_int_equal(eh_frame_size(cies, cs.ncies, fdes, cs.nfdes, &size, &why), 0);
    int rc = eh_frame_write(cies, cs.ncies, fdes, cs.nfdes, addr, &out, fde_addrs, &why);
    if (rc != 0)
        fail_msg("%s: eh_frame_write: %s", path, why);
    assert_int_equal(out.n, size);
    assert_read_back(&out, addr, cies, cs.ncies, fdes, cs.nfdes, fde_addrs);
    uint64_t hdr_addr = addr - 0x100000;
    size_t found = assert_header_finds(hdr_addr, addr, fdes, cs.nfdes, fde_addrs);
    printf("# %s: %zu CIEs (%zu with a personality, %zu signal frames), %zu FDEs (%zu with an LSDA): "
           "%llu bytes (the file's %llu), read back equal; header finds %zu by first and last byte\n",
           path, cs.ncies, personalities, signal, cs.nfdes, lsdas, (unsigned long long)out.n,
           (unsigned long long)cs.size, found);
    assert_true(cs.nfdes > 1000);
    assert_true(found > cs.nfdes * 9 / 10);
    cfi_bytes_release(&out);
    free(cies);
    free(fdes);
    free(fde_addrs);
    cfi_section_release(&cs);
    elf_file_close(&ef);
}

static void test_round_trip_libc(void **state)
{
    (void)state;
    round_trip_file("/lib/x86_64-linux-gnu/libc.so.6");
}

static void test_round_trip_libstdcxx(void **state)
{
    (void)state;
    round_trip_file("/usr/lib/x86_64-linux-gnu/libstdc++.so.6");
}

/* ---- libgcc's search, on a section written in memory ---------------------- */

enum { NFDES = 7, SLOT = 0, LSDA = 16, SECTION = 64, MEM = 4096 };

static void test_libgcc_finds_fdes(void **state)
{
    (void)state;
    static const uint8_t prologue[] = {0x41, 0x0e, 0x10, 0x86, 0x02, 0x43, 0x0d, 0x06};
    /* One allocation holds the personality's GOT slot, the LSDAs and the
     * section, so that every pc-relative pointer stays near (even under
     * ASan, whose heap lies far from the program's data). */
    uint8_t *mem = calloc(1, MEM);
    assert_non_null(mem);
    uint64_t base = (uint64_t)(uintptr_t)mem;
    uint64_t slot_value = (uint64_t)(uintptr_t)&test_libgcc_finds_fdes;
    memcpy(mem + SLOT, &slot_value, 8);
    struct eh_cie_spec cies[3] = {gcc_cie(), gcc_cie(), gcc_cie()};
    cies[1].personality_encoding = EH_PE_INDIRECT | DW_EH_PE_pcrel | DW_EH_PE_sdata4;
    cies[1].personality = base + SLOT;
    cies[1].lsda_encoding = DW_EH_PE_pcrel | DW_EH_PE_sdata4;
    /* absolute 8-byte pointers: libgcc must step over the right widths */
    cies[2].personality_encoding = DW_EH_PE_absptr;
    cies[2].personality = slot_value;
    cies[2].lsda_encoding = DW_EH_PE_udata8;
    cies[2].signal_frame = 1;
    struct eh_fde_spec fdes[NFDES];
    for (size_t k = 0; k < NFDES; k++) {
        size_t c = k % 3;
        fdes[k] = (struct eh_fde_spec){c, base + 0x100000 + k * 0x100, 0x80,
                                       c && k != 4 ? base + LSDA + k : 0,   /* FDE 4: L without an LSDA */
                                       prologue, k % 2 ? sizeof prologue : 5};
    }
    uint64_t size, fde_addrs[NFDES];
    struct cfi_bytes out = {0};
    const char *why = NULL;
    assert_int_equal(eh_frame_size(cies, 3, fdes, NFDES, &size, &why), 0);
    assert_true(size <= MEM - SECTION);
    assert_int_equal(eh_frame_write(cies, 3, fdes, NFDES, base + SECTION, &out, fde_addrs, &why), 0);
    memcpy(mem + SECTION, out.b, out.n);
    __register_frame(mem + SECTION);
    struct dwarf_eh_bases bases;
    for (size_t k = 0; k < NFDES; k++) {
        uint64_t pcs[] = {fdes[k].pc_begin, fdes[k].pc_begin + 0x40, fdes[k].pc_begin + 0x7f};
        for (size_t j = 0; j < 3; j++) {
            memset(&bases, 0, sizeof bases);
            const void *found = _Unwind_Find_FDE((void *)(uintptr_t)pcs[j], &bases);
            assert_ptr_equal(found, (const void *)(uintptr_t)fde_addrs[k]);
            assert_ptr_equal(bases.func, (void *)(uintptr_t)fdes[k].pc_begin);
        }
        /* the gap after each range, and before the first */
        assert_null(_Unwind_Find_FDE((void *)(uintptr_t)(fdes[k].pc_begin + 0x80), &bases));
    }
    assert_null(_Unwind_Find_FDE((void *)(uintptr_t)(fdes[0].pc_begin - 1), &bases));
    __deregister_frame(mem + SECTION);
    /* our own reader agrees on what libgcc cannot show: personality and LSDAs */
    assert_read_back(&out, base + SECTION, cies, 3, fdes, NFDES, fde_addrs);
    cfi_bytes_release(&out);
    free(mem);
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
    uint64_t size, addr;
    /* something already in OUT stays as it was */
    assert_int_equal(eh_frame_write(&cie, 1, &fde, 1, 0x2000, &out, NULL, &why), 0);
    size_t kept = out.n;
    /* pc_begin 2 GiB and more away from its field */
    assert_int_equal(eh_frame_write(&cie, 1, &fde, 1, 0x1000 + 0x80000000ull, &out, &addr, &why), -1);
    assert_non_null(strstr(why, "pc_begin"));
    assert_int_equal(out.n, kept);
    why = NULL;
    assert_int_equal(eh_frame_write(&cie, 1, &fde, 1, 0x1000 - 0x80000000ull - 0x100, &out, &addr, &why), -1);
    assert_non_null(why);
    /* a personality out of sdata4's range, and one in udata4 below its field */
    cie.personality_encoding = DW_EH_PE_pcrel | DW_EH_PE_sdata4;
    cie.personality = 0x2000 + 0x100000000ull;
    assert_int_equal(eh_frame_write(&cie, 1, &fde, 1, 0x2000, &out, &addr, &why), -1);
    assert_non_null(strstr(why, "personality"));
    cie.personality_encoding = DW_EH_PE_pcrel | DW_EH_PE_udata4;
    cie.personality = 0x1000;
    assert_int_equal(eh_frame_write(&cie, 1, &fde, 1, 0x2000, &out, &addr, &why), -1);
    cie.personality_encoding = DW_EH_PE_udata4;
    assert_int_equal(eh_frame_write(&cie, 1, &fde, 1, 0x2000, &out, &addr, &why), 0);
    kept = out.n;
    /* an LSDA out of range; an LSDA without an LSDA encoding */
    cie.lsda_encoding = DW_EH_PE_pcrel | DW_EH_PE_sdata4;
    fde.lsda = 0x7000000000ull;
    assert_int_equal(eh_frame_write(&cie, 1, &fde, 1, 0x2000, &out, &addr, &why), -1);
    assert_non_null(strstr(why, "LSDA"));
    cie.lsda_encoding = DW_EH_PE_omit;
    assert_int_equal(eh_frame_size(&cie, 1, &fde, 1, &size, &why), -1);
    assert_non_null(strstr(why, "LSDA"));
    fde.lsda = 0;
    /* encodings a section writer cannot or will not write */
    static const uint8_t unsupported[] = {DW_EH_PE_uleb128, DW_EH_PE_sleb128, DW_EH_PE_udata2,
                                          DW_EH_PE_datarel | DW_EH_PE_sdata4, DW_EH_PE_textrel | DW_EH_PE_udata4,
                                          DW_EH_PE_funcrel | DW_EH_PE_sdata4, DW_EH_PE_aligned};
    for (size_t i = 0; i < sizeof unsupported; i++) {
        cie.personality_encoding = unsupported[i];
        assert_int_equal(eh_frame_write(&cie, 1, &fde, 1, 0x2000, &out, &addr, &why), -1);
        assert_non_null(strstr(why, "unsupported personality"));
        cie.personality_encoding = DW_EH_PE_omit;
        cie.lsda_encoding = unsupported[i];
        assert_int_equal(eh_frame_size(&cie, 1, &fde, 1, &size, &why), -1);
        assert_non_null(strstr(why, "unsupported LSDA"));
        cie.lsda_encoding = DW_EH_PE_omit;
    }
    /* no such CIE; a range sdata4 would read back negative; a column version 1 cannot hold */
    fde.cie = 1;
    assert_int_equal(eh_frame_size(&cie, 1, &fde, 1, &size, &why), -1);
    fde.cie = 0;
    fde.pc_range = 0x80000000ull;
    assert_int_equal(eh_frame_size(&cie, 1, &fde, 1, &size, &why), -1);
    fde.pc_range = 0x10;
    cie.ra_column = 256;
    assert_int_equal(eh_frame_size(&cie, 1, &fde, 1, &size, &why), -1);
    assert_int_equal(out.n, kept);
    /* the header: an FDE 2 GiB away from it, .eh_frame too */
    const uint64_t pc = 0x1000, far = 0x1000 + 0x90000000ull;
    assert_int_equal(eh_frame_hdr_write(0x2000, 0x3000, &far, &pc, 1, &out, &why), -1);
    assert_int_equal(eh_frame_hdr_write(0x2000, 0x3000, &pc, &far, 1, &out, &why), -1);
    assert_int_equal(eh_frame_hdr_write(0x2000, far, &pc, &pc, 1, &out, &why), -1);
    assert_int_equal(out.n, kept);
    cfi_bytes_release(&out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bytes_of_gnu_ld),
        cmocka_unit_test(test_round_trip_libc),
        cmocka_unit_test(test_round_trip_libstdcxx),
        cmocka_unit_test(test_libgcc_finds_fdes),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests_name("test_eh_frame_write", tests, NULL, NULL);
}
/* SPDX-License-Identifier: Apache-2.0 */
