/*
 * run_report: a run's outputs, file by file (run_report.h).
 */
#include "run_report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "object/elf_file.h"
#include "object/output_file.h"
#include "report/json_record.h"
#include "report/text_report.h"

int run_report_begin(struct run_report *rr, enum run_format format, int fail_on, const char *html_dir)
{
    memset(rr, 0, sizeof *rr);
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

int run_report_audited(struct run_report *rr, const char *path, const struct check_result *r)
{
    return run_report_audited_names(rr, &path, 1, r);
}

int run_report_audited_names(struct run_report *rr, const char *const *names, size_t nnames,
                             const struct check_result *r)
{
    const char *path = names[0];
    rr->files++;
    if (rr->format == RUN_FORMAT_JSON)
        report_json_file_names(stdout, names, nnames, r);
    else if (rr->format == RUN_FORMAT_SARIF)
        sarif_file(rr->sarif, path, r);
    else
        report_text_file_names(stdout, names, nnames, r);
    report_totals_add(&rr->totals, r);
    /* HTML's row names the file as the text does: its other names after it. */
    char *shown = NULL;
    size_t len = 0;
    FILE *m = nnames > 1 ? open_memstream(&shown, &len) : NULL;
    if (m) {
        fprintf(m, "%s (also named:", path);
        for (size_t i = 1; i < nnames; i++)
            fprintf(m, "%s %s", i > 1 ? "," : "", names[i]);
        fputc(')', m);
        if (fclose(m) != 0) {
            free(shown);
            shown = NULL;
        }
    }
    int failed = rr->html && html_report_add(rr->html, shown ? shown : path, r) != 0;
    free(shown);
    if (failed) {
        cli_error(path, "out of memory for the HTML report");
        return EXIT_TROUBLE;
    }
    return EXIT_CLEAN;
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
