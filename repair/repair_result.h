/* SPDX-License-Identifier: Apache-2.0 */
/*
 * repair_result: what dwsynth repair made, as values (types only).
 *
 * repair/sframe_build and repair/repair_file fill them; repair/repair_report
 * prints them.  A header of types only, so that the builders need not read
 * the renderer.
 *
 * With --sframe, what the new .sframe holds (struct repair_sframe): the
 * functions, FDEs and FREs written, and every function left to .eh_frame
 * with the reason SFrame cannot say its rows.  Once the copy is written,
 * what it holds (struct repair_written): its new tables' sizes, and how
 * much the file grew: the tables, the headers that locate and name them,
 * and any hole (object/elf_rewrite.h), in bytes and on disk.
 *
 * Ownership: nothing here owns memory; the strings and arrays are
 * borrowed from whoever fills the struct (sframe_build's LEFT, the
 * options' output path) and live as long as it.
 */
#ifndef DWCHECK_REPAIR_RESULT_H
#define DWCHECK_REPAIR_RESULT_H

#include <stddef.h>
#include <stdint.h>

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

#endif
