/*
 * Unit tests for semantics/write/sframe_write: tables of H written as .sframe
 * bytes, read back by semantics/sframe_parse (the reader the writer
 * inverts), and compared address by address with the table they came from,
 * restricted to SFrame's columns (CFA, rbp, ra):
 *   - a frame-pointer function and a leaf, in V1, V2 and V3; rows that agree
 *     in those columns written as one FRE; the header (flags, fixed RA
 *     offset, PC-relative starts from V2 on) and FDEs sorted;
 *   - the widths at their boundaries: FRE start offsets of 1, 2 and 4 bytes
 *     (last FRE at 255/256, 65535/65536), data words of 1, 2 and 4 bytes
 *     (127/128, -128/-129, 32767/32768, -32768/-32769), for the CFA and rbp;
 *   - the PLT: PLT0's rows as a PCINC FDE, the entries' expression rows as a
 *     PCMASK FDE repeating every 16 bytes;
 *   - V3's flexible FDEs (GCC's DRAP, a CFA in r10, rbp in a register, a
 *     signal trampoline's loaded CFA) and signal frames; outermost rows (ra
 *     undefined) in V2 and V3;
 *   - what SFrame cannot say, refused with its reason and the row, the
 *     writer left as it was: a CFA expression, a CFA in r10 and rbp in a
 *     register before V3, ra elsewhere, rbp undefined, an outermost row in
 *     V1, a signal frame before V3, an empty range, a hole, an overlap; a
 *     start 2 GiB from the section in V1/V2; more than 65535 FREs in V3.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "semantics/abi.h"
#include "semantics/dwarf_constants.h"
#include "semantics/sframe_parse.h"
#include "semantics/write/sframe_write.h"

#define SECTION_ADDR 0x3000
#define UNCHANGED 0x7fffffffffffffffLL   /* rbp not tracked */

/* ---- tables ------------------------------------------------------------------ */

/* A row [START, END): CFA = REG + CFA_OFF, rbp saved at CFA + FP (or
 * UNCHANGED), ra at CFA-8. */
static struct unwind_row *row(struct unwind_table *t, uint64_t start, uint64_t end, int reg, int64_t cfa_off,
                              int64_t fp)
{
    struct unwind_row *r = unwind_table_append(t, start, end);
    assert_non_null(r);
    r->cfa = (struct unwind_rule){.kind = CFA_RULE_REG_OFFSET, .reg = (uint16_t)reg, .offset = cfa_off};
    if (fp != UNCHANGED)
        r->reg[ABI_RBP] = (struct unwind_rule){.kind = REG_RULE_OFFSET, .offset = fp};
    r->reg[ABI_RA] = (struct unwind_rule){.kind = REG_RULE_OFFSET, .offset = ABI_ENTRY_RA_OFFSET};
    return r;
}

/* An expression rule of T (kept by T). */
static void expr_rule(struct unwind_table *t, struct unwind_rule *r, uint8_t kind, const uint8_t *b, uint32_t n)
{
    r->kind = kind;
    r->expr = unwind_table_keep_expr(t, b, n);
    r->expr_len = n;
    assert_non_null(r->expr);
}

/* ---- reading back ------------------------------------------------------------ */

struct readback {
    struct sframe_view v;
    struct sframe_header h;
    struct unwind_table *tables;   /* one per FDE */
    struct sframe_fde *fdes;
};

/* The writer's section at SECTION_ADDR, read and checked whole. */
static void read_back(struct sframe_writer *w, struct cfi_bytes *bytes, struct readback *rb)
{
    const char *why = NULL;
    memset(bytes, 0, sizeof *bytes);
    assert_int_equal(sframe_writer_write(w, SECTION_ADDR, bytes, &why), 0);
    assert_int_equal(bytes->n, sframe_writer_size(w));
    rb->v = (struct sframe_view){bytes->b, bytes->n, SECTION_ADDR};
    struct sframe_error err = {0};
    if (sframe_header_read(&rb->v, &rb->h, &err) != 0 || sframe_section_check(&rb->v, &rb->h, &err) != 0)
        fail_msg("written section does not read back: %s at 0x%llx", err.reason, (unsigned long long)err.offset);
    assert_int_equal(rb->h.version, w->version);
    assert_int_equal(rb->h.fixed_ra_offset, -8);
    assert_int_equal(rb->h.fixed_fp_offset, 0);
    assert_true(rb->h.flags & SFRAME_F_FDE_SORTED);
    assert_int_equal(!!(rb->h.flags & SFRAME_F_FDE_FUNC_START_PCREL), w->version != SFRAME_VERSION_1);
    rb->tables = calloc(rb->h.num_fdes + 1, sizeof *rb->tables);
    rb->fdes = calloc(rb->h.num_fdes + 1, sizeof *rb->fdes);
    assert_non_null(rb->tables);
    assert_non_null(rb->fdes);
    for (uint32_t i = 0; i < rb->h.num_fdes; i++) {
        if (sframe_fde_read(&rb->v, &rb->h, i, &rb->fdes[i], &err) != 0 ||
            sframe_fde_table(&rb->v, &rb->h, &rb->fdes[i], &rb->tables[i], &err) != 0)
            fail_msg("FDE %u does not read back: %s", i, err.reason);
    }
}

static void readback_release(struct readback *rb, struct cfi_bytes *bytes)
{
    for (uint32_t i = 0; i < rb->h.num_fdes; i++)
        unwind_table_release(&rb->tables[i]);
    free(rb->tables);
    free(rb->fdes);
    cfi_bytes_release(bytes);
}

/* The row the section gives at ADDR, or NULL. */
static const struct unwind_row *sframe_row_at(const struct readback *rb, uint64_t addr, int *signal)
{
    for (uint32_t i = 0; i < rb->h.num_fdes; i++) {
        const struct unwind_row *r = unwind_table_row_at(&rb->tables[i], addr);
        if (r) {
            *signal = rb->fdes[i].signal_frame;
            return r;
        }
    }
    return NULL;
}

static int unchanged(const struct unwind_rule *r)
{
    return r->kind == REG_RULE_UNREFERENCED || r->kind == REG_RULE_SAME_VALUE;
}

/* What the PLT entries' CFA expression gives at ADDR, as rsp + N. */
static int plt_cfa_offset(const struct unwind_rule *c, uint64_t addr, int64_t *off)
{
    if (c->kind != CFA_RULE_EXPRESSION || c->expr_len != 11 || c->expr[0] != DW_OP_breg0 + ABI_RSP)
        return 0;
    *off = c->expr[1] + (((addr & 15) >= (uint64_t)(c->expr[6] - DW_OP_lit0)) ? 8 : 0);
    return 1;
}

/* Every address of T: the section's row says what T's says in SFrame's columns. */
static void assert_same_rows(const struct readback *rb, const struct unwind_table *t)
{
    for (uint64_t a = t->start; a < t->end; a++) {
        const struct unwind_row *want = unwind_table_row_at(t, a);
        int signal = 0;
        const struct unwind_row *got = sframe_row_at(rb, a, &signal);
        assert_non_null(want);
        if (!got)
            fail_msg("0x%llx: no SFrame row", (unsigned long long)a);
        assert_int_equal(signal, t->signal_frame);
        if (want->reg[ABI_RA].kind == REG_RULE_UNDEFINED) {
            assert_int_equal(got->reg[ABI_RA].kind, REG_RULE_UNDEFINED);
            continue;
        }
        int64_t plt;
        if (plt_cfa_offset(&want->cfa, a, &plt)) {
            assert_int_equal(got->cfa.kind, CFA_RULE_REG_OFFSET);
            assert_int_equal(got->cfa.reg, ABI_RSP);
            assert_int_equal(got->cfa.offset, plt);
        } else if (!unwind_cfa_rule_equal(&want->cfa, &got->cfa)) {
            fail_msg("0x%llx: CFA differs (kind %d/%d, offset %lld/%lld)", (unsigned long long)a, want->cfa.kind,
                     got->cfa.kind, (long long)want->cfa.offset, (long long)got->cfa.offset);
        }
        assert_true(unwind_rule_equal(&want->reg[ABI_RA], &got->reg[ABI_RA]));
        const struct unwind_rule *wf = &want->reg[ABI_RBP], *gf = &got->reg[ABI_RBP];
        if (!(unchanged(wf) && unchanged(gf)) && !unwind_rule_equal(wf, gf))
            fail_msg("0x%llx: rbp differs (kind %d/%d)", (unsigned long long)a, wf->kind, gf->kind);
    }
}

/* Write T alone as VERSION; 1 written, 0 refused (*WHY). */
static int add_one(struct sframe_writer *w, unsigned version, const struct unwind_table *t, struct sframe_added *added,
                   const char **why, uint64_t *at)
{
    assert_int_equal(sframe_writer_init(w, version), 0);
    int rc = sframe_writer_add(w, t, added, why, at);
    assert_true(rc == 0 || rc == 1);
    return rc;
}

/* T written as VERSION, read back, the same rows. */
static void round_trip(unsigned version, const struct unwind_table *t, struct sframe_added *added)
{
    struct sframe_writer w;
    const char *why = NULL;
    uint64_t at = 0;
    if (add_one(&w, version, t, added, &why, &at) != 1)
        fail_msg("V%u: refused at 0x%llx: %s", version, (unsigned long long)at, why);
    struct cfi_bytes bytes;
    struct readback rb;
    read_back(&w, &bytes, &rb);
    assert_int_equal(rb.h.num_fdes, added->fdes);
    assert_int_equal(rb.h.num_fres, added->fres);
    assert_same_rows(&rb, t);
    readback_release(&rb, &bytes);
    sframe_writer_release(&w);
}

/* T refused by VERSION with a reason holding PHRASE, at AT. */
static void refused(unsigned version, const struct unwind_table *t, const char *phrase, uint64_t want_at)
{
    struct sframe_writer w;
    struct sframe_added added;
    const char *why = NULL;
    uint64_t at = 0;
    if (add_one(&w, version, t, &added, &why, &at) != 0)
        fail_msg("V%u: written, expected refused (%s)", version, phrase);
    assert_non_null(why);
    if (!strstr(why, phrase))
        fail_msg("V%u: reason '%s' lacks '%s'", version, why, phrase);
    assert_int_equal(at, want_at);
    assert_int_equal(w.nfdes, 0);
    assert_int_equal(w.nfres, 0);
    assert_int_equal(sframe_writer_size(&w), SFRAME_HEADER_SIZE);
    sframe_writer_release(&w);
}

/* ---- tests ------------------------------------------------------------------- */

/* push %rbp; mov %rsp,%rbp; push %rbx (rbx: not SFrame's); ...; leave; ret. */
static void frame_pointer_function(struct unwind_table *t)
{
    unwind_table_init(t, 0x1000, 0x1020);
    row(t, 0x1000, 0x1001, ABI_RSP, 8, UNCHANGED);
    row(t, 0x1001, 0x1004, ABI_RSP, 16, -16);
    row(t, 0x1004, 0x1009, ABI_RBP, 16, -16);
    struct unwind_row *r = row(t, 0x1009, 0x101e, ABI_RBP, 16, -16);   /* rbx saved: the same FRE */
    r->reg[ABI_RBX] = (struct unwind_rule){.kind = REG_RULE_OFFSET, .offset = -24};
    r = row(t, 0x101e, 0x1020, ABI_RSP, 8, UNCHANGED);
    r->reg[ABI_RBP].kind = REG_RULE_SAME_VALUE;   /* .cfi_same_value: unchanged too */
}

static void frame_pointer_all_versions(void **state)
{
    (void)state;
    struct unwind_table t;
    frame_pointer_function(&t);
    for (unsigned v = 1; v <= 3; v++) {
        struct sframe_added added;
        round_trip(v, &t, &added);
        assert_int_equal(added.fdes, 1);
        assert_int_equal(added.fres, 4);   /* 5 rows, two alike in SFrame's columns */
        assert_int_equal(added.flex_fdes, 0);
    }
    unwind_table_release(&t);
}

/* Two functions, then a third: FDEs sorted, starts relative as each version says. */
static void several_functions(void **state)
{
    (void)state;
    struct unwind_table t[3];
    frame_pointer_function(&t[0]);
    unwind_table_init(&t[1], 0x1020, 0x1025);
    row(&t[1], 0x1020, 0x1022, ABI_RSP, 16, -16);
    row(&t[1], 0x1022, 0x1025, ABI_RSP, 16, -24);   /* only rbp's slot moves: an FRE of its own */
    unwind_table_init(&t[2], 0x2000, 0x2100);
    row(&t[2], 0x2000, 0x2004, ABI_RSP, 8, UNCHANGED);
    row(&t[2], 0x2004, 0x2100, ABI_RSP, 4096, UNCHANGED);
    for (unsigned v = 1; v <= 3; v++) {
        struct sframe_writer w;
        assert_int_equal(sframe_writer_init(&w, v), 0);
        for (int i = 0; i < 3; i++) {
            struct sframe_added added;
            const char *why;
            uint64_t at;
            assert_int_equal(sframe_writer_add(&w, &t[i], &added, &why, &at), 1);
            assert_int_equal(added.fres, i == 0 ? 4 : 2);
        }
        struct cfi_bytes bytes;
        struct readback rb;
        read_back(&w, &bytes, &rb);
        assert_int_equal(rb.h.num_fdes, 3);
        assert_int_equal(rb.fdes[0].pc, 0x1000);
        assert_int_equal(rb.fdes[1].pc, 0x1020);
        assert_int_equal(rb.fdes[2].pc, 0x2000);
        /* V1: from the section's start; V2, V3: from the FDE's own field. */
        int64_t field = v == 1 ? SECTION_ADDR : (int64_t)(SECTION_ADDR + rb.fdes[2].offset);
        assert_int_equal(rb.fdes[2].start_field, 0x2000 - field);
        for (int i = 0; i < 3; i++)
            assert_same_rows(&rb, &t[i]);
        readback_release(&rb, &bytes);
        sframe_writer_release(&w);
    }
    for (int i = 0; i < 3; i++)
        unwind_table_release(&t[i]);
}

/* A function whose last FRE starts at LAST: its FRE start offsets' type. */
static void fre_type_for(unsigned v, uint32_t last, uint8_t want)
{
    struct unwind_table t;
    unwind_table_init(&t, 0x10000, 0x10000 + (uint64_t)last + 1);
    row(&t, 0x10000, 0x10000 + (uint64_t)last, ABI_RSP, 8, UNCHANGED);
    row(&t, 0x10000 + (uint64_t)last, 0x10000 + (uint64_t)last + 1, ABI_RSP, 16, UNCHANGED);
    struct sframe_writer w;
    struct sframe_added added;
    const char *why;
    uint64_t at;
    assert_int_equal(add_one(&w, v, &t, &added, &why, &at), 1);
    struct cfi_bytes bytes;
    struct readback rb;
    read_back(&w, &bytes, &rb);
    assert_int_equal(rb.fdes[0].fre_type, want);
    /* Only the boundaries: every address of a 64 KiB function is slow and says nothing more. */
    assert_same_rows(&rb, &(struct unwind_table){.start = 0x10000, .end = 0x10001, .rows = t.rows, .nrows = 1});
    struct unwind_table tail = t;
    tail.start = 0x10000 + (uint64_t)last - 1;
    assert_same_rows(&rb, &tail);
    readback_release(&rb, &bytes);
    sframe_writer_release(&w);
    unwind_table_release(&t);
}

static void fre_start_widths(void **state)
{
    (void)state;
    for (unsigned v = 1; v <= 3; v++) {
        fre_type_for(v, 255, 0);
        fre_type_for(v, 256, 1);
        fre_type_for(v, 65535, 1);
        fre_type_for(v, 65536, 2);
    }
}

/* One row, CFA = rsp + CFA_OFF and rbp at CFA + FP: its FRE's word size. */
static void word_size_for(unsigned v, int64_t cfa_off, int64_t fp, unsigned want)
{
    struct unwind_table t;
    unwind_table_init(&t, 0x1000, 0x1004);
    row(&t, 0x1000, 0x1004, ABI_RSP, cfa_off, fp);
    struct sframe_writer w;
    struct sframe_added added;
    const char *why;
    uint64_t at;
    assert_int_equal(add_one(&w, v, &t, &added, &why, &at), 1);
    struct cfi_bytes bytes;
    struct readback rb;
    read_back(&w, &bytes, &rb);
    struct sframe_fre fre;
    struct sframe_error err;
    assert_int_equal(sframe_fre_read(&rb.v, &rb.h, &rb.fdes[0], rb.fdes[0].first_fre, &fre, &err), 0);
    if (fre.word_size != want)
        fail_msg("V%u: CFA %lld, rbp %lld: words of %u bytes, want %u", v, (long long)cfa_off, (long long)fp,
                 fre.word_size, want);
    assert_int_equal(fre.count, fp == UNCHANGED ? 1 : 2);
    assert_same_rows(&rb, &t);
    readback_release(&rb, &bytes);
    sframe_writer_release(&w);
    unwind_table_release(&t);
}

static void data_word_widths(void **state)
{
    (void)state;
    for (unsigned v = 1; v <= 3; v++) {
        word_size_for(v, 127, UNCHANGED, 1);
        word_size_for(v, 128, UNCHANGED, 2);
        word_size_for(v, -128, UNCHANGED, 1);
        word_size_for(v, -129, UNCHANGED, 2);
        word_size_for(v, 32767, UNCHANGED, 2);
        word_size_for(v, 32768, UNCHANGED, 4);
        word_size_for(v, -32768, UNCHANGED, 2);
        word_size_for(v, -32769, UNCHANGED, 4);
        word_size_for(v, (int64_t)INT32_MAX, UNCHANGED, 4);
        word_size_for(v, 16, -128, 1);       /* rbp's word decides */
        word_size_for(v, 16, -129, 2);
        word_size_for(v, 16, -32769, 4);
    }
}

/* ld's .plt: PLT0 (push GOT+8; jmp *GOT+16) then three 16-byte entries. */
static void plt(void **state)
{
    (void)state;
    static const uint8_t entries[] = {DW_OP_breg0 + ABI_RSP, 8, DW_OP_breg0 + ABI_RA, 0, DW_OP_lit0 + 15, DW_OP_and,
                                      DW_OP_lit0 + 11, DW_OP_ge, DW_OP_lit0 + 3, DW_OP_shl, DW_OP_plus};
    struct unwind_table t;
    unwind_table_init(&t, 0x1020, 0x1060);
    row(&t, 0x1020, 0x1026, ABI_RSP, 16, UNCHANGED);
    row(&t, 0x1026, 0x1030, ABI_RSP, 24, UNCHANGED);
    struct unwind_row *r = row(&t, 0x1030, 0x1040, ABI_RSP, 0, UNCHANGED);
    expr_rule(&t, &r->cfa, CFA_RULE_EXPRESSION, entries, sizeof entries);
    r = row(&t, 0x1040, 0x1060, ABI_RSP, 0, UNCHANGED);   /* split (provenance): one run all the same */
    expr_rule(&t, &r->cfa, CFA_RULE_EXPRESSION, entries, sizeof entries);
    for (unsigned v = 1; v <= 3; v++) {
        struct sframe_added added;
        round_trip(v, &t, &added);
        assert_int_equal(added.fdes, 2);
        assert_int_equal(added.pcmask_fdes, 1);
        assert_int_equal(added.fres, 4);
    }
    /* Entries that do not start at a 16-byte boundary: the mask would not match rip & 15. */
    struct unwind_table odd;
    unwind_table_init(&odd, 0x1028, 0x1048);
    r = row(&odd, 0x1028, 0x1048, ABI_RSP, 0, UNCHANGED);
    expr_rule(&odd, &r->cfa, CFA_RULE_EXPRESSION, entries, sizeof entries);
    refused(2, &odd, "16-byte boundary", 0x1028);
    unwind_table_release(&odd);
    unwind_table_release(&t);
}

/* GCC's DRAP (stack realignment): CFA = *(rbp - 8), rbp saved at rbp + 0;
 * V3 writes it as FLEX, V1 and V2 cannot. */
static void drap_flex(void **state)
{
    (void)state;
    static const uint8_t cfa[] = {DW_OP_breg0 + ABI_RBP, 0x78, DW_OP_deref};   /* *(rbp - 8) */
    static const uint8_t fp[] = {DW_OP_breg0 + ABI_RBP, 0};                    /* at rbp + 0 */
    struct unwind_table t;
    unwind_table_init(&t, 0x1000, 0x1030);
    row(&t, 0x1000, 0x1005, ABI_RSP, 8, UNCHANGED);
    row(&t, 0x1005, 0x1010, ABI_R10, 0, UNCHANGED);           /* lea 8(%rsp),%r10: CFA = r10 */
    struct unwind_row *r = row(&t, 0x1010, 0x1028, ABI_RSP, 0, UNCHANGED);
    expr_rule(&t, &r->cfa, CFA_RULE_EXPRESSION, cfa, sizeof cfa);
    expr_rule(&t, &r->reg[ABI_RBP], REG_RULE_EXPRESSION, fp, sizeof fp);
    r = row(&t, 0x1028, 0x1030, ABI_RSP, 8, UNCHANGED);
    r->reg[ABI_RBP] = (struct unwind_rule){.kind = REG_RULE_REGISTER, .reg = ABI_R12};   /* rbp in r12 */
    struct sframe_added added;
    round_trip(3, &t, &added);
    assert_int_equal(added.flex_fdes, 1);
    assert_int_equal(added.fres, 4);
    refused(2, &t, "CFA is based on a register other than rsp and rbp", 0x1005);
    refused(1, &t, "CFA is based on a register other than rsp and rbp", 0x1005);
    unwind_table_release(&t);
}

/* __restore_rt: a signal frame whose CFA, ra and rbp are read from the
 * saved context (CFA = *(rsp + 160), ra at rsp + 168, rbp at rsp + 120). */
static void signal_frame(void **state)
{
    (void)state;
    static const uint8_t cfa[] = {DW_OP_breg0 + ABI_RSP, 0xa0, 0x01, DW_OP_deref};
    static const uint8_t ra[] = {DW_OP_breg0 + ABI_RSP, 0xa8, 0x01};
    static const uint8_t fp[] = {DW_OP_breg0 + ABI_RSP, 0xf8, 0x00};
    struct unwind_table t;
    unwind_table_init(&t, 0x3c04f, 0x3c059);
    t.signal_frame = 1;
    struct unwind_row *r = row(&t, 0x3c04f, 0x3c059, ABI_RSP, 0, UNCHANGED);
    expr_rule(&t, &r->cfa, CFA_RULE_EXPRESSION, cfa, sizeof cfa);
    expr_rule(&t, &r->reg[ABI_RA], REG_RULE_EXPRESSION, ra, sizeof ra);
    expr_rule(&t, &r->reg[ABI_RBP], REG_RULE_EXPRESSION, fp, sizeof fp);
    struct sframe_added added;
    round_trip(3, &t, &added);
    assert_int_equal(added.flex_fdes, 1);
    refused(2, &t, "signal frame", 0x3c04f);
    refused(1, &t, "signal frame", 0x3c04f);
    /* A signal frame of plain rows: a DEFAULT FDE with V3's signal bit. */
    struct unwind_table plain;
    unwind_table_init(&plain, 0x1000, 0x1004);
    plain.signal_frame = 1;
    row(&plain, 0x1000, 0x1004, ABI_RSP, 8, UNCHANGED);
    round_trip(3, &plain, &added);
    assert_int_equal(added.flex_fdes, 0);
    unwind_table_release(&plain);
    unwind_table_release(&t);
}

/* _start: `.cfi_undefined rip` — the outermost frame. */
static void outermost(void **state)
{
    (void)state;
    struct unwind_table t;
    unwind_table_init(&t, 0x1000, 0x1010);
    struct unwind_row *r = row(&t, 0x1000, 0x1004, ABI_RSP, 8, UNCHANGED);
    r->reg[ABI_RA].kind = REG_RULE_UNDEFINED;
    r = row(&t, 0x1004, 0x1010, ABI_RBP, 16, UNCHANGED);
    r->reg[ABI_RA].kind = REG_RULE_UNDEFINED;
    struct sframe_added added;
    round_trip(2, &t, &added);
    assert_int_equal(added.fres, 1);   /* both rows outermost: one FRE without words */
    round_trip(3, &t, &added);
    refused(1, &t, "outermost", 0x1000);
    unwind_table_release(&t);
}

/* Rows SFrame cannot say, one column at a time, at the second row. */
static void unexpressible_rows(void **state)
{
    (void)state;
    static const uint8_t other_expr[] = {DW_OP_breg0 + ABI_RSP, 8, DW_OP_lit0 + 1, DW_OP_plus};
    struct {
        const char *what;
        unsigned versions;        /* bit V: refused by V */
        const char *phrase;
    } cases[] = {
        {"cfa-expression", 0xe, "CFA is a DWARF expression"},
        {"cfa-r10", 0x6, "CFA is based on a register other than rsp and rbp"},
        {"cfa-huge", 0xe, "CFA offset does not fit 32 bits"},
        {"ra-c-16", 0x6, "ra is saved elsewhere than CFA-8"},
        {"ra-same", 0xe, "same value"},
        {"rbp-undefined", 0xe, "rbp is undefined"},
        {"rbp-register", 0x6, "rbp is held in another register"},
        {"rbp-val-offset", 0xe, "rbp's value is CFA+N"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        struct unwind_table t;
        unwind_table_init(&t, 0x1000, 0x1010);
        row(&t, 0x1000, 0x1001, ABI_RSP, 8, UNCHANGED);
        struct unwind_row *r = row(&t, 0x1001, 0x1010, ABI_RSP, 16, -16);
        const char *w = cases[c].what;
        if (strcmp(w, "cfa-expression") == 0)
            expr_rule(&t, &r->cfa, CFA_RULE_EXPRESSION, other_expr, sizeof other_expr);
        else if (strcmp(w, "cfa-r10") == 0)
            r->cfa.reg = ABI_R10;
        else if (strcmp(w, "cfa-huge") == 0)
            r->cfa.offset = (int64_t)1 << 32;
        else if (strcmp(w, "ra-c-16") == 0)
            r->reg[ABI_RA].offset = -16;
        else if (strcmp(w, "ra-same") == 0)
            r->reg[ABI_RA].kind = REG_RULE_SAME_VALUE;
        else if (strcmp(w, "rbp-undefined") == 0)
            r->reg[ABI_RBP].kind = REG_RULE_UNDEFINED;
        else if (strcmp(w, "rbp-register") == 0)
            r->reg[ABI_RBP] = (struct unwind_rule){.kind = REG_RULE_REGISTER, .reg = ABI_RBX};
        else if (strcmp(w, "rbp-val-offset") == 0)
            r->reg[ABI_RBP].kind = REG_RULE_VAL_OFFSET;
        for (unsigned v = 1; v <= 3; v++) {
            if (cases[c].versions >> v & 1) {
                refused(v, &t, cases[c].phrase, 0x1001);
            } else {
                struct sframe_added added;
                round_trip(v, &t, &added);   /* V3: as FLEX */
                assert_int_equal(added.flex_fdes, 1);
            }
        }
        unwind_table_release(&t);
    }
}

/* Whole functions SFrame cannot hold, and a refusal that leaves the writer as it was. */
static void unexpressible_functions(void **state)
{
    (void)state;
    struct unwind_table empty, hole, a, b;
    unwind_table_init(&empty, 0x1000, 0x1000);
    refused(2, &empty, "empty", 0x1000);
    unwind_table_init(&hole, 0x1000, 0x1010);
    row(&hole, 0x1000, 0x1004, ABI_RSP, 8, UNCHANGED);
    row(&hole, 0x1008, 0x1010, ABI_RSP, 16, UNCHANGED);
    refused(2, &hole, "no row", 0x1004);
    /* A added, B overlaps it: refused; then A's bytes are as A alone gives them. */
    unwind_table_init(&a, 0x1000, 0x1010);
    row(&a, 0x1000, 0x1010, ABI_RSP, 8, UNCHANGED);
    unwind_table_init(&b, 0x1008, 0x1020);
    row(&b, 0x1008, 0x1020, ABI_RSP, 8, UNCHANGED);
    struct sframe_writer w;
    struct sframe_added added;
    const char *why;
    uint64_t at;
    assert_int_equal(add_one(&w, 2, &a, &added, &why, &at), 1);
    uint64_t size = sframe_writer_size(&w);
    assert_int_equal(sframe_writer_add(&w, &b, &added, &why, &at), 0);
    assert_non_null(strstr(why, "overlaps"));
    /* A function whose second row SFrame cannot say: nothing of it stays. */
    struct unwind_table c;
    unwind_table_init(&c, 0x1010, 0x1020);
    row(&c, 0x1010, 0x1011, ABI_RSP, 8, UNCHANGED);
    row(&c, 0x1011, 0x1020, ABI_R10, 8, UNCHANGED);
    assert_int_equal(sframe_writer_add(&w, &c, &added, &why, &at), 0);
    assert_int_equal(at, 0x1011);
    assert_int_equal(sframe_writer_size(&w), size);
    assert_int_equal(w.nfdes, 1);
    assert_int_equal(w.nfres, 1);
    sframe_writer_release(&w);
    unwind_table_release(&c);
    unwind_table_release(&a);
    unwind_table_release(&b);
    unwind_table_release(&hole);
    unwind_table_release(&empty);
}

/* V1 and V2 keep a start address in 32 signed bits from the section (or the
 * FDE); V3 in 64. */
static void far_start(void **state)
{
    (void)state;
    struct unwind_table t;
    unwind_table_init(&t, 0x100000000ull, 0x100000010ull);
    row(&t, t.start, t.end, ABI_RSP, 8, UNCHANGED);
    for (unsigned v = 1; v <= 3; v++) {
        struct sframe_writer w;
        struct sframe_added added;
        const char *why = NULL;
        uint64_t at;
        assert_int_equal(add_one(&w, v, &t, &added, &why, &at), 1);
        struct cfi_bytes bytes = {0};
        int rc = sframe_writer_write(&w, SECTION_ADDR, &bytes, &why);
        if (v < 3) {
            assert_int_equal(rc, -1);
            assert_non_null(strstr(why, "2 GiB"));
        } else {
            assert_int_equal(rc, 0);
            struct readback rb;
            cfi_bytes_release(&bytes);
            read_back(&w, &bytes, &rb);
            assert_same_rows(&rb, &t);
            readback_release(&rb, &bytes);
        }
        cfi_bytes_release(&bytes);
        sframe_writer_release(&w);
    }
    unwind_table_release(&t);
}

/* V3 counts a function's FREs in 16 bits: 65536 FREs are refused, 65535 written. */
static void v3_fre_count(void **state)
{
    (void)state;
    for (uint32_t n = 65535; n <= 65536; n++) {
        struct unwind_table t;
        unwind_table_init(&t, 0x1000, 0x1000 + (uint64_t)n);
        for (uint32_t i = 0; i < n; i++)
            row(&t, 0x1000 + i, 0x1001 + i, ABI_RSP, 8 + 8 * (i & 1), UNCHANGED);
        struct sframe_writer w;
        struct sframe_added added;
        const char *why = NULL;
        uint64_t at;
        int rc = add_one(&w, 3, &t, &added, &why, &at);
        if (n == 65535) {
            assert_int_equal(rc, 1);
            assert_int_equal(added.fres, n);
        } else {
            assert_int_equal(rc, 0);
            assert_non_null(strstr(why, "65535"));
        }
        sframe_writer_release(&w);
        assert_int_equal(add_one(&w, 2, &t, &added, &why, &at), 1);   /* V2: 32 bits */
        sframe_writer_release(&w);
        unwind_table_release(&t);
    }
}

static void bad_version(void **state)
{
    (void)state;
    struct sframe_writer w;
    assert_int_equal(sframe_writer_init(&w, 0), -1);
    assert_int_equal(sframe_writer_init(&w, 4), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(frame_pointer_all_versions),
        cmocka_unit_test(several_functions),
        cmocka_unit_test(fre_start_widths),
        cmocka_unit_test(data_word_widths),
        cmocka_unit_test(plt),
        cmocka_unit_test(drap_flex),
        cmocka_unit_test(signal_frame),
        cmocka_unit_test(outermost),
        cmocka_unit_test(unexpressible_rows),
        cmocka_unit_test(unexpressible_functions),
        cmocka_unit_test(far_start),
        cmocka_unit_test(v3_fre_count),
        cmocka_unit_test(bad_version),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
/* SPDX-License-Identifier: Apache-2.0 */
