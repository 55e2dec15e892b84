/* SPDX-License-Identifier: Apache-2.0 */
/*
 * run_report: a run's outputs, file by file (run_report.h).
 */
#include "run_report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "baseline.h"
#include "cli.h"
#include "object/elf_file.h"
#include "sys/output_file.h"
#include "report/json_record.h"
#include "report/json_report.h"
#include "report/text_report.h"

int run_report_begin(struct run_report *rr, enum run_format format, int fail_on, const char *html_dir,
                     const struct run_baseline *rb)
{
    memset(rr, 0, sizeof *rr);
    if (rb) {
        rr->baseline = rb->baseline;
        rr->record = rb->record;
        rr->record_path = rb->record_path;
    }
    if (rr->baseline && rr->record)
        for (size_t i = 0; i < rr->baseline->nsuppress; i++)
            if (baseline_add_suppression(rr->record, &rr->baseline->suppress[i]) != 0) {
                cli_error(NULL, "out of memory");
                return -1;
            }
    rr->format = format;
    rr->fail_on = fail_on;
    rr->html_dir = html_dir;
    char err[4200];
    if (html_dir && output_dir_check(html_dir, "index.html", err, sizeof err) != 0) {
        cli_error(NULL, "%s", err);   /* a device, a FIFO...: refused before any work */
        return -1;
    }
    if ((html_dir && !(rr->html = html_report_new())) ||
        (format == RUN_FORMAT_SARIF && !(rr->sarif = sarif_begin(stdout, DWCHECK_VERSION)))) {
        cli_error(NULL, "out of memory");
        html_report_free(rr->html);
        return -1;
    }
    return 0;
}

int run_report_not_audited(struct run_report *rr, const char *path, int skipped, const char *reason)
{
    int oom = 0;
    rr->files++;
    if (skipped) {
        fprintf(stderr, "%s: %s: skipped: %s\n", cli_tool_name, path, reason);
        rr->totals.files_skipped++;
    } else {
        cli_error(path, "%s", reason);
        rr->totals.files_failed++;
    }
    if (rr->format == RUN_FORMAT_JSON) {
        if (skipped)
            json_report_skipped(stdout, path, reason);
        else
            json_report_error(stdout, path, reason);
    } else if (rr->format == RUN_FORMAT_SARIF) {
        char note[ELF_FILE_ERRLEN + 128];
        snprintf(note, sizeof note, "skipped: %s", reason);
        oom |= sarif_notify(rr->sarif, skipped ? SARIF_NOTE : SARIF_ERROR, path, skipped ? note : reason);
    }
    if (rr->html)
        oom |= skipped ? html_report_add_skipped(rr->html, path, reason)
                       : html_report_add_error(rr->html, path, reason);
    if (oom) {
        cli_error(path, "out of memory for the report");
        return EXIT_TROUBLE;
    }
    return skipped ? EXIT_CLEAN : EXIT_TROUBLE;
}

int run_report_audited(struct run_report *rr, const char *path, const struct check_result *r)
{
    return run_report_audited_names(rr, &path, 1, r);
}

int run_report_audited_names(struct run_report *rr, const char *const *names, size_t nnames,
                             const struct check_result *r)
{
    run_report_file_begin(rr, names, nnames, r);
    for (size_t i = 0; i < r->nfindings; i++)
        run_report_finding(rr, &r->findings[i]);
    return run_report_file_end(rr);
}

/* FILE's HTML report is lost (out of memory): said once, its status 2. */
static void html_lost(struct run_report_file *file)
{
    cli_error(file->names[0], "out of memory for the HTML report");
    file->html_lost = 1;
    file->status = EXIT_TROUBLE;
}

void run_report_file_begin(struct run_report *rr, const char *const *names, size_t nnames,
                           const struct check_result *r)
{
    struct run_report_file *file = &rr->file;
    memset(file, 0, sizeof *file);
    file->names = names;
    file->nnames = nnames;
    file->counts = r;
    rr->files++;
    if (rr->baseline) {
        const char *slash = strrchr(names[0], '/');
        baseline_audited(rr->baseline, slash ? slash + 1 : names[0]);
    }
    if (rr->format == RUN_FORMAT_JSON)
        json_report_file_begin(stdout, names[0], r);
    text_report_totals_add_file(&rr->totals, r);
    /* HTML names the file as the text does: its other names after it. */
    if (rr->html && html_report_file_begin(rr->html, names, nnames, r) != 0)
        html_lost(file);
}

void run_report_finding(struct run_report *rr, const struct finding *f)
{
    struct run_report_file *file = &rr->file;
    const char *path = file->names[0];
    /* What the baseline says of F: left out of all but SARIF when it
     * knows or suppresses it; recorded for --write-baseline. */
    struct sarif_mark mark = {rr->baseline != NULL, 0, NULL};
    if (rr->baseline || rr->record) {
        struct finding_identity id;
        finding_identity_of(&id, path, f);
        if (rr->baseline)
            mark.suppressed = baseline_match(rr->baseline, &id, &mark.known);
        if (rr->record && baseline_add(rr->record, &id) != 0 && !file->baseline_lost++) {
            cli_error(path, "out of memory for the baseline");
            file->status = EXIT_TROUBLE;
        }
        rr->suppressed += mark.suppressed != NULL;
        rr->known += !mark.suppressed && mark.known;
    }
    if (rr->format == RUN_FORMAT_SARIF)
        sarif_finding(rr->sarif, path, f, rr->baseline || rr->record ? &mark : NULL);
    if (mark.suppressed || mark.known)
        return;
    if (rr->format == RUN_FORMAT_JSON)
        json_report_finding(stdout, f, file->shown == 0);
    else if (rr->format == RUN_FORMAT_TEXT)
        text_report_finding(stdout, path, f);
    file->shown++;
    file->by_severity[f->severity]++;
    text_report_totals_add_finding(&rr->totals, f);
    if (rr->html && !file->html_lost && html_report_finding(rr->html, f) != 0)
        html_lost(file);
}

int run_report_file_end(struct run_report *rr)
{
    struct run_report_file *file = &rr->file;
    if (rr->format == RUN_FORMAT_JSON)
        json_report_file_end(stdout, file->names, file->nnames);
    else if (rr->format == RUN_FORMAT_TEXT)
        text_report_file_end(stdout, file->names, file->nnames, file->counts, file->by_severity);
    if (rr->html)
        html_report_file_end(rr->html);
    int status = file->status;
    memset(file, 0, sizeof *file);
    return status;
}

/* The baseline's entries no finding matched, and the counts; then the
 * baseline written, if asked.  Returns STATUS, or 2 when writing failed. */
static int baseline_end(struct run_report *rr, int status)
{
    FILE *out = rr->format == RUN_FORMAT_TEXT ? stdout : stderr;
    const char *lead = rr->format == RUN_FORMAT_TEXT ? "" : "dwcheck: ";
    if (rr->baseline) {
        size_t absent = 0;
        for (size_t i = 0; i < rr->baseline->n; i++) {
            const struct baseline_entry *e = &rr->baseline->entries[i];
            if (!e->audited || e->matched)
                continue;
            absent++;
            if (rr->sarif)
                sarif_absent(rr->sarif, &e->id);
            fprintf(out, "%sbaseline: absent: %s: %s", lead, e->id.object, e->id.function);
            if (e->id.insn >= 0)
                fprintf(out, ", instruction %ld", e->id.insn);
            fprintf(out, ": %s (rule %s, synthesis %s)\n", e->id.kind, e->id.rule[0] ? e->id.rule : "-",
                    e->id.synth[0] ? e->id.synth : "-");
        }
        fprintf(out, "%sbaseline: %zu new, %zu known, %zu suppressed, %zu absent\n", lead,
                rr->totals.by_severity[SEVERITY_INFO] + rr->totals.by_severity[SEVERITY_WARNING] +
                    rr->totals.by_severity[SEVERITY_ERROR], rr->known, rr->suppressed, absent);
    }
    if (rr->record) {
        char err[4200];
        if (status == EXIT_TROUBLE) {
            cli_error(rr->record_path, "baseline not written: a file could not be audited");
        } else if (baseline_write(rr->record, rr->record_path, err, sizeof err) != 0) {
            cli_error(rr->record_path, "%s", err);
            status = EXIT_TROUBLE;
        }
    }
    return status;
}

int run_report_end(struct run_report *rr, int status, const char *note)
{
    if (rr->html) {
        char err[4200];
        if (html_report_write(rr->html, rr->html_dir, err, sizeof err) != 0) {
            cli_error(NULL, "%s", err);
            if (rr->sarif)
                sarif_notify(rr->sarif, SARIF_ERROR, NULL, err);
            status = EXIT_TROUBLE;
        } else if (isatty(STDERR_FILENO)) {
            fprintf(stderr, "%s: report written to %s/index.html\n", cli_tool_name, rr->html_dir);
        }
        html_report_free(rr->html);
        rr->html = NULL;
    }
    if (rr->baseline || rr->record)
        status = baseline_end(rr, status);
    if (rr->sarif)
        sarif_end(rr->sarif, status == EXIT_TROUBLE);
    rr->sarif = NULL;
    if (rr->format == RUN_FORMAT_TEXT && rr->files > 1)
        text_report_summary(stdout, &rr->totals);
    if (note && rr->format == RUN_FORMAT_TEXT)
        printf("%s\n", note);
    else if (note)
        fprintf(stderr, "%s: %s\n", cli_tool_name, note);
    status = cli_finish_stdout(status);
    if (status == EXIT_CLEAN && rr->fail_on >= 0) {
        size_t over = 0;
        for (int s = rr->fail_on; s <= SEVERITY_ERROR; s++)
            over += rr->totals.by_severity[s];
        if (over)
            status = EXIT_FINDINGS;
    }
    return status;
}
