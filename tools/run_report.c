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
#include "object/output_file.h"
#include "report/json_record.h"
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
            report_json_skipped(stdout, path, reason);
        else
            report_json_error(stdout, path, reason);
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

/* R's findings the baseline neither knows nor suppresses into FRESH (a view
 * of R whose findings are allocated here), with what it says of each in
 * MARKS (arrays allocated here); recorded for --write-baseline.  0, or -1
 * out of memory. */
static int baseline_view(struct run_report *rr, const char *path, const struct check_result *r,
                         struct check_result *fresh, struct sarif_marks *marks)
{
    *fresh = *r;
    size_t n = r->nfindings ? r->nfindings : 1;
    unsigned char *known = calloc(n, 1);
    const char **suppressed = calloc(n, sizeof *suppressed);
    struct finding *kept = malloc(n * sizeof *kept);
    marks->baseline = rr->baseline != NULL;
    marks->known = known;
    marks->suppressed = suppressed;
    fresh->findings = kept;
    fresh->nfindings = 0;
    if (!known || !suppressed || !kept)
        return -1;
    struct finding_identity id;
    if (rr->baseline) {
        const char *slash = strrchr(path, '/');
        baseline_audited(rr->baseline, slash ? slash + 1 : path);
    }
    for (size_t i = 0; i < r->nfindings; i++) {
        finding_identity_of(&id, path, &r->findings[i]);
        int is_known = 0;
        if (rr->baseline)
            suppressed[i] = baseline_match(rr->baseline, &id, &is_known);
        known[i] = (unsigned char)is_known;
        if (rr->record && baseline_add(rr->record, &id) != 0)
            return -1;
        if (suppressed[i])
            rr->suppressed++;
        else if (is_known)
            rr->known++;
        else
            kept[fresh->nfindings++] = r->findings[i];
    }
    return 0;
}

int run_report_audited(struct run_report *rr, const char *path, const struct check_result *r)
{
    return run_report_audited_names(rr, &path, 1, r);
}

int run_report_audited_names(struct run_report *rr, const char *const *names, size_t nnames,
                             const struct check_result *r)
{
    const char *path = names[0];
    rr->files++;
    struct check_result fresh;
    struct sarif_marks marks = {0};
    const struct check_result *shown = r;
    int status = EXIT_CLEAN;
    if (rr->baseline || rr->record) {
        if (baseline_view(rr, path, r, &fresh, &marks) != 0) {
            cli_error(path, "out of memory for the baseline");
            status = EXIT_TROUBLE;
        } else {
            shown = &fresh;
        }
    }
    if (rr->format == RUN_FORMAT_JSON)
        report_json_file_names(stdout, names, nnames, shown);
    else if (rr->format == RUN_FORMAT_SARIF)
        sarif_file(rr->sarif, path, r, shown == r ? NULL : &marks);
    else
        report_text_file_names(stdout, names, nnames, shown);
    report_totals_add(&rr->totals, shown);
    /* HTML names the file as the text does: its other names after it. */
    if (rr->html && html_report_add(rr->html, names, nnames, shown) != 0) {
        cli_error(path, "out of memory for the HTML report");
        status = EXIT_TROUBLE;
    }
    if (rr->baseline || rr->record) {
        free((void *)marks.known);
        free((void *)marks.suppressed);
        free(fresh.findings);
    }
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
        report_text_summary(stdout, &rr->totals);
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
