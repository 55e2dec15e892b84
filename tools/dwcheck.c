/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dwcheck: audit binaries' unwind tables against their machine code.
 *
 *   dwcheck [--format=text|json|sarif] [--html=DIR] [-j N] [--fail-on=error|warning|never]
 *           [--prove=expressions|all] [--prove-timeout=MS] [--cache=DIR] [--shard=K/N]
 *           [--baseline=FILE] [--write-baseline=FILE] [FILE...]
 *   dwcheck --merge [--format=...] [--html=DIR] [--fail-on=...] [--baseline=FILE]
 *           [--write-baseline=FILE] FILE.jsonl...
 *   dwcheck --explain=ADDR [--prove=...] [--prove-timeout=MS] FILE
 *   dwcheck --run [--only=FUNC]... [--step-all] [--max-steps=N] [--format=text|json|sarif]
 *           [--html=DIR] [--explain=[OBJECT:]ADDR] [--fail-on=...] -- PROGRAM ARGS
 *
 * Each file's .eh_frame is checked rule by rule in the states synthesis
 * derives from the code (verify/audit/check.h).  Files are audited by N worker
 * processes; reports are printed in the order of the command line, with a
 * progress line on a terminal and a summary at the end (tools/run_report
 * prints them: a file that could not be audited, or was skipped, keeps its
 * record in every output).  The workers are a worker_pool: a file's record
 * travels back over its pipe.
 *
 * Beyond one machine: --cache=DIR keeps each file's result, keyed by what
 * it depends on (tools/result_cache), and a worker takes an unchanged
 * file's result from there rather than auditing it; --shard=K/N audits one
 * part of the files (tools/shard); --merge renders the JSON Lines of many
 * runs as one (tools/merge).  --baseline and --write-baseline (tools/baseline,
 * docs/baselines.md) keep known findings from failing the run.
 *
 * --run runs PROGRAM under ptrace and checks each executed instruction's
 * row against the live machine (execute/tracer); the program's output and
 * exit status are its own, the report goes to stderr
 * (report/execution_report, report/run_sarif; report/run_html for --html,
 * report/run_explain for --explain), joined with the static audit of the
 * files it checked (execute/static_join).  By default only the functions
 * the static audit of each object leaves in doubt are stepped, the rest
 * run at full speed (execute/audit_select, execute/selective); --only=FUNC
 * steps those functions instead, --step-all every instruction.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "baseline.h"
#include "cli.h"
#include "deb_input.h"
#include "inputs.h"
#include "merge.h"
#include "result_cache.h"
#include "run_report.h"
#include "shard.h"
#include "worker_pool.h"
#include "object/elf_file.h"
#include "sys/output_file.h"
#include "execute/static_join.h"
#include "execute/tracer.h"
#include "report/execution_report.h"
#include "report/explain_report.h"
#include "report/run_explain.h"
#include "report/run_html.h"
#include "report/run_sarif.h"
#include "verify/audit/audit_input.h"
#include "verify/audit/check.h"
#include "verify/audit/explain.h"

#define DWCHECK_ONLY_MAX 256   /* --only's functions, at most */

struct options {
    enum run_format format;
    int jobs;
    int fail_on;               /* enum severity, or -1 for never */
    const char *html_dir;      /* --html DIR, or NULL */
    const char *baseline;      /* --baseline FILE, or NULL */
    const char *write_baseline;   /* --write-baseline FILE, or NULL */
    struct check_options check;
    const char *cache_dir;     /* --cache DIR, or NULL */
    unsigned shard, shards;    /* --shard K/N; 0/0 without */
    int merge;                 /* --merge: the FILEs are JSON Lines */
    int explain;               /* --explain: one address of one FILE */
    unsigned long long explain_address;
    const char *explain_object;   /* --explain=OBJECT:ADDR (with --run), or NULL */
    size_t explain_object_len;
    const char *audit_option;  /* the last option given that only an audit takes */
    int run;                   /* --run: the FILEs are a program and its arguments */
    unsigned long long max_steps;   /* --max-steps, 0 for no bound */
    char *only[DWCHECK_ONLY_MAX];   /* --only: the functions stepped, or none: the audit's */
    size_t nonly;
    int step_all;              /* --step-all: every instruction stepped */
};

/* --only=NAME[,NAME]...: each name added to OPT's, split in ARG itself
 * (an argv string: nothing allocated).  0, or -1 (said) for an empty
 * name or too many. */
static int add_only(struct options *opt, char *arg)
{
    size_t n = strlen(arg);
    if (n == 0 || arg[0] == ',' || arg[n - 1] == ',' || strstr(arg, ",,")) {
        cli_error(NULL, "empty --only function name in '%s'", arg);
        return -1;
    }
    for (char *p = arg;;) {
        size_t len = strcspn(p, ",");
        if (opt->nonly == DWCHECK_ONLY_MAX) {
            cli_error(NULL, "more than %d --only functions", DWCHECK_ONLY_MAX);
            return -1;
        }
        opt->only[opt->nonly++] = p;
        if (!p[len])
            return 0;
        p[len] = '\0';
        p += len + 1;
    }
}

/* What auditing one file gives the parent process: the result itself (the
 * parent renders it, once per name the file goes by). */
enum file_status { FILE_AUDITED, FILE_FAILED, FILE_SKIPPED };

/* What the result cache did for one file (FILE_AUDITED only). */
enum cache_outcome { CACHE_UNUSED, CACHE_HIT, CACHE_STORED, CACHE_NOT_STORED };

struct file_record {
    uint32_t status;
    uint32_t unique;               /* index among the distinct files */
    uint8_t cache;                 /* enum cache_outcome */
    uint8_t cache_damaged;         /* an entry was there, not to be trusted */
    char error[ELF_FILE_ERRLEN + 64];   /* FILE_FAILED, FILE_SKIPPED: why; CACHE_NOT_STORED: why not */
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
            "  or:  dwcheck --merge [OPTION]... FILE.jsonl...\n"
            "  or:  dwcheck --run [--only=FUNC]...|--step-all [--max-steps=N] [OPTION]... -- PROGRAM [ARG]...\n"
            "Audit the unwind tables (.eh_frame, .sframe) of x86_64 ELF files: every rule\n"
            "of every row is evaluated in the state derived from the machine code at that\n"
            "address.  With no FILE, audit the system's core libraries.  A directory is\n"
            "walked for its ELF files, a Debian package (.deb) read for them (named\n"
            "PKG.deb:/PATH); a relocatable object (.o) is audited as if linked, its\n"
            "findings named SECTION:function; a file of several names is audited once, its names\n"
            "listed; a run that audits no file exits 2.\n"
            "\n"
            "  --format=text      one line per finding, FILE: func+0xoff: ..., then figures (default)\n"
            "  --format=json      one JSON object per file, one per line\n"
            "  --format=sarif     one SARIF 2.1.0 document (for code-scanning services)\n"
            "  --html=DIR         also write an offline HTML report to DIR/index.html\n"
            "                     (DIR is created if absent; symbolic links are followed;\n"
            "                     a DIR that is no directory, an index.html that is no\n"
            "                     regular file, are refused)\n"
            "  --baseline=FILE    findings FILE lists are known: not shown in text, JSON\n"
            "                     and HTML, not counted by --fail-on, marked unchanged in\n"
            "                     SARIF (baselineState; new ones new); its entries no\n"
            "                     longer found (in the files audited) are listed as\n"
            "                     absent, and its `suppress` lines (a kind, a function,\n"
            "                     a reason) silence findings the same way\n"
            "  --write-baseline=FILE  write this run's findings (and --baseline's\n"
            "                     suppressions) to FILE, replaced atomically; a finding\n"
            "                     is known by kind, file name, function, instruction\n"
            "                     index in it, rule and synthesised value: no address,\n"
            "                     so a rebuild that moves code keeps it (docs/baselines.md)\n"
            "  -j, --jobs=N       audit N files at once, 1 to 256 (default: all cores,\n"
            "                     at most 256)\n"
            "  --fail-on=LEVEL    exit 1 when findings of LEVEL or worse exist:\n"
            "                     error (default), warning, or never\n"
            "  --prove=WHICH      rules z3 proves or refutes: expressions (default: the\n"
            "                     other rules have an exact fast path), or all (a cross-\n"
            "                     check: every rule through z3, disagreements counted)\n"
            "  --prove-timeout=MS time limit of one z3 query, 1 to 600000 (default 100);\n"
            "                     a rule z3 cannot decide in time is counted unchecked\n"
            "  --cache=DIR        keep each file's result in DIR (created if absent),\n"
            "                     keyed by the file's build-id (else a hash of its bytes)\n"
            "                     and size, this dwcheck, --prove and --prove-timeout: a\n"
            "                     file unchanged since is not audited again.  Runs may\n"
            "                     share DIR; a damaged entry is audited again.  What the\n"
            "                     cache did is a line on stderr\n"
            "  --shard=K/N        audit only part K of N of the files (1 <= K <= N): those\n"
            "                     at positions K, K+N, K+2N ... of the distinct files found\n"
            "                     (by first name) sorted bytewise; the N parts together\n"
            "                     are every file, each once\n"
            "  --explain=ADDR     everything known at ADDR of the one FILE: its function\n"
            "                     and source line, the FDE, the code around it with both\n"
            "                     rows (DWARF's, synthesis's), each rule's verdict and why\n"
            "  --merge            the FILEs are JSON Lines of --format=json runs (shards):\n"
            "                     render them as one run, in any format, sorted by file name\n"
            "                     (with --format, --html, --fail-on, --baseline,\n"
            "                     --write-baseline only)\n"
            "  --run              run PROGRAM with its ARGs under ptrace, single-stepping\n"
            "                     the functions the static audit of each object it maps\n"
            "                     (program, libraries, dlopen'ed, exec'ed) leaves\n"
            "                     undecided or finds wrong, from a breakpoint at their\n"
            "                     entry as --only does (an FDE not at an entry, a .cold\n"
            "                     part, is not selectable), and check each instruction's\n"
            "                     .eh_frame row they execute against the live machine:\n"
            "                     the CFA, the return address and rbx, rbp, r12-r15\n"
            "                     against a shadow stack of true frames (only\n"
            "                     frames entered while traced are checked).  The program's\n"
            "                     stdin, stdout and stderr are its own; forks run\n"
            "                     untraced, execs are followed.  The report (a finding\n"
            "                     per refuted address, with its witness, then the\n"
            "                     figures: exit status, steps, steps per second) goes to\n"
            "                     stderr, text, --format=json or --format=sarif (one\n"
            "                     line); --html=DIR also writes it to DIR/index.html.\n"
            "                     The files with a checked address are audited (as\n"
            "                     dwcheck FILE) and joined per address: a refutation\n"
            "                     confirmed, or decided by execution; the addresses the\n"
            "                     audit left undecided that held, counted; a file not\n"
            "                     audited, said.  --explain=[OBJECT:]ADDR then explains\n"
            "                     ADDR of OBJECT (default: the program) with the run's\n"
            "                     verdict there.  The exit status is dwcheck's: 1 for\n"
            "                     a refutation (unless --fail-on=never), 2 when the run\n"
            "                     refutes a rule the audit proved\n"
            "  --only=FUNC[,FUNC]...  with --run (repeatable): step only the functions\n"
            "                     of those symbol names, in the program and every object\n"
            "                     it loads (dlopen too); the rest runs at full speed.  A\n"
            "                     breakpoint at each one's entry, where the true CFA is\n"
            "                     rsp+8; its calls run at full speed to a breakpoint at\n"
            "                     their return.  The figures add the breakpoint stops and\n"
            "                     the share of wall time spent stepping.  A FUNC no\n"
            "                     object defined is an error (exit 2), after the report\n"
            "  --step-all         with --run: single-step every instruction of every\n"
            "                     thread, not the audit's selection (not with --only)\n"
            "  --max-steps=N      with --run: after N steps, let the program run on untraced\n"
            "  -h, --help         show this help\n"
            "  -V, --version      show the version\n"
            "\n"
            "Findings: cfa-mismatch, ra-mismatch, reg-mismatch, clobbered-not-described,\n"
            "cross-fde-mismatch (a jump into another FDE), ret-mismatch (a ret that does\n"
            "not pop the return address), fde-overlap, fde-without-code, malformed-cfi\n"
            "(errors); fde-gap, call-clobbered-rule, no-unwind-table (no .eh_frame at\n"
            "all: a file unwinders cannot walk) (warnings); imprecise, ret-jump (a\n"
            "`push X; ret`, a jump through the stack) (notes).  A\n"
            ".sframe section is audited too: sframe-cfa-mismatch, sframe-fp-mismatch,\n"
            "sframe-ra-mismatch, malformed-sframe (errors), sframe-eh-frame-differ\n"
            "(warning), sframe-missing-fde (note).  Where\n"
            "synthesis cannot decide, the address is counted as unchecked, never reported\n"
            "as wrong; a rule z3 refutes comes with a counterexample.  Files that are not\n"
            "ELF are skipped.  A file not audited is named on stderr, and has its record in\n"
            "JSON (\"error\" or \"skipped\"), SARIF (a tool execution notification) and\n"
            "HTML outputs.\n"
            "\n"
            "Exit status: 0 clean, 1 findings at or above --fail-on, 2 usage error or a\n"
            "file that could not be audited (the others are still audited); with --merge,\n"
            "the status the run that audited them all would have, or 2 for a malformed\n"
            "line (FILE:LINE: reason, and nothing printed).\n");
}

/* What the workers are given: the distinct files, how to check them, and
 * the result cache (NULL: none). */
struct audit_job {
    const struct input_list *in;
    const struct check_options *check;
    const struct result_cache *cache;
};

/* Audit PATH into REC, or take its result from the cache. */
static void audit_one(const char *path, const struct audit_job *job, uint32_t unique, struct file_record *rec)
{
    memset(rec, 0, sizeof *rec);
    rec->unique = unique;
    struct result_cache_key key;
    int keyed = job->cache && result_cache_key(job->cache, path, &key) == 0;
    if (keyed) {
        enum result_cache_lookup found = result_cache_load(job->cache, &key, &rec->result);
        if (found == RESULT_CACHE_HIT) {
            rec->status = FILE_AUDITED;
            rec->cache = CACHE_HIT;
            return;
        }
        rec->cache_damaged = found == RESULT_CACHE_DAMAGED;
    }
    int not_elf;
    if (check_file(path, job->check, &rec->result, &not_elf, rec->error, sizeof rec->error) != 0) {
        rec->status = not_elf ? FILE_SKIPPED : FILE_FAILED;
        return;
    }
    rec->status = FILE_AUDITED;
    if (keyed)
        rec->cache = result_cache_store(job->cache, &key, &rec->result, rec->error, sizeof rec->error) == 0
                         ? CACHE_STORED
                         : CACHE_NOT_STORED;
}

/* A worker's task: audit the distinct file TASK (of the job ARG) and send
 * its record, findings after it, over FD. */
static int audit_task(uint32_t task, int fd, void *arg)
{
    const struct audit_job *job = arg;
    struct file_record rec;
    const struct input_file *f = &job->in->files[task];
    if (f->error) {   /* known before any audit (tools/inputs) */
        memset(&rec, 0, sizeof rec);
        rec.unique = task;
        rec.status = FILE_FAILED;
        snprintf(rec.error, sizeof rec.error, "%s", f->error);
    } else {
        audit_one(f->path, job, task, &rec);
    }
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

/* Print F's record.  Returns the file's exit status. */
static int take_record(const struct input_file *f, const struct file_record *rec, struct run_report *rr)
{
    if (rec->status == FILE_AUDITED)
        return run_report_audited_names(rr, (const char *const *)f->names, f->nnames, &rec->result);
    return run_report_not_audited(rr, f->names[0], rec->status == FILE_SKIPPED, rec->error);
}

/* What the cache did for the distinct files, on stderr: `dwcheck: cache
 * DIR: H files from the cache, A audited, S stored[, D damaged entries
 * replaced][, F not audited (never cached)][; N not stored: reason]`. */
static void cache_report(const char *dir, const struct received *in)
{
    size_t hits = 0, audited = 0, stored = 0, damaged = 0, not_audited = 0, not_stored = 0;
    const char *why_not = NULL;
    for (uint32_t u = 0; u < in->nunique; u++) {
        const struct file_record *rec = &in->recs[u];
        if (!in->have[u])
            continue;
        hits += rec->cache == CACHE_HIT;
        audited += rec->status == FILE_AUDITED && rec->cache != CACHE_HIT;
        not_audited += rec->status != FILE_AUDITED;
        stored += rec->cache == CACHE_STORED;
        damaged += rec->cache_damaged;
        if (rec->cache == CACHE_NOT_STORED && !not_stored++)
            why_not = rec->error;
    }
    fprintf(stderr, "%s: cache %s: %zu files from the cache, %zu audited, %zu stored", cli_tool_name, dir, hits,
            audited, stored);
    if (damaged)
        fprintf(stderr, ", %zu damaged entries replaced", damaged);
    if (not_audited)
        fprintf(stderr, ", %zu not audited (never cached)", not_audited);
    if (not_stored)
        fprintf(stderr, "; %zu not stored: %s", not_stored, why_not);
    fputc('\n', stderr);
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

/* Audit the distinct files IN (at least one) into RR.  Returns the files' exit status. */
static int audit_all(const struct input_list *inputs, const struct options *opt, const struct result_cache *cache,
                     struct run_report *rr)
{
    uint32_t nunique = (uint32_t)inputs->n;
    struct received in = {.recs = calloc(nunique, sizeof *in.recs), .have = calloc(nunique, 1),
                          .nunique = nunique};
    if (!in.recs || !in.have) {
        cli_error(NULL, "out of memory");
        return EXIT_TROUBLE;
    }
    char err[256];
    struct audit_job job = {inputs, &opt->check, cache};
    struct worker_pool *pool = worker_pool_start(nunique, (unsigned)opt->jobs, audit_task, &job, err,
                                                 sizeof err);
    if (!pool) {
        cli_error(NULL, "%s", err);
        return EXIT_TROUBLE;
    }
    int status = EXIT_CLEAN;
    for (uint32_t u = 0; u < nunique; u++) {
        const struct input_file *f = &inputs->files[u];
        progress((int)u, (int)nunique, f->names[0]);
        /* Results arrive in any order: wait until this file's is in. */
        while (!in.have[u] && worker_pool_receive(pool, receive_record, &in) > 0)
            ;
        progress((int)u + 1, (int)nunique, NULL);
        int rc = in.have[u] ? take_record(f, &in.recs[u], rr)
                            : run_report_not_audited(rr, f->names[0], 0, "the worker process auditing it failed");
        fflush(stdout);
        if (rc > status)
            status = rc;
    }
    if (worker_pool_finish(pool) != 0)
        status = EXIT_TROUBLE;
    if (cache)
        cache_report(opt->cache_dir, &in);
    for (uint32_t u = 0; u < nunique; u++)
        if (in.have[u])
            check_result_release(&in.recs[u].result);
    free(in.recs);
    free(in.have);
    return status;
}

/* The audit the command line asks for, of its NFILES FILES (directories and
 * packages expanded, the shard taken), against the baselines RB. */
static int audit(char **files, int nfiles, const struct options *opt, const struct run_baseline *rb)
{
    struct result_cache *cache = NULL;
    char err[4200];
    if (opt->cache_dir && !(cache = result_cache_open(opt->cache_dir, &opt->check, err, sizeof err))) {
        cli_error(opt->cache_dir, "%s", err);
        return EXIT_TROUBLE;
    }
    struct run_report rr;
    if (run_report_begin(&rr, opt->format, opt->fail_on, opt->html_dir, rb) != 0) {
        result_cache_free(cache);
        return EXIT_TROUBLE;
    }
    struct input_list in;
    if (inputs_expand(files, nfiles, &deb_input_packages, &in, err, sizeof err) != 0) {
        cli_error(NULL, "%s", err);
        run_report_end(&rr, EXIT_TROUBLE, NULL);
        result_cache_free(cache);
        return EXIT_TROUBLE;
    }
    /* Shards share out the distinct files found, not the arguments. */
    size_t found = in.n;
    if (opt->shards && inputs_shard(&in, opt->shard, opt->shards) != 0) {
        cli_error(NULL, "out of memory");
        run_report_end(&rr, EXIT_TROUBLE, NULL);
        inputs_free(&in);
        result_cache_free(cache);
        return EXIT_TROUBLE;
    }
    int status = in.n ? audit_all(&in, opt, cache, &rr) : EXIT_CLEAN;
    char note[96];
    snprintf(note, sizeof note, "shard %u/%u: %zu of %zu files", opt->shard, opt->shards, in.n, found);
    status = run_report_end(&rr, status, opt->shards ? note : NULL);
    /* Nothing audited is no clean run (but a shard left no file is). */
    if (nfiles && !rr.totals.files && !(opt->shards && found && !in.n)) {
        inputs_why_none(&in, rr.totals.files_skipped, rr.totals.files_failed, err, sizeof err);
        cli_error(NULL, "no file audited: %s", err);
        status = EXIT_TROUBLE;
    }
    inputs_free(&in);
    result_cache_free(cache);
    return status;
}

/* --explain: the address's window, rows and verdicts (verify/audit/explain),
 * on OUT (stdout; stderr after a --run, whose stdout is the program's). */
static int explain(FILE *out, const char *path, uint64_t address, const struct check_options *check)
{
    struct audit_input af;
    char err[ELF_FILE_ERRLEN + 64];
    int not_elf = 0;
    if (audit_input_open(&af, path, CHECK_NO_EH, &not_elf, err, sizeof err) != 0) {
        cli_error(path, "%s", err);
        return EXIT_TROUBLE;
    }
    static struct explanation x;   /* large: one per run */
    int rc = explain_address(&af, check, address, &x, err, sizeof err);
    if (rc == 0)
        explain_report_print(out, path, &x);
    else
        cli_error(path, "%s", err);
    audit_input_close(&af);
    return rc != 0 ? EXIT_TROUBLE : out == stdout ? cli_finish_stdout(EXIT_CLEAN) : EXIT_CLEAN;
}

static void close_baselines(struct run_baseline *rb)
{
    if (rb->baseline)
        baseline_release(rb->baseline);
    if (rb->record)
        baseline_release(rb->record);
}

/* --baseline read and --write-baseline's target checked, before any work.
 * Returns 0, or -1 with the reason printed (`dwcheck: FILE: reason`). */
static int open_baselines(const struct options *opt, struct run_baseline *rb)
{
    static struct baseline known, record;
    char err[4200];
    if (opt->baseline) {
        if (baseline_read(&known, opt->baseline, err, sizeof err) != 0) {
            cli_error(opt->baseline, "%s", err);
            baseline_release(&known);
            return -1;
        }
        rb->baseline = &known;
    }
    if (opt->write_baseline) {
        char *target = output_target(opt->write_baseline, err, sizeof err);
        if (!target) {
            cli_error(opt->write_baseline, "%s", err);
            close_baselines(rb);
            return -1;
        }
        free(target);
        memset(&record, 0, sizeof record);
        rb->record = &record;
        rb->record_path = opt->write_baseline;
    }
    return 0;
}

/* --run --explain: the static explanation of the address, then the run's
 * verdict there, on stderr. */
static int run_explain(const struct run_result *r, char **argv, const struct options *opt)
{
    const char *name = opt->explain_object;
    size_t len = opt->explain_object_len;
    if (!name) {   /* the program itself, by its base name */
        const char *slash = strrchr(argv[0], '/');
        name = slash ? slash + 1 : argv[0];
        len = strlen(name);
    }
    int object = run_explain_object(r, name, len);
    if (object < 0) {
        cli_error(NULL, "--explain: %.*s: %s", (int)len, name,
                  object == -2 ? "several objects of the run have that name: give its path"
                               : "no object of the run has that name (give OBJECT:ADDR)");
        return EXIT_TROUBLE;
    }
    int status = explain(stderr, r->objects[object], opt->explain_address, &opt->check);
    run_explain_print(stderr, r, (uint32_t)object, opt->explain_address);
    return status;
}

/* --run: PROGRAM traced and checked (execute/tracer), its report on stderr. */
static int run_program(char **argv, int argc, const struct options *opt)
{
    if (opt->merge || opt->cache_dir || opt->shards || opt->baseline || opt->write_baseline || opt->audit_option) {
        cli_error(NULL, "--run takes only --only, --step-all, --max-steps, --format, --html, --explain and --fail-on besides");
        return EXIT_TROUBLE;
    }
    if (opt->step_all && opt->nonly) {
        cli_error(NULL, "--only and --step-all exclude each other: --only steps the functions named, --step-all every one");
        return EXIT_TROUBLE;
    }
    if (argc == 0) {
        cli_error(NULL, "--run needs a PROGRAM: dwcheck --run -- PROGRAM [ARG]...");
        return EXIT_TROUBLE;
    }
    char err[4200];
    if (opt->html_dir && output_dir_check(opt->html_dir, "index.html", err, sizeof err) != 0) {
        cli_error(NULL, "%s", err);
        return EXIT_TROUBLE;
    }
    struct run_result r;
    run_result_init(&r);
    struct audit_select audit;
    audit_select_init(&audit, &r);
    struct tracer_options topt = {.max_steps = opt->max_steps, .only = opt->only, .nonly = opt->nonly,
                                  .audit = opt->step_all || opt->nonly ? NULL : &audit};
    if (tracer_run(argv, &topt, &r, err, sizeof err) != 0) {
        cli_error(argv[0], "%s", err);
        audit_select_release(&audit);
        run_result_release(&r);
        return EXIT_TROUBLE;
    }
    size_t contradictions = static_join(&r, &audit);
    audit_select_release(&audit);
    size_t refuted = opt->format == RUN_FORMAT_SARIF ? run_sarif(stderr, &r, DWCHECK_VERSION)
                                                     : execution_report(stderr, &r, argv, opt->format == RUN_FORMAT_JSON);
    int status = refuted && opt->fail_on >= 0 ? EXIT_FINDINGS : EXIT_CLEAN;
    if (opt->html_dir && run_html_write(&r, argv, opt->html_dir, err, sizeof err) != 0) {
        cli_error(NULL, "%s", err);
        status = EXIT_TROUBLE;
    }
    if (opt->explain && run_explain(&r, argv, opt) != EXIT_CLEAN)
        status = EXIT_TROUBLE;
    run_result_release(&r);
    if (topt.missing[0]) {
        cli_error(argv[0], "no function %s in it or in the objects it loaded (--only)", topt.missing);
        return EXIT_TROUBLE;
    }
    if (contradictions) {
        cli_error(NULL, "INTERNAL ERROR: the run refutes %zu rules the static audit proved; "
                  "please report it with the witnesses above", contradictions);
        return EXIT_TROUBLE;
    }
    return status;
}

int main(int argc, char **argv)
{
    cli_tool_name = "dwcheck";
    struct options opt = {.format = RUN_FORMAT_TEXT, .fail_on = SEVERITY_ERROR,
                          .check = {CHECK_PROVE_EXPRESSIONS, CHECK_PROVE_TIMEOUT_MS, .sframe = 1}};
    opt.jobs = cli_default_jobs();
    static const struct option longopts[] = {
        {"format", required_argument, NULL, 'f'},
        {"jobs", required_argument, NULL, 'j'},
        {"fail-on", required_argument, NULL, 'F'},
        {"html", required_argument, NULL, 'H'},
        {"prove", required_argument, NULL, 'P'},
        {"prove-timeout", required_argument, NULL, 'T'},
        {"cache", required_argument, NULL, 'C'},
        {"shard", required_argument, NULL, 'S'},
        {"merge", no_argument, NULL, 'M'},
        {"explain", required_argument, NULL, 'E'},
        {"baseline", required_argument, NULL, 'B'},
        {"write-baseline", required_argument, NULL, 'W'},
        {"run", no_argument, NULL, 'R'},
        {"max-steps", required_argument, NULL, 'N'},
        {"only", required_argument, NULL, 'O'},
        {"step-all", no_argument, NULL, 'A'},
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
            opt.format = (enum run_format)f;   /* RUN_FORMAT_TEXT, _JSON, _SARIF */
            break;
        }
        case 'j':
            if (cli_parse_jobs(optarg, &opt.jobs) != 0)
                return EXIT_TROUBLE;
            opt.audit_option = "--jobs";
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
            opt.audit_option = "--prove";
            break;
        }
        case 'T': {
            unsigned long long ms;
            if (cli_parse_count("--prove-timeout", optarg, 1, 600000, &ms) != 0)
                return EXIT_TROUBLE;
            opt.check.timeout_ms = (unsigned)ms;
            opt.audit_option = "--prove-timeout";
            break;
        }
        case 'C':
            if (!*optarg) {
                cli_error(NULL, "empty --cache directory");
                return EXIT_TROUBLE;
            }
            opt.cache_dir = optarg;
            opt.audit_option = "--cache";
            break;
        case 'S':
            if (shard_parse(optarg, &opt.shard, &opt.shards) != 0)
                return EXIT_TROUBLE;
            opt.audit_option = "--shard";
            break;
        case 'M':
            opt.merge = 1;
            break;
        case 'B':
        case 'W':
            if (!*optarg) {
                cli_error(NULL, "empty --%sbaseline file name", c == 'W' ? "write-" : "");
                return EXIT_TROUBLE;
            }
            *(c == 'B' ? &opt.baseline : &opt.write_baseline) = optarg;
            break;
        case 'E': {
            const char *colon = strrchr(optarg, ':');   /* OBJECT:ADDR, with --run */
            opt.explain_object = colon ? optarg : NULL;
            opt.explain_object_len = colon ? (size_t)(colon - optarg) : 0;
            if (cli_parse_address(colon ? colon + 1 : optarg, &opt.explain_address) != 0) {
                cli_error(NULL, "bad --explain address '%s'", optarg);
                return EXIT_TROUBLE;
            }
            opt.explain = 1;
            break;
        }
        case 'R':
            opt.run = 1;
            break;
        case 'N':
            if (cli_parse_count("--max-steps", optarg, 1, ~0ull, &opt.max_steps) != 0)
                return EXIT_TROUBLE;
            break;
        case 'O':
            if (add_only(&opt, optarg) != 0)
                return EXIT_TROUBLE;
            break;
        case 'A':
            opt.step_all = 1;
            break;
        default:   /* --help, --version, or a mistake */
            return cli_end_of_options(c, usage);
        }
    }
    char **files = argv + optind;
    int nfiles = argc - optind;
    struct run_baseline rb = {NULL, NULL, NULL};
    int status;
    if (opt.run)
        return run_program(files, nfiles, &opt);
    if (opt.max_steps || opt.nonly || opt.step_all) {
        cli_error(NULL, "%s goes with --run", opt.max_steps ? "--max-steps" : opt.nonly ? "--only" : "--step-all");
        return EXIT_TROUBLE;
    }
    if (opt.explain) {
        if (opt.explain_object) {
            cli_error(NULL, "--explain=OBJECT:ADDR goes with --run; the static audit's is --explain=ADDR FILE");
            return EXIT_TROUBLE;
        }
        if (opt.merge || opt.cache_dir || opt.shards || opt.html_dir || opt.format != RUN_FORMAT_TEXT ||
            opt.baseline || opt.write_baseline || nfiles != 1) {
            cli_error(NULL, "--explain takes one FILE, and only --prove and --prove-timeout besides");
            return EXIT_TROUBLE;
        }
        return explain(stdout, files[0], opt.explain_address, &opt.check);
    }
    if (opt.merge) {
        if (opt.audit_option) {
            cli_error(NULL, "%s does not apply to --merge, which audits nothing", opt.audit_option);
            return EXIT_TROUBLE;
        }
        if (nfiles == 0) {
            cli_error(NULL, "--merge needs the JSON Lines files to merge");
            return EXIT_TROUBLE;
        }
        if (open_baselines(&opt, &rb) != 0)
            return EXIT_TROUBLE;
        cli_buffer_stdout();
        status = merge_run(files, nfiles, opt.format, opt.fail_on, opt.html_dir, &rb);
        close_baselines(&rb);
        return status;
    }
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
    if (open_baselines(&opt, &rb) != 0)
        return EXIT_TROUBLE;
    cli_buffer_stdout();
    status = audit(files, nfiles, &opt, &rb);
    close_baselines(&rb);
    return status;
}
