/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sframe_print: readelf --sframe's layout (2.40 for V1, 2.46 for V2 and V3).
 */
#include "sframe_print.h"

#include <inttypes.h>
#include <string.h>

static const char *const version_names[] = {"NULL", "SFRAME_VERSION_1", "SFRAME_VERSION_2", "SFRAME_VERSION_3"};

/* 2.40: one name, the last strcpy's. */
static const char *flags_v1(uint8_t flags)
{
    if (!flags)
        return "NONE";
    if (flags & SFRAME_F_FRAME_POINTER)
        return "SFRAME_F_FRAME_POINTER";
    return "SFRAME_F_FDE_SORTED";
}

/* 2.46: one flag a line, the first after "Flags: ", the others aligned under it. */
static void print_flags(FILE *out, const struct sframe_header *h)
{
    static const struct {
        uint8_t bit;
        const char *name;
    } names[] = {{SFRAME_F_FDE_SORTED, "SFRAME_F_FDE_SORTED"},
                 {SFRAME_F_FRAME_POINTER, "SFRAME_F_FRAME_POINTER"},
                 {SFRAME_F_FDE_FUNC_START_PCREL, "SFRAME_F_FDE_FUNC_START_PCREL"}};
    const char *prefix = "Flags: ";
    unsigned flags = h->flags;   /* only defined ones: sframe_header_read */
    if (!flags) {
        fprintf(out, "%11sNONE\n", prefix);
        return;
    }
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (!(flags & names[i].bit))
            continue;
        flags &= ~(unsigned)names[i].bit;
        fprintf(out, "%11s%s%s\n", prefix, names[i].name, flags ? "," : "");
        prefix = " ";
    }
}

void sframe_print_header(FILE *out, const struct sframe_header *h)
{
    fprintf(out, "\n  Header :\n\n    Version: %s\n", version_names[h->version]);
    if (h->version == SFRAME_VERSION_1) {
        fprintf(out, "    Flags: %s\n", flags_v1(h->flags));
    } else {
        print_flags(out, h);
        if (h->fixed_fp_offset)
            fprintf(out, "    CFA fixed FP offset: %d\n", h->fixed_fp_offset);
        if (h->fixed_ra_offset)
            fprintf(out, "    CFA fixed RA offset: %d\n", h->fixed_ra_offset);
    }
    fprintf(out, "    Num FDEs: %d\n    Num FREs: %d\n", (int)h->num_fdes, (int)h->num_fres);
}

void sframe_print_fde_heading(FILE *out, const struct sframe_header *h, const struct sframe_fde *fde)
{
    fprintf(out, "\n    func idx [%d]: pc = 0x%" PRIx64 ", size = %d bytes", (int)fde->index, fde->pc,
            (int)fde->size);
    if (h->version >= SFRAME_VERSION_3 && (fde->signal_frame || fde->fde_type == SFRAME_FDE_TYPE_FLEX))
        fprintf(out, ", attr = \"%s%s\"", fde->signal_frame ? "S" : "",
                fde->fde_type == SFRAME_FDE_TYPE_FLEX ? "F" : "");
    fprintf(out, "\n    %-7s%-8s %-10s%-10s%-13s", "STARTPC", fde->pc_type == SFRAME_PC_MASK ? "[m]" : "   ",
            "CFA", "FP", "RA");
}

/* libsframe's FP getter: the FRE's word after the CFA's (and the RA's when
 * the RA is not fixed); absent when the header fixes the FP. */
static int fp_word(const struct sframe_header *h, const struct sframe_fre *fre, int32_t *value)
{
    unsigned idx = h->fixed_ra_offset ? 1 : 2;
    if (h->fixed_fp_offset || fre->count <= idx)
        return 0;
    *value = fre->words[idx];
    return 1;
}

/* The CFA cell (its offset CFA_WORD) and the FP cell, in TEMP (100 bytes),
 * which the RA cell then reuses as readelf does. */
static void print_cfa_fp_cells(FILE *out, const struct sframe_header *h, const struct sframe_fre *fre,
                               int32_t cfa_word, char *temp)
{
    int32_t fp;
    snprintf(temp, 100, "%s+%d", fre->base_reg ? "sp" : "fp", cfa_word);
    fprintf(out, "  %-10s", temp);
    if (fp_word(h, fre, &fp))
        snprintf(temp, 100, "c%+d", fp);
    else
        strcpy(temp, "u");
    fprintf(out, "%-10s", temp);
}

/* 2.40's CFA, FP and RA cells, TEMP reused from cell to cell as it does. */
static void print_cells_v1(FILE *out, const struct sframe_header *h, const struct sframe_fre *fre)
{
    char temp[100];
    print_cfa_fp_cells(out, h, fre, fre->count ? fre->words[0] : -1, temp);
    if (h->fixed_ra_offset)
        strcpy(temp, "u");
    else if (fre->count >= 2)
        snprintf(temp, sizeof temp, "c%+d", fre->words[1]);
    strcat(temp, fre->mangled_ra ? "[s]" : "   ");
    fprintf(out, "%-13s", temp);
}

/* 2.46's cells of a DEFAULT FDE's FRE. */
static void print_cells_default(FILE *out, const struct sframe_header *h, const struct sframe_fre *fre)
{
    char temp[100];
    print_cfa_fp_cells(out, h, fre, fre->words[0], temp);
    if (h->fixed_ra_offset)
        strcpy(temp, "f");
    else if (fre->count >= 2 && fre->words[1] == 0)
        strcpy(temp, "U");
    else if (fre->count >= 2)
        snprintf(temp, sizeof temp, "c%+d", fre->words[1]);
    else
        strcpy(temp, "u");
    strcat(temp, fre->mangled_ra ? "[s]" : "   ");
    fprintf(out, "%-13s", temp);
}

/* "fp+16", "(fp-8)", "c-8", "r12+0": a flexible rule as 2.46 prints it. */
static void format_flex(char *buf, size_t size, const struct sframe_rule *r)
{
    char name[16];
    if (!r->reg_p)
        strcpy(name, "c");
    else if (r->reg == 7)
        strcpy(name, "sp");
    else if (r->reg == 6)
        strcpy(name, "fp");
    else
        snprintf(name, sizeof name, "r%u", r->reg);
    snprintf(buf, size, r->deref_p ? "(%s%+d)" : "%s%+d", name, r->offset);
}

static void print_cells_flex(FILE *out, const struct sframe_header *h, const struct sframe_fre *fre,
                             const struct sframe_rules *rules)
{
    char temp[100];
    format_flex(temp, sizeof temp, &rules->cfa);
    fprintf(out, "  %-10s", temp);
    if (rules->fp.tracked && !rules->fp.fixed)
        format_flex(temp, sizeof temp, &rules->fp);
    else
        strcpy(temp, "u");
    fprintf(out, "%-10s", temp);
    if (rules->ra.padding)
        strcpy(temp, "U");
    else if (rules->ra.tracked && !rules->ra.fixed)
        format_flex(temp, sizeof temp, &rules->ra);
    else
        strcpy(temp, h->fixed_ra_offset ? "f" : "u");
    strcat(temp, fre->mangled_ra ? "[s]" : "   ");
    fprintf(out, "%-13s", temp);
}

void sframe_print_fre(FILE *out, const struct sframe_header *h, const struct sframe_fde *fde,
                      const struct sframe_fre *fre)
{
    uint64_t pc = fde->pc_type == SFRAME_PC_MASK ? fre->start : fde->pc + fre->start;
    fprintf(out, "\n    %016" PRIx64, pc);
    if (h->version == SFRAME_VERSION_1) {
        print_cells_v1(out, h, fre);
        return;
    }
    if (fre->count == 0) {
        fputs("  RA undefined", out);
        return;
    }
    struct sframe_rules rules;
    const char *why;
    if (fde->fde_type == SFRAME_FDE_TYPE_FLEX && sframe_fre_rules(h, fde, fre, &rules, &why) == 0)
        print_cells_flex(out, h, fre, &rules);
    else if (fde->fde_type == SFRAME_FDE_TYPE_FLEX)
        fputs("  ?", out);   /* words that do not make rules: the table's check reports them */
    else
        print_cells_default(out, h, fre);
}

int sframe_print_section(FILE *out, const struct sframe_view *v, const char *name, struct sframe_error *err)
{
    struct sframe_header h;
    fprintf(out, "Contents of the SFrame section %s:", name);
    if (sframe_header_read(v, &h, err) != 0) {
        fputc('\n', out);
        return -1;
    }
    sframe_print_header(out, &h);
    fputs("\n  Function Index :\n", out);
    for (uint32_t i = 0; i < h.num_fdes; i++) {
        struct sframe_fde fde;
        if (sframe_fde_read(v, &h, i, &fde, err) != 0)
            return -1;
        sframe_print_fde_heading(out, &h, &fde);
        uint64_t off = fde.first_fre;
        for (uint32_t j = 0; j < fde.num_fres; j++) {
            struct sframe_fre fre;
            if (sframe_fre_read(v, &h, &fde, off, &fre, err) != 0) {
                fputc('\n', out);
                return -1;
            }
            sframe_print_fre(out, &h, &fde, &fre);
            off = fre.end;
        }
        fputc('\n', out);
    }
    return 0;
}
