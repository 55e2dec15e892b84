/* SPDX-License-Identifier: Apache-2.0 */
/*
 * repair_report: what the validated table changes in a file, for
 * `dwsynth repair` (with --dry-run it is the whole output; without, the
 * summary of what was written).
 *
 * Text: one summary line — FDEs kept, repaired, added; rows repaired; the
 * instruction addresses by provenance (proved DWARF, unchecked DWARF,
 * synthesised) — then each repaired or added FDE with every row and its
 * provenance, and for a repaired row the columns it changes, DWARF's rule
 * first ("CFA rsp+16 -> rsp+24").  JSON: one object with the same content
 * (rules as report/table_json writes them).
 *
 * With --sframe, what the new .sframe holds (struct repair_sframe, which
 * repair/ fills): the functions, FDEs and FREs written, and every function
 * left to .eh_frame with the reason SFrame cannot say its rows.
 *
 * Once the copy is written, what it holds (struct repair_written): its new
 * tables' sizes, and how much the file grew: the tables, the headers that
 * locate and name them, and any hole (object/elf_rewrite.h), in bytes and
 * on disk, and the ratio of the growth to the tables.
 */
#ifndef DWCHECK_REPAIR_REPORT_H
#define DWCHECK_REPAIR_REPORT_H

#include <stdio.h>

#include "semantics/fde_lookup.h"
#include "verify/validated_table.h"

/* A function of the validated table that SFrame cannot express. */
struct repair_sframe_left {
    char function[128];           /* its name (as the repaired FDEs are named) */
    uint64_t lo, hi;              /* its range */
    uint64_t at;                  /* the row the reason is about (else lo) */
    const char *why;              /* static */
};

/* The .sframe written (or, with --dry-run, that would be). */
struct repair_sframe {
    unsigned version;             /* 1, 2 or 3 */
    uint64_t size;                /* bytes */
    size_t functions;             /* functions written */
    size_t fdes, pcmask_fdes, flex_fdes, fres;
    const struct repair_sframe_left *left;   /* functions left to .eh_frame, by address */
    size_t nleft;
};

/* The copy dwsynth repair wrote. */
struct repair_written {
    const char *output;
    uint64_t eh_frame, eh_frame_hdr, sframe;   /* the new tables' bytes (.sframe: 0 when none) */
    size_t fdes, dropped;         /* FDEs written; of no code, left out */
    int sized;                    /* the sizes below are known (both files' stat) */
    int64_t grew, grew_on_disk;   /* the copy's size less the input's; its blocks' */
    uint64_t headers;             /* of the growth, program and section headers, names, alignment */
    uint64_t hole;                /* of the growth, zeros sparse on disk */
    size_t phnum;                 /* program headers */
};

/* W as one line: "OUT: written: .eh_frame N bytes, ...; the file grew by ...". */
void repair_report_written_text(FILE *out, const struct repair_written *w);

/* VT of PATH on OUT; DW gives DWARF's rows (what a repaired row replaces).
 * The text lists the repaired and added FDEs' rows when ROWS. */
void repair_report_text(FILE *out, const char *path, const struct validated_table *vt, struct fde_lookup *dw,
                        int rows);
/* The JSON object; with SF (may be NULL) its "sframe" member, with W (NULL
 * when nothing was written) its "written" member. */
void repair_report_json(FILE *out, const char *path, const struct validated_table *vt, struct fde_lookup *dw,
                        const struct repair_sframe *sf, const struct repair_written *w);

/* What SF says, as text: one summary line, then a line per function left
 * to .eh_frame ("PATH: .sframe: left to .eh_frame: FUNC [LO, HI): reason"). */
void repair_report_sframe_text(FILE *out, const char *path, const struct repair_sframe *sf);

#endif
