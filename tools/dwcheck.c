/*
 * dwcheck: audit binaries' unwind tables against their machine code.
 *
 *   dwcheck [--format=text|json|sarif] [--html=DIR] [-j N] [--fail-on=error|warning|never]
 *           [--prove=expressions|all] [--prove-timeout=MS] [FILE...]
 *
 * Each file's .eh_frame is checked rule by rule in the states synthesis
 * derives from the code (verify/check.h).  Files are audited by N worker
 * processes; reports are printed in the order of the command line, with a
 * progress line on a terminal and a summary at the end.  A file that could
 * not be audited, or was skipped (not ELF), is named on stderr and has its
 * record in the machine-readable outputs too, in its place: a JSON line, a
 * SARIF notification, a row of the HTML report's table of files.  The
 * workers are a worker_pool: a file's record travels back over its pipe.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "worker_pool.h"
#include "object/elf_file.h"
#include "object/output_file.h"
#include "report/html_report.h"
#include "report/sarif_report.h"
#include "report/text_report.h"
#include "verify/check.h"

enum format { FORMAT_TEXT, FORMAT_JSON, FORMAT_SARIF };

struct options {
    enum format format;
    int jobs;
    int fail_on;           /* enum severity, or -1 for never */
    const char *html_dir;  /* --html DIR, or NULL */
    struct html_report *html;
    struct sarif_report *sarif;   /* with --format=sarif */
    struct check_options check;
};

/* What auditing one file gives the parent process: the result itself (the
 * parent renders it, once per name the file goes by). */
enum file_status { FILE_AUDITED, FILE_FAILED, FILE_SKIPPED };

struct file_record {
    uint32_t status;
    uint32_t unique;               /* index among the distinct files */
    char error[ELF_FILE_ERRLEN + 64];
    struct check_result result;    /* findings follow the record */
};

/* Default audit (no FILE): the system's core libraries. */
static const char *const default_files[] = {
    "/usr/lib/x86_64-linux-gnu/libc.so.6", "/usr/lib/x86_64-linux-gnu/libm.so.6",
    "/usr/lib/x86_64-linux-gnu/libstdc++.so.6", "/usr/lib/x86_64-linux-gnu/libgcc_s.so.1",
    "/usr/lib/x86_64-linux-gnu/libz.so.1", "/usr/lib/x86_64-linux-gnu/libelf.so.1",
    "/usr/lib/x86_64-linux-gnu/libcrypto.so.3", "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2",
};

static void usage(FILE *out)
{
    fprintf(out,
            "Usage: dwcheck [OPTION]... [FILE]...\n"
            "Audit the unwind tables (.eh_frame) of x86_64 ELF files: every rule of every\n"
            "row is evaluated in the state derived from the machine code at that address.\n"
            "With no FILE, audit the system's core libraries.\n"
            "\n"
            "  --format=text      one line per finding, FILE: func+0xoff: ..., then figures (default)\n"
            "  --format=json      one JSON object per file, one per line\n"
            "  --format=sarif     one SARIF 2.1.0 document (for code-scanning services)\n"
            "  --html=DIR         also write an offline HTML report to DIR/index.html\n"
            "                     (DIR is created if absent; symbolic links are followed;\n"
            "                     a DIR that is no directory, an index.html that is no\n"
            "                     regular file, are refused)\n"
            "  -j, --jobs=N       audit N files at once, 1 to 256 (default: all cores,\n"
            "                     at most 256)\n"
            "  --fail-on=LEVEL    exit 1 when findings of LEVEL or worse exist:\n"
            "                     error (default), warning, or never\n"
            "  --prove=WHICH      rules z3 proves or refutes: expressions (default: the\n"
            "                     other rules have an exact fast path), or all (a cross-\n"
            "                     check: every rule through z3, disagreements counted)\n"
            "  --prove-timeout=MS time limit of one z3 query, 1 to 600000 (default 100);\n"
            "                     a rule z3 cannot decide in time is counted unchecked\n"
            "  -h, --help         show this help\n"
            "  -V, --version      show the version\n"
            "\n"
            "Findings: cfa-mismatch, ra-mismatch, reg-mismatch, clobbered-not-described,\n"
            "cross-fde-mismatch (a jump into another FDE), ret-mismatch (a ret that does\n"
            "not pop the return address), fde-overlap, fde-without-code, malformed-cfi\n"
            "(errors); fde-gap, call-clobbered-rule (warnings); imprecise (note).  Where\n"
            "synthesis cannot decide, the address is counted as unchecked, never reported\n"
            "as wrong; a rule z3 refutes comes with a counterexample.  Files that are not\n"
            "ELF are skipped.  A file not audited is named on stderr, and has its record in\n"
            "JSON (\"error\" or \"skipped\"), SARIF (a tool execution notification) and\n"
            "HTML outputs.\n"
            "\n"
            "Exit status: 0 clean, 1 findings at or above --fail-on, 2 usage error or a\n"
            "file that could not be audited (the others are still audited).\n");
}

/* What the workers are given: the distinct files, and how to check them. */
struct audit_job {
    char **paths;
    const struct check_options *check;
};

static void audit_one(const char *path, const struct check_options *check, uint32_t unique,
                      struct file_record *rec)
{
    memset(rec, 0, sizeof *rec);
    rec->unique = unique;
    int not_elf;
    if (check_file(path, check, &rec->result, &not_elf, rec->error, sizeof rec->error) != 0)
        rec->status = not_elf ? FILE_SKIPPED : FILE_FAILED;
    else
        rec->status = FILE_AUDITED;
}

/* A worker's task: audit the distinct file TASK (of the paths ARG) and send
 * its record, findings after it, over FD. */
static int audit_task(uint32_t task, int fd, void *arg)
{
    const struct audit_job *job = arg;
    struct file_record rec;
    audit_one(job->paths[task], job->check, task, &rec);
    size_t nfindings = rec.result.nfindings;
    int rc = worker_pool_write(fd, &rec, sizeof rec);
    if (rc == 0 && nfindings)
        rc = worker_pool_write(fd, rec.result.findings, nfindings * sizeof *rec.result.findings);
    check_result_release(&rec.result);
    return rc;
}

/* Read one record from FD (its findings into memory the record then owns). */
static int receive(int fd, struct file_record *rec)
{
    if (worker_pool_read(fd, rec, sizeof *rec) != 0)
        return -1;
    struct check_result *r = &rec->result;
    r->findings = NULL;
    r->cap = r->nfindings;
    if (!r->nfindings)
        return 0;
    r->findings = malloc(r->nfindings * sizeof *r->findings);
    if (!r->findings || worker_pool_read(fd, r->findings, r->nfindings * sizeof *r->findings) != 0) {
        free(r->findings);
        r->findings = NULL;
        r->nfindings = 0;
        return -1;
    }
    return 0;
}

/* The records received so far, by distinct file. */
struct received {
    struct file_record *recs;   /* [nunique] */
    uint8_t *have;              /* [nunique]: recs[u] is in */
    uint32_t nunique;
};

static int receive_record(int fd, void *arg)
{
    struct received *in = arg;
    struct file_record rec;
    if (receive(fd, &rec) != 0)
        return -1;
    if (rec.unique >= in->nunique) {
        check_result_release(&rec.result);
        return -1;
    }
    in->recs[rec.unique] = rec;
    in->have[rec.unique] = 1;
    return 0;
}

/* PATH was not audited, for REASON: skipped (STATUS FILE_SKIPPED: not ELF)
 * or failed.  Said on stderr, and recorded in the report being written.
 * Returns the file's exit status. */
static int take_not_audited(const char *path, enum file_status status, const char *reason,
                            const struct options *opt, struct report_totals *totals)
{
    int skipped = status == FILE_SKIPPED, oom = 0;
    if (skipped) {
        fprintf(stderr, "%s: %s: skipped: %s\n", cli_tool_name, path, reason);
        totals->files_skipped++;
    } else {
        cli_error(path, "%s", reason);
        totals->files_failed++;
    }
    if (opt->format == FORMAT_JSON) {
        if (skipped)
            report_json_skipped(stdout, path, reason);
        else
            report_json_error(stdout, path, reason);
    } else if (opt->format == FORMAT_SARIF) {
        char note[ELF_FILE_ERRLEN + 128];
        snprintf(note, sizeof note, "skipped: %s", reason);
        oom |= sarif_notify(opt->sarif, skipped ? SARIF_NOTE : SARIF_ERROR, path, skipped ? note : reason);
    }
    if (opt->html)
        oom |= skipped ? html_report_add_skipped(opt->html, path, reason)
                       : html_report_add_error(opt->html, path, reason);
    if (oom) {
        cli_error(path, "out of memory for the report");
        return EXIT_TROUBLE;
    }
    return skipped ? EXIT_CLEAN : EXIT_TROUBLE;
}

/* Print PATH's record; fold it into the totals.  Returns the file's exit status. */
static int take_record(const char *path, const struct file_record *rec, const struct options *opt,
                       struct report_totals *totals)
{
    switch (rec->status) {
    case FILE_SKIPPED:
    case FILE_FAILED:
        return take_not_audited(path, (enum file_status)rec->status, rec->error, opt, totals);
    default:
        if (opt->format == FORMAT_JSON)
            report_json_file(stdout, path, &rec->result);
        else if (opt->format == FORMAT_SARIF)
            sarif_file(opt->sarif, path, &rec->result);
        else
            report_text_file(stdout, path, &rec->result);
        report_totals_add(totals, &rec->result);
        if (opt->html && html_report_add(opt->html, path, &rec->result) != 0) {
            cli_error(path, "out of memory for the HTML report");
            return EXIT_TROUBLE;
        }
        return EXIT_CLEAN;
    }
}

static void progress(int done, int total, const char *path)
{
    if (isatty(STDERR_FILENO) && total > 1) {
        if (path)
            fprintf(stderr, "\r\033[K[%d/%d] %s", done, total, path);
        else
            fputs("\r\033[K", stderr);
    }
}

/* Which distinct file (by device and inode) each name is: names of one file
 * (libfoo.so, libfoo.so.1 ...) are audited once. */
static uint32_t distinct_files(char **files, int nfiles, uint32_t *unique_of, char **unique_path)
{
    struct stat *seen = calloc((size_t)nfiles, sizeof *seen);
    uint32_t n = 0;
    for (int i = 0; i < nfiles; i++) {
        struct stat st;
        uint32_t u = n;
        if (seen && stat(files[i], &st) == 0 && S_ISREG(st.st_mode))
            for (uint32_t k = 0; k < n; k++)
                if (seen[k].st_ino == st.st_ino && seen[k].st_dev == st.st_dev && seen[k].st_ino) {
                    u = k;
                    break;
                }
        if (u == n) {
            if (seen && stat(files[i], &seen[n]) != 0)
                memset(&seen[n], 0, sizeof seen[n]);
            unique_path[n++] = files[i];
        }
        unique_of[i] = u;
    }
    free(seen);
    return n;
}

static int audit_all(char **files, int nfiles, const struct options *opt, struct report_totals *totals)
{
    uint32_t *unique_of = calloc((size_t)nfiles, sizeof *unique_of);
    char **unique_path = calloc((size_t)nfiles, sizeof *unique_path);
    if (!unique_of || !unique_path) {
        cli_error(NULL, "out of memory");
        return EXIT_TROUBLE;
    }
    uint32_t nunique = distinct_files(files, nfiles, unique_of, unique_path);
    struct received in = {.recs = calloc(nunique, sizeof *in.recs), .have = calloc(nunique, 1),
                          .nunique = nunique};
    if (!in.recs || !in.have) {
        cli_error(NULL, "out of memory");
        return EXIT_TROUBLE;
    }
    char err[256];
    struct audit_job job = {unique_path, &opt->check};
    struct worker_pool *pool = worker_pool_start(nunique, (unsigned)opt->jobs, audit_task, &job, err,
                                                 sizeof err);
    if (!pool) {
        cli_error(NULL, "%s", err);
        return EXIT_TROUBLE;
    }
    int status = EXIT_CLEAN;
    for (int i = 0; i < nfiles; i++) {
        uint32_t u = unique_of[i];
        progress(i, nfiles, files[i]);
        /* Results arrive in any order: wait until this file's is in. */
        while (!in.have[u] && worker_pool_receive(pool, receive_record, &in) > 0)
            ;
        progress(i + 1, nfiles, NULL);
        int rc = in.have[u] ? take_record(files[i], &in.recs[u], opt, totals)
                            : take_not_audited(files[i], FILE_FAILED, "the worker process auditing it failed",
                                               opt, totals);
        fflush(stdout);
        if (rc > status)
            status = rc;
    }
    if (worker_pool_finish(pool) != 0)
        status = EXIT_TROUBLE;
    for (uint32_t u = 0; u < nunique; u++)
        if (in.have[u])
            check_result_release(&in.recs[u].result);
    free(in.recs);
    free(in.have);
    free(unique_of);
    free(unique_path);
    return status;
}

int main(int argc, char **argv)
{
    cli_tool_name = "dwcheck";
    struct options opt = {.format = FORMAT_TEXT, .fail_on = SEVERITY_ERROR,
                          .check = {CHECK_PROVE_EXPRESSIONS, CHECK_PROVE_TIMEOUT_MS}};
    opt.jobs = cli_default_jobs();
    static const struct option longopts[] = {
        {"format", required_argument, NULL, 'f'},
        {"jobs", required_argument, NULL, 'j'},
        {"fail-on", required_argument, NULL, 'F'},
        {"html", required_argument, NULL, 'H'},
        {"prove", required_argument, NULL, 'P'},
        {"prove-timeout", required_argument, NULL, 'T'},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0},
    };
    int c;
    while ((c = getopt_long(argc, argv, "f:j:hV", longopts, NULL)) != -1) {
        switch (c) {
        case 'f': {
            static const char *const formats[] = {"text", "json", "sarif", NULL};
            int f = cli_pick("format", optarg, formats);
            if (f < 0)
                return EXIT_TROUBLE;
            opt.format = (enum format)f;   /* FORMAT_TEXT, FORMAT_JSON, FORMAT_SARIF */
            break;
        }
        case 'j':
            if (cli_parse_jobs(optarg, &opt.jobs) != 0)
                return EXIT_TROUBLE;
            break;
        case 'F': {
            static const char *const levels[] = {"error", "warning", "never", NULL};
            static const int level[] = {SEVERITY_ERROR, SEVERITY_WARNING, -1};
            int l = cli_pick("--fail-on level", optarg, levels);
            if (l < 0)
                return EXIT_TROUBLE;
            opt.fail_on = level[l];
            break;
        }
        case 'H':
            opt.html_dir = optarg;
            break;
        case 'P': {
            static const char *const which[] = {"expressions", "all", NULL};
            int w = cli_pick("--prove", optarg, which);
            if (w < 0)
                return EXIT_TROUBLE;
            opt.check.prove = w ? CHECK_PROVE_ALL : CHECK_PROVE_EXPRESSIONS;
            break;
        }
        case 'T': {
            unsigned long long ms;
            if (cli_parse_count("--prove-timeout", optarg, 1, 600000, &ms) != 0)
                return EXIT_TROUBLE;
            opt.check.timeout_ms = (unsigned)ms;
            break;
        }
        case 'h':
            usage(stdout);
            return EXIT_CLEAN;
        case 'V':
            cli_print_version();
            return EXIT_CLEAN;
        default:
            usage(stderr);
            return EXIT_TROUBLE;
        }
    }
    char **files = argv + optind;
    int nfiles = argc - optind;
    static char *present[sizeof default_files / sizeof default_files[0]];
    if (nfiles == 0) {
        /* The built-in audit: those of the core libraries this system has. */
        for (size_t i = 0; i < sizeof default_files / sizeof default_files[0]; i++)
            if (access(default_files[i], R_OK) == 0)
                present[nfiles++] = (char *)default_files[i];
        files = present;
        if (nfiles == 0) {
            cli_error(NULL, "none of the default libraries is here; name the files to audit");
            return EXIT_TROUBLE;
        }
    }
    char html_err[4200];
    if (opt.html_dir && output_dir_check(opt.html_dir, "index.html", html_err, sizeof html_err) != 0) {
        cli_error(NULL, "%s", html_err);   /* a device, a FIFO...: refused before any work */
        return EXIT_TROUBLE;
    }
    cli_buffer_stdout();
    struct report_totals totals;
    memset(&totals, 0, sizeof totals);
    if (opt.html_dir && !(opt.html = html_report_new())) {
        cli_error(NULL, "out of memory");
        return EXIT_TROUBLE;
    }
    if (opt.format == FORMAT_SARIF && !(opt.sarif = sarif_begin(stdout, DWCHECK_VERSION))) {
        cli_error(NULL, "out of memory");
        html_report_free(opt.html);
        return EXIT_TROUBLE;
    }
    int status = audit_all(files, nfiles, &opt, &totals);
    if (opt.html) {
        char err[4200];
        if (html_report_write(opt.html, opt.html_dir, err, sizeof err) != 0) {
            cli_error(NULL, "%s", err);
            if (opt.sarif)
                sarif_notify(opt.sarif, SARIF_ERROR, NULL, err);
            status = EXIT_TROUBLE;
        } else if (isatty(STDERR_FILENO)) {
            fprintf(stderr, "%s: report written to %s/index.html\n", cli_tool_name, opt.html_dir);
        }
        html_report_free(opt.html);
    }
    if (opt.sarif)
        sarif_end(opt.sarif, status == EXIT_TROUBLE);
    if (opt.format == FORMAT_TEXT && nfiles > 1)
        report_text_summary(stdout, &totals);
    status = cli_finish_stdout(status);
    if (status == EXIT_CLEAN && opt.fail_on >= 0) {
        size_t over = 0;
        for (int s = opt.fail_on; s <= SEVERITY_ERROR; s++)
            over += totals.by_severity[s];
        if (over)
            status = EXIT_FINDINGS;
    }
    return status;
}
