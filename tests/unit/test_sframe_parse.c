/*
 * Unit tests for semantics/sframe_parse on sections written byte by byte
 * from "The SFrame Format" of each version:
 *   - a real V1 section (ld 2.40's output for a small program, readelf's
 *     reading of it beside each expected row), its PLT's PCMASK FDE;
 *   - V2 (20-byte FDEs, rep_size; start addresses from the section, or
 *     PC-relative with SFRAME_F_FDE_FUNC_START_PCREL), a PCMASK FDE over
 *     three blocks, the header's fixed FP offset, a header that does not fix
 *     the RA (RA then FP in the FRE), an FRE without words (RA undefined);
 *   - V3 (16-byte index entries, the 5-byte attribute before the FREs, its
 *     16-bit FRE count, the signal-frame bit, 2-byte FRE addresses and
 *     words), an FDE without FREs (outermost frame), flexible FDEs: CFA =
 *     *(rbp-8), CFA = r10, RA and FP by padding, slot, register and
 *     dereferenced register;
 *   - the same functions as V1, V2 and V3 give the same table;
 *   - malformed sections, one field at a time: each fails with its reason,
 *     never reads outside the bytes (the sanitizer build runs these too).
 * Addresses are worked out next to each expectation.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "semantics/dwarf_constants.h"
#include "semantics/sframe_parse.h"

/* ---- a section writer -------------------------------------------------------- */

#define INFO(base_sp, count, size_code) ((uint8_t)((base_sp) | (count) << 1 | (size_code) << 5))
#define SP 1
#define FP 0

struct fre_spec {
    uint32_t start;
    uint8_t info;               /* INFO(...) */
    int32_t words[6];
};

struct fn_spec {
    uint64_t pc;
    uint32_t size;
    uint8_t info;               /* FDE info: fre_type | pc_type << 4 | signal << 7 */
    uint8_t info2;              /* V3: FDE type */
    uint8_t rep_size;           /* V2, V3 */
    int nfres;
    struct fre_spec fres[6];
};

struct section {
    uint8_t b[4096];
    size_t n;
};

static void put(uint8_t *p, uint64_t v, unsigned size)
{
    for (unsigned i = 0; i < size; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static size_t put_fre(uint8_t *p, const struct fn_spec *fn, const struct fre_spec *fre)
{
    static const unsigned asizes[] = {1, 2, 4};
    unsigned asize = asizes[fn->info & 0xf];
    unsigned count = (fre->info >> 1) & 0xf, wsize = 1u << ((fre->info >> 5) & 3);
    put(p, fre->start, asize);
    p[asize] = fre->info;
    for (unsigned i = 0; i < count; i++)
        put(p + asize + 1 + i * wsize, (uint64_t)(int64_t)fre->words[i], wsize);
    return asize + 1 + count * wsize;
}

/* FNS as an SFrame section of VERSION at ADDR: header, FDEs (V3: index
 * entries), then the FRE sub-section (V3: each function's attribute and
 * FREs); the FDE sub-section right after the header. */
static void write_section(struct section *s, int version, uint8_t flags, int8_t fixed_fp, int8_t fixed_ra,
                          uint64_t addr, const struct fn_spec *fns, int nfns)
{
    unsigned fde_size = version == 1 ? 17 : version == 2 ? 20 : 16;
    uint8_t fres[2048];
    size_t fre_len = 0;
    uint32_t nfres = 0;
    memset(s, 0, sizeof *s);
    for (int i = 0; i < nfns; i++) {
        const struct fn_spec *fn = &fns[i];
        uint8_t *fde = s->b + 28 + (size_t)i * fde_size;
        uint64_t field = 28 + (uint64_t)i * fde_size;
        int64_t start = (int64_t)(fn->pc - addr - ((flags & SFRAME_F_FDE_FUNC_START_PCREL) ? field : 0));
        if (version == 3) {
            put(fde, (uint64_t)start, 8);
            put(fde + 8, fn->size, 4);
            put(fde + 12, fre_len, 4);
            put(fres + fre_len, (uint64_t)fn->nfres, 2);
            fres[fre_len + 2] = fn->info;
            fres[fre_len + 3] = fn->info2;
            fres[fre_len + 4] = fn->rep_size;
            fre_len += 5;
        } else {
            put(fde, (uint64_t)start, 4);
            put(fde + 4, fn->size, 4);
            put(fde + 8, fre_len, 4);
            put(fde + 12, (uint64_t)fn->nfres, 4);
            fde[16] = fn->info;
            if (version == 2)
                fde[17] = fn->rep_size;
        }
        for (int j = 0; j < fn->nfres; j++)
            fre_len += put_fre(fres + fre_len, fn, &fn->fres[j]);
        nfres += (uint32_t)fn->nfres;
    }
    uint8_t *h = s->b;
    put(h, SFRAME_MAGIC, 2);
    h[2] = (uint8_t)version;
    h[3] = flags;
    h[4] = SFRAME_ABI_AMD64_ENDIAN_LITTLE;
    h[5] = (uint8_t)fixed_fp;
    h[6] = (uint8_t)fixed_ra;
    put(h + 8, (uint64_t)nfns, 4);
    put(h + 12, nfres, 4);
    put(h + 16, fre_len, 4);
    put(h + 20, 0, 4);
    put(h + 24, (uint64_t)nfns * fde_size, 4);
    memcpy(s->b + 28 + (size_t)nfns * fde_size, fres, fre_len);
    s->n = 28 + (size_t)nfns * fde_size + fre_len;
}

/* ---- reading helpers ------------------------------------------------------------ */

static struct sframe_view view_of(const struct section *s, uint64_t addr)
{
    return (struct sframe_view){s->b, s->n, addr};
}

/* FDE I's table; fails the test when the section does not read. */
static void table_of(const struct sframe_view *v, uint32_t i, struct unwind_table *t, struct sframe_fde *fde_out)
{
    struct sframe_header h;
    struct sframe_fde fde;
    struct sframe_error err = {0};
    assert_int_equal(sframe_header_read(v, &h, &err), 0);
    assert_int_equal(sframe_section_check(v, &h, &err), 0);
    assert_int_equal(sframe_fde_read(v, &h, i, &fde, &err), 0);
    if (sframe_fde_table(v, &h, &fde, t, &err) != 0)
        fail_msg("FDE %u: %s at 0x%llx", i, err.reason, (unsigned long long)err.offset);
    if (fde_out)
        *fde_out = fde;
}

static void assert_cfa(const struct unwind_row *r, unsigned reg, int64_t offset)
{
    assert_int_equal(r->cfa.kind, CFA_RULE_REG_OFFSET);
    assert_int_equal(r->cfa.reg, reg);
    assert_int_equal(r->cfa.offset, offset);
}

static void assert_slot(const struct unwind_rule *r, int64_t offset)
{
    assert_int_equal(r->kind, REG_RULE_OFFSET);
    assert_int_equal(r->offset, offset);
}

static void assert_row(const struct unwind_row *r, uint64_t start, uint64_t end, unsigned cfa_reg,
                       int64_t cfa_offset, int fp_saved, int64_t fp_offset)
{
    assert_int_equal(r->start, start);
    assert_int_equal(r->end, end);
    assert_cfa(r, cfa_reg, cfa_offset);
    if (fp_saved)
        assert_slot(&r->reg[6], fp_offset);
    else
        assert_int_equal(r->reg[6].kind, REG_RULE_UNREFERENCED);
    assert_slot(&r->reg[16], -8);
}

/* ---- V1: ld 2.40's section ------------------------------------------------------ */

/* `gcc -O0 -Wa,--gsframe` of a two-function program, linked by ld 2.40:
 * .sframe at 0x2110, 138 bytes (objcopy -O binary --only-section=.sframe). */
static const uint8_t real_v1[138] = {
    0xe2, 0xde, 0x01, 0x01, 0x03, 0x00, 0xf8, 0x00, 0x04, 0x00, 0x00, 0x00, 0x0c, 0x00, 0x00, 0x00,
    0x2a, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x44, 0x00, 0x00, 0x00, 0x10, 0xef, 0xff, 0xff,
    0x10, 0x00, 0x00, 0x00, 0x1e, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x20, 0xef, 0xff,
    0xff, 0x10, 0x00, 0x00, 0x00, 0x24, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x10, 0x29, 0xf0,
    0xff, 0xff, 0x89, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0xb2,
    0xf0, 0xff, 0xff, 0x1b, 0x00, 0x00, 0x00, 0x0f, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x03, 0x08, 0x01, 0x05, 0x10, 0xf0, 0x04, 0x04, 0x10, 0xf0, 0x88, 0x05, 0x08, 0xf0, 0x00,
    0x03, 0x08, 0x01, 0x05, 0x10, 0xf0, 0x04, 0x04, 0x10, 0xf0, 0x1a, 0x05, 0x08, 0xf0, 0x00, 0x03,
    0x10, 0x06, 0x03, 0x18, 0x00, 0x03, 0x08, 0x0b, 0x03, 0x10,
};

static void v1_real_section(void **state)
{
    (void)state;
    struct sframe_view v = {real_v1, sizeof real_v1, 0x2110};
    struct sframe_header h;
    struct sframe_error err = {0};
    assert_int_equal(sframe_header_read(&v, &h, &err), 0);
    assert_int_equal(h.version, 1);
    assert_int_equal(h.flags, SFRAME_F_FDE_SORTED);
    assert_int_equal(h.fixed_fp_offset, 0);
    assert_int_equal(h.fixed_ra_offset, -8);
    assert_int_equal(h.num_fdes, 4);
    assert_int_equal(h.num_fres, 12);
    assert_int_equal(h.fde_size, 17);
    assert_int_equal(h.fres, 28 + 0x44);

    struct unwind_table t;
    struct sframe_fde fde;
    /* func idx [0]: pc = 0x1020 (0x2110 - 0x10f0), size 16: .plt's PLT0, sp+16 then sp+24 at 0x1026. */
    table_of(&v, 0, &t, &fde);
    assert_int_equal(fde.pc, 0x1020);
    assert_int_equal(fde.pc_type, SFRAME_PC_INC);
    assert_int_equal(t.nrows, 2);
    assert_row(&t.rows[0], 0x1020, 0x1026, 7, 16, 0, 0);
    assert_row(&t.rows[1], 0x1026, 0x1030, 7, 24, 0, 0);
    unwind_table_release(&t);
    /* func idx [1]: pc = 0x1030, 16 bytes, [m]: sp+8 at +0, sp+16 at +0xb of each 16-byte entry. */
    table_of(&v, 1, &t, &fde);
    assert_int_equal(fde.pc_type, SFRAME_PC_MASK);
    assert_int_equal(fde.rep_size, 16);
    assert_int_equal(t.nrows, 2);
    assert_row(&t.rows[0], 0x1030, 0x103b, 7, 8, 0, 0);
    assert_row(&t.rows[1], 0x103b, 0x1040, 7, 16, 0, 0);
    unwind_table_release(&t);
    /* func idx [2]: pc = 0x1139, 137 bytes: sp+8; sp+16 c-16 at 0x113a; fp+16 c-16 at 0x113d; sp+8 c-16 at 0x11c1. */
    table_of(&v, 2, &t, &fde);
    assert_int_equal(fde.pc, 0x1139);
    assert_int_equal(t.start, 0x1139);
    assert_int_equal(t.end, 0x11c2);
    assert_int_equal(t.nrows, 4);
    assert_row(&t.rows[0], 0x1139, 0x113a, 7, 8, 0, 0);
    assert_row(&t.rows[1], 0x113a, 0x113d, 7, 16, 1, -16);
    assert_row(&t.rows[2], 0x113d, 0x11c1, 6, 16, 1, -16);
    assert_row(&t.rows[3], 0x11c1, 0x11c2, 7, 8, 1, -16);
    unwind_table_release(&t);
}

/* ---- V2 ---------------------------------------------------------------------------- */

/* A PLT-like PCMASK FDE of 40 bytes (two and a half 16-byte entries):
 * rsp+8 on [0, 11) and rsp+16 on [11, 16) of each entry. */
static const struct fn_spec plt_fn = {
    .pc = 0x1030, .size = 40, .info = 1 << 4, .rep_size = 16, .nfres = 2,
    .fres = {{0, INFO(SP, 1, 0), {8}}, {11, INFO(SP, 1, 0), {16}}},
};

static void v2_pcmask_blocks(void **state)
{
    (void)state;
    struct section s;
    write_section(&s, 2, SFRAME_F_FDE_SORTED, 0, -8, 0x3000, &plt_fn, 1);
    struct sframe_view v = view_of(&s, 0x3000);
    struct unwind_table t;
    table_of(&v, 0, &t, NULL);
    assert_int_equal(t.nrows, 5);
    assert_row(&t.rows[0], 0x1030, 0x103b, 7, 8, 0, 0);
    assert_row(&t.rows[1], 0x103b, 0x1040, 7, 16, 0, 0);
    assert_row(&t.rows[2], 0x1040, 0x104b, 7, 8, 0, 0);
    assert_row(&t.rows[3], 0x104b, 0x1050, 7, 16, 0, 0);
    assert_row(&t.rows[4], 0x1050, 0x1058, 7, 8, 0, 0);   /* the half entry: cut at the function's end */
    unwind_table_release(&t);

    /* The lookup masks the PC the same way: 0x104c is +0xc of the second entry. */
    struct sframe_header h;
    struct sframe_fde fde;
    struct sframe_fre fre;
    struct sframe_error err;
    assert_int_equal(sframe_header_read(&v, &h, &err), 0);
    assert_int_equal(sframe_fde_read(&v, &h, 0, &fde, &err), 0);
    assert_int_equal(sframe_fde_fre_at(&v, &h, &fde, 0x104c, &fre, &err), 1);
    assert_int_equal(fre.start, 11);
    assert_int_equal(sframe_fde_fre_at(&v, &h, &fde, 0x1058, &fre, &err), 0);
}

/* A function at 0x1100 seen from an FDE at section offset 28: from the
 * section's start (0x2000 + start) or, PCREL, from the field (0x201c + start). */
static void v2_start_addresses(void **state)
{
    (void)state;
    static const struct fn_spec fn = {.pc = 0x1100, .size = 4, .nfres = 1, .fres = {{0, INFO(SP, 1, 0), {8}}}};
    struct section s;
    struct sframe_header h;
    struct sframe_fde fde;
    struct sframe_error err;
    write_section(&s, 2, 0, 0, -8, 0x2000, &fn, 1);
    struct sframe_view v = view_of(&s, 0x2000);
    assert_int_equal(sframe_header_read(&v, &h, &err), 0);
    assert_int_equal(sframe_fde_read(&v, &h, 0, &fde, &err), 0);
    assert_int_equal(fde.start_field, 0x1100 - 0x2000);
    assert_int_equal(fde.pc, 0x1100);

    write_section(&s, 2, SFRAME_F_FDE_FUNC_START_PCREL, 0, -8, 0x2000, &fn, 1);
    assert_int_equal(sframe_header_read(&v, &h, &err), 0);
    assert_int_equal(sframe_fde_read(&v, &h, 0, &fde, &err), 0);
    assert_int_equal(fde.start_field, 0x1100 - 0x201c);
    assert_int_equal(fde.pc, 0x1100);
    /* Read without the flag, the same field means another address. */
    s.b[3] = 0;
    assert_int_equal(sframe_header_read(&v, &h, &err), 0);
    assert_int_equal(sframe_fde_read(&v, &h, 0, &fde, &err), 0);
    assert_int_equal(fde.pc, 0x2000 + 0x1100 - 0x201c);
}

/* The header's fixed FP offset: rbp at c-16 in every row, FREs of one word;
 * a header without a fixed RA: words CFA, RA, FP; an FRE without words. */
static void v2_header_offsets(void **state)
{
    (void)state;
    static const struct fn_spec fixed_fp = {
        .pc = 0x1000, .size = 8, .nfres = 2, .fres = {{0, INFO(SP, 1, 0), {8}}, {1, INFO(FP, 1, 0), {16}}}};
    struct section s;
    struct unwind_table t;
    write_section(&s, 2, 0, -16, -8, 0, &fixed_fp, 1);
    struct sframe_view v = view_of(&s, 0);
    table_of(&v, 0, &t, NULL);
    assert_int_equal(t.nrows, 2);
    assert_row(&t.rows[0], 0x1000, 0x1001, 7, 8, 1, -16);
    assert_row(&t.rows[1], 0x1001, 0x1008, 6, 16, 1, -16);
    unwind_table_release(&t);

    static const struct fn_spec ra_tracked = {
        .pc = 0x1000, .size = 8, .nfres = 3,
        .fres = {{0, INFO(SP, 2, 0), {8, -8}}, {1, INFO(SP, 3, 1), {16, -8, -16}}, {4, INFO(SP, 0, 0), {0}}}};
    write_section(&s, 2, 0, 0, 0, 0, &ra_tracked, 1);
    v = view_of(&s, 0);
    table_of(&v, 0, &t, NULL);
    assert_int_equal(t.nrows, 3);
    assert_row(&t.rows[0], 0x1000, 0x1001, 7, 8, 0, 0);
    assert_row(&t.rows[1], 0x1001, 0x1004, 7, 16, 1, -16);
    /* No words (V2's erratum): RA undefined, the outermost frame; no CFA. */
    assert_int_equal(t.rows[2].start, 0x1004);
    assert_int_equal(t.rows[2].end, 0x1008);
    assert_int_equal(t.rows[2].cfa.kind, CFA_RULE_UNSET);
    assert_int_equal(t.rows[2].reg[16].kind, REG_RULE_UNDEFINED);
    unwind_table_release(&t);
}

/* ---- V3 ---------------------------------------------------------------------------- */

/* Signal frame (info bit 7), 2-byte FRE addresses (type 1) and words (size 1). */
static void v3_default(void **state)
{
    (void)state;
    static const struct fn_spec fns[] = {
        {.pc = 0x401000, .size = 0x300, .info = 1 | 1 << 7, .nfres = 2,
         .fres = {{0, INFO(SP, 1, 1), {8}}, {0x123, INFO(SP, 2, 1), {0x1008, -16}}}},
        {.pc = 0x401300, .size = 0x10, .nfres = 0},   /* DEFAULT without FREs: outermost */
    };
    struct section s;
    write_section(&s, 3, SFRAME_F_FDE_SORTED | SFRAME_F_FDE_FUNC_START_PCREL, 0, -8, 0x500000, fns, 2);
    struct sframe_view v = view_of(&s, 0x500000);
    struct unwind_table t;
    struct sframe_fde fde;
    table_of(&v, 0, &t, &fde);
    assert_int_equal(fde.pc, 0x401000);
    assert_int_equal(fde.fre_type, 1);
    assert_int_equal(fde.first_fre, 28 + 2 * 16 + 5);
    assert_true(t.signal_frame);
    assert_int_equal(t.nrows, 2);
    assert_row(&t.rows[0], 0x401000, 0x401123, 7, 8, 0, 0);
    assert_row(&t.rows[1], 0x401123, 0x401300, 7, 0x1008, 1, -16);
    unwind_table_release(&t);
    table_of(&v, 1, &t, &fde);
    assert_int_equal(fde.num_fres, 0);
    assert_false(t.signal_frame);
    assert_int_equal(t.nrows, 1);
    assert_int_equal(t.rows[0].start, 0x401300);
    assert_int_equal(t.rows[0].end, 0x401310);
    assert_int_equal(t.rows[0].cfa.kind, CFA_RULE_UNSET);
    assert_int_equal(t.rows[0].reg[16].kind, REG_RULE_UNDEFINED);
    unwind_table_release(&t);
}

/* Flexible FDEs: (control, offset) pairs, control = reg << 3 | deref << 1 | reg_p. */
static void v3_flex(void **state)
{
    (void)state;
    static const struct fn_spec fn = {
        .pc = 0x1000, .size = 0x40, .info2 = SFRAME_FDE_TYPE_FLEX, .nfres = 3,
        .fres = {
            /* CFA = *(rbp - 8) (GCC's DRAP), RA: padding (the fixed c-8), FP = *(CFA - 16). */
            {0, INFO(SP, 5, 0), {6 << 3 | 2 | 1, -8, 0, 2, -16}},
            /* CFA = r10 + 0, RA = *(CFA - 8) written out, FP = r11. */
            {0x10, INFO(SP, 6, 0), {10 << 3 | 1, 0, 2, -8, 11 << 3 | 1, 0}},
            /* CFA = rsp + 8, FP = *(rsp + 8), RA = rbx + 16 (a value); 4-byte words. */
            {0x20, INFO(SP, 6, 2), {7 << 3 | 1, 8, 3 << 3 | 1, 16, 7 << 3 | 2 | 1, 8}},
        },
    };
    struct section s;
    write_section(&s, 3, SFRAME_F_FDE_FUNC_START_PCREL, 0, -8, 0x2000, &fn, 1);
    struct sframe_view v = view_of(&s, 0x2000);
    struct unwind_table t;
    table_of(&v, 0, &t, NULL);
    assert_int_equal(t.nrows, 3);
    static const uint8_t rbp_minus_8_deref[] = {DW_OP_breg6, 0x78, DW_OP_deref};
    assert_int_equal(t.rows[0].cfa.kind, CFA_RULE_EXPRESSION);
    assert_int_equal(t.rows[0].cfa.expr_len, sizeof rbp_minus_8_deref);
    assert_memory_equal(t.rows[0].cfa.expr, rbp_minus_8_deref, sizeof rbp_minus_8_deref);
    assert_slot(&t.rows[0].reg[16], -8);
    assert_slot(&t.rows[0].reg[6], -16);

    assert_cfa(&t.rows[1], 10, 0);
    assert_slot(&t.rows[1].reg[16], -8);
    assert_int_equal(t.rows[1].reg[6].kind, REG_RULE_REGISTER);
    assert_int_equal(t.rows[1].reg[6].reg, 11);

    static const uint8_t rbx_plus_16[] = {DW_OP_breg3, 0x10};
    static const uint8_t rsp_plus_8[] = {DW_OP_breg7, 0x08};
    assert_cfa(&t.rows[2], 7, 8);
    assert_int_equal(t.rows[2].reg[16].kind, REG_RULE_VAL_EXPRESSION);
    assert_memory_equal(t.rows[2].reg[16].expr, rbx_plus_16, sizeof rbx_plus_16);
    assert_int_equal(t.rows[2].reg[6].kind, REG_RULE_EXPRESSION);
    assert_memory_equal(t.rows[2].reg[6].expr, rsp_plus_8, sizeof rsp_plus_8);
    unwind_table_release(&t);
}

/* ---- one table, three versions ------------------------------------------------------- */

static void versions_agree(void **state)
{
    (void)state;
    static const struct fn_spec fns[] = {
        {.pc = 0x1000, .size = 0x20, .nfres = 3,
         .fres = {{0, INFO(SP, 1, 0), {8}}, {1, INFO(SP, 2, 0), {16, -16}}, {4, INFO(FP, 2, 0), {16, -16}}}},
        {.pc = 0x1020, .size = 0x30, .info = 1 << 4, .rep_size = 16, .nfres = 2,
         .fres = {{0, INFO(SP, 1, 0), {8}}, {11, INFO(SP, 1, 0), {16}}}},
        {.pc = 0x1050, .size = 0x200, .info = 1, .nfres = 2,
         .fres = {{0, INFO(SP, 1, 1), {8}}, {0x180, INFO(SP, 1, 1), {400}}}},
    };
    struct unwind_table tables[3][3];
    for (int version = 1; version <= 3; version++) {
        struct section s;
        uint8_t flags = SFRAME_F_FDE_SORTED | (version > 1 ? SFRAME_F_FDE_FUNC_START_PCREL : 0);
        write_section(&s, version, flags, 0, -8, 0x8000, fns, 3);
        struct sframe_view v = view_of(&s, 0x8000);
        for (uint32_t i = 0; i < 3; i++)
            table_of(&v, i, &tables[version - 1][i], NULL);
    }
    for (int version = 2; version <= 3; version++)
        for (int i = 0; i < 3; i++) {
            const struct unwind_table *a = &tables[0][i], *b = &tables[version - 1][i];
            assert_int_equal(a->start, b->start);
            assert_int_equal(a->end, b->end);
            assert_int_equal(a->nrows, b->nrows);
            for (size_t r = 0; r < a->nrows; r++) {
                assert_int_equal(a->rows[r].start, b->rows[r].start);
                assert_int_equal(a->rows[r].end, b->rows[r].end);
                assert_true(unwind_row_rules_equal(&a->rows[r], &b->rows[r]));
            }
        }
    assert_int_equal(tables[0][1].nrows, 6);   /* three 16-byte entries of two rows */
    assert_row(&tables[0][2].rows[1], 0x11d0, 0x1250, 7, 400, 0, 0);
    for (int version = 0; version < 3; version++)
        for (int i = 0; i < 3; i++)
            unwind_table_release(&tables[version][i]);
}

/* ---- malformed sections ---------------------------------------------------------------- */

static const struct fn_spec two_fns[] = {
    {.pc = 0x1000, .size = 0x10, .nfres = 2, .fres = {{0, INFO(SP, 1, 0), {8}}, {1, INFO(SP, 2, 0), {16, -16}}}},
    {.pc = 0x1010, .size = 0x10, .nfres = 1, .fres = {{0, INFO(SP, 1, 0), {8}}}},
};

/* The first failure reading the N bytes at BYTES: header, the check across
 * FDEs, then each FDE's table; NULL when it all reads. */
static const char *first_failure(const uint8_t *bytes, size_t n)
{
    static struct sframe_error err;
    struct sframe_view v = {bytes, n, 0x4000};
    struct sframe_header h;
    if (sframe_header_read(&v, &h, &err) != 0 || sframe_section_check(&v, &h, &err) != 0)
        return err.reason;
    for (uint32_t i = 0; i < h.num_fdes; i++) {
        struct sframe_fde fde;
        struct unwind_table t;
        if (sframe_fde_read(&v, &h, i, &fde, &err) != 0)
            return err.reason;
        int rc = sframe_fde_table(&v, &h, &fde, &t, &err);
        unwind_table_release(&t);
        if (rc != 0)
            return err.reason;
    }
    return NULL;
}

struct mutation {
    int version;
    const char *name;
    void (*mutate)(struct section *s);
    const char *reason;         /* a phrase of the expected reason */
};

static void m_short(struct section *s) { s->n = 27; }
static void m_magic(struct section *s) { s->b[0] = 0x12; }
static void m_swapped(struct section *s) { put(s->b, 0xe2de, 2); }
static void m_version0(struct section *s) { s->b[2] = 0; }
static void m_version4(struct section *s) { s->b[2] = 4; }
static void m_flag_pcrel(struct section *s) { s->b[3] |= SFRAME_F_FDE_FUNC_START_PCREL; }
static void m_flag_fp(struct section *s) { s->b[3] |= SFRAME_F_FRAME_POINTER; }
static void m_flag_high(struct section *s) { s->b[3] |= 0x40; }
static void m_abi(struct section *s) { s->b[4] = 2; }
static void m_auxhdr(struct section *s) { s->b[7] = 0xff; }
static void m_fdeoff(struct section *s) { put(s->b + 20, 0x30, 4); }
static void m_freoff(struct section *s) { put(s->b + 24, 0xfffffff0, 4); }
static void m_fre_len(struct section *s) { put(s->b + 16, 0x1000, 4); }
static void m_num_fdes(struct section *s) { put(s->b + 8, 3, 4); }
static void m_num_fres(struct section *s) { put(s->b + 12, 4, 4); }
static void m_truncated(struct section *s) { s->n -= 1; }
static void m_v1_fre_off(struct section *s) { put(s->b + 28 + 8, 0x100, 4); }
static void m_v1_fre_type(struct section *s) { s->b[28 + 16] = 3; }
static void m_v1_fre_count(struct section *s) { put(s->b + 28 + 12, 0x10000, 4); }
static void m_v1_size0(struct section *s) { put(s->b + 28 + 4, 0, 4); }
static void m_v1_wraps(struct section *s) { put(s->b + 28, (uint64_t)-0x5000, 4); put(s->b + 32, 0x2000, 4); }
static void m_v1_unsorted(struct section *s) { put(s->b + 28 + 17, (uint64_t)-0x100000, 4); }
/* The FREs of V1's two_fns start at 28 + 34: [0, info 0x03, 8], [1, info 0x05, 16, -16], [0, 0x03, 8];
 * V3's attribute at 28 + 32, its FREs from 65 the same. */
static void m_v1_word_size(struct section *s) { s->b[62 + 1] |= 3 << 5; }
static void m_v1_no_words(struct section *s) { s->b[62 + 1] = INFO(SP, 0, 0); }
static void m_v1_many_words(struct section *s) { s->b[65 + 1] = INFO(SP, 3, 0); }
static void m_v1_decreasing(struct section *s) { s->b[65] = 0; s->b[62] = 5; }
static void m_v1_past_end(struct section *s) { s->b[65] = 0x20; }
static void m_v3_attr(struct section *s) { put(s->b + 28 + 12, 0x1000, 4); }
static void m_v3_fde_type(struct section *s) { s->b[60 + 3] = 2; }
static void m_v3_flex_unpaired(struct section *s) { s->b[60 + 3] = 1; }
static void m_v3_mask_rep0(struct section *s) { s->b[60 + 2] = 1 << 4; }
static void m_v3_mask_past_block(struct section *s) { s->b[60 + 2] = 1 << 4; s->b[60 + 4] = 1; }
static void m_v3_many_rows(struct section *s)
{
    s->b[60 + 2] = 1 << 4;               /* PCMASK, 1-byte blocks: 2^31 of them */
    s->b[60 + 4] = 1;
    put(s->b + 28 + 8, 0x80000000u, 4);
    s->b[68] = 0;                        /* the second FRE back to 0 (in its block) */
}

static const struct mutation mutations[] = {
    {1, "shorter than the header", m_short, "shorter than the SFrame header"},
    {1, "bad magic", m_magic, "bad magic number"},
    {1, "other byte order", m_swapped, "other byte order"},
    {1, "version 0", m_version0, "unknown SFrame version"},
    {3, "version 4", m_version4, "unknown SFrame version"},
    {1, "V1 with PCREL", m_flag_pcrel, "flag bits"},
    {3, "V3 with FRAME_POINTER", m_flag_fp, "flag bits"},
    {2, "undefined flag", m_flag_high, "flag bits"},
    {2, "AArch64", m_abi, "AMD64"},
    {1, "auxiliary header past the end", m_auxhdr, "auxiliary header"},
    {2, "FDE sub-section after the FREs'", m_fdeoff, "starts after"},
    {2, "FRE sub-section offset past the end", m_freoff, "FRE sub-section runs past"},
    {3, "FRE sub-section length past the end", m_fre_len, "FRE sub-section runs past"},
    {1, "one FDE too many", m_num_fdes, "FDE sub-section"},
    {3, "FRE counts", m_num_fres, "do not add up"},
    {2, "truncated by a byte", m_truncated, "FRE sub-section runs past"},
    {1, "first FRE past the FREs", m_v1_fre_off, "first FRE lies past"},
    {1, "FRE type 3", m_v1_fre_type, "unknown FRE type"},
    {1, "FDE counts FREs it lacks", m_v1_fre_count, "FRE"},
    {1, "size 0 with a second FRE", m_v1_size0, "past the function's end"},
    {1, "range wraps", m_v1_wraps, "wraps"},
    {1, "unsorted", m_v1_unsorted, "not sorted"},
    {1, "data-word size 3", m_v1_word_size, "data-word size"},
    {1, "V1 FRE without words", m_v1_no_words, "without data words"},
    {1, "three words with a fixed RA", m_v1_many_words, "more data words"},
    {1, "decreasing FRE starts", m_v1_decreasing, "decrease"},
    {1, "FRE past the function", m_v1_past_end, "past the function's end"},
    {3, "attribute past the FREs", m_v3_attr, "attribute runs past"},
    {3, "FDE type 2", m_v3_fde_type, "unknown FDE type"},
    {3, "flexible, words unpaired", m_v3_flex_unpaired, "flexible FRE"},
    {3, "PCMASK with a 0-byte block", m_v3_mask_rep0, "repetition block"},
    {3, "PCMASK FRE past its block", m_v3_mask_past_block, "past its repetition block"},
    {3, "PCMASK of 2^31 blocks", m_v3_many_rows, "more than 2^18 rows"},
};

static void malformed(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof mutations / sizeof mutations[0]; i++) {
        const struct mutation *m = &mutations[i];
        struct section s;
        uint8_t flags = SFRAME_F_FDE_SORTED | (m->version > 1 ? SFRAME_F_FDE_FUNC_START_PCREL : 0);
        write_section(&s, m->version, flags, 0, -8, 0x4000, two_fns, 2);
        assert_null(first_failure(s.b, s.n));
        m->mutate(&s);
        /* A copy of exactly the section's bytes: the sanitizers see any read past them. */
        uint8_t *copy = malloc(s.n);
        assert_non_null(copy);
        memcpy(copy, s.b, s.n);
        const char *why = first_failure(copy, s.n);
        free(copy);
        if (!why || !strstr(why, m->reason))
            fail_msg("%s (V%d): expected \"%s\", got %s", m->name, m->version, m->reason, why ? why : "no failure");
    }
}

/* Every prefix of a valid section: the reader stops with a reason, reading
 * nothing past the bytes it was given (a heap block of exactly that size). */
static void every_prefix(void **state)
{
    (void)state;
    for (int version = 1; version <= 3; version++) {
        struct section s;
        write_section(&s, version, SFRAME_F_FDE_SORTED, 0, -8, 0, two_fns, 2);
        for (size_t n = 0; n < s.n; n++) {
            uint8_t *bytes = malloc(n ? n : 1);
            assert_non_null(bytes);
            memcpy(bytes, s.b, n);
            struct sframe_view v = {bytes, n, 0};
            struct sframe_header h;
            struct sframe_error err = {0};
            int rc = sframe_header_read(&v, &h, &err);
            for (uint32_t i = 0; rc == 0 && i < h.num_fdes; i++) {
                struct sframe_fde fde;
                struct unwind_table t;
                rc = sframe_fde_read(&v, &h, i, &fde, &err);
                if (rc == 0) {
                    rc = sframe_fde_table(&v, &h, &fde, &t, &err);
                    unwind_table_release(&t);
                }
            }
            assert_int_equal(rc, -1);
            assert_non_null(err.reason);
            free(bytes);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(v1_real_section),
        cmocka_unit_test(v2_pcmask_blocks),
        cmocka_unit_test(v2_start_addresses),
        cmocka_unit_test(v2_header_offsets),
        cmocka_unit_test(v3_default),
        cmocka_unit_test(v3_flex),
        cmocka_unit_test(versions_agree),
        cmocka_unit_test(malformed),
        cmocka_unit_test(every_prefix),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
/* SPDX-License-Identifier: Apache-2.0 */
