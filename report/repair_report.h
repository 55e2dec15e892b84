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
 */
#ifndef DWCHECK_REPAIR_REPORT_H
#define DWCHECK_REPAIR_REPORT_H

#include <stdio.h>

#include "semantics/fde_lookup.h"
#include "verify/validated_table.h"

/* VT of PATH on OUT; DW gives DWARF's rows (what a repaired row replaces).
 * The text lists the repaired and added FDEs' rows when ROWS. */
void repair_report_text(FILE *out, const char *path, const struct validated_table *vt, struct fde_lookup *dw,
                        int rows);
void repair_report_json(FILE *out, const char *path, const struct validated_table *vt, struct fde_lookup *dw);

#endif
