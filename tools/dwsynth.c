/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dwsynth: derive every function's unwind table from its machine code.
 *
 *   dwsynth [--function=NAME | --address=ADDR] [--format=readelf|json|cfi] FILE
 *   dwsynth --compare FILE...
 *   dwsynth annotate IN.s|IN.S [-o OUT] [-v] [-- CPPFLAGS/ASFLAGS...]
 *   dwsynth repair [--dry-run] FILE -o OUT
 *
 * The readelf format prints one block per function, `NAME pc=LO..HI`, then
 * rows in dwtable's layout so the two diff; `cfi` prints the GAS directives
 * that describe the same rows, at `func+off`; JSON carries the rows and the
 * functions that could not be synthesised.  --compare measures agreement with
 * the file's own DWARF tables.  `annotate` writes the CFI of every function
 * of an assembly source into it (annotate/annotate.h).
 */
#include <getopt.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "annotate/annotate.h"
#include "semantics/print/cfi_text.h"
#include "cli.h"
#include "dwsynth_repair.h"
#include "object/elf_file.h"
#include "sys/output_file.h"
#include "semantics/abi.h"
#include "report/json_string.h"
#include "report/table_json.h"
#include "semantics/print/table_print.h"
#include "synth/program.h"
#include "verify/audit/agreement.h"

enum format { FORMAT_READELF, FORMAT_JSON, FORMAT_CFI };

struct options {
    enum format format;
    const char *function;
    int have_address;
    unsigned long long address;
    int compare;
    size_t top_causes;
    int jobs;
};

static void usage(FILE *out)
{
    fprintf(out,
            "Usage: dwsynth [OPTION]... FILE\n"
            "       dwsynth --compare FILE...\n"
            "       dwsynth annotate [-o OUT] [-v] IN.s|IN.S [-- CPPFLAGS/ASFLAGS...]\n"
            "       dwsynth repair [--dry-run] FILE -o OUT\n"
            "Synthesise the unwind table of every function of an x86_64 ELF FILE from its\n"
            "machine code: where the caller's frame (CFA), the return address and each\n"
            "callee-saved register are, at every instruction.\n"
            "\n"
            "  --format=readelf   one block per function, rows in readelf -wF's layout (default)\n"
            "  --format=cfi       GAS .cfi_* directives per function, at func+offset\n"
            "  --format=json      one JSON document, functions and rows\n"
            "  --function=NAME    only the function NAME\n"
            "  --address=ADDR     only the function containing ADDR\n"
            "  --compare          compare with the file's .eh_frame and print agreement\n"
            "  --causes=N         with --compare, list the N largest causes of disagreement (10)\n"
            "  -j, --jobs=N       with --compare, N processes (default: all cores)\n"
            "  -h, --help         show this help\n"
            "  -V, --version      show the version\n"
            "\n"
            "Rules print as in dwtable; `?` is a value synthesis could not determine.\n"
            "`dwsynth annotate --help' describes writing CFI into an assembly source;\n"
            "`dwsynth repair --help' writing a binary's validated unwind table into a copy.\n"
            "Exit status: 0 every function synthesised, 1 some could not be (listed on\n"
            "stderr with the reason), 2 usage error or unreadable file (an unreadable\n"
            ".eh_frame too: functions are then taken from symbols only).\n");
}

/* Columns a function's block shows: the callee-saved registers it saves, and ra. */
static void table_columns(const struct unwind_table *t, struct column_set *cols)
{
    memset(cols, 0, sizeof *cols);
    column_set_add(cols, ABI_RA);
    for (size_t i = 0; i < t->nrows; i++)
        for (unsigned c = 0; c < UNWIND_COLUMNS; c++)
            if (t->rows[i].reg[c].kind != REG_RULE_UNREFERENCED)
                column_set_add(cols, c);
}

static void print_readelf(FILE *out, const struct function_range *f, const struct unwind_table *t)
{
    fprintf(out, "\n%s pc=%016llx..%016llx\n", f->name[0] ? f->name : "(unnamed)",
            (unsigned long long)f->lo, (unsigned long long)f->hi);
    struct column_set cols;
    table_columns(t, &cols);
    table_print_readelf_header(out, &cols, ABI_RA);
    for (size_t i = 0; i < t->nrows; i++)
        table_print_readelf_row(out, t->rows[i].start, &t->rows[i].cfa, t->rows[i].reg, UNWIND_COLUMNS,
                                &cols);
}

static void print_json_function(FILE *out, const struct function_range *f,
                                const struct unwind_table *t, const char *reason, int first)
{
    static const char *const sources[] = {"fde", "symbol", "plt"};
    fprintf(out, "%s{\"name\":", first ? "" : ",");
    json_string_print(out, f->name);
    fprintf(out, ",\"lo\":%llu,\"hi\":%llu,\"source\":\"%s\",\"status\":\"%s\"",
            (unsigned long long)f->lo, (unsigned long long)f->hi, sources[f->source],
            reason ? "unknown" : "ok");
    if (reason) {
        fputs(",\"reason\":", out);
        json_string_print(out, reason);
    }
    fputs(",\"rows\":[", out);
    for (size_t i = 0; i < t->nrows; i++) {
        const struct unwind_row *r = &t->rows[i];
        fprintf(out, "%s{\"start\":%llu,\"end\":%llu,\"cfa\":", i ? "," : "",
                (unsigned long long)r->start, (unsigned long long)r->end);
        table_json_rule(out, &r->cfa, 1);
        fputs(",\"registers\":{", out);
        int firstreg = 1;
        for (unsigned c = 0; c < UNWIND_COLUMNS; c++) {
            if (r->reg[c].kind == REG_RULE_UNREFERENCED)
                continue;
            fprintf(out, "%s\"%s\":", firstreg ? "" : ",", unwind_column_name((int)c));
            table_json_rule(out, &r->reg[c], 0);
            firstreg = 0;
        }
        fputs("}}", out);
    }
    fputs("]}", out);
}

static void print_cfi(FILE *out, const struct function_range *f, const struct unwind_table *t)
{
    const char *name = f->name[0] ? f->name : "(unnamed)";
    fprintf(out, "\n%s:\t# pc=%016llx..%016llx\n\t.cfi_startproc\n", name,
            (unsigned long long)f->lo, (unsigned long long)f->hi);
    struct unwind_row prev;
    cfi_entry_row(&prev);
    for (size_t i = 0; i < t->nrows; i++) {
        char prefix[256];
        snprintf(prefix, sizeof prefix, "%s+0x%llx:\t", name, (unsigned long long)(t->rows[i].start - f->lo));
        cfi_write_transition(out, prefix, "\n", &prev, &t->rows[i], CFI_REGS_PERCENT);
        prev = t->rows[i];
    }
    fputs("\t.cfi_endproc\n", out);
}

static int selected(const struct options *opt, const struct function_range *f)
{
    if (opt->function)
        return strcmp(f->name, opt->function) == 0;
    if (opt->have_address)
        return opt->address >= f->lo && opt->address < f->hi;
    return 1;
}

static int synth_file(const char *path, const struct options *opt, FILE *out)
{
    char err[ELF_FILE_ERRLEN + 64], eh_err[ELF_FILE_ERRLEN] = "";
    struct elf_file ef;
    if (elf_file_open(&ef, path, err, sizeof err) != 0) {
        cli_error(path, "%s", err);
        return EXIT_TROUBLE;
    }
    struct synth_program prog;
    if (synth_program_open(&prog, &ef, eh_err, sizeof eh_err, err, sizeof err) != 0) {
        cli_error(path, "%s", err);
        elf_file_close(&ef);
        return EXIT_TROUBLE;
    }
    /* Unreadable unwind data is not needed to synthesise: say so and go on,
     * but the file could not be read whole (exit status 2). */
    if (eh_err[0])
        cli_error(path, "%s (functions are taken from symbols only)", eh_err);
    int status = EXIT_CLEAN;
    if (opt->format == FORMAT_JSON) {
        fputs("{\"file\":", out);
        json_string_print(out, path);
        fputs(",\"functions\":[", out);
    }
    size_t shown = 0;
    for (size_t i = 0; i < prog.index.nfuncs; i++) {
        const struct function_range *f = &prog.index.funcs[i];
        if (!selected(opt, f))
            continue;
        struct unwind_table t;
        struct synth_outcome outcome;
        if (synth_program_function(&prog, i, &t, NULL, NULL, &outcome) != 0) {
            cli_error(path, "%s (0x%llx): cannot synthesise: %s",
                      f->name[0] ? f->name : "(unnamed)", (unsigned long long)f->lo, outcome.reason);
            status = EXIT_FINDINGS;
        }
        if (opt->format == FORMAT_JSON)
            print_json_function(out, f, &t, outcome.reason, shown == 0);
        else if (opt->format == FORMAT_CFI)
            print_cfi(out, f, &t);
        else
            print_readelf(out, f, &t);
        shown++;
        unwind_table_release(&t);
    }
    if (opt->format == FORMAT_JSON)
        fputs("]}\n", out);
    if (shown == 0 && (opt->function || opt->have_address)) {
        if (opt->function)
            cli_error(path, "no function named %s", opt->function);
        else
            cli_error(path, "no function contains address 0x%llx", opt->address);
        status = EXIT_FINDINGS;
    }
    synth_program_close(&prog);
    elf_file_close(&ef);
    return eh_err[0] ? EXIT_TROUBLE : status;
}

/* Worker K of JOBS: compare files K, K+JOBS, ... and write the sum to FD. */
static int compare_worker(char **files, int nfiles, int k, int jobs, int fd)
{
    struct agreement *sum = calloc(1, sizeof *sum);
    if (!sum)
        return EXIT_TROUBLE;
    int status = EXIT_CLEAN;
    for (int i = k; i < nfiles; i += jobs) {
        char err[ELF_FILE_ERRLEN + 64];
        struct agreement *one = calloc(1, sizeof *one);
        if (!one)
            return EXIT_TROUBLE;
        if (agreement_add_file(one, files[i], err, sizeof err) != 0) {
            cli_error(files[i], "%s", err);
            status = EXIT_TROUBLE;
        } else {
            agreement_merge(sum, one);
        }
        free(one);
        if (isatty(2) && k == 0)
            fprintf(stderr, "\r%d/%d files", i + 1, nfiles);
    }
    const char *p = (const char *)sum;
    size_t left = sizeof *sum;
    while (left > 0) {
        ssize_t w = write(fd, p, left);
        if (w <= 0)
            return EXIT_TROUBLE;
        p += w;
        left -= (size_t)w;
    }
    free(sum);
    return status;
}

/* Compare every file with its DWARF, in JOBS processes; print the figures. */
static int compare_files(char **files, int nfiles, const struct options *opt)
{
    int jobs = opt->jobs < nfiles ? opt->jobs : nfiles;
    struct agreement *total = calloc(1, sizeof *total), *part = malloc(sizeof *part);
    pid_t *pids = calloc((size_t)jobs, sizeof *pids);
    int *fds = calloc((size_t)jobs, sizeof *fds);
    if (!total || !part || !pids || !fds) {
        cli_error(NULL, "out of memory");
        return EXIT_TROUBLE;
    }
    fflush(NULL);
    for (int k = 0; k < jobs; k++) {
        int pipefd[2];
        if (pipe(pipefd) != 0) {
            cli_error(NULL, "cannot create a pipe");
            return EXIT_TROUBLE;
        }
        pids[k] = fork();
        if (pids[k] < 0) {
            cli_error(NULL, "cannot fork");
            return EXIT_TROUBLE;
        }
        if (pids[k] == 0) {
            close(pipefd[0]);
            _exit(compare_worker(files, nfiles, k, jobs, pipefd[1]));
        }
        close(pipefd[1]);
        fds[k] = pipefd[0];
    }
    int status = EXIT_CLEAN;
    for (int k = 0; k < jobs; k++) {
        char *p = (char *)part;
        size_t got = 0;
        ssize_t r;
        while (got < sizeof *part && (r = read(fds[k], p + got, sizeof *part - got)) > 0)
            got += (size_t)r;
        close(fds[k]);
        int ws;
        waitpid(pids[k], &ws, 0);
        if (got != sizeof *part || !WIFEXITED(ws)) {
            cli_error(NULL, "a worker process failed");
            status = EXIT_TROUBLE;
            continue;
        }
        if (WEXITSTATUS(ws) > status)
            status = WEXITSTATUS(ws);
        agreement_merge(total, part);
    }
    if (isatty(2))
        fputc('\n', stderr);
    agreement_print(stdout, total, nfiles == 1 ? files[0] : "total", opt->top_causes);
    free(total);
    free(part);
    free(pids);
    free(fds);
    return status;
}

static void annotate_usage(FILE *out)
{
    fprintf(out,
            "Usage: dwsynth annotate [-o OUT] [-v] IN.s|IN.S [-- CPPFLAGS/ASFLAGS...]\n"
            "Write correct CFI into a hand-written x86_64 assembly source: .cfi_startproc\n"
            "at the start of each function, the .cfi_* directives after each line that\n"
            "changes the frame (.cfi_remember_state/.cfi_restore_state around early\n"
            "exits) and .cfi_endproc at its end, synthesised from the assembled code.\n"
            "Every other line is kept byte for byte; annotating an annotated file changes\n"
            "nothing.  A function is a `.type NAME, @function` symbol or a global label\n"
            "that a call targets.  Functions that carry CFI already are left as they are,\n"
            "and their CFI is checked; the CFI written is checked too.\n"
            "\n"
            "The source is assembled with $CC (default cc) -g -c; the flags after `--`\n"
            "(-I, -D, -Wa,...) go to every compilation.  Each compiler run gets at most\n"
            "$DWCHECK_CC_MEMORY MiB of address space (4096) and $DWCHECK_CC_SECONDS\n"
            "seconds (120); 0 lifts a limit.  Interrupted (SIGINT, SIGTERM, SIGHUP), the\n"
            "tool stops the compiler, removes its temporary directory and dies of the\n"
            "signal.\n"
            "\n"
            "  -o, --output=OUT   write the annotated source to OUT (replaced atomically;\n"
            "                     left untouched on error; a symbolic link is followed,\n"
            "                     anything but a regular file refused); `-' or no -o:\n"
            "                     standard output\n"
            "  -v, --verbose      one line per function on stderr, and the totals\n"
            "  -h, --help         show this help\n"
            "\n"
            "Problems are reported on stderr as `dwsynth: IN: FUNCTION (line N): reason':\n"
            "functions that cannot be synthesised (left without CFI), lines that change\n"
            "the frame in their middle (a macro: the CFI is exact at the line's end only),\n"
            "findings in the CFI a function carried.\n"
            "Exit status: 0 every function annotated exactly and checked CFI clean;\n"
            "1 some function not annotated, or not exactly, or checked CFI with errors\n"
            "(the output is still written); 2 usage error, unreadable input, a source\n"
            "that does not assemble (the assembler's messages are shown) or an output\n"
            "that cannot be written: nothing is written then.\n");
}

/* dwsynth annotate ...: ARGV[0] is "annotate". */
static int annotate_main(int argc, char **argv)
{
    /* Everything after `--` is for the compiler. */
    int dashes = argc;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--") == 0) {
            dashes = i;
            break;
        }
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'},
        {"verbose", no_argument, NULL, 'v'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *output = NULL;
    struct annotate_options opt = {0};
    int c;
    static char name[] = "dwsynth annotate";   /* how getopt's messages name us */
    argv[0] = name;
    optind = 1;
    while ((c = getopt_long(dashes, argv, "o:vh", longopts, NULL)) != -1) {
        switch (c) {
        case 'o':
            output = optarg;
            break;
        case 'v':
            opt.verbose = 1;
            break;
        default:   /* --help, --version, or a mistake */
            return cli_end_of_options(c, annotate_usage);
        }
    }
    if (dashes - optind != 1) {
        cli_error(NULL, "annotate: %s (try dwsynth annotate --help)",
                  optind == dashes ? "no input source" : "one source at a time");
        return EXIT_TROUBLE;
    }
    opt.input = argv[optind];
    if (dashes < argc) {
        opt.flags = argv + dashes + 1;
        opt.nflags = (size_t)(argc - dashes - 1);
    }
    if (output && strcmp(output, "-") != 0) {   /* a device, a FIFO...: refused before any work */
        char why[512];
        char *target = output_target(output, why, sizeof why);
        if (!target) {
            cli_error(output, "%s", why);
            return EXIT_TROUBLE;
        }
        free(target);
    }
    struct annotate_result r;
    annotate_source(&opt, &r);
    for (size_t i = 0; i < r.nmessages; i++)
        cli_error(opt.input, "%s", r.messages[i]);
    int status = r.status;
    if (status != EXIT_TROUBLE) {
        char err[256];
        if (output && strcmp(output, "-") != 0) {
            if (output_write(output, r.text, r.size, err, sizeof err) != 0) {
                cli_error(output, "%s", err);
                status = EXIT_TROUBLE;
            }
        } else {
            fwrite(r.text, 1, r.size, stdout);
            status = cli_finish_stdout(status);
        }
    }
    annotate_result_release(&r);
    return status;
}

int main(int argc, char **argv)
{
    cli_tool_name = "dwsynth";
    if (argc > 1 && strcmp(argv[1], "annotate") == 0)
        return annotate_main(argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "repair") == 0)
        return dwsynth_repair_main(argc - 1, argv + 1);
    struct options opt = {.format = FORMAT_READELF, .top_causes = 10};
    opt.jobs = cli_default_jobs();
    static const struct option longopts[] = {
        {"format", required_argument, NULL, 'f'},
        {"function", required_argument, NULL, 'F'},
        {"address", required_argument, NULL, 'a'},
        {"compare", no_argument, NULL, 'c'},
        {"causes", required_argument, NULL, 'C'},
        {"jobs", required_argument, NULL, 'j'},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0},
    };
    int c;
    while ((c = getopt_long(argc, argv, "f:F:a:cj:hV", longopts, NULL)) != -1) {
        switch (c) {
        case 'f': {
            static const char *const formats[] = {"readelf", "json", "cfi", NULL};
            int f = cli_pick("format", optarg, formats);
            if (f < 0)
                return EXIT_TROUBLE;
            opt.format = (enum format)f;   /* FORMAT_READELF, FORMAT_JSON, FORMAT_CFI */
            break;
        }
        case 'F':
            opt.function = optarg;
            break;
        case 'a':
            if (cli_parse_address(optarg, &opt.address) != 0) {
                cli_error(NULL, "bad address '%s'", optarg);
                return EXIT_TROUBLE;
            }
            opt.have_address = 1;
            break;
        case 'c':
            opt.compare = 1;
            break;
        case 'C': {
            unsigned long long n;
            if (cli_parse_address(optarg, &n) != 0) {
                cli_error(NULL, "bad --causes '%s'", optarg);
                return EXIT_TROUBLE;
            }
            opt.top_causes = (size_t)n;
            break;
        }
        case 'j':
            if (cli_parse_jobs(optarg, &opt.jobs) != 0)
                return EXIT_TROUBLE;
            break;
        default:   /* --help, --version, or a mistake */
            return cli_end_of_options(c, usage);
        }
    }
    if (optind == argc) {
        cli_error(NULL, "no input file (try --help)");
        return EXIT_TROUBLE;
    }
    if (opt.function && opt.have_address) {
        cli_error(NULL, "--function and --address exclude each other");
        return EXIT_TROUBLE;
    }
    if (opt.compare)
        return compare_files(argv + optind, argc - optind, &opt);
    if (argc - optind > 1) {
        cli_error(NULL, "one FILE at a time (or --compare FILE...)");
        return EXIT_TROUBLE;
    }
    cli_buffer_stdout();
    return cli_finish_stdout(synth_file(argv[optind], &opt, stdout));
}
