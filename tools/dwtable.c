/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dwtable: print the unwind tables (H) that a binary's DWARF CFI describes.
 *
 *   dwtable [--format=readelf|json] [--address ADDR] [--sframe[=SECTION]] FILE...
 *
 * The readelf format reproduces `readelf -wF` from the first CIE/FDE line on,
 * so the two diff; JSON carries the same rows with decoded rules (one JSON
 * document per file, one per line).  With --address, only the row covering
 * ADDR is printed, under its FDE's header.
 *
 * With --sframe, the table is the .sframe section's (SFrame V1, V2, V3):
 * the readelf format is `readelf --sframe`'s (semantics/print/sframe_print), JSON
 * the rows of H each SFrame FDE gives (semantics/sframe_parse).  A section
 * that does not decode, or whose FDEs do not make a table (the checks of
 * sframe_fde_table and sframe_section_check), is reported as
 * `dwtable: FILE: .sframe at offset 0xN: reason`, exit status 2, after what
 * could be printed.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "object/elf_file.h"
#include "semantics/cfi_eval.h"
#include "semantics/cfi_reader.h"
#include "semantics/sframe_parse.h"
#include "semantics/print/sframe_print.h"
#include "report/json_string.h"
#include "report/table_json.h"
#include "semantics/print/table_print.h"

enum format { FORMAT_READELF, FORMAT_JSON };

struct options {
    enum format format;
    int have_address;
    unsigned long long address;
    const char *sframe;      /* --sframe: the section's name; NULL for DWARF */
};

/* Per-entry printing state handed to the row callback. */
struct entry_printer {
    const struct options *opt;
    FILE *out;
    struct column_set cols;
    unsigned ra_column;
    int header_done;
    int rows;                /* rows printed in this entry (JSON commas) */
    int matched;             /* --address: the row was printed */
    uint64_t end;            /* end of the FDE (for the final row's range) */
};

static void usage(FILE *out)
{
    fprintf(out,
            "Usage: dwtable [OPTION]... FILE...\n"
            "Print the unwind tables described by the DWARF call-frame information\n"
            "(.eh_frame, .debug_frame) of each ELF FILE, or its SFrame section.\n"
            "\n"
            "  --format=readelf   the layout of `readelf -wF` (default)\n"
            "  --format=json      one JSON document per file, one per line\n"
            "  --address=ADDR     print only the row that covers ADDR (hex with 0x, or decimal)\n"
            "  --sframe[=SECTION] print the SFrame table (.sframe by default: V1, V2 or V3)\n"
            "                     instead of DWARF's; the readelf format is `readelf --sframe`'s\n"
            "  -h, --help         show this help\n"
            "  -V, --version      show the version\n"
            "\n"
            "Exit status: 0 all printed, 1 --address not covered in some file,\n"
            "2 usage error or a file that cannot be read (others are still printed).\n");
}

/* --- readelf layout ------------------------------------------------------- */

static void print_row_readelf(struct entry_printer *p, const struct cfi_state *st)
{
    if (!p->header_done) {
        table_print_readelf_header(p->out, &p->cols, p->ra_column);
        p->header_done = 1;
    }
    table_print_readelf_row(p->out, st->loc, &st->cfa, st->col, UNWIND_MAX_COLUMNS, &p->cols);
}

/* --- JSON ----------------------------------------------------------------- */

static void print_row_json(struct entry_printer *p, const struct cfi_state *st, uint64_t end)
{
    FILE *out = p->out;
    if (p->rows++)
        fputc(',', out);
    fprintf(out, "{\"start\":%llu,\"end\":%llu,\"cfa\":", (unsigned long long)st->loc,
            (unsigned long long)end);
    table_json_rule(out, &st->cfa, 1);
    fputs(",\"registers\":{", out);
    int first = 1;
    for (unsigned c = 0; c < UNWIND_MAX_COLUMNS; c++) {
        if (!column_set_has(&p->cols, c))
            continue;
        char label[16];
        const char *name = c == p->ra_column ? "ra" : unwind_column_name((int)c);
        if (!name) {
            snprintf(label, sizeof label, "r%u", c);
            name = label;
        }
        fprintf(out, "%s\"%s\":", first ? "" : ",", name);
        table_json_rule(out, &st->col[c], 0);
        first = 0;
    }
    fputs("}}", out);
}

static int on_row(void *arg, const struct cfi_state *st, uint64_t new_loc)
{
    struct entry_printer *p = arg;
    if (p->opt->have_address) {
        if (p->matched || p->opt->address < st->loc || p->opt->address >= new_loc)
            return 0;
        p->matched = 1;
    }
    if (p->opt->format == FORMAT_JSON)
        print_row_json(p, st, new_loc);
    else
        print_row_readelf(p, st);
    return 0;
}

/* Columns an entry shows: those the CIE's and the FDE's instructions name. */
static int entry_columns(const struct cfi_section *s, const struct eh_frame_cie *cie,
                         const struct eh_frame_fde *fde, struct column_set *cols, struct cfa_error *err)
{
    memset(cols, 0, sizeof *cols);
    struct cfa_cie_params params = cfa_cie_params_of(cie, s->addr);
    if (cfa_program_columns(cie->insns, cie->insns_len, &params, cols->bits, err) != 0)
        return -1;
    if (fde && cfa_program_columns(fde->insns, fde->insns_len, &params, cols->bits, err) != 0)
        return -1;
    return 0;
}

static void print_entry_header(FILE *out, const struct cfi_entry *e, enum format format)
{
    if (format == FORMAT_JSON) {
        if (e->kind == CFI_ENTRY_CIE) {
            const struct eh_frame_cie *c = e->cie;
            fprintf(out, "{\"type\":\"cie\",\"offset\":%llu,\"augmentation\":",
                    (unsigned long long)e->offset);
            json_string_print(out, c->augmentation);
            fprintf(out, ",\"version\":%u,\"code_align\":%llu,\"data_align\":%lld,\"ra\":%u,"
                         "\"signal_frame\":%s,\"rows\":[",
                    c->version, (unsigned long long)c->code_align, (long long)c->data_align,
                    c->ra_column, c->signal_frame ? "true" : "false");
        } else {
            const struct eh_frame_fde *f = e->fde;
            fprintf(out, "{\"type\":\"fde\",\"offset\":%llu,\"cie\":%llu,\"pc_begin\":%llu,"
                         "\"pc_end\":%llu,\"rows\":[",
                    (unsigned long long)e->offset, (unsigned long long)f->cie->offset,
                    (unsigned long long)f->pc_begin, (unsigned long long)(f->pc_begin + f->pc_range));
        }
        return;
    }
    if (e->kind == CFI_ENTRY_CIE) {
        const struct eh_frame_cie *c = e->cie;
        fprintf(out, "\n%08llx %016llx %0*llx CIE \"%s\" cf=%d df=%d ra=%d\n",
                (unsigned long long)e->offset, (unsigned long long)c->length, c->dwarf64 ? 16 : 8,
                (unsigned long long)c->id, c->augmentation, (int)c->code_align, (int)c->data_align,
                (int)c->ra_column);
    } else {
        const struct eh_frame_fde *f = e->fde;
        fprintf(out, "\n%08llx %016llx %0*llx FDE cie=%08llx pc=%016llx..%016llx\n",
                (unsigned long long)e->offset, (unsigned long long)f->length, f->dwarf64 ? 16 : 8,
                (unsigned long long)f->cie_pointer, (unsigned long long)f->cie->offset,
                (unsigned long long)f->pc_begin, (unsigned long long)(f->pc_begin + f->pc_range));
    }
}

/* Print one CIE or FDE.  Returns 0, or -1 with a message in ERR. */
static int print_entry(struct cfi_eval *ev, const struct cfi_entry *e, const struct options *opt,
                       FILE *out, int *any_json, char *err, size_t errlen)
{
    const struct cfi_section *s = ev->section;
    const struct eh_frame_cie *cie = e->kind == CFI_ENTRY_CIE ? e->cie : e->fde->cie;
    const struct eh_frame_fde *fde = e->kind == CFI_ENTRY_FDE ? e->fde : NULL;
    struct entry_printer p = {.opt = opt, .out = out, .ra_column = cie->ra_column};
    struct cfa_error cerr = {0};
    if (entry_columns(s, cie, fde, &p.cols, &cerr) != 0)
        goto malformed;

    if (opt->have_address) {
        /* Only an FDE covering the address is shown. */
        if (!fde || opt->address < fde->pc_begin || opt->address - fde->pc_begin >= fde->pc_range)
            return 0;
    }
    if (opt->format == FORMAT_JSON && (*any_json)++)
        fputc(',', out);
    print_entry_header(out, e, opt->format);

    struct cfi_state final;
    int all_nops;
    uint64_t end = fde ? fde->pc_begin + fde->pc_range : 0;
    int rc = fde ? cfi_eval_fde(ev, fde, on_row, &p, &final, &all_nops, &cerr)
                 : cfi_eval_cie(ev, cie, on_row, &p, &final, &all_nops, &cerr);
    if (rc != 0)
        goto malformed;
    /* readelf prints the final row unless the program was only padding; H
     * (JSON, --address) always has it: the row that runs to the FDE's end. */
    if (opt->format == FORMAT_READELF && !opt->have_address) {
        if (!all_nops)
            on_row(&p, &final, end);
    } else {
        on_row(&p, &final, fde ? end : final.loc);
    }
    if (opt->format == FORMAT_JSON)
        fputs("]}", out);
    return 0;

malformed:
    if (opt->format == FORMAT_JSON)
        fputs("]}", out);
    snprintf(err, errlen, "%s at offset 0x%llx: %s (instruction byte %zu)", s->name,
             (unsigned long long)e->offset, cerr.reason ? cerr.reason : "malformed", cerr.offset);
    return -1;
}

/* Print one section.  Returns 0, or -1 with a message in ERR (output may be partial). */
static int print_section(const struct cfi_section *s, const struct options *opt, FILE *out,
                         int *printed_address, int *any_section, char *err, size_t errlen)
{
    struct cfi_eval ev;
    if (cfi_eval_init(&ev, s) != 0) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int rc = 0, any_json = 0;
    if (opt->format == FORMAT_JSON) {
        fprintf(out, "%s{\"section\":", (*any_section)++ ? "," : "");
        json_string_print(out, s->name);
        fputs(",\"entries\":[", out);
    } else if (!opt->have_address) {
        if (s->size == 0) {
            fprintf(out, "\nSection '%s' has no debugging data.\n", s->name);
            cfi_eval_release(&ev);
            return 0;
        }
        fprintf(out, "Contents of the %s section:\n\n", s->name);
    }
    for (size_t i = 0; i < s->nentries && rc == 0; i++) {
        const struct cfi_entry *e = &s->entries[i];
        if (e->kind == CFI_ENTRY_ZERO) {
            if (opt->format == FORMAT_READELF && !opt->have_address)
                fprintf(out, "\n%08llx ZERO terminator\n\n", (unsigned long long)e->offset);
            continue;
        }
        if (opt->have_address && e->kind == CFI_ENTRY_FDE && opt->address >= e->fde->pc_begin &&
            opt->address - e->fde->pc_begin < e->fde->pc_range)
            *printed_address = 1;
        rc = print_entry(&ev, e, opt, out, &any_json, err, errlen);
    }
    if (opt->format == FORMAT_JSON)
        fputs("]}", out);
    else if (!opt->have_address)
        fputc('\n', out);
    cfi_eval_release(&ev);
    return rc;
}

/* Print every unwind section of PATH.  Returns the file's exit status. */
static int print_file(const char *path, const struct options *opt, FILE *out)
{
    char err[ELF_FILE_ERRLEN + 128];
    struct elf_file ef;
    if (elf_file_open(&ef, path, err, sizeof err) != 0) {
        cli_error(path, "%s", err);
        return EXIT_TROUBLE;
    }
    int status = EXIT_CLEAN, found = 0, printed_address = 0, any_section = 0;
    if (opt->format == FORMAT_JSON) {
        fputs("{\"file\":", out);
        json_string_print(out, path);
        fputs(",\"sections\":[", out);
    }
    for (size_t i = 0; i < ef.nsections && status == EXIT_CLEAN; i++) {
        const char *name = ef.sections[i].name;
        if (strcmp(name, ".eh_frame") != 0 && strcmp(name, ".debug_frame") != 0)
            continue;
        struct cfi_section s;
        int rc = cfi_section_read(&ef, name, &s, err, sizeof err);
        if (rc < 0) {
            cli_error(path, "%s", err);
            status = EXIT_TROUBLE;
            break;
        }
        if (rc == 0)
            continue;
        found = 1;
        if (print_section(&s, opt, out, &printed_address, &any_section, err, sizeof err) != 0) {
            cli_error(path, "%s", err);
            status = EXIT_TROUBLE;
        }
        cfi_section_release(&s);
    }
    if (opt->format == FORMAT_JSON)
        fputs("]}\n", out);
    if (status == EXIT_CLEAN && !found) {
        cli_error(path, "no unwind information (no .eh_frame or .debug_frame section)");
        status = EXIT_TROUBLE;
    } else if (status == EXIT_CLEAN && opt->have_address && !printed_address) {
        cli_error(path, "no FDE covers address 0x%llx", opt->address);
        status = EXIT_FINDINGS;
    }
    elf_file_close(&ef);
    return status;
}

/* --- SFrame ---------------------------------------------------------------- */

static const char *const sframe_flag_names[] = {"SFRAME_F_FDE_SORTED", "SFRAME_F_FRAME_POINTER",
                                                "SFRAME_F_FDE_FUNC_START_PCREL"};

/* Every FDE's table built and dropped, and the checks across FDEs: what
 * makes a section that printed malformed all the same. */
static int sframe_validate(const struct sframe_view *v, struct sframe_error *err)
{
    struct sframe_header h;
    if (sframe_header_read(v, &h, err) != 0 || sframe_section_check(v, &h, err) != 0)
        return -1;
    for (uint32_t i = 0; i < h.num_fdes; i++) {
        struct sframe_fde fde;
        struct unwind_table t;
        if (sframe_fde_read(v, &h, i, &fde, err) != 0)
            return -1;
        int rc = sframe_fde_table(v, &h, &fde, &t, err);
        unwind_table_release(&t);
        if (rc != 0)
            return -1;
    }
    return 0;
}

/* The readelf layout of the FDE and FRE covering the address; *COVERED set. */
static int sframe_text_address(const struct sframe_view *v, const struct options *opt, FILE *out, int *covered,
                               struct sframe_error *err)
{
    struct sframe_header h;
    if (sframe_header_read(v, &h, err) != 0)
        return -1;
    for (uint32_t i = 0; i < h.num_fdes && !*covered; i++) {
        struct sframe_fde fde;
        struct sframe_fre fre;
        if (sframe_fde_read(v, &h, i, &fde, err) != 0)
            return -1;
        int rc = sframe_fde_fre_at(v, &h, &fde, opt->address, &fre, err);
        if (rc < 0)
            return -1;
        if (rc == 0)
            continue;
        sframe_print_fde_heading(out, &h, &fde);
        sframe_print_fre(out, &h, &fde, &fre);
        fputc('\n', out);
        *covered = 1;
    }
    return 0;
}

static void sframe_json_row(FILE *out, const struct unwind_row *r, int first)
{
    fprintf(out, "%s{\"start\":%llu,\"end\":%llu,\"cfa\":", first ? "" : ",", (unsigned long long)r->start,
            (unsigned long long)r->end);
    table_json_rule(out, &r->cfa, 1);
    fputs(",\"registers\":{\"rbp\":", out);
    table_json_rule(out, &r->reg[6], 0);
    fputs(",\"ra\":", out);
    table_json_rule(out, &r->reg[16], 0);
    fputs("}}", out);
}

/* One FDE and the rows of its table (only the one covering --address). */
static int sframe_json_fde(FILE *out, const struct sframe_view *v, const struct sframe_header *h,
                           const struct sframe_fde *fde, const struct options *opt, int *nentries,
                           int *covered, struct sframe_error *err)
{
    struct unwind_table t;
    if (sframe_fde_table(v, h, fde, &t, err) != 0) {
        unwind_table_release(&t);
        return -1;
    }
    const struct unwind_row *only = opt->have_address ? unwind_table_row_at(&t, opt->address) : NULL;
    if (!opt->have_address || only) {
        fprintf(out, "%s{\"type\":\"sframe_fde\",\"index\":%u,\"offset\":%llu,\"pc_begin\":%llu,"
                     "\"pc_end\":%llu,\"pc_type\":\"%s\",\"rep_size\":%u,\"fde_type\":\"%s\","
                     "\"signal_frame\":%s,\"rows\":[",
                (*nentries)++ ? "," : "", fde->index, (unsigned long long)fde->offset,
                (unsigned long long)t.start, (unsigned long long)t.end,
                fde->pc_type == SFRAME_PC_MASK ? "mask" : "inc", fde->rep_size,
                fde->fde_type == SFRAME_FDE_TYPE_FLEX ? "flex" : "default", fde->signal_frame ? "true" : "false");
        for (size_t r = 0; r < t.nrows; r++)
            if (!only || &t.rows[r] == only)
                sframe_json_row(out, &t.rows[r], !only ? r == 0 : 1);
        fputs("]}", out);
        *covered |= only != NULL;
    }
    unwind_table_release(&t);
    return 0;
}

static void sframe_json_header(FILE *out, const struct sframe_view *v, const struct sframe_header *h)
{
    fprintf(out, ",\"address\":%llu,\"version\":%u,\"flags\":[", (unsigned long long)v->addr, h->version);
    for (unsigned b = 0, n = 0; b < 3; b++)
        if (h->flags & (1u << b))
            fprintf(out, "%s\"%s\"", n++ ? "," : "", sframe_flag_names[b]);
    fprintf(out, "],\"abi_arch\":%u,\"fixed_fp_offset\":%d,\"fixed_ra_offset\":%d,\"num_fdes\":%u,"
                 "\"num_fres\":%u,\"entries\":[",
            h->abi_arch, h->fixed_fp_offset, h->fixed_ra_offset, h->num_fdes, h->num_fres);
}

/* The section as JSON: its header, then each FDE with its rows of H. */
static int sframe_json(FILE *out, const struct sframe_view *v, const char *name, const struct options *opt,
                       int *covered, struct sframe_error *err)
{
    struct sframe_header h;
    int rc = 0, nentries = 0;
    fputs("{\"section\":", out);
    json_string_print(out, name);
    if (sframe_header_read(v, &h, err) != 0) {
        fputs("}", out);
        return -1;
    }
    sframe_json_header(out, v, &h);
    rc = sframe_section_check(v, &h, err);
    for (uint32_t i = 0; i < h.num_fdes && rc == 0; i++) {
        struct sframe_fde fde;
        rc = sframe_fde_read(v, &h, i, &fde, err);
        if (rc == 0)
            rc = sframe_json_fde(out, v, &h, &fde, opt, &nentries, covered, err);
    }
    fputs("]}", out);
    return rc;
}

/* Print PATH's SFrame section.  Returns the file's exit status. */
static int print_sframe_file(const char *path, const struct options *opt, FILE *out)
{
    char err[ELF_FILE_ERRLEN + 128];
    struct elf_file ef;
    if (elf_file_open_object(&ef, path, err, sizeof err) != 0) {
        cli_error(path, "%s", err);
        return EXIT_TROUBLE;
    }
    struct elf_section *sec = elf_file_section(&ef, opt->sframe);
    uint64_t n = 0;
    const uint8_t *bytes = sec ? elf_file_section_bytes(&ef, sec, &n, err, sizeof err) : NULL;
    if (!bytes) {
        if (sec)
            cli_error(path, "%s: %s", opt->sframe, err);
        else
            cli_error(path, "no SFrame information (no %s section)", opt->sframe);
        elf_file_close(&ef);
        return EXIT_TROUBLE;
    }
    struct sframe_view v = {bytes, n, sec->addr};
    struct sframe_error e = {0};
    int rc, covered = 0, status = EXIT_CLEAN;
    if (opt->format == FORMAT_JSON) {
        fputs("{\"file\":", out);
        json_string_print(out, path);
        fputs(",\"sections\":[", out);
        rc = sframe_json(out, &v, opt->sframe, opt, &covered, &e);
        fputs("]}\n", out);
    } else if (opt->have_address) {
        rc = sframe_text_address(&v, opt, out, &covered, &e);
    } else {
        rc = sframe_print_section(out, &v, opt->sframe, &e);
        if (rc == 0)
            rc = sframe_validate(&v, &e);
    }
    if (rc != 0) {
        cli_error(path, "%s at offset 0x%llx: %s", opt->sframe, (unsigned long long)e.offset, e.reason);
        status = EXIT_TROUBLE;
    } else if (opt->have_address && !covered) {
        cli_error(path, "no SFrame FDE covers address 0x%llx", opt->address);
        status = EXIT_FINDINGS;
    }
    elf_file_close(&ef);
    return status;
}

int main(int argc, char **argv)
{
    cli_tool_name = "dwtable";
    struct options opt = {.format = FORMAT_READELF};
    static const struct option longopts[] = {
        {"format", required_argument, NULL, 'f'},
        {"address", required_argument, NULL, 'a'},
        {"sframe", optional_argument, NULL, 's'},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0},
    };
    int c;
    while ((c = getopt_long(argc, argv, "f:a:hV", longopts, NULL)) != -1) {
        switch (c) {
        case 'f': {
            static const char *const formats[] = {"readelf", "json", NULL};
            int f = cli_pick("format", optarg, formats);
            if (f < 0)
                return EXIT_TROUBLE;
            opt.format = (enum format)f;   /* FORMAT_READELF, FORMAT_JSON */
            break;
        }
        case 'a':
            if (cli_parse_address(optarg, &opt.address) != 0) {
                cli_error(NULL, "bad address '%s'", optarg);
                return EXIT_TROUBLE;
            }
            opt.have_address = 1;
            break;
        case 's':
            opt.sframe = optarg ? optarg : ".sframe";
            break;
        default:   /* --help, --version, or a mistake */
            return cli_end_of_options(c, usage);
        }
    }
    if (optind == argc) {
        cli_error(NULL, "no input files (try --help)");
        return EXIT_TROUBLE;
    }
    cli_buffer_stdout();
    int status = EXIT_CLEAN;
    int many = argc - optind > 1;
    for (int i = optind; i < argc; i++) {
        if (many && opt.format == FORMAT_READELF)
            printf("\nFile: %s\n", argv[i]);
        int rc = opt.sframe ? print_sframe_file(argv[i], &opt, stdout) : print_file(argv[i], &opt, stdout);
        if (rc > status)
            status = rc;
    }
    return cli_finish_stdout(status);
}
