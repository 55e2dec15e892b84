/* SPDX-License-Identifier: Apache-2.0 */
/*
 * repair_report: the validated table's changes, as text and as JSON.
 */
#include "repair_report.h"

#include <inttypes.h>
#include <string.h>

#include "report/json_string.h"
#include "report/table_json.h"
#include "semantics/abi.h"
#include "semantics/print/table_print.h"

/* The columns the text and JSON show: the CFA (-1), the callee-saved
 * registers, ra. */
static const int shown_columns[] = {-1, ABI_RBX, ABI_RBP, ABI_R12, ABI_R13, ABI_R14, ABI_R15, ABI_RA};
#define NSHOWN (sizeof shown_columns / sizeof shown_columns[0])

static const struct unwind_rule *rule_of(const struct unwind_row *row, int col)
{
    return col < 0 ? &row->cfa : &row->reg[col];
}

/* A rule as dwtable prints it, but for the two that the readelf layout
 * both prints `u`: a register unchanged and one undefined. */
static void format_rule(char *buf, size_t size, const struct unwind_row *row, int col)
{
    if (col < 0)
        table_print_cfa_rule(buf, size, &row->cfa);
    else if (row->reg[col].kind == REG_RULE_UNREFERENCED || row->reg[col].kind == REG_RULE_SAME_VALUE)
        snprintf(buf, size, "unchanged");
    else if (row->reg[col].kind == REG_RULE_UNDEFINED)
        snprintf(buf, size, "undefined");
    else
        table_print_reg_rule(buf, size, &row->reg[col]);
}

static int rules_differ(const struct unwind_row *a, const struct unwind_row *b, int col)
{
    return col < 0 ? !unwind_cfa_rule_equal(&a->cfa, &b->cfa) : !unwind_rule_equal(&a->reg[col], &b->reg[col]);
}

static const char *column_label(int col)
{
    return col < 0 ? "CFA" : col == ABI_RA ? "ra" : unwind_column_name(col);
}

static void text_row(FILE *out, const struct validated_fde *f, size_t i, struct fde_lookup *dw)
{
    const struct unwind_row *row = &f->table.rows[i];
    fprintf(out, "  0x%" PRIx64 "-0x%" PRIx64 "  %s", row->start, row->end,
            validated_provenance_name(f->provenance[i]));
    const struct eh_frame_fde *fde;
    const struct unwind_row *old = f->fde ? fde_lookup_row(dw, row->start, &fde) : NULL;
    const char *sep = "  ";
    for (size_t c = 0; c < NSHOWN; c++) {
        int col = shown_columns[c];
        char now[64], was[64];
        format_rule(now, sizeof now, row, col);
        if (old && f->provenance[i] == PROVENANCE_SYNTHESISED && rules_differ(old, row, col)) {
            format_rule(was, sizeof was, old, col);
            fprintf(out, "%s%s %s -> %s", sep, column_label(col), was, now);
            sep = "; ";
        } else if (!old && (col < 0 || col == ABI_RA || rule_of(row, col)->kind != REG_RULE_UNREFERENCED)) {
            fprintf(out, "%s%s %s", sep, column_label(col), now);
            sep = "; ";
        }
    }
    fputc('\n', out);
}

void repair_report_text(FILE *out, const char *path, const struct validated_table *vt, struct fde_lookup *dw,
                        int rows)
{
    size_t kept = vt->nfdes - vt->fdes_repaired - vt->fdes_added;
    fprintf(out, "%s: %zu FDEs kept, %zu repaired, %zu added; %zu rows repaired; addresses: %zu proved, "
            "%zu unchecked (%zu of them not judged: unreached, padding ...), %zu synthesised", path, kept,
            vt->fdes_repaired, vt->fdes_added, vt->rows_repaired, vt->addresses[PROVENANCE_PROVED],
            vt->addresses[PROVENANCE_UNCHECKED], vt->addresses_kept, vt->addresses[PROVENANCE_SYNTHESISED]);
    if (vt->addresses_ending_stack)
        fprintf(out, " (%zu of them code no known path reaches or whose CFA synthesis cannot say, whose "
                "rows end the stack)",
                vt->addresses_ending_stack);
    fputc('\n', out);
    if (vt->functions_not_added)
        fprintf(out, "%s: %zu functions without an FDE left without one: a table from their entry as the "
                "ABI has it would be wrong (entered by a jump in another frame, a ret that pops a word of "
                "their own frame, not entered the ordinary way), or all of whose code no FDE covers would end the "
                "stack\n", path, vt->functions_not_added);
    for (size_t k = 0; rows && k < vt->nfdes; k++) {
        const struct validated_fde *f = &vt->fdes[k];
        if (!f->repaired)
            continue;
        if (f->fde)
            fprintf(out, "repaired FDE at offset 0x%" PRIx64 " [0x%" PRIx64 ", 0x%" PRIx64 ") %s: %zu of %zu rows\n",
                    f->fde->offset, f->lo, f->hi, f->function, f->rows_repaired, f->table.nrows);
        else
            fprintf(out, "added FDE [0x%" PRIx64 ", 0x%" PRIx64 ") %s: %zu rows\n", f->lo, f->hi, f->function,
                    f->table.nrows);
        for (size_t i = 0; i < f->table.nrows; i++)
            text_row(out, f, i, dw);
    }
}

static void json_row(FILE *out, const struct validated_fde *f, size_t i, struct fde_lookup *dw)
{
    const struct unwind_row *row = &f->table.rows[i];
    fprintf(out, "{\"start\":%" PRIu64 ",\"end\":%" PRIu64 ",\"provenance\":\"%s\",\"rules\":{", row->start, row->end,
            validated_provenance_name(f->provenance[i]));
    for (size_t c = 0; c < NSHOWN; c++) {
        fprintf(out, "%s\"%s\":", c ? "," : "", column_label(shown_columns[c]));
        table_json_rule(out, rule_of(row, shown_columns[c]), shown_columns[c] < 0);
    }
    fputs("},\"replaced\":{", out);
    const struct eh_frame_fde *fde;
    const struct unwind_row *old = f->fde && f->provenance[i] == PROVENANCE_SYNTHESISED
                                       ? fde_lookup_row(dw, row->start, &fde) : NULL;
    const char *sep = "";
    for (size_t c = 0; old && c < NSHOWN; c++)
        if (rules_differ(old, row, shown_columns[c])) {
            fprintf(out, "%s\"%s\":", sep, column_label(shown_columns[c]));
            table_json_rule(out, rule_of(old, shown_columns[c]), shown_columns[c] < 0);
            sep = ",";
        }
    fputs("}}", out);
}

/* SF as the JSON object's "sframe" member (after a comma). */
static void json_sframe(FILE *out, const struct repair_sframe *sf)
{
    fprintf(out, ",\"sframe\":{\"version\":%u,\"size\":%" PRIu64 ",\"functions\":%zu,\"fdes\":%zu,"
            "\"pcmask_fdes\":%zu,\"flex_fdes\":%zu,\"fres\":%zu,\"left\":[",
            sf->version, sf->size, sf->functions, sf->fdes, sf->pcmask_fdes, sf->flex_fdes, sf->fres);
    for (size_t i = 0; i < sf->nleft; i++) {
        const struct repair_sframe_left *l = &sf->left[i];
        fputs(i ? ",{\"function\":" : "{\"function\":", out);
        json_string_print(out, l->function);
        fprintf(out, ",\"lo\":%" PRIu64 ",\"hi\":%" PRIu64 ",\"at\":%" PRIu64 ",\"reason\":", l->lo, l->hi, l->at);
        json_string_print(out, l->why);
        fputc('}', out);
    }
    fputs("]}", out);
}

void repair_report_sframe_text(FILE *out, const char *path, const struct repair_sframe *sf)
{
    fprintf(out, "%s: .sframe (SFrame V%u, %" PRIu64 " bytes): %zu functions written as %zu FDEs (%zu PCMASK, "
            "%zu FLEX), %zu FREs; %zu functions left to .eh_frame\n", path, sf->version, sf->size, sf->functions,
            sf->fdes, sf->pcmask_fdes, sf->flex_fdes, sf->fres, sf->nleft);
    for (size_t i = 0; i < sf->nleft; i++) {
        const struct repair_sframe_left *l = &sf->left[i];
        fprintf(out, "%s: .sframe: left to .eh_frame: %s [0x%" PRIx64 ", 0x%" PRIx64 "): %s", path, l->function,
                l->lo, l->hi, l->why);
        if (l->at != l->lo)
            fprintf(out, " (at 0x%" PRIx64 ")", l->at);
        fputc('\n', out);
    }
}

static uint64_t written_tables(const struct repair_written *w)
{
    return w->eh_frame + w->eh_frame_hdr + w->sframe;
}

void repair_report_written_text(FILE *out, const struct repair_written *w)
{
    fprintf(out, "%s: written: .eh_frame %" PRIu64 " bytes, .eh_frame_hdr %" PRIu64 " bytes, %zu FDEs (%zu of no "
            "code left out)", w->output, w->eh_frame, w->eh_frame_hdr, w->fdes, w->dropped);
    if (w->sframe)
        fprintf(out, ", .sframe %" PRIu64 " bytes", w->sframe);
    uint64_t tables = written_tables(w);
    if (w->sized && tables)
        fprintf(out, "; the file grew by %" PRId64 " bytes (%" PRId64 " on disk), %.2fx (%.2fx) its new tables: "
                "%" PRIu64 " of tables, %" PRIu64 " of headers, names and alignment (%zu program headers, "
                "section headers, .shstrtab), %" PRIu64 " of hole", w->grew, w->grew_on_disk,
                (double)w->grew / (double)tables, (double)w->grew_on_disk / (double)tables, tables, w->headers,
                w->phnum, w->hole);
    if (w->sized && w->hole)
        fprintf(out, " (zeros, sparse on disk: kernels before Linux 5.18 look for a program's headers at its "
                "first segment's distance from their offset, which must be past its pages, and the new tables "
                "do not fill the file up to there)");
    fputc('\n', out);
}

static void json_written(FILE *out, const struct repair_written *w)
{
    fputs(",\"written\":{\"output\":", out);
    json_string_print(out, w->output);
    fprintf(out, ",\"eh_frame\":%" PRIu64 ",\"eh_frame_hdr\":%" PRIu64 ",\"sframe\":%" PRIu64 ",\"fdes\":%zu,"
            "\"fdes_left_out\":%zu", w->eh_frame, w->eh_frame_hdr, w->sframe, w->fdes, w->dropped);
    if (w->sized)
        fprintf(out, ",\"grew\":%" PRId64 ",\"grew_on_disk\":%" PRId64 ",\"tables\":%" PRIu64 ",\"headers\":%" PRIu64
                ",\"program_headers\":%zu,\"hole\":%" PRIu64, w->grew, w->grew_on_disk, written_tables(w),
                w->headers, w->phnum, w->hole);
    fputc('}', out);
}

void repair_report_json(FILE *out, const char *path, const struct validated_table *vt, struct fde_lookup *dw,
                        const struct repair_sframe *sf, const struct repair_written *w)
{
    fputs("{\"file\":", out);
    json_string_print(out, path);
    fprintf(out, ",\"fdes_kept\":%zu,\"fdes_repaired\":%zu,\"fdes_added\":%zu,\"rows_repaired\":%zu,"
            "\"functions_not_added\":%zu,\"addresses\":{\"proved\":%zu,\"unchecked\":%zu,\"not_judged\":%zu,"
            "\"synthesised\":%zu,\"ending_stack\":%zu},\"fdes\":[",
            vt->nfdes - vt->fdes_repaired - vt->fdes_added, vt->fdes_repaired, vt->fdes_added, vt->rows_repaired,
            vt->functions_not_added, vt->addresses[PROVENANCE_PROVED], vt->addresses[PROVENANCE_UNCHECKED],
            vt->addresses_kept,
            vt->addresses[PROVENANCE_SYNTHESISED], vt->addresses_ending_stack);
    const char *sep = "";
    for (size_t k = 0; k < vt->nfdes; k++) {
        const struct validated_fde *f = &vt->fdes[k];
        if (!f->repaired)
            continue;
        fprintf(out, "%s{\"change\":\"%s\",", sep, f->fde ? "repaired" : "added");
        if (f->fde)
            fprintf(out, "\"fde_offset\":%" PRIu64 ",", f->fde->offset);
        fputs("\"function\":", out);
        json_string_print(out, f->function);
        fprintf(out, ",\"lo\":%" PRIu64 ",\"hi\":%" PRIu64 ",\"rows\":[", f->lo, f->hi);
        for (size_t i = 0; i < f->table.nrows; i++) {
            if (i)
                fputc(',', out);
            json_row(out, f, i, dw);
        }
        fputs("]}", out);
        sep = ",";
    }
    fputc(']', out);
    if (sf)
        json_sframe(out, sf);
    if (w)
        json_written(out, w);
    fputs("}\n", out);
}
