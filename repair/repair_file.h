/* SPDX-License-Identifier: Apache-2.0 */
/*
 * repair_file: `dwsynth repair`'s work — a copy of a binary whose unwind
 * tables are its validated table.
 *
 * The file is audited (verify/audit/check) and its validated table built
 * (verify/validated_table); the table becomes a new .eh_frame and
 * .eh_frame_hdr (repair/eh_frame_build), which object/elf_rewrite places in
 * a new read-only loadable segment of a copy of the file, PT_GNU_EH_FRAME
 * pointing at the new header and the old sections renamed NAME.orig.  So
 * libgcc, libunwind, gdb and perf read the repaired table, and every other
 * byte of the file is as it was.  A file without .eh_frame
 * (-fno-asynchronous-unwind-tables) gets one for the functions synthesis
 * reaches.  The input is never written; the output is replaced only when
 * complete (sys/output_file).
 *
 * With DRY_RUN nothing is written: the report lists every repaired and
 * added FDE with each row's provenance (repair/repair_report).  With
 * DEBUG_FRAME_ONLY the file is left alone too: the table goes, as
 * .debug_frame, into a separate debug file OUTPUT/.build-id/NN/REST.debug
 * (object/debug_file), which gdb prefers to the object's own .eh_frame once
 * told `set debug-file-directory OUTPUT`.
 *
 * With SFRAME (1, 2 or 3) the copy also gets the table as a new .sframe of
 * that SFrame version (repair/sframe_build), in the same segment, located by
 * PT_GNU_SFRAME (an old .sframe is renamed .sframe.orig and its header
 * re-pointed); the functions SFrame cannot express are left to .eh_frame
 * and listed in the report with the reason.
 */
#ifndef DWCHECK_REPAIR_FILE_H
#define DWCHECK_REPAIR_FILE_H

#include <stddef.h>
#include <stdio.h>

#include "verify/audit/check.h"

struct repair_options {
    const char *input;
    const char *output;           /* NULL with DRY_RUN; a directory with DEBUG_FRAME_ONLY */
    int dry_run;
    int debug_frame_only;
    unsigned sframe;              /* 0, or the SFrame version of a new .sframe (not with DEBUG_FRAME_ONLY) */
    int json;                     /* the report as JSON */
    int rows;                     /* the report lists every repaired row (always with DRY_RUN) */
    struct check_options check;   /* the audit's prover settings */
};

/*
 * Repair OPT->input into OPT->output, reporting on OUT.  Returns 0 when
 * everything the validated table repairs was written, 1 when some repaired
 * FDE had to be written as it was (listed in the report, with the reason),
 * or -1 with a reason in ERR and nothing written (an unreadable or
 * unsupported file, an output that cannot be written).
 */
int repair_file(const struct repair_options *opt, FILE *out, char *err, size_t errlen);

#endif
