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
 * With --sframe, what the new .sframe holds (struct repair_sframe), and
 * once the copy is written, what it holds (struct repair_written) and the
 * ratio of the file's growth to its new tables (repair/repair_result.h).
 */
#ifndef DWCHECK_REPAIR_REPORT_H
#define DWCHECK_REPAIR_REPORT_H

#include <stdio.h>

#include "repair/repair_result.h"
#include "semantics/fde_lookup.h"
#include "verify/validated_table.h"

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
