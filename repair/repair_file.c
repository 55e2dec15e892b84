/* SPDX-License-Identifier: Apache-2.0 */
/*
 * repair_file: audit, validated table, sections, a copy of the file.
 */
#include "repair_file.h"

#include <inttypes.h>
#include <string.h>
#include <sys/stat.h>

#include "object/debug_file.h"
#include "object/elf_rewrite.h"
#include "semantics/write/debug_frame_write.h"
#include "sys/error.h"
#include "repair/eh_frame_build.h"
#include "repair/sframe_build.h"
#include "repair/repair_report.h"
#include "verify/audit/audit_input.h"
#include "verify/validated_table.h"

/* The repaired FDEs written as they were, one line each. */
static void report_unrepaired(FILE *out, const char *path, const struct eh_frame_build *b)
{
    for (size_t i = 0; i < b->nunrepaired; i++) {
        const struct validated_fde *f = b->unrepaired[i].fde;
        fprintf(out, "%s: %s FDE [0x%" PRIx64 ", 0x%" PRIx64 ") %s: %s: %s\n", path, f->fde ? "repaired" : "added",
                f->lo, f->hi, f->function[0] ? f->function : "(no name)",
                f->fde ? "written as it was" : "left out", b->unrepaired[i].why);
    }
}

/* What was written to OPT->output (SF: NULL without --sframe, SEG: as
 * placed), and how much the file grew. */
static struct repair_written written(const struct repair_options *opt, const struct eh_frame_build *b,
                                     const struct sframe_build *sf, const struct elf_rewrite_segment *seg)
{
    struct repair_written w = {.output = opt->output, .eh_frame = b->eh_frame_size,
                               .eh_frame_hdr = b->eh_frame_hdr_size, .sframe = sf ? sf->summary.size : 0,
                               .fdes = b->nfdes, .dropped = b->dropped, .hole = seg->hole, .phnum = seg->phnum};
    struct stat in, copy;
    uint64_t tables = w.eh_frame + w.eh_frame_hdr + w.sframe;
    if (stat(opt->input, &in) == 0 && stat(opt->output, &copy) == 0 &&
        (uint64_t)copy.st_size >= (uint64_t)in.st_size + tables + seg->hole) {
        w.sized = 1;
        w.grew = (int64_t)(copy.st_size - in.st_size);
        w.grew_on_disk = ((int64_t)copy.st_blocks - (int64_t)in.st_blocks) * 512;
        w.headers = (uint64_t)w.grew - tables - seg->hole;
    }
    return w;
}

/* The table as .debug_frame in a separate debug file under OPT->output,
 * named for gdb's build-id lookup: its path in PATH, its size in *SIZE. */
static int write_debug_file(const struct repair_options *opt, struct audit_input *af, const struct eh_frame_build *b,
                            char *path, size_t path_size, size_t *size, char *err, size_t errlen)
{
    if (debug_file_build_id_path(&af->ef, opt->output, path, path_size, err, errlen) != 0)
        return -1;
    struct cfi_bytes frames = {0};
    const char *why = NULL;
    int rc = debug_frame_write(b->cies, b->ncies, b->fdes, b->nfdes, &frames, &why);
    if (rc != 0) {
        cfi_bytes_release(&frames);
        return rc == -2 ? error_set(err, errlen, "out of memory")
                        : error_set(err, errlen, "cannot write its unwind table as .debug_frame: %s", why);
    }
    struct debug_section sec = {".debug_frame", frames.b, frames.n, 8};
    rc = debug_file_write(&af->ef, &sec, 1, path, err, errlen);
    *size = frames.n;
    cfi_bytes_release(&frames);
    return rc;
}

/* Place, write and copy: the new sections at the addresses the plan gives
 * (.sframe last, when SF is not NULL). */
static int write_copy(const struct repair_options *opt, struct audit_input *af, struct eh_frame_build *b,
                      struct sframe_build *sf, struct elf_rewrite_segment *seg, char *err, size_t errlen)
{
    struct elf_new_section secs[3] = {
        {.name = ".eh_frame_hdr", .size = b->eh_frame_hdr_size, .align = 4},
        {.name = ".eh_frame", .size = b->eh_frame_size, .align = 8},
        {.name = ".sframe", .size = sf ? sf->summary.size : 0, .align = 8},
    };
    size_t n = sf ? 3 : 2;
    if (elf_rewrite_plan(&af->ef, secs, n, seg, err, errlen) != 0 ||
        eh_frame_build_write(b, secs[1].addr, secs[0].addr, err, errlen) != 0 ||
        (sf && sframe_build_write(sf, secs[2].addr, err, errlen) != 0))
        return -1;
    if (b->eh_frame_hdr.n != secs[0].size || b->eh_frame.n != secs[1].size || (sf && sf->sframe.n != secs[2].size))
        return error_set(err, errlen, "the unwind table's size changed with its address");
    secs[0].bytes = b->eh_frame_hdr.b;
    secs[1].bytes = b->eh_frame.b;
    secs[2].bytes = sf ? sf->sframe.b : NULL;
    return elf_rewrite_write(&af->ef, secs, n, opt->output, err, errlen);
}

int repair_file(const struct repair_options *opt, FILE *out, char *err, size_t errlen)
{
    struct audit_input af;
    if (audit_input_open(&af, opt->input, NULL, NULL, err, errlen) != 0)
        return -1;
    struct validated_table vt;
    struct check_result r;
    /* SFrame is written for every function: every FDE's rows, kept ones too. */
    if (validated_table_build(&af, &opt->check, opt->sframe != 0, &vt, &r, err, errlen) != 0) {
        audit_input_close(&af);
        return -1;
    }
    struct eh_frame_build b;
    struct sframe_build sfb, *sf = NULL;
    char debug_path[4096] = "";
    struct elf_rewrite_segment seg = {0};
    size_t debug_size = 0;
    int rc = eh_frame_build_prepare(&b, &vt, &af.prog.eh, err, errlen);
    if (rc == 0 && opt->sframe && !opt->debug_frame_only &&
        (rc = sframe_build_prepare(&sfb, opt->sframe, &vt, &b, &af, err, errlen)) == 0)
        sf = &sfb;
    if (rc == 0 && !opt->dry_run)
        rc = opt->debug_frame_only
                 ? write_debug_file(opt, &af, &b, debug_path, sizeof debug_path, &debug_size, err, errlen)
                 : write_copy(opt, &af, &b, sf, &seg, err, errlen);
    if (rc == 0) {
        int wrote = !opt->dry_run && !opt->debug_frame_only;
        struct repair_written w = wrote ? written(opt, &b, sf, &seg) : (struct repair_written){0};
        if (opt->json) {
            repair_report_json(out, opt->input, &vt, &af.dw, sf ? &sf->summary : NULL, wrote ? &w : NULL);
        } else {
            repair_report_text(out, opt->input, &vt, &af.dw, opt->dry_run || opt->rows);
            report_unrepaired(out, opt->input, &b);
            if (sf)
                repair_report_sframe_text(out, opt->input, &sf->summary);
            if (debug_path[0])
                fprintf(out, "%s: written: .debug_frame %zu bytes, %zu FDEs; gdb reads it after "
                        "`set debug-file-directory %s`\n", debug_path, debug_size, b.nfdes, opt->output);
            if (debug_path[0] && elf_file_section(&af.ef, ".debug_info"))
                fprintf(out, "%s: note: it has its own .debug_info, and gdb reads no separate debug file "
                        "for such a file: strip it with `strip --strip-debug` first\n", opt->input);
            else if (wrote)
                repair_report_written_text(out, &w);
            if (!sf && !opt->debug_frame_only && elf_file_section(&af.ef, ".sframe"))
                fprintf(out, "%s: note: it has an .sframe of its own, kept as it was (PT_GNU_SFRAME still locates "
                        "it): --sframe writes one from the validated table\n", opt->input);
        }
        rc = b.nunrepaired ? 1 : 0;
    }
    if (sf)
        sframe_build_release(sf);
    if (b.cies)
        eh_frame_build_release(&b);
    validated_table_release(&vt);
    check_result_release(&r);
    audit_input_close(&af);
    return rc;
}
