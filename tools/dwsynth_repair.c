/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dwsynth_repair: options of `dwsynth repair`, then repair/repair_file.
 */
#include "dwsynth_repair.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "sys/output_file.h"
#include "repair/repair_file.h"

static void repair_usage(FILE *out)
{
    fprintf(out,
            "Usage: dwsynth repair [OPTION]... [--sframe[=1|2|3]] FILE -o OUT\n"
            "       dwsynth repair --debug-frame-only [OPTION]... FILE -o DIR\n"
            "       dwsynth repair --dry-run [OPTION]... FILE\n"
            "Write a copy of the x86_64 executable or shared object FILE whose unwind\n"
            "tables are its validated table: DWARF's rows where the audit (dwcheck) finds\n"
            "their rules right or cannot decide them, synthesis's rule for each rule it\n"
            "finds wrong, and synthesised rows for functions no FDE covers (a file built\n"
            "without unwind tables gets them).  The table goes into a new .eh_frame and\n"
            ".eh_frame_hdr in a new read-only loadable segment; PT_GNU_EH_FRAME points\n"
            "at the new header and the old sections are renamed .eh_frame.orig and\n"
            ".eh_frame_hdr.orig (.orig2 ... in a copy repaired again), so that libgcc,\n"
            "libunwind, gdb and perf read the new table.  Every other byte of FILE is kept\n"
            "(the header tables that locate and name the sections aside); the copy grows\n"
            "by the new tables and those headers, and the report says by how much.  FILE\n"
            "itself is never written.\n"
            "\n"
            "  -o, --output=OUT   the repaired copy (replaced only when complete; a symbolic\n"
            "                     link is followed, anything but a regular file refused)\n"
            "  --debug-frame-only leave FILE alone and write the table as .debug_frame into\n"
            "                     a separate debug file, DIR/.build-id/NN/REST.debug from\n"
            "                     FILE's build-id; gdb prefers it to FILE's own .eh_frame\n"
            "                     after `set debug-file-directory DIR'\n"
            "  --sframe[=1|2|3]   also write the table as a new .sframe (SFrame V2 by default,\n"
            "                     what glibc reads; V1 is what binutils 2.40 reads, V3\n"
            "                     adds flexible FDEs and signal frames) in the same segment,\n"
            "                     located by PT_GNU_SFRAME (an old .sframe is renamed\n"
            "                     .sframe.orig): the functions whose rows SFrame can say\n"
            "                     (CFA rsp or rbp + N, rbp unchanged or saved at CFA+N, ra\n"
            "                     at CFA-8 or undefined; the PLT's entries as one repeating\n"
            "                     FDE); the others are left to .eh_frame, listed with the\n"
            "                     reason\n"
            "  -n, --dry-run      write nothing: list every repaired and added FDE, each\n"
            "                     row with its provenance (proved, unchecked, synthesised)\n"
            "                     and the rules it replaces\n"
            "  --format=text|json the report's form (text)\n"
            "  -v, --verbose      list the rows when writing too\n"
            "  -h, --help         show this help\n"
            "\n"
            "Exit status: 0 written (or listed) with every repair; 1 written, but some\n"
            "repaired FDE was kept as it was (listed with the reason: its program\n"
            "describes columns past the 17 the table keeps, ...); 2 usage error,\n"
            "unreadable or unsupported FILE, or an output that cannot be written:\n"
            "nothing is written then.\n");
}

int dwsynth_repair_main(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'},
        {"dry-run", no_argument, NULL, 'n'},
        {"debug-frame-only", no_argument, NULL, 'D'},
        {"format", required_argument, NULL, 'f'},
        {"sframe", optional_argument, NULL, 'S'},
        {"verbose", no_argument, NULL, 'v'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    static const char *const formats[] = {"text", "json", NULL};
    static const char *const sframe_versions[] = {"1", "2", "3", NULL};
    struct repair_options opt = {.check = {CHECK_PROVE_EXPRESSIONS, CHECK_PROVE_TIMEOUT_MS, NULL, NULL}};
    static char name[] = "dwsynth repair";   /* how getopt's messages name us */
    argv[0] = name;
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, "o:nvh", longopts, NULL)) != -1) {
        switch (c) {
        case 'o':
            opt.output = optarg;
            break;
        case 'n':
            opt.dry_run = 1;
            break;
        case 'D':
            opt.debug_frame_only = 1;
            break;
        case 'f': {
            int k = cli_pick("--format", optarg, formats);
            if (k < 0)
                return EXIT_TROUBLE;
            opt.json = k == 1;
            break;
        }
        case 'S': {
            int k = optarg ? cli_pick("--sframe", optarg, sframe_versions) : 1;
            if (k < 0)
                return EXIT_TROUBLE;
            opt.sframe = (unsigned)k + 1;
            break;
        }
        case 'v':
            opt.rows = 1;
            break;
        default:   /* --help, --version, or a mistake */
            return cli_end_of_options(c, repair_usage);
        }
    }
    if (argc - optind != 1) {
        cli_error(NULL, "repair: %s (try dwsynth repair --help)", optind == argc ? "no input file" : "one file at a time");
        return EXIT_TROUBLE;
    }
    opt.input = argv[optind];
    if (!opt.dry_run && !opt.output) {
        cli_error(opt.input, "repair: no output (-o OUT), or --dry-run");
        return EXIT_TROUBLE;
    }
    if (opt.sframe && opt.debug_frame_only) {
        cli_error(NULL, "repair: --sframe writes into the copy, not with --debug-frame-only");
        return EXIT_TROUBLE;
    }
    struct stat st;
    if (opt.output && opt.debug_frame_only) {   /* a directory, made if missing */
        if (stat(opt.output, &st) == 0 && !S_ISDIR(st.st_mode)) {
            cli_error(opt.output, "not a directory");
            return EXIT_TROUBLE;
        }
    } else if (opt.output) {   /* a device, a FIFO...: refused before any work */
        char why[512];
        char *target = output_target(opt.output, why, sizeof why);
        if (!target) {
            cli_error(opt.output, "%s", why);
            return EXIT_TROUBLE;
        }
        free(target);
    }
    cli_buffer_stdout();
    char err[512];
    int rc = repair_file(&opt, stdout, err, sizeof err);
    if (rc < 0) {
        cli_error(opt.input, "%s", err);
        return cli_finish_stdout(EXIT_TROUBLE);
    }
    return cli_finish_stdout(rc ? EXIT_FINDINGS : EXIT_CLEAN);
}
