/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sframe_write: a function's rows as SFrame FREs, then the section's bytes.
 */
#include "sframe_write.h"

#include <stdlib.h>
#include <string.h>

#include "kit/byte_writer.h"
#include "kit/grow.h"
#include "semantics/abi.h"
#include "semantics/byte_reader.h"
#include "semantics/dwarf_constants.h"
#include "semantics/sframe_parse.h"

#define V3_MAX_FRES 0xffffu         /* V3's attribute counts FREs in 16 bits */

static int fits_s32(int64_t v)
{
    return v >= INT32_MIN && v <= INT32_MAX;
}

/* ---- one row as an FRE ----------------------------------------------------- */

/* An FRE's words, as they are decided (start and size code come later). */
static void push_word(struct sframe_out_fre *f, int64_t v, int control)
{
    if (control)
        f->control_mask |= (uint8_t)(1u << f->count);
    f->words[f->count++] = v;
}

/* Why ra's rule is not the one DEFAULT FREs imply (saved at CFA-8). */
static const char *ra_reason(const struct unwind_rule *ra)
{
    switch (ra->kind) {
    case REG_RULE_OFFSET: return "ra is saved elsewhere than CFA-8";
    case REG_RULE_REGISTER: return "ra is held in a register";
    case REG_RULE_EXPRESSION:
    case REG_RULE_VAL_EXPRESSION: return "ra's rule is a DWARF expression";
    case REG_RULE_SAME_VALUE: return "ra's rule is `same value'";
    default: return "ra's rule is neither saved at CFA-8 nor undefined";
    }
}

/* Why rbp's rule is not one a DEFAULT FRE says (unchanged, or saved at CFA+M). */
static const char *fp_reason(const struct unwind_rule *fp)
{
    switch (fp->kind) {
    case REG_RULE_UNDEFINED: return "rbp is undefined (its entry value is lost), which SFrame cannot say";
    case REG_RULE_REGISTER: return "rbp is held in another register";
    case REG_RULE_VAL_OFFSET: return "rbp's value is CFA+N (val_offset)";
    case REG_RULE_EXPRESSION:
    case REG_RULE_VAL_EXPRESSION: return "rbp's rule is a DWARF expression";
    case REG_RULE_OFFSET: return "rbp's save slot offset does not fit 32 bits";
    default: return "rbp's rule is unknown";
    }
}

/* ROW as a DEFAULT FRE of VERSION into *F (start left 0); NULL, or why not. */
static const char *default_fre(const struct unwind_row *row, unsigned version, struct sframe_out_fre *f)
{
    memset(f, 0, sizeof *f);
    const struct unwind_rule *ra = &row->reg[ABI_RA], *fp = &row->reg[ABI_RBP], *cfa = &row->cfa;
    if (ra->kind == REG_RULE_UNDEFINED) {
        /* The outermost frame: no words (base_reg is meaningless; written as rbp's 0). */
        return version == SFRAME_VERSION_1 ? "an outermost row (ra undefined), which SFrame V1 cannot mark" : NULL;
    }
    if (ra->kind != REG_RULE_OFFSET || ra->offset != ABI_ENTRY_RA_OFFSET)
        return ra_reason(ra);
    if (cfa->kind == CFA_RULE_EXPRESSION)   /* V3: FLEX may still say it (flex_fre) */
        return "CFA is a DWARF expression";
    if (cfa->kind != CFA_RULE_REG_OFFSET)
        return "CFA is not known";
    if (cfa->reg != ABI_RSP && cfa->reg != ABI_RBP)
        return "CFA is based on a register other than rsp and rbp";
    if (!fits_s32(cfa->offset))
        return "CFA offset does not fit 32 bits";
    f->base_sp = cfa->reg == ABI_RSP;
    push_word(f, cfa->offset, 0);
    if (fp->kind == REG_RULE_UNREFERENCED || fp->kind == REG_RULE_SAME_VALUE)
        return NULL;   /* not tracked: unchanged */
    if (fp->kind != REG_RULE_OFFSET || !fits_s32(fp->offset))
        return fp_reason(fp);
    push_word(f, fp->offset, 0);
    return NULL;
}

/* A DWARF expression of the form DW_OP_breg(x) REG N [DW_OP_deref], the
 * only ones a FLEX word says: 1 with its parts, else 0. */
static int breg_form(const struct unwind_rule *r, unsigned *reg, int64_t *offset, int *deref)
{
    struct byte_reader br;
    uint64_t op, ureg;
    byte_reader_init(&br, r->expr, r->expr_len);
    if (!r->expr || read_uint(&br, 1, &op) != 0)
        return 0;
    if (op >= DW_OP_breg0 && op < DW_OP_breg0 + 32)
        ureg = op - DW_OP_breg0;
    else if (op != DW_OP_bregx || read_uleb128(&br, &ureg) != 0)
        return 0;
    if (read_sleb128(&br, offset) != 0 || ureg >= UNWIND_MAX_COLUMNS)
        return 0;
    size_t used = byte_reader_offset(&br);   /* the operation, its register and offset */
    *reg = (unsigned)ureg;
    *deref = used + 1 == r->expr_len && r->expr[used] == DW_OP_deref;
    return used == r->expr_len || *deref;
}

static uint32_t flex_control(unsigned reg, int reg_p, int deref)
{
    return (uint32_t)(reg << 3 | (unsigned)deref << 1 | (unsigned)reg_p);
}

/* A register rule (ra or rbp) as a FLEX (control, offset) pair: 1, or 0
 * when FLEX cannot say it (a value CFA+N: its control word would be 0,
 * padding). */
static int flex_reg(const struct unwind_rule *r, uint32_t *control, int64_t *offset)
{
    unsigned reg;
    int deref;
    switch (r->kind) {
    case REG_RULE_OFFSET:
        *control = flex_control(0, 0, 1), *offset = r->offset;
        return 1;
    case REG_RULE_REGISTER:
        *control = flex_control(r->reg, 1, 0), *offset = 0;
        return r->reg < UNWIND_MAX_COLUMNS;
    case REG_RULE_EXPRESSION:       /* saved at REG + N */
    case REG_RULE_VAL_EXPRESSION:   /* is REG + N */
        if (!breg_form(r, &reg, offset, &deref) || deref)
            return 0;
        *control = flex_control(reg, 1, r->kind == REG_RULE_EXPRESSION);
        return 1;
    default:
        return 0;
    }
}

/* ROW as a V3 FLEX FRE into *F: the CFA's pair, then ra's (a lone 0 when at
 * the fixed CFA-8), then rbp's (none when unchanged).  NULL, or why not. */
static const char *flex_fre(const struct unwind_row *row, struct sframe_out_fre *f)
{
    memset(f, 0, sizeof *f);
    const struct unwind_rule *ra = &row->reg[ABI_RA], *fp = &row->reg[ABI_RBP], *cfa = &row->cfa;
    if (ra->kind == REG_RULE_UNDEFINED)
        return NULL;   /* outermost: no words */
    unsigned reg;
    int64_t off;
    int deref = 0;
    if (cfa->kind == CFA_RULE_REG_OFFSET)
        reg = cfa->reg, off = cfa->offset;
    else if (cfa->kind != CFA_RULE_EXPRESSION)
        return "CFA is not known";
    else if (!breg_form(cfa, &reg, &off, &deref))
        return "CFA is a DWARF expression other than *(REG + N)";
    if (!fits_s32(off) || reg >= UNWIND_MAX_COLUMNS)
        return "CFA offset does not fit 32 bits";
    push_word(f, flex_control(reg, 1, deref), 1);
    push_word(f, off, 0);
    int fp_tracked = fp->kind != REG_RULE_UNREFERENCED && fp->kind != REG_RULE_SAME_VALUE;
    uint32_t control;
    if (ra->kind == REG_RULE_OFFSET && ra->offset == ABI_ENTRY_RA_OFFSET) {
        if (fp_tracked)
            push_word(f, 0, 1);   /* padding: the header's fixed RA offset */
    } else if (!flex_reg(ra, &control, &off) || !fits_s32(off)) {
        return ra->kind == REG_RULE_SAME_VALUE ? "ra's rule is `same value'" : "ra's rule is not [*](REG + N)";
    } else {
        push_word(f, control, 1);
        push_word(f, off, 0);
    }
    if (!fp_tracked)
        return NULL;
    if (fp->kind == REG_RULE_UNDEFINED)
        return fp_reason(fp);
    if (!flex_reg(fp, &control, &off) || !fits_s32(off))
        return fp->kind == REG_RULE_VAL_OFFSET ? fp_reason(fp) : "rbp's rule is not [*](REG + N)";
    push_word(f, control, 1);
    push_word(f, off, 0);
    return NULL;
}

/* The size code (0, 1, 2: 1, 2, 4 bytes) that holds every word of F:
 * offsets signed, control words unsigned. */
static uint8_t words_size_code(const struct sframe_out_fre *f)
{
    uint8_t code = 0;
    for (unsigned i = 0; i < f->count; i++) {
        int64_t v = f->words[i];
        int control = f->control_mask >> i & 1;
        uint8_t need = control ? (v <= 0xff ? 0 : v <= 0xffff ? 1 : 2)
                               : (v >= INT8_MIN && v <= INT8_MAX ? 0 : v >= INT16_MIN && v <= INT16_MAX ? 1 : 2);
        if (need > code)
            code = need;
    }
    return code;
}

static int fre_equal(const struct sframe_out_fre *a, const struct sframe_out_fre *b)
{
    if (a->base_sp != b->base_sp || a->count != b->count || a->control_mask != b->control_mask)
        return 0;
    for (unsigned i = 0; i < a->count; i++)
        if (a->words[i] != b->words[i])
            return 0;
    return 1;
}

/* ---- the writer's arrays --------------------------------------------------- */

/* Append F at START unless it says what the FRE before it (of the same
 * FDE, from FIRST) says. */
static int push_fre(struct sframe_writer *w, size_t first, struct sframe_out_fre *f, uint32_t start)
{
    if (w->nfres > first && fre_equal(&w->fres[w->nfres - 1], f))
        return 0;
    struct sframe_out_fre *fres = grow_array(w->fres, &w->fres_cap, w->nfres + 1, sizeof *fres);
    if (!fres)
        return -2;
    w->fres = fres;
    f->start = start;
    f->size_code = words_size_code(f);
    w->fres[w->nfres++] = *f;
    return 0;
}

/* Bytes of FDE's FREs (V3: and its attribute). */
static uint64_t fde_fre_bytes(const struct sframe_writer *w, const struct sframe_out_fde *d)
{
    uint64_t n = w->version == SFRAME_VERSION_3 ? SFRAME_V3_FDE_ATTR_SIZE : 0;
    for (size_t i = d->first_fre; i < d->first_fre + d->nfres; i++)
        n += (1u << d->fre_type) + 1 + (uint64_t)w->fres[i].count * (1u << w->fres[i].size_code);
    return n;
}

/* Close the FDE whose FREs start at FIRST: [PC, PC + SIZE). */
static int push_fde(struct sframe_writer *w, uint64_t pc, uint64_t size, size_t first, uint8_t pc_type,
                    uint8_t fde_type, int signal_frame, const char **why)
{
    size_t n = w->nfres - first;
    if (w->version == SFRAME_VERSION_3 && n > V3_MAX_FRES) {
        *why = "more than 65535 FREs (V3 counts them in 16 bits)";
        return 0;
    }
    struct sframe_out_fde *fdes = grow_array(w->fdes, &w->fdes_cap, w->nfdes + 1, sizeof *fdes);
    if (!fdes)
        return -2;
    w->fdes = fdes;
    uint32_t last = n ? w->fres[w->nfres - 1].start : 0;
    struct sframe_out_fde *d = &w->fdes[w->nfdes++];
    *d = (struct sframe_out_fde){.pc = pc, .size = (uint32_t)size, .pc_type = pc_type, .fde_type = fde_type,
                                 .fre_type = last <= 0xff ? 0 : last <= 0xffff ? 1 : 2,
                                 .signal_frame = (uint8_t)signal_frame, .first_fre = first, .nfres = n,
                                 .rep_size = pc_type == SFRAME_PC_MASK ? SFRAME_PLT_BLOCK : 0};
    w->fre_bytes += fde_fre_bytes(w, d);
    return 1;
}

/* ---- the PLT ------------------------------------------------------------------ */

/* GNU ld's CFA of the pltN entries (elf_x86_64_eh_frame_plt):
 *     DW_OP_breg7 (rsp): N; DW_OP_breg16 (rip): 0; DW_OP_lit15; DW_OP_and;
 *     DW_OP_litK; DW_OP_ge; DW_OP_lit3; DW_OP_shl; DW_OP_plus
 * that is rsp + N, plus 8 from the K-th byte of each 16-byte entry on (after
 * its `push $index`).  1 with N and K, else 0. */
static int plt_cfa(const struct unwind_row *row, int64_t *n, unsigned *k)
{
    static const uint8_t head[] = {DW_OP_breg0 + ABI_RA, 0, DW_OP_lit0 + 15, DW_OP_and};
    static const uint8_t tail[] = {DW_OP_ge, DW_OP_lit0 + 3, DW_OP_shl, DW_OP_plus};
    const struct unwind_rule *c = &row->cfa;
    if (c->kind != CFA_RULE_EXPRESSION || !c->expr || c->expr_len < 2 || c->expr[0] != DW_OP_breg0 + ABI_RSP)
        return 0;
    struct byte_reader br;
    byte_reader_init(&br, c->expr + 1, c->expr_len - 1);
    if (read_sleb128(&br, n) != 0)
        return 0;
    size_t at = 1 + byte_reader_offset(&br);
    if (c->expr_len != at + sizeof head + 1 + sizeof tail || memcmp(c->expr + at, head, sizeof head) != 0 ||
        memcmp(c->expr + at + sizeof head + 1, tail, sizeof tail) != 0)
        return 0;
    uint8_t lit = c->expr[at + sizeof head];
    if (lit < DW_OP_lit0 || lit > DW_OP_lit0 + 31)
        return 0;
    *k = lit - DW_OP_lit0;
    return fits_s32(*n) && fits_s32(*n + 8);
}

/* Rows [I, J) of T, all of one PLT expression (N, K), as a PCMASK FDE. */
static int add_pcmask(struct sframe_writer *w, const struct unwind_table *t, size_t i, size_t j, int64_t n,
                      unsigned k, const char **why, uint64_t *at)
{
    const struct unwind_row *first = &t->rows[i];
    *at = first->start;
    if (first->start % SFRAME_PLT_BLOCK) {
        *why = "PLT entries' rows that do not start at a 16-byte boundary";
        return 0;
    }
    for (size_t r = i + 1; r < j; r++)
        if (!unwind_rule_equal(&t->rows[r].reg[ABI_RA], &first->reg[ABI_RA]) ||
            !unwind_rule_equal(&t->rows[r].reg[ABI_RBP], &first->reg[ABI_RBP])) {
            *at = t->rows[r].start;
            *why = "PLT entries' rows whose ra or rbp differ";
            return 0;
        }
    /* The two CFAs of an entry, with the row's own ra and rbp. */
    struct unwind_row before = *first, after = *first;
    before.cfa = (struct unwind_rule){.kind = CFA_RULE_REG_OFFSET, .reg = ABI_RSP, .offset = n};
    after.cfa = (struct unwind_rule){.kind = CFA_RULE_REG_OFFSET, .reg = ABI_RSP, .offset = n + 8};
    struct sframe_out_fre f0, f1;
    if ((*why = default_fre(&before, w->version, &f0)) || (*why = default_fre(&after, w->version, &f1)))
        return 0;
    size_t mark = w->nfres;
    /* K = 0: the entry's whole block is after its push; K >= 16: none is. */
    if (push_fre(w, mark, k == 0 ? &f1 : &f0, 0) != 0 ||
        (k > 0 && k < SFRAME_PLT_BLOCK && push_fre(w, mark, &f1, k) != 0))
        return -2;
    return push_fde(w, first->start, t->rows[j - 1].end - first->start, mark, SFRAME_PC_MASK,
                    SFRAME_FDE_TYPE_DEFAULT, t->signal_frame, why);
}

/* ---- a PCINC FDE ------------------------------------------------------------ */

/* Rows [I, J) of T as FREs of one FDE starting at BASE, DEFAULT or FLEX:
 * 1, or 0 with *WHY and *AT (the FREs pushed are taken back). */
static int push_rows(struct sframe_writer *w, const struct unwind_table *t, size_t i, size_t j, int flex,
                     const char **why, uint64_t *at)
{
    size_t mark = w->nfres;
    uint64_t base = t->rows[i].start;
    for (size_t r = i; r < j; r++) {
        struct sframe_out_fre f;
        const struct unwind_row *row = &t->rows[r];
        *why = flex ? flex_fre(row, &f) : default_fre(row, w->version, &f);
        if (*why) {
            *at = row->start;
            w->nfres = mark;
            return 0;
        }
        if (push_fre(w, mark, &f, (uint32_t)(row->start - base)) != 0)
            return -2;
    }
    return 1;
}

/* Rows [I, J) of T as a PCINC FDE: DEFAULT where it can say them, else (V3) FLEX. */
static int add_pcinc(struct sframe_writer *w, const struct unwind_table *t, size_t i, size_t j, const char **why,
                     uint64_t *at)
{
    size_t mark = w->nfres;
    int flex = 0;
    int rc = push_rows(w, t, i, j, 0, why, at);
    if (rc == 0 && w->version == SFRAME_VERSION_3) {
        flex = 1;
        rc = push_rows(w, t, i, j, 1, why, at);
    }
    if (rc != 1)
        return rc;
    uint64_t start = t->rows[i].start;
    return push_fde(w, start, t->rows[j - 1].end - start, mark, SFRAME_PC_INC,
                    flex ? SFRAME_FDE_TYPE_FLEX : SFRAME_FDE_TYPE_DEFAULT, t->signal_frame, why);
}

/* ---- adding a function ---------------------------------------------------- */

/* Why T cannot be one function of SFrame whatever its rows (NULL: it can);
 * *AT the address concerned. */
static const char *function_refusal(const struct sframe_writer *w, const struct unwind_table *t, uint64_t *at)
{
    *at = t->start;
    if (t->start >= t->end)
        return "the function's range is empty";
    if (w->any && t->start < w->last_end)
        return "its range overlaps the function before it";
    if (t->end - t->start > UINT32_MAX)
        return "larger than 4 GiB (SFrame sizes functions in 32 bits)";
    if (t->signal_frame && w->version < SFRAME_VERSION_3)
        return "a signal frame (SFrame marks them from V3 on)";
    uint64_t next = t->start;
    for (size_t i = 0; i < t->nrows; i++) {
        if (t->rows[i].start != next) {
            *at = next;
            return "part of its range has no row";
        }
        next = t->rows[i].end;
    }
    if (next != t->end) {
        *at = next;
        return "part of its range has no row";
    }
    return NULL;
}

int sframe_writer_add(struct sframe_writer *w, const struct unwind_table *t, struct sframe_added *added,
                      const char **why, uint64_t *at)
{
    memset(added, 0, sizeof *added);
    if ((*why = function_refusal(w, t, at)))
        return 0;
    size_t fdes = w->nfdes, fres = w->nfres;
    uint64_t bytes = w->fre_bytes;
    int rc = 1;
    /* Runs of rows: the PLT entries' expression (a PCMASK FDE), the others (PCINC). */
    for (size_t i = 0; i < t->nrows && rc == 1;) {
        int64_t n, n2;
        unsigned k, k2;
        size_t j = i + 1;
        if (plt_cfa(&t->rows[i], &n, &k)) {
            while (j < t->nrows && plt_cfa(&t->rows[j], &n2, &k2) && n2 == n && k2 == k)
                j++;
            rc = add_pcmask(w, t, i, j, n, k, why, at);
        } else {
            while (j < t->nrows && !plt_cfa(&t->rows[j], &n2, &k2))
                j++;
            rc = add_pcinc(w, t, i, j, why, at);
        }
        i = j;
    }
    if (rc != 1) {   /* as before the call */
        w->nfdes = fdes, w->nfres = fres, w->fre_bytes = bytes;
        return rc;
    }
    for (size_t d = fdes; d < w->nfdes; d++) {
        added->pcmask_fdes += w->fdes[d].pc_type == SFRAME_PC_MASK;
        added->flex_fdes += w->fdes[d].fde_type == SFRAME_FDE_TYPE_FLEX;
    }
    added->fdes = w->nfdes - fdes;
    added->fres = w->nfres - fres;
    w->last_end = t->end;
    w->any = 1;
    return 1;
}

/* ---- the section -------------------------------------------------------------- */

int sframe_writer_init(struct sframe_writer *w, unsigned version)
{
    memset(w, 0, sizeof *w);
    if (version < SFRAME_VERSION_1 || version > SFRAME_VERSION_3)
        return -1;
    w->version = (uint8_t)version;
    return 0;
}

void sframe_writer_release(struct sframe_writer *w)
{
    free(w->fdes);
    free(w->fres);
    memset(w, 0, sizeof *w);
}

static unsigned fde_size(const struct sframe_writer *w)
{
    return w->version == SFRAME_VERSION_1 ? SFRAME_V1_FDE_SIZE
           : w->version == SFRAME_VERSION_2 ? SFRAME_V2_FDE_SIZE : SFRAME_V3_FDE_INDEX_SIZE;
}

uint64_t sframe_writer_size(const struct sframe_writer *w)
{
    return SFRAME_HEADER_SIZE + (uint64_t)w->nfdes * fde_size(w) + w->fre_bytes;
}

static void write_header(const struct sframe_writer *w, uint8_t *p)
{
    uint8_t flags = SFRAME_F_FDE_SORTED;
    if (w->version != SFRAME_VERSION_1)
        flags |= SFRAME_F_FDE_FUNC_START_PCREL;
    le_store(p, SFRAME_MAGIC, 2);
    p[2] = w->version;
    p[3] = flags;
    p[4] = SFRAME_ABI_AMD64_ENDIAN_LITTLE;
    p[5] = 0;                                   /* no fixed FP offset */
    p[6] = (uint8_t)(int8_t)ABI_ENTRY_RA_OFFSET;   /* the RA at CFA-8 */
    p[7] = 0;                                   /* no auxiliary header */
    le_store(p + 8, w->nfdes, 4);
    le_store(p + 12, w->nfres, 4);
    le_store(p + 16, w->fre_bytes, 4);
    le_store(p + 20, 0, 4);                       /* the FDEs right after the header */
    le_store(p + 24, (uint64_t)w->nfdes * fde_size(w), 4);
}

/* One FRE at P: its start, info, words; returns the bytes written. */
static size_t write_fre(const struct sframe_out_fde *d, const struct sframe_out_fre *f, uint8_t *p)
{
    unsigned asize = 1u << d->fre_type, wsize = 1u << f->size_code;
    le_store(p, f->start, asize);
    p[asize] = (uint8_t)(f->base_sp | f->count << 1 | f->size_code << 5);
    for (unsigned i = 0; i < f->count; i++)
        le_store(p + asize + 1 + i * wsize, (uint64_t)f->words[i], wsize);
    return asize + 1 + (size_t)f->count * wsize;
}

/* FDE D (the INDEX-th) at P, its function data at DATA (FRE sub-section
 * offset OFF), for a section at ADDR; the bytes of data written in *N.
 * Returns 0, or -1 with *WHY when its start cannot be written. */
static int write_fde(const struct sframe_writer *w, size_t index, const struct sframe_out_fde *d, uint64_t addr,
                     uint8_t *p, uint8_t *data, uint64_t off, size_t *n, const char **why)
{
    uint64_t field = addr + SFRAME_HEADER_SIZE + (uint64_t)index * fde_size(w);
    int64_t start = (int64_t)(d->pc - (w->version == SFRAME_VERSION_1 ? addr : field));
    uint8_t info = (uint8_t)(d->fre_type | d->pc_type << 4 | d->signal_frame << 7);
    *n = 0;
    if (w->version == SFRAME_VERSION_3) {
        le_store(p, (uint64_t)start, 8);
        le_store(p + 8, d->size, 4);
        le_store(p + 12, off, 4);
        le_store(data, d->nfres, 2);
        data[2] = info;
        data[3] = d->fde_type;
        data[4] = d->rep_size;
        *n = SFRAME_V3_FDE_ATTR_SIZE;
    } else {
        if (!fits_s32(start)) {
            *why = "a function lies more than 2 GiB from .sframe (V1 and V2 keep start addresses in 32 bits)";
            return -1;
        }
        le_store(p, (uint64_t)start, 4);
        le_store(p + 4, d->size, 4);
        le_store(p + 8, off, 4);
        le_store(p + 12, d->nfres, 4);
        p[16] = info;
        if (w->version == SFRAME_VERSION_2)
            p[17] = d->rep_size;   /* then 2 bytes of padding, 0 */
    }
    for (size_t i = d->first_fre; i < d->first_fre + d->nfres; i++)
        *n += write_fre(d, &w->fres[i], data + *n);
    return 0;
}

int sframe_writer_write(const struct sframe_writer *w, uint64_t addr, struct cfi_bytes *out, const char **why)
{
    if (w->nfdes > UINT32_MAX || w->nfres > UINT32_MAX || w->fre_bytes > UINT32_MAX ||
        (uint64_t)w->nfdes * fde_size(w) > UINT32_MAX) {
        *why = "more FDEs, FREs or FRE bytes than SFrame's 32-bit counts hold";
        return -1;
    }
    uint64_t size = sframe_writer_size(w);
    if (cfi_bytes_reserve(out, size) != 0)
        return -2;
    uint8_t *p = out->b + out->n;
    memset(p, 0, size);
    write_header(w, p);
    uint8_t *fdes = p + SFRAME_HEADER_SIZE, *fres = fdes + (uint64_t)w->nfdes * fde_size(w);
    uint64_t off = 0;
    for (size_t i = 0; i < w->nfdes; i++) {
        size_t n;
        if (write_fde(w, i, &w->fdes[i], addr, fdes + i * fde_size(w), fres + off, off, &n, why) != 0)
            return -1;
        off += n;
    }
    if (off != w->fre_bytes) {
        *why = "internal error: the FRE sub-section's length changed as it was written";
        return -1;
    }
    out->n += size;
    return 0;
}
