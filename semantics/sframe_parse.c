/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sframe_parse: .sframe sections (V1, V2, V3) decoded, and read as H.
 */
#include "sframe_parse.h"

#include <stdlib.h>
#include <string.h>

#include "kit/byte_writer.h"
#include "semantics/dwarf_constants.h"

#define REG_RBP 6
#define REG_RSP 7
#define REG_RA 16

static int fail(struct sframe_error *err, const char *reason, uint64_t offset)
{
    err->reason = reason;
    err->offset = offset;
    return -1;
}

/* Little-endian reads at B (the caller has checked the bytes are there). */
static uint64_t get_le(const uint8_t *b, unsigned size)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < size; i++)
        v |= (uint64_t)b[i] << (8 * i);
    return v;
}

static int64_t get_sle(const uint8_t *b, unsigned size)
{
    uint64_t v = get_le(b, size);
    if (size < 8 && (v >> (8 * size - 1)) & 1)
        v |= ~(uint64_t)0 << (8 * size);
    return (int64_t)v;
}

/* ---- header ------------------------------------------------------------ */

static unsigned flags_defined(uint8_t version)
{
    switch (version) {
    case SFRAME_VERSION_1: return SFRAME_F_FDE_SORTED | SFRAME_F_FRAME_POINTER;
    case SFRAME_VERSION_2: return SFRAME_F_FDE_SORTED | SFRAME_F_FRAME_POINTER | SFRAME_F_FDE_FUNC_START_PCREL;
    default: return SFRAME_F_FDE_SORTED | SFRAME_F_FDE_FUNC_START_PCREL;
    }
}

static unsigned fde_size_of(uint8_t version)
{
    switch (version) {
    case SFRAME_VERSION_1: return SFRAME_V1_FDE_SIZE;
    case SFRAME_VERSION_2: return SFRAME_V2_FDE_SIZE;
    default: return SFRAME_V3_FDE_INDEX_SIZE;
    }
}

/* The preamble and the fields that say what the rest is. */
static int header_identity(const struct sframe_view *v, struct sframe_header *h, struct sframe_error *err)
{
    const uint8_t *b = v->bytes;
    if (v->size < SFRAME_HEADER_SIZE)
        return fail(err, "section shorter than the SFrame header (28 bytes)", 0);
    uint16_t magic = (uint16_t)get_le(b, 2);
    if (magic == 0xe2de)
        return fail(err, "SFrame section of the other byte order (a big-endian target, not x86_64)", 0);
    if (magic != SFRAME_MAGIC)
        return fail(err, "bad magic number (not 0xdee2): not an SFrame section", 0);
    h->version = b[2];
    if (h->version < SFRAME_VERSION_1 || h->version > SFRAME_VERSION_3)
        return fail(err, "unknown SFrame version (1 to 3 are defined)", 2);
    h->flags = b[3];
    if (h->flags & ~flags_defined(h->version))
        return fail(err, "flag bits set that this SFrame version does not define", 3);
    h->abi_arch = b[4];
    if (h->abi_arch != SFRAME_ABI_AMD64_ENDIAN_LITTLE)
        return fail(err, "ABI/arch is not AMD64 little-endian (3)", 4);
    h->fixed_fp_offset = (int8_t)b[5];
    h->fixed_ra_offset = (int8_t)b[6];
    h->auxhdr_len = b[7];
    return 0;
}

int sframe_header_read(const struct sframe_view *v, struct sframe_header *h, struct sframe_error *err)
{
    memset(h, 0, sizeof *h);
    if (header_identity(v, h, err) != 0)
        return -1;
    const uint8_t *b = v->bytes;
    h->num_fdes = (uint32_t)get_le(b + 8, 4);
    h->num_fres = (uint32_t)get_le(b + 12, 4);
    h->fre_len = (uint32_t)get_le(b + 16, 4);
    h->fde_off = (uint32_t)get_le(b + 20, 4);
    h->fre_off = (uint32_t)get_le(b + 24, 4);
    h->fde_size = fde_size_of(h->version);
    uint64_t end = SFRAME_HEADER_SIZE + (uint64_t)h->auxhdr_len;
    if (end > v->size)
        return fail(err, "auxiliary header runs past the end of the section", 7);
    h->fdes = end + h->fde_off;
    h->fres = end + h->fre_off;
    if (h->fde_off > h->fre_off)
        return fail(err, "FDE sub-section starts after the FRE sub-section", 20);
    if (h->fres > v->size || h->fre_len > v->size - h->fres)
        return fail(err, "FRE sub-section runs past the end of the section", 24);
    if ((uint64_t)h->num_fdes * h->fde_size > h->fres - h->fdes)
        return fail(err, "FDE sub-section (FDE count x FDE size) runs into the FRE sub-section", 8);
    return 0;
}

/* ---- FDEs -------------------------------------------------------------- */

/* V1 and V2: the FDE is whole in the FDE sub-section. */
static int fde_v1_v2(const struct sframe_view *v, const struct sframe_header *h, struct sframe_fde *f,
                     struct sframe_error *err)
{
    const uint8_t *b = v->bytes + f->offset;
    f->start_field = get_sle(b, 4);
    f->size = (uint32_t)get_le(b + 4, 4);
    f->fre_off = (uint32_t)get_le(b + 8, 4);
    f->num_fres = (uint32_t)get_le(b + 12, 4);
    f->info = b[16];
    f->rep_size = h->version == SFRAME_VERSION_1 ? 0 : b[17];
    if (f->fre_off > h->fre_len)
        return fail(err, "FDE's first FRE lies past the FRE sub-section", f->offset + 8);
    f->first_fre = h->fres + f->fre_off;
    return 0;
}

/* V3: the index entry, then the attribute at the head of the function's data. */
static int fde_v3(const struct sframe_view *v, const struct sframe_header *h, struct sframe_fde *f,
                  struct sframe_error *err)
{
    const uint8_t *b = v->bytes + f->offset;
    f->start_field = get_sle(b, 8);
    f->size = (uint32_t)get_le(b + 8, 4);
    f->fre_off = (uint32_t)get_le(b + 12, 4);
    if (f->fre_off > h->fre_len || h->fre_len - f->fre_off < SFRAME_V3_FDE_ATTR_SIZE)
        return fail(err, "FDE's attribute runs past the FRE sub-section", f->offset + 12);
    const uint8_t *a = v->bytes + h->fres + f->fre_off;
    f->num_fres = (uint32_t)get_le(a, 2);
    f->info = a[2];
    f->info2 = a[3];
    f->rep_size = a[4];
    f->first_fre = h->fres + f->fre_off + SFRAME_V3_FDE_ATTR_SIZE;
    f->signal_frame = (uint8_t)(f->info >> 7);
    f->fde_type = f->info2 & 0x1f;
    if (f->fde_type > SFRAME_FDE_TYPE_FLEX)
        return fail(err, "unknown FDE type (0 default and 1 flexible are defined)", h->fres + f->fre_off + 3);
    return 0;
}

int sframe_fde_read(const struct sframe_view *v, const struct sframe_header *h, uint32_t index,
                    struct sframe_fde *fde, struct sframe_error *err)
{
    memset(fde, 0, sizeof *fde);
    if (index >= h->num_fdes)
        return fail(err, "no such FDE", h->fdes);
    fde->index = index;
    fde->offset = h->fdes + (uint64_t)index * h->fde_size;   /* inside: sframe_header_read */
    int rc = h->version == SFRAME_VERSION_3 ? fde_v3(v, h, fde, err) : fde_v1_v2(v, h, fde, err);
    if (rc != 0)
        return -1;
    fde->fre_type = fde->info & 0xf;
    fde->pc_type = (fde->info >> 4) & 1;
    fde->pauth_key = (fde->info >> 5) & 1;
    if (fde->fre_type > 2)
        return fail(err, "unknown FRE type (0 to 2 are defined)", fde->offset);
    if (h->version == SFRAME_VERSION_1 && fde->pc_type == SFRAME_PC_MASK)
        fde->rep_size = SFRAME_V1_PCMASK_BLOCK;
    if (fde->pc_type == SFRAME_PC_MASK && fde->rep_size == 0)
        return fail(err, "PCMASK FDE whose repetition block is 0 bytes", fde->offset);
    uint64_t base = v->addr + ((h->flags & SFRAME_F_FDE_FUNC_START_PCREL) ? fde->offset : 0);
    fde->pc = base + (uint64_t)fde->start_field;
    return 0;
}

/* ---- FREs -------------------------------------------------------------- */

int sframe_fre_read(const struct sframe_view *v, const struct sframe_header *h, const struct sframe_fde *fde,
                    uint64_t off, struct sframe_fre *fre, struct sframe_error *err)
{
    static const unsigned addr_sizes[] = {1, 2, 4};
    memset(fre, 0, sizeof *fre);
    fre->offset = off;
    uint64_t limit = h->fres + h->fre_len;
    unsigned asize = addr_sizes[fde->fre_type];   /* fre_type <= 2: sframe_fde_read */
    if (off > limit || limit - off < asize + 1u)
        return fail(err, "FRE runs past the FRE sub-section", off);
    const uint8_t *b = v->bytes + off;
    fre->start = (uint32_t)get_le(b, asize);
    fre->info = b[asize];
    fre->base_reg = fre->info & 1;
    fre->count = (fre->info >> 1) & 0xf;
    unsigned size_code = (fre->info >> 5) & 3;
    fre->mangled_ra = fre->info >> 7;
    if (size_code == 3)
        return fail(err, "FRE info gives an undefined data-word size", off + asize);
    fre->word_size = (uint8_t)(1u << size_code);
    uint64_t words = (uint64_t)fre->count * fre->word_size;
    if (limit - off - asize - 1 < words)
        return fail(err, "FRE's data words run past the FRE sub-section", off);
    const uint8_t *w = b + asize + 1;
    for (unsigned i = 0; i < fre->count; i++) {
        fre->words[i] = (int32_t)get_sle(w + i * fre->word_size, fre->word_size);
        fre->uwords[i] = (uint32_t)get_le(w + i * fre->word_size, fre->word_size);
    }
    fre->end = off + asize + 1 + words;
    return 0;
}

/* ---- what an FRE means --------------------------------------------------- */

static void rule_fixed(struct sframe_rule *r, int8_t offset)
{
    *r = (struct sframe_rule){.tracked = 1, .fixed = 1, .deref_p = 1, .offset = offset};
}

static void rule_slot(struct sframe_rule *r, int32_t offset)
{
    *r = (struct sframe_rule){.tracked = 1, .deref_p = 1, .offset = offset};
}

/* DEFAULT FDE: CFA = base + w0; then RA's slot unless fixed; then FP's unless fixed. */
static int default_rules(const struct sframe_header *h, const struct sframe_fre *fre, struct sframe_rules *out,
                         const char **why)
{
    out->cfa = (struct sframe_rule){.tracked = 1, .reg_p = 1, .reg = fre->base_reg ? REG_RSP : REG_RBP,
                                    .offset = fre->words[0]};
    unsigned next = 1;
    if (h->fixed_ra_offset != 0)
        rule_fixed(&out->ra, h->fixed_ra_offset);
    else if (fre->count > next)
        rule_slot(&out->ra, fre->words[next++]);
    if (h->fixed_fp_offset != 0)
        rule_fixed(&out->fp, h->fixed_fp_offset);
    else if (fre->count > next)
        rule_slot(&out->fp, fre->words[next++]);
    if (fre->count > next) {
        *why = "FRE has more data words than AMD64's CFA, RA and FP use";
        return -1;
    }
    return 0;
}

/* One FLEX entity at word *I: a lone 0 (padding), or (control, offset). */
static int flex_entity(const struct sframe_fre *fre, unsigned *i, struct sframe_rule *r, const char **why)
{
    uint32_t control = fre->uwords[*i];
    if (control == 0) {
        r->padding = 1;
        (*i)++;
        return 0;
    }
    if (*i + 1 >= fre->count) {
        *why = "flexible FRE's control word has no offset after it";
        return -1;
    }
    if ((control >> 3) >= UNWIND_MAX_COLUMNS) {
        *why = "flexible FRE names a register past x86_64's DWARF columns";
        return -1;
    }
    *r = (struct sframe_rule){.tracked = 1, .reg_p = control & 1, .deref_p = (control >> 1) & 1,
                              .reg = (uint16_t)(control >> 3), .offset = fre->words[*i + 1]};
    *i += 2;
    return 0;
}

/* FLEX FDE: CFA, RA, FP in that order, RA and FP optional. */
static int flex_rules(const struct sframe_header *h, const struct sframe_fre *fre, struct sframe_rules *out,
                      const char **why)
{
    unsigned i = 0;
    if (flex_entity(fre, &i, &out->cfa, why) != 0)
        return -1;
    if (!out->cfa.tracked || !out->cfa.reg_p) {
        *why = "flexible FRE's CFA rule is not based on a register";
        return -1;
    }
    if (i < fre->count && flex_entity(fre, &i, &out->ra, why) != 0)
        return -1;
    if (i < fre->count && flex_entity(fre, &i, &out->fp, why) != 0)
        return -1;
    if (i != fre->count) {
        *why = "flexible FRE has data words past its CFA, RA and FP rules";
        return -1;
    }
    if (!out->ra.tracked && h->fixed_ra_offset != 0) {
        uint8_t padding = out->ra.padding;
        rule_fixed(&out->ra, h->fixed_ra_offset);
        out->ra.padding = padding;
    }
    if (!out->fp.tracked && h->fixed_fp_offset != 0) {
        uint8_t padding = out->fp.padding;
        rule_fixed(&out->fp, h->fixed_fp_offset);
        out->fp.padding = padding;
    }
    return 0;
}

int sframe_fre_rules(const struct sframe_header *h, const struct sframe_fde *fde, const struct sframe_fre *fre,
                     struct sframe_rules *out, const char **why)
{
    memset(out, 0, sizeof *out);
    if (fre->count == 0) {
        if (h->version == SFRAME_VERSION_1) {
            *why = "FRE without data words (no CFA rule) in SFrame V1";
            return -1;
        }
        out->ra_undefined = 1;
        return 0;
    }
    if (fde->fde_type == SFRAME_FDE_TYPE_FLEX)
        return flex_rules(h, fre, out, why);
    return default_rules(h, fre, out, why);
}

/* ---- H --------------------------------------------------------------------- */

/* DW_OP_breg REG OFFSET [DW_OP_deref] into B; returns the length. */
static uint32_t breg_expr(uint8_t b[24], uint16_t reg, int32_t offset, int deref)
{
    uint32_t n = 0;
    if (reg <= 31) {
        b[n++] = (uint8_t)(DW_OP_breg0 + reg);
    } else {
        b[n++] = DW_OP_bregx;
        n += (uint32_t)uleb128_encode(reg, b + n);
    }
    n += (uint32_t)sleb128_encode(offset, b + n);
    if (deref)
        b[n++] = DW_OP_deref;
    return n;
}

static int keep_expr(struct unwind_table *t, struct unwind_rule *r, uint16_t reg, int32_t offset, int deref)
{
    uint8_t b[24];
    r->expr_len = breg_expr(b, reg, offset, deref);
    r->expr = unwind_table_keep_expr(t, b, r->expr_len);
    return r->expr ? 0 : -1;
}

static int cfa_to_h(struct unwind_table *t, const struct sframe_rule *s, struct unwind_rule *r)
{
    if (!s->deref_p) {
        *r = (struct unwind_rule){.kind = CFA_RULE_REG_OFFSET, .reg = s->reg, .offset = s->offset};
        return 0;
    }
    r->kind = CFA_RULE_EXPRESSION;   /* CFA = *(reg + offset) */
    return keep_expr(t, r, s->reg, s->offset, 1);
}

static int reg_to_h(struct unwind_table *t, const struct sframe_rule *s, struct unwind_rule *r)
{
    memset(r, 0, sizeof *r);
    if (!s->tracked) {
        r->kind = REG_RULE_UNREFERENCED;
    } else if (!s->reg_p) {
        r->kind = s->deref_p ? REG_RULE_OFFSET : REG_RULE_VAL_OFFSET;
        r->offset = s->offset;
    } else if (!s->deref_p && s->offset == 0) {
        r->kind = REG_RULE_REGISTER;
        r->reg = s->reg;
    } else {
        r->kind = s->deref_p ? REG_RULE_EXPRESSION : REG_RULE_VAL_EXPRESSION;
        return keep_expr(t, r, s->reg, s->offset, 0);
    }
    return 0;
}

/* One FRE's rules, decoded once for every block they repeat in. */
struct fre_rows {
    uint32_t start;
    struct sframe_rules rules;
};

static int append_row(struct unwind_table *t, uint64_t start, uint64_t end, const struct sframe_rules *rules)
{
    struct unwind_row *r = unwind_table_append(t, start, end);
    if (!r)
        return -1;
    if (rules->ra_undefined) {
        r->reg[REG_RA].kind = REG_RULE_UNDEFINED;   /* CFA unset: nothing to unwind to */
        return 0;
    }
    if (cfa_to_h(t, &rules->cfa, &r->cfa) != 0 || reg_to_h(t, &rules->fp, &r->reg[REG_RBP]) != 0 ||
        reg_to_h(t, &rules->ra, &r->reg[REG_RA]) != 0)
        return -1;
    return 0;
}

/* Read FDE's FREs into ROWS (FDE->num_fres of them), checking their starts. */
static int read_fres(const struct sframe_view *v, const struct sframe_header *h, const struct sframe_fde *fde,
                     struct fre_rows *rows, struct sframe_error *err)
{
    uint64_t off = fde->first_fre;
    uint32_t limit = fde->pc_type == SFRAME_PC_MASK ? fde->rep_size : fde->size;
    for (uint32_t i = 0; i < fde->num_fres; i++) {
        struct sframe_fre fre;
        const char *why;
        if (sframe_fre_read(v, h, fde, off, &fre, err) != 0)
            return -1;
        if (sframe_fre_rules(h, fde, &fre, &rows[i].rules, &why) != 0)
            return fail(err, why, off);
        if (fre.start >= limit && !(fde->size == 0 && fre.start == 0))
            return fail(err, fde->pc_type == SFRAME_PC_MASK ? "PCMASK FRE starts past its repetition block"
                                                            : "FRE starts past the function's end", off);
        if (i > 0 && fre.start < rows[i - 1].start)
            return fail(err, "FRE start offsets decrease", off);
        rows[i].start = fre.start;
        off = fre.end;
    }
    return 0;
}

/* The rows of a PCINC FDE (BLOCK = size) or of each block of a PCMASK one. */
static int emit_rows(struct unwind_table *t, const struct sframe_fde *fde, const struct fre_rows *rows,
                     struct sframe_error *err)
{
    uint64_t block = fde->pc_type == SFRAME_PC_MASK ? fde->rep_size : fde->size;
    uint64_t nblocks = block ? (fde->size + block - 1) / block : 0;
    if (fde->num_fres > SFRAME_MAX_ROWS || nblocks > SFRAME_MAX_ROWS / fde->num_fres)
        return fail(err, "FDE's table would have more than 2^18 rows", fde->offset);
    for (uint64_t b = 0; b < nblocks; b++) {
        uint64_t base = b * block;
        for (uint32_t i = 0; i < fde->num_fres; i++) {
            uint64_t start = base + rows[i].start;
            uint64_t end = base + (i + 1 < fde->num_fres ? rows[i + 1].start : block);
            if (end > fde->size)
                end = fde->size;
            if (start >= end)
                continue;
            if (append_row(t, fde->pc + start, fde->pc + end, &rows[i].rules) != 0)
                return fail(err, "out of memory", fde->offset);
        }
    }
    return 0;
}

int sframe_fde_table(const struct sframe_view *v, const struct sframe_header *h, const struct sframe_fde *fde,
                     struct unwind_table *t, struct sframe_error *err)
{
    unwind_table_init(t, fde->pc, fde->pc + fde->size);
    t->signal_frame = fde->signal_frame;
    if (fde->pc + fde->size < fde->pc)
        return fail(err, "function's range wraps around the address space", fde->offset);
    if (fde->num_fres == 0) {
        /* V3: a DEFAULT FDE without FREs is an outermost frame. */
        static const struct sframe_rules outermost = {.ra_undefined = 1};
        if (h->version == SFRAME_VERSION_3 && fde->fde_type == SFRAME_FDE_TYPE_DEFAULT && fde->size > 0 &&
            append_row(t, fde->pc, fde->pc + fde->size, &outermost) != 0)
            return fail(err, "out of memory", fde->offset);
        return 0;
    }
    /* An FRE takes 2 bytes at least: no count past that is allocated. */
    uint64_t room = h->fres + h->fre_len - fde->first_fre;
    if (fde->num_fres > room / 2)
        return fail(err, "FDE counts more FREs than the FRE sub-section holds", fde->offset);
    struct fre_rows *rows = malloc(fde->num_fres * sizeof *rows);
    if (!rows)
        return fail(err, "out of memory", fde->offset);
    int rc = read_fres(v, h, fde, rows, err);
    if (rc == 0)
        rc = emit_rows(t, fde, rows, err);
    free(rows);
    return rc;
}

/* ---- across functions ------------------------------------------------------ */

int sframe_section_check(const struct sframe_view *v, const struct sframe_header *h, struct sframe_error *err)
{
    uint64_t fres = 0, prev_pc = 0;
    for (uint32_t i = 0; i < h->num_fdes; i++) {
        struct sframe_fde fde;
        if (sframe_fde_read(v, h, i, &fde, err) != 0)
            return -1;
        if ((h->flags & SFRAME_F_FDE_SORTED) && i > 0 && (int64_t)fde.pc < (int64_t)prev_pc)
            return fail(err, "FDEs are not sorted by address though SFRAME_F_FDE_SORTED says so", fde.offset);
        prev_pc = fde.pc;
        fres += fde.num_fres;
    }
    if (fres != h->num_fres)
        return fail(err, "the FDEs' FRE counts do not add up to the header's", 12);
    return 0;
}

int sframe_fde_fre_at(const struct sframe_view *v, const struct sframe_header *h, const struct sframe_fde *fde,
                      uint64_t addr, struct sframe_fre *fre, struct sframe_error *err)
{
    if (addr < fde->pc || addr - fde->pc >= fde->size)
        return 0;
    uint64_t rel = addr - fde->pc;
    if (fde->pc_type == SFRAME_PC_MASK)
        rel %= fde->rep_size;
    int found = 0;
    uint64_t off = fde->first_fre;
    for (uint32_t i = 0; i < fde->num_fres; i++) {
        struct sframe_fre cur;
        if (sframe_fre_read(v, h, fde, off, &cur, err) != 0)
            return -1;
        if (cur.start > rel)
            break;
        *fre = cur;
        found = 1;
        off = cur.end;
    }
    return found;
}
