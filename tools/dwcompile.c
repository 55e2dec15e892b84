/*
 * dwcompile: compile a binary's validated unwind tables to an eh_elf.
 *
 *   dwcompile [--force] [-o OUT.eh_elf.so] [--emit-c OUT.c] FILE
 *
 * The binary is audited first (what dwcheck does); errors refuse the
 * compilation unless --force.  The tables of .eh_frame become C
 * (compile/eh_elf_gen), which the system's cc compiles to a shared object
 * that the dwunwind runtime loads.  Outputs are written to temporary files
 * and renamed into place, so a failure never leaves a partial file over a
 * good one.
 */
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "compile/eh_elf_gen.h"
#include "object/command.h"
#include "object/elf_file.h"
#include "report/text_report.h"
#include "runtime/identity.h"
#include "semantics/cfi_eval.h"
#include "semantics/cfi_reader.h"
#include "verify/check.h"

struct options {
    const char *input;
    const char *output;      /* the eh_elf; NULL: BASENAME.eh_elf.so here */
    const char *emit_c;      /* also keep the C here */
    int force;
    int quiet;
};

static void usage(FILE *out)
{
    fprintf(out,
            "Usage: dwcompile [OPTION]... FILE\n"
            "Compile the unwind tables of ELF FILE (.eh_frame) to native code: an eh_elf\n"
            "that the dwunwind runtime uses to unwind FILE's frames in nanoseconds.\n"
            "FILE is audited first; verification errors refuse the compilation.\n"
            "\n"
            "  -o, --output=OUT   the eh_elf to write (default: BASENAME.eh_elf.so in the\n"
            "                     current directory)\n"
            "  --emit-c=OUT.c     also write the generated C to OUT.c\n"
            "  --force            compile even when verification reports errors\n"
            "  -q, --quiet        do not print the summary\n"
            "  -h, --help         show this help\n"
            "  -V, --version      show the version\n"
            "\n"
            "The C compiler is $CC, or cc.\n"
            "Exit status: 0 compiled, 1 refused (verification errors, listed on stdout),\n"
            "2 usage error, unreadable FILE, or a failed compilation.\n");
}

/* The tables of every FDE of .eh_frame; *N of them.  Returns NULL with ERR
 * (no .eh_frame, malformed). */
static struct unwind_table *read_tables(struct elf_file *ef, struct cfi_section *eh, size_t *n,
                                        char *err, size_t errlen)
{
    int rc = cfi_section_read(ef, ".eh_frame", eh, err, errlen);
    if (rc <= 0) {
        if (rc == 0)
            snprintf(err, errlen, "no .eh_frame section");
        return NULL;
    }
    struct cfi_eval ev;
    if (cfi_eval_init(&ev, eh) != 0) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    struct unwind_table *t;
    struct cfa_error ce = {0};
    const struct cfi_fde *bad = NULL;
    rc = cfi_eval_all_tables(&ev, &t, n, &ce, &bad);
    if (rc == -2)
        snprintf(err, errlen, "out of memory");
    else if (rc != 0)
        snprintf(err, errlen, ".eh_frame: FDE for 0x%llx: %s", (unsigned long long)bad->pc_begin,
                 ce.reason ? ce.reason : "malformed");
    cfi_eval_release(&ev);
    return rc == 0 ? t : NULL;
}

/* A temporary file next to PATH; its name in BUF.  Returns an fd, or -1. */
static int temp_beside(const char *path, const char *suffix, char *buf, size_t len)
{
    int n = snprintf(buf, len, "%s.tmp-XXXXXX%s", path, suffix);
    if (n < 0 || (size_t)n >= len) {
        errno = ENAMETOOLONG;
        return -1;
    }
    return mkstemps(buf, (int)strlen(suffix));
}

/* FILE's identity (runtime/identity.h): its build-id, else a hash of its
 * .eh_frame_hdr.  Returns 0, or -1 with ERR. */
static int object_identity(struct elf_file *ef, struct dwu_identity *id, char *err, size_t errlen)
{
    uint64_t n;
    struct elf_section *notes = elf_file_section(ef, ".note.gnu.build-id");
    const uint8_t *bytes = notes ? elf_file_section_bytes(ef, notes, &n, err, errlen) : NULL;
    if (bytes && dwu_identity_from_notes(bytes, (size_t)n, id) == 0)
        return 0;
    struct elf_section *hdr = elf_file_section(ef, ".eh_frame_hdr");
    if (!hdr || !(bytes = elf_file_section_bytes(ef, hdr, &n, err, errlen))) {
        snprintf(err, errlen, "no build-id and no .eh_frame_hdr: the runtime could not find the "
                              "tables, nor tell this build from another");
        return -1;
    }
    dwu_identity_from_hdr(bytes, (size_t)n, id);
    return 0;
}

static int compile(const struct options *opt, const struct unwind_table *const *tables, size_t n,
                   const struct dwu_identity *id)
{
    char c_path[4096], so_path[4096], err[256];
    char default_out[4096];
    const char *out = opt->output;
    if (!out) {
        char *copy = strdup(opt->input);
        if (!copy) {
            cli_error(opt->input, "out of memory");
            return EXIT_TROUBLE;
        }
        int len = snprintf(default_out, sizeof default_out, "%s.eh_elf.so", basename(copy));
        if (len < 0 || (size_t)len >= sizeof default_out) {
            free(copy);
            cli_error(opt->input, "file name too long");
            return EXIT_TROUBLE;
        }
        free(copy);
        out = default_out;
    }
    int fd = temp_beside(opt->emit_c ? opt->emit_c : out, ".c", c_path, sizeof c_path);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        cli_error(opt->emit_c ? opt->emit_c : out, "cannot create: %s", strerror(errno));
        if (fd >= 0)
            close(fd);
        return EXIT_TROUBLE;
    }
    struct eh_elf_stats st;
    int rc = eh_elf_generate(f, tables, n, opt->input, id, &st, err, sizeof err);
    if (fclose(f) != 0 && rc == 0) {
        snprintf(err, sizeof err, "write error: %s", strerror(errno));
        rc = -1;
    }
    if (rc != 0) {
        cli_error(opt->input, "%s", err);
        unlink(c_path);
        return EXIT_TROUBLE;
    }
    fd = temp_beside(out, ".so", so_path, sizeof so_path);
    if (fd < 0) {
        cli_error(out, "cannot create: %s", strerror(errno));
        unlink(c_path);
        return EXIT_TROUBLE;
    }
    close(fd);
    size_t ncc;
    char **cc = command_cc(&ncc);
    char **argv = cc ? calloc(ncc + 8, sizeof *argv) : NULL;
    int compiled = -1;
    if (argv) {
        static char *const flags[] = {"-O2", "-fPIC", "-shared", "-fno-asynchronous-unwind-tables", "-o"};
        size_t k = 0;
        for (size_t i = 0; i < ncc; i++)
            argv[k++] = cc[i];
        for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
            argv[k++] = flags[i];
        argv[k++] = so_path;
        argv[k++] = c_path;
        compiled = command_run(argv, 0, NULL);
    }
    if (compiled != 0) {
        cli_error(opt->input, "the C compiler (%s) failed on the generated code", cc ? cc[0] : "cc");
        command_words_free(cc);
        free(argv);
        unlink(so_path);
        unlink(c_path);
        return EXIT_TROUBLE;
    }
    command_words_free(cc);
    free(argv);
    if (rename(so_path, out) != 0) {
        cli_error(out, "cannot write: %s", strerror(errno));
        unlink(so_path);
        unlink(c_path);
        return EXIT_TROUBLE;
    }
    if (opt->emit_c) {
        if (rename(c_path, opt->emit_c) != 0) {
            cli_error(opt->emit_c, "cannot write: %s", strerror(errno));
            unlink(c_path);
            return EXIT_TROUBLE;
        }
    } else {
        unlink(c_path);
    }
    if (!opt->quiet)
        printf("%s: %zu FDEs, %zu rows -> %zu entries, %zu row bodies, %zu expressions: %s\n",
               opt->input, st.tables, st.rows, st.entries, st.bodies, st.expressions, out);
    return 0;
}

int main(int argc, char **argv)
{
    cli_tool_name = "dwcompile";
    struct options opt = {0};
    enum { OPT_EMIT_C = 256, OPT_FORCE };
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'}, {"emit-c", required_argument, NULL, OPT_EMIT_C},
        {"force", no_argument, NULL, OPT_FORCE}, {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},         {"version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0},
    };
    int c;
    while ((c = getopt_long(argc, argv, "o:qhV", longopts, NULL)) != -1) {
        switch (c) {
        case 'o': opt.output = optarg; break;
        case OPT_EMIT_C: opt.emit_c = optarg; break;
        case OPT_FORCE: opt.force = 1; break;
        case 'q': opt.quiet = 1; break;
        case 'h': usage(stdout); return EXIT_CLEAN;
        case 'V': cli_print_version(); return EXIT_CLEAN;
        default: usage(stderr); return EXIT_TROUBLE;
        }
    }
    if (optind != argc - 1) {
        cli_error(NULL, optind == argc ? "no input file" : "one input file at a time");
        usage(stderr);
        return EXIT_TROUBLE;
    }
    opt.input = argv[optind];

    /* The gate: verification errors refuse the compilation. */
    char err[512];
    struct check_result result;
    int not_elf = 0;
    if (check_file(opt.input, &result, &not_elf, err, sizeof err) != 0) {
        cli_error(opt.input, "%s", err);
        return EXIT_TROUBLE;
    }
    size_t errors = check_count(&result, SEVERITY_ERROR);
    if (errors) {
        report_text_file(stdout, opt.input, &result);
        if (!opt.force) {
            check_result_release(&result);
            cli_error(opt.input, "refused: verification reports %zu error%s (--force compiles anyway)",
                      errors, errors == 1 ? "" : "s");
            return cli_finish_stdout(EXIT_FINDINGS);
        }
        cli_error(opt.input, "compiling despite %zu verification error%s (--force)", errors,
                  errors == 1 ? "" : "s");
    }
    check_result_release(&result);

    struct elf_file ef;
    if (elf_file_open(&ef, opt.input, err, sizeof err) != 0) {
        cli_error(opt.input, "%s", err);
        return EXIT_TROUBLE;
    }
    struct dwu_identity id;
    if (object_identity(&ef, &id, err, sizeof err) != 0) {
        cli_error(opt.input, "%s", err);
        elf_file_close(&ef);
        return EXIT_TROUBLE;
    }
    struct cfi_section eh;
    size_t n = 0;
    struct unwind_table *tables = read_tables(&ef, &eh, &n, err, sizeof err);
    if (!tables) {
        cli_error(opt.input, "%s", err);
        elf_file_close(&ef);
        return EXIT_TROUBLE;
    }
    const struct unwind_table **ptrs = malloc((n + 1) * sizeof *ptrs);
    int status = EXIT_TROUBLE;
    if (!ptrs) {
        cli_error(opt.input, "out of memory");
    } else {
        for (size_t i = 0; i < n; i++)
            ptrs[i] = &tables[i];
        status = compile(&opt, ptrs, n, &id);
    }
    free(ptrs);
    cfi_eval_tables_release(tables, n);
    cfi_section_release(&eh);
    elf_file_close(&ef);
    return cli_finish_stdout(status);
}
