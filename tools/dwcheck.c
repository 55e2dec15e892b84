/*
 * dwcheck: audit binaries' unwind tables against their machine code.
 *
 *   dwcheck [--format=text|json] [-j N] [--fail-on=error|warning|never] [FILE...]
 *
 * Each file's .eh_frame is checked rule by rule in the states synthesis
 * derives from the code (verify/check.h).  Files are audited by N worker
 * processes; reports are printed in the order of the command line, with a
 * progress line on a terminal and a summary at the end.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "object/elf_file.h"
#include "report/text_report.h"
#include "verify/check.h"

enum format { FORMAT_TEXT, FORMAT_JSON };

struct options {
    enum format format;
    int jobs;
    int fail_on;           /* enum severity, or -1 for never */
};

/* What auditing one file gives the parent process. */
enum file_status { FILE_AUDITED, FILE_FAILED, FILE_SKIPPED };

struct file_record {
    uint32_t status;
    struct report_totals totals;   /* this file's contribution */
    char error[ELF_FILE_ERRLEN + 64];
    size_t report_len;             /* followed by the formatted report */
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
            "  -j, --jobs=N       audit N files at once (default: all cores)\n"
            "  --fail-on=LEVEL    exit 1 when findings of LEVEL or worse exist:\n"
            "                     error (default), warning, or never\n"
            "  -h, --help         show this help\n"
            "  -V, --version      show the version\n"
            "\n"
            "Findings: cfa-mismatch, ra-mismatch, reg-mismatch, clobbered-not-described\n"
            "(errors); fde-gap (warning); imprecise (note); fde-overlap, fde-without-code,\n"
            "malformed-cfi (errors).  Where synthesis cannot decide, the address is counted\n"
            "as unchecked, never reported as wrong.  Files that are not ELF are skipped.\n"
            "\n"
            "Exit status: 0 clean, 1 findings at or above --fail-on, 2 usage error or a\n"
            "file that could not be audited (the others are still audited).\n");
}

/* Audit PATH; the report text goes to a buffer the record owns. */
static void audit_one(const char *path, const struct options *opt, struct file_record *rec,
                      char **report)
{
    memset(rec, 0, sizeof *rec);
    *report = NULL;
    struct check_result r;
    int not_elf;
    if (check_file(path, &r, &not_elf, rec->error, sizeof rec->error) != 0) {
        rec->status = not_elf ? FILE_SKIPPED : FILE_FAILED;
        return;
    }
    rec->status = FILE_AUDITED;
    report_totals_add(&rec->totals, &r);
    size_t len = 0;
    FILE *mem = open_memstream(report, &len);
    if (mem) {
        if (opt->format == FORMAT_JSON)
            report_json_file(mem, path, &r);
        else
            report_text_file(mem, path, &r);
        fclose(mem);
        rec->report_len = len;
    }
    check_result_release(&r);
}

static int write_all(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n > 0) {
        ssize_t w = write(fd, c, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        c += w;
        n -= (size_t)w;
    }
    return 0;
}

static int read_all(int fd, void *p, size_t n)
{
    char *c = p;
    while (n > 0) {
        ssize_t r = read(fd, c, n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        c += r;
        n -= (size_t)r;
    }
    return 0;
}

/* Worker K of JOBS: audit files K, K + JOBS, ... and send each record to FD. */
static int worker(char **files, int nfiles, int k, int jobs, const struct options *opt, int fd)
{
    for (int i = k; i < nfiles; i += jobs) {
        struct file_record rec;
        char *report;
        audit_one(files[i], opt, &rec, &report);
        if (write_all(fd, &rec, sizeof rec) != 0 ||
            (rec.report_len && write_all(fd, report, rec.report_len) != 0))
            return EXIT_TROUBLE;
        free(report);
    }
    return EXIT_CLEAN;
}

/* Print one record; fold it into the totals.  Returns the file's exit status. */
static int take_record(const char *path, const struct file_record *rec, const char *report,
                       struct report_totals *totals)
{
    switch (rec->status) {
    case FILE_SKIPPED:
        fprintf(stderr, "%s: %s: skipped: %s\n", cli_tool_name, path, rec->error);
        totals->files_skipped++;
        return EXIT_CLEAN;
    case FILE_FAILED:
        cli_error(path, "%s", rec->error);
        totals->files_failed++;
        return EXIT_TROUBLE;
    default:
        fwrite(report, 1, rec->report_len, stdout);
        totals->files += rec->totals.files;
        totals->addresses_checked += rec->totals.addresses_checked;
        totals->unchecked += rec->totals.unchecked;
        for (int s = 0; s < 3; s++)
            totals->by_severity[s] += rec->totals.by_severity[s];
        for (int k = 0; k < FINDING_KINDS; k++)
            totals->by_kind[k] += rec->totals.by_kind[k];
        return EXIT_CLEAN;
    }
}

static void progress(int done, int total, const char *path)
{
    if (isatty(STDERR_FILENO) && total > 1)
        fprintf(stderr, "\r\033[K[%d/%d] %s", done, total, path);
}

static int audit_all(char **files, int nfiles, const struct options *opt, struct report_totals *totals)
{
    int status = EXIT_CLEAN;
    int jobs = opt->jobs < nfiles ? opt->jobs : nfiles;
    if (jobs <= 1) {
        for (int i = 0; i < nfiles; i++) {
            progress(i, nfiles, files[i]);
            struct file_record rec;
            char *report;
            audit_one(files[i], opt, &rec, &report);
            progress(i + 1, nfiles, files[i]);
            if (isatty(STDERR_FILENO) && nfiles > 1)
                fputs("\r\033[K", stderr);
            int rc = take_record(files[i], &rec, report, totals);
            fflush(stdout);
            free(report);
            if (rc > status)
                status = rc;
        }
        return status;
    }
    pid_t pids[256];
    int fds[256];
    fflush(NULL);
    for (int k = 0; k < jobs; k++) {
        int p[2];
        if (pipe(p) != 0 || (pids[k] = fork()) < 0) {
            cli_error(NULL, "cannot start worker processes: %s", strerror(errno));
            return EXIT_TROUBLE;
        }
        if (pids[k] == 0) {
            close(p[0]);
            _exit(worker(files, nfiles, k, jobs, opt, p[1]));
        }
        close(p[1]);
        fds[k] = p[0];
    }
    /* Worker i % jobs sends file i's record after its earlier ones, so
     * reading in file order never waits on a worker that waits on us. */
    for (int i = 0; i < nfiles; i++) {
        struct file_record rec;
        char *report = NULL;
        progress(i, nfiles, files[i]);
        if (read_all(fds[i % jobs], &rec, sizeof rec) != 0 ||
            (rec.report_len && (!(report = malloc(rec.report_len)) ||
                                read_all(fds[i % jobs], report, rec.report_len) != 0))) {
            if (isatty(STDERR_FILENO))
                fputs("\r\033[K", stderr);
            cli_error(files[i], "the worker process auditing it failed");
            status = EXIT_TROUBLE;
            free(report);
            break;
        }
        if (isatty(STDERR_FILENO))
            fputs("\r\033[K", stderr);
        int rc = take_record(files[i], &rec, report, totals);
        fflush(stdout);
        free(report);
        if (rc > status)
            status = rc;
    }
    for (int k = 0; k < jobs; k++) {
        int ws;
        close(fds[k]);
        if (waitpid(pids[k], &ws, 0) < 0 || !WIFEXITED(ws) || WEXITSTATUS(ws) != 0)
            status = EXIT_TROUBLE;
    }
    return status;
}

int main(int argc, char **argv)
{
    cli_tool_name = "dwcheck";
    struct options opt = {.format = FORMAT_TEXT, .fail_on = SEVERITY_ERROR};
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    opt.jobs = cores > 0 ? (int)cores : 1;
    static const struct option longopts[] = {
        {"format", required_argument, NULL, 'f'},
        {"jobs", required_argument, NULL, 'j'},
        {"fail-on", required_argument, NULL, 'F'},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0},
    };
    int c;
    while ((c = getopt_long(argc, argv, "f:j:hV", longopts, NULL)) != -1) {
        unsigned long long n;
        switch (c) {
        case 'f':
            if (strcmp(optarg, "text") == 0)
                opt.format = FORMAT_TEXT;
            else if (strcmp(optarg, "json") == 0)
                opt.format = FORMAT_JSON;
            else {
                cli_error(NULL, "unknown format '%s' (use text or json)", optarg);
                return EXIT_TROUBLE;
            }
            break;
        case 'j':
            if (cli_parse_address(optarg, &n) != 0 || n == 0 || n > 256) {
                cli_error(NULL, "bad --jobs '%s' (1 to 256)", optarg);
                return EXIT_TROUBLE;
            }
            opt.jobs = (int)n;
            break;
        case 'F':
            if (strcmp(optarg, "error") == 0)
                opt.fail_on = SEVERITY_ERROR;
            else if (strcmp(optarg, "warning") == 0)
                opt.fail_on = SEVERITY_WARNING;
            else if (strcmp(optarg, "never") == 0)
                opt.fail_on = -1;
            else {
                cli_error(NULL, "bad --fail-on '%s' (use error, warning or never)", optarg);
                return EXIT_TROUBLE;
            }
            break;
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
    if (nfiles == 0) {
        files = (char **)default_files;
        nfiles = (int)(sizeof default_files / sizeof default_files[0]);
    }
    static char outbuf[1 << 16];
    setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);
    struct report_totals totals;
    memset(&totals, 0, sizeof totals);
    int status = audit_all(files, nfiles, &opt, &totals);
    if (opt.format == FORMAT_TEXT && nfiles > 1)
        report_text_summary(stdout, &totals);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        cli_error(NULL, "write error on standard output");
        return EXIT_TROUBLE;
    }
    if (status == EXIT_CLEAN && opt.fail_on >= 0) {
        size_t over = 0;
        for (int s = opt.fail_on; s <= SEVERITY_ERROR; s++)
            over += totals.by_severity[s];
        if (over)
            status = EXIT_FINDINGS;
    }
    return status;
}
