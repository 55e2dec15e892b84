/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dwcompile: compile a binary's validated unwind tables to an eh_elf.
 *
 *   dwcompile [--force | --repair] [-o OUT.eh_elf.so] [--emit-c OUT.c] FILE
 *
 * The binary is opened and its .eh_frame read once (verify/audit/audit_input),
 * audited first (what dwcheck does: errors refuse the compilation unless
 * --force), then the same tables become C (compile/eh_elf_gen), which the
 * system's cc compiles to a shared object that the dwunwind runtime loads,
 * stamped with the binary's identity (object/identity).  Outputs are written
 * to temporary files and renamed into place (sys/output_file; the shared
 * object through compile/cc_build, whose compiler runs bounded in its own
 * process group), so a failure or an interruption never leaves a partial
 * file over a good one, nor a temporary file; an output that is a device, a
 * FIFO or a directory is refused before any work.  The temporaries of the C
 * and the shared object (OUT.tmp-XXXXXX.c, and the directory OUT.tmp-XXXXXX
 * the compiler writes into) are made with O_EXCL, O_NOFOLLOW and random
 * names, and locked while they live (runtime/trusted_path.h): those of a
 * run killed outright (SIGKILL) are removed by the next run writing OUT.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "compile/cc_build.h"
#include "compile/eh_elf_gen.h"
#include "object/elf_file.h"
#include "object/identity.h"
#include "sys/error.h"
#include "sys/output_file.h"
#include "sys/signals.h"
#include "runtime/trusted_path.h"
#include "report/text_report.h"
#include "semantics/cfi_eval.h"
#include "semantics/cfi_reader.h"
#include "verify/audit/audit_input.h"
#include "verify/audit/check.h"
#include "verify/validated_table.h"

struct options {
    const char *input;
    const char *output;      /* the eh_elf; NULL: BASENAME.eh_elf.so here */
    const char *emit_c;      /* also keep the C here */
    int force;
    int repair;              /* compile the validated table (verify/validated_table) */
    int quiet;
};

static void usage(FILE *out)
{
    fprintf(out,
            "Usage: dwcompile [OPTION]... FILE\n"
            "Compile the unwind tables of ELF FILE (.eh_frame) to native code: an eh_elf\n"
            "that the dwunwind runtime uses to unwind FILE's frames in nanoseconds.\n"
            "FILE is audited first; verification errors refuse the compilation, unless\n"
            "--repair compiles its validated table instead.\n"
            "\n"
            "  -o, --output=OUT   the eh_elf to write (default: BASENAME.eh_elf.so in the\n"
            "                     current directory)\n"
            "  --emit-c=OUT.c     also write the generated C to OUT.c\n"
            "  --force            compile even when verification reports errors\n"
            "  --repair           compile the validated table: DWARF's rows where the audit\n"
            "                     finds them right or cannot decide, synthesis's rules where\n"
            "                     it finds them wrong, synthesised rows for code without an\n"
            "                     FDE (as dwsynth repair writes them); each step then tells\n"
            "                     the rule's provenance (DWU_FLAG_SYNTHESISED,\n"
            "                     DWU_FLAG_UNCHECKED in the registers dwu_step gives)\n"
            "  -q, --quiet        do not print the summary\n"
            "  -h, --help         show this help\n"
            "  -V, --version      show the version\n"
            "\n"
            "Outputs are replaced atomically and left untouched on error; a symbolic link\n"
            "is followed (the file it leads to is written); an output that exists and is\n"
            "not a regular file (a device, a FIFO, a directory) is refused.\n"
            "\n"
            "The C compiler is $CC, or cc.  It runs in its own process group, stopped when\n"
            "dwcompile is interrupted, with $DWCHECK_CC_MEMORY MiB of address space (4096)\n"
            "and $DWCHECK_CC_SECONDS seconds (120); 0 lifts a limit.\n"
            "An interrupted dwcompile (SIGINT, SIGTERM, SIGHUP) removes its temporary files\n"
            "and dies of the signal; those of one killed outright are removed by the next\n"
            "run that writes the same output.\n"
            "Exit status: 0 compiled, 1 refused (verification errors, listed on stdout),\n"
            "2 usage error, unreadable FILE, or a failed compilation.\n");
}

/* The tables of every FDE of EH (.eh_frame, read once with the audit); *N
 * of them.  Returns NULL with ERR (malformed). */
static struct unwind_table *read_tables(const struct cfi_section *eh, size_t *n, char *err, size_t errlen)
{
    struct cfi_eval ev;
    if (cfi_eval_init(&ev, eh) != 0) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    struct unwind_table *t;
    struct cfa_error ce = {0};
    const struct eh_frame_fde *bad = NULL;
    int rc = cfi_eval_all_tables(&ev, &t, n, &ce, &bad);
    if (rc == -2)
        snprintf(err, errlen, "out of memory");
    else if (rc != 0)
        snprintf(err, errlen, ".eh_frame: FDE for 0x%llx: %s", (unsigned long long)bad->pc_begin,
                 ce.reason ? ce.reason : "malformed");
    cfi_eval_release(&ev);
    return rc == 0 ? t : NULL;
}

/* Where the outputs go (sys/output_file): the eh_elf, and the C when
 * kept; the eh_elf's name as the user gave it, for the summary. */
struct targets {
    char *eh_elf, *c;
    const char *eh_elf_name;
    char default_name[4096];
};

/* Resolve the outputs of OPT, before any work: a device, a FIFO or a
 * directory is refused.  Returns 0, or -1 (reported). */
static int resolve_targets(const struct options *opt, struct targets *t)
{
    char why[512];
    memset(t, 0, sizeof *t);
    t->eh_elf_name = opt->output;
    if (!t->eh_elf_name) {
        char *copy = strdup(opt->input);
        if (!copy) {
            cli_error(opt->input, "out of memory");
            return -1;
        }
        int len = snprintf(t->default_name, sizeof t->default_name, "%s.eh_elf.so", basename(copy));
        free(copy);
        if (len < 0 || (size_t)len >= sizeof t->default_name) {
            cli_error(opt->input, "file name too long");
            return -1;
        }
        t->eh_elf_name = t->default_name;
    }
    if (!(t->eh_elf = output_target(t->eh_elf_name, why, sizeof why))) {
        cli_error(t->eh_elf_name, "%s", why);
        return -1;
    }
    if (opt->emit_c && !(t->c = output_target(opt->emit_c, why, sizeof why))) {
        cli_error(opt->emit_c, "%s", why);
        free(t->eh_elf);
        t->eh_elf = NULL;
        return -1;
    }
    return 0;
}

static void targets_release(struct targets *t)
{
    free(t->eh_elf);
    free(t->c);
}

/* The generated C: TARGET.tmp-XXXXXX.c beside TARGET (where the C is kept,
 * else the eh_elf), made under its directory's descriptor with O_EXCL and
 * O_NOFOLLOW and locked while it lives (runtime/trusted_path.h), so that
 * the leftovers of a run killed outright are removed by the next run (the
 * sweep done here); registered with sys/signals for an interruption. */
struct c_temp {
    int dirfd;
    const char *base;                /* TARGET's name in its directory */
    struct dwu_trusted_temp t;
    char path[PATH_MAX];
};

static int c_temp_create(struct c_temp *c, const char *target, char *err, size_t errlen)
{
    c->t.fd = -1;
    c->path[0] = '\0';
    if ((c->dirfd = dwu_trusted_parent_open(target, &c->base)) < 0)
        return error_set(err, errlen, "cannot open its directory: %s", strerror(errno));
    dwu_trusted_temp_sweep(c->dirfd, c->base);
    sigset_t saved;
    signals_block(NULL, &saved);   /* an interruption between the two would leave the file */
    int e = dwu_trusted_temp_create(c->dirfd, c->base, ".c", 0, &c->t) != 0 ? errno : 0;
    if (!e && ((size_t)snprintf(c->path, sizeof c->path, "%.*s%s", (int)(c->base - target), target, c->t.name) >=
                   sizeof c->path ||
               signals_register(c->path, 0) != 0)) {
        e = ENOMEM;
        dwu_trusted_temp_discard(c->dirfd, &c->t);
        c->path[0] = '\0';
    }
    signals_restore(&saved);
    if (e) {
        close(c->dirfd);
        return error_set(err, errlen, "cannot create a temporary file next to it: %s", strerror(e));
    }
    return 0;
}

static void c_temp_discard(struct c_temp *c)
{
    if (c->path[0])
        signals_unregister(c->path);
    dwu_trusted_temp_discard(c->dirfd, &c->t);
    close(c->dirfd);
}

/* Rename C over its target, which must still be a regular file or absent,
 * with the mode of the file it replaces, else what the umask allows. */
static int c_temp_keep(struct c_temp *c, char *err, size_t errlen)
{
    struct stat st;
    mode_t mode;
    int there = fstatat(c->dirfd, c->base, &st, AT_SYMLINK_NOFOLLOW) == 0;
    if (there && !S_ISREG(st.st_mode)) {
        c_temp_discard(c);
        return error_set(err, errlen, "not a regular file (%s)", error_file_kind(st.st_mode));
    }
    if (there) {
        mode = st.st_mode & 07777;
    } else {
        mode_t mask = umask(0);
        umask(mask);
        mode = 0666 & ~mask;
    }
    if (fchmod(c->t.fd, mode) != 0 || dwu_trusted_temp_commit(c->dirfd, &c->t, c->base) != 0) {
        int e = errno;
        c_temp_discard(c);
        return error_set(err, errlen, "cannot write: %s", strerror(e));
    }
    signals_unregister(c->path);
    close(c->dirfd);
    return 0;
}

static int compile(const struct options *opt, const struct targets *t, const struct unwind_table *const *tables,
                   const uint8_t *const *provenance, size_t n, const struct dwu_identity *id)
{
    char err[512];
    /* The C beside where it is kept, else beside the eh_elf. */
    struct c_temp c_tmp;
    if (c_temp_create(&c_tmp, t->c ? t->c : t->eh_elf, err, sizeof err) != 0) {
        cli_error(opt->emit_c ? opt->emit_c : t->eh_elf_name, "%s", err);
        return EXIT_TROUBLE;
    }
    int copy = dup(c_tmp.t.fd);   /* the temporary's own descriptor keeps its lock */
    FILE *f = copy >= 0 ? fdopen(copy, "w") : NULL;
    if (!f) {
        cli_error(opt->emit_c ? opt->emit_c : t->eh_elf_name, "cannot write: %s", strerror(errno));
        if (copy >= 0)
            close(copy);
        c_temp_discard(&c_tmp);
        return EXIT_TROUBLE;
    }
    struct eh_elf_stats st;
    int rc = eh_elf_generate(f, tables, provenance, n, opt->input, id, &st, err, sizeof err);
    int write_failed = ferror(f) != 0;   /* then the output is at fault (a full disk), not FILE */
    if (fclose(f) != 0 && rc == 0) {
        snprintf(err, sizeof err, "%s", strerror(errno));
        rc = -1;
        write_failed = 1;
    }
    if (rc != 0) {
        cli_error(!write_failed ? opt->input : opt->emit_c ? opt->emit_c : t->eh_elf_name, "%s", err);
        c_temp_discard(&c_tmp);
        return EXIT_TROUBLE;
    }
    rc = cc_build_shared(c_tmp.path, t->eh_elf, err, sizeof err);
    if (rc != 0) {
        cli_error(rc == CC_BUILD_COMPILER ? opt->input : t->eh_elf_name, "%s", err);
        c_temp_discard(&c_tmp);
        return EXIT_TROUBLE;
    }
    if (t->c) {
        if (c_temp_keep(&c_tmp, err, sizeof err) != 0) {
            cli_error(opt->emit_c, "%s", err);
            return EXIT_TROUBLE;
        }
    } else {
        c_temp_discard(&c_tmp);
    }
    if (!opt->quiet)
        printf("%s: %zu FDEs, %zu rows -> %zu entries, %zu row bodies, %zu expressions: %s\n",
               opt->input, st.tables, st.rows, st.entries, st.bodies, st.expressions, t->eh_elf_name);
    return 0;
}

/* Compile AF's validated table to T, each row with its provenance.
 * Returns the exit status. */
static int compile_validated(const struct options *opt, const struct targets *t, struct audit_input *af)
{
    char err[512];
    struct validated_table vt;
    struct check_result result;
    if (validated_table_build(af, NULL, 1, &vt, &result, err, sizeof err) != 0) {
        cli_error(opt->input, "%s", err);
        return EXIT_TROUBLE;
    }
    size_t errors = check_count(&result, SEVERITY_ERROR);
    check_result_release(&result);
    if (!opt->quiet)
        printf("%s: validated table: %zu FDEs repaired, %zu added, %zu rows synthesised (%zu errors found)\n",
               opt->input, vt.fdes_repaired, vt.fdes_added, vt.rows_repaired, errors);
    struct dwu_identity id;
    const struct unwind_table **tables = malloc((vt.nfdes + 1) * sizeof *tables);
    const uint8_t **provenance = malloc((vt.nfdes + 1) * sizeof *provenance);
    int status = EXIT_TROUBLE;
    if (!tables || !provenance) {
        cli_error(opt->input, "out of memory");
    } else if (identity_of_file(&af->ef, &id, err, sizeof err) != 0) {
        cli_error(opt->input, "%s", err);
    } else {
        size_t n = 0;
        for (size_t i = 0; i < vt.nfdes; i++)
            if (vt.fdes[i].table.nrows) {   /* not the FDEs of no code */
                tables[n] = &vt.fdes[i].table;
                provenance[n++] = vt.fdes[i].provenance;
            }
        status = compile(opt, t, tables, provenance, n, &id);
    }
    free(tables);
    free(provenance);
    validated_table_release(&vt);
    return status;
}

/* Audit, then compile OPT->input to T, the file opened once.  Returns the
 * exit status. */
static int compile_file(const struct options *opt, const struct targets *t)
{
    char err[512];
    struct audit_input af;
    if (audit_input_open(&af, opt->input, opt->repair ? NULL : CHECK_NO_EH, NULL, err, sizeof err) != 0) {
        cli_error(opt->input, "%s", err);
        return EXIT_TROUBLE;
    }
    if (opt->repair) {
        int status = compile_validated(opt, t, &af);
        audit_input_close(&af);
        return status;
    }
    /* The gate: verification errors refuse the compilation. */
    struct check_result result;
    if (check_audit_input(&af, NULL, &result, err, sizeof err) != 0) {
        cli_error(opt->input, "%s", err);
        audit_input_close(&af);
        return EXIT_TROUBLE;
    }
    size_t errors = check_count(&result, SEVERITY_ERROR);
    if (errors) {
        text_report_file(stdout, opt->input, &result);
        if (!opt->force) {
            check_result_release(&result);
            audit_input_close(&af);
            cli_error(opt->input, "refused: verification reports %zu error%s (--force compiles anyway)",
                      errors, errors == 1 ? "" : "s");
            return EXIT_FINDINGS;
        }
        cli_error(opt->input, "compiling despite %zu verification error%s (--force)", errors,
                  errors == 1 ? "" : "s");
    }
    check_result_release(&result);

    struct dwu_identity id;
    if (identity_of_file(&af.ef, &id, err, sizeof err) != 0) {
        cli_error(opt->input, "%s", err);
        audit_input_close(&af);
        return EXIT_TROUBLE;
    }
    size_t n = 0;
    struct unwind_table *tables = read_tables(&af.prog.eh, &n, err, sizeof err);
    if (!tables) {
        cli_error(opt->input, "%s", err);
        audit_input_close(&af);
        return EXIT_TROUBLE;
    }
    const struct unwind_table **ptrs = malloc((n + 1) * sizeof *ptrs);
    int status = EXIT_TROUBLE;
    if (!ptrs) {
        cli_error(opt->input, "out of memory");
    } else {
        for (size_t i = 0; i < n; i++)
            ptrs[i] = &tables[i];
        status = compile(opt, t, ptrs, NULL, n, &id);
    }
    free(ptrs);
    cfi_eval_tables_release(tables, n);
    audit_input_close(&af);
    return status;
}

int main(int argc, char **argv)
{
    cli_tool_name = "dwcompile";
    struct options opt = {0};
    enum { OPT_EMIT_C = 256, OPT_FORCE, OPT_REPAIR };
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'}, {"emit-c", required_argument, NULL, OPT_EMIT_C},
        {"force", no_argument, NULL, OPT_FORCE}, {"repair", no_argument, NULL, OPT_REPAIR},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},         {"version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0},
    };
    int c;
    while ((c = getopt_long(argc, argv, "o:qhV", longopts, NULL)) != -1) {
        switch (c) {
        case 'o': opt.output = optarg; break;
        case OPT_EMIT_C: opt.emit_c = optarg; break;
        case OPT_FORCE: opt.force = 1; break;
        case OPT_REPAIR: opt.repair = 1; break;
        case 'q': opt.quiet = 1; break;
        default: return cli_end_of_options(c, usage);   /* --help, --version, or a mistake */
        }
    }
    if (optind != argc - 1) {
        cli_error(NULL, optind == argc ? "no input file" : "one input file at a time");
        usage(stderr);
        return EXIT_TROUBLE;
    }
    opt.input = argv[optind];
    struct targets targets;
    if (resolve_targets(&opt, &targets) != 0)
        return EXIT_TROUBLE;
    int status = compile_file(&opt, &targets);
    targets_release(&targets);
    return cli_finish_stdout(status);
}
