/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dwperf: unwind the samples of a `perf record --call-graph dwarf`
 * recording with eh_elfs, and print them as `perf script` or as folded
 * stacks.
 *
 *   dwperf [-i FILE] [--format=script|folded] [--cache=DIR]
 *          [--compile=auto|always|never] [-q]
 *
 * The pipeline: profile/perf_data reads the recording in time order;
 * profile/processes rebuilds each process's mappings as a dwu_space (the
 * runtime's address spaces); profile/sample_unwind walks each sample's
 * copied user stack in its process's space; profile/script_output prints
 * it; profile/compile_queue compiles the eh_elfs the recording needs into
 * the cache, in the background, when that pays.  A sample is printed
 * once the next one is read and the memory its walk reads first asked for
 * (sample_prefetch), so that printing overlaps that walk's cache misses.
 * A summary on stderr counts samples, frames by the table that unwound
 * them, and the samples whose stacks stopped early, by reason.
 */
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "runtime/dwunwind.h"
#include "profile/cache_dir.h"
#include "profile/compile_queue.h"
#include "profile/perf_data.h"
#include "profile/processes.h"
#include "profile/sample_unwind.h"
#include "profile/script_output.h"
#include "tools/cli.h"

struct options {
    const char *input;
    enum output_format format;
    const char *cache_dir;
    enum compile_policy compile;
    int quiet;
};

struct summary {
    uint64_t samples, frames, by_source[FRAME_SOURCES];
    uint64_t stopped[STOP_REASONS];
};

static void usage(FILE *out)
{
    fprintf(out,
            "usage: dwperf [-i FILE] [--format=script|folded] [--cache=DIR]\n"
            "              [--compile=auto|always|never] [-q]\n"
            "Unwind the samples of a `perf record --call-graph dwarf` recording with\n"
            "compiled unwind tables (eh_elfs), and print them.\n"
            "  -i, --input=FILE   the recording (default ./perf.data; - reads standard input)\n"
            "  --format=script    what `perf script --no-inline` prints (the default)\n"
            "  --format=folded    one line per stack, `comm;outer;...;inner COUNT`, for flame graphs\n"
            "  --cache=DIR        eh_elfs by build-id (default $XDG_CACHE_HOME/dwcheck/eh_elf,\n"
            "                     or ~/.cache/dwcheck/eh_elf)\n"
            "  --compile=auto     compile an object's eh_elf (dwcompile --repair) in the\n"
            "                     background once interpreting its DWARF has cost as much\n"
            "                     (the default); always: at its first frame; never\n"
            "  -q, --quiet        no progress and no summary on stderr\n"
            "Objects are also unwound with eh_elfs next to them or in DWUNWIND_PATH.\n"
            "Exit status: 0 success, 2 usage error, an unreadable recording, or one of\n"
            "which no sample could be read (every one malformed).\n");
}

/* dwcompile: next to this program, else on PATH. */
static const char *find_dwcompile(char *buf, size_t len)
{
    ssize_t n = readlink("/proc/self/exe", buf, len - 16);
    if (n > 0) {
        buf[n] = 0;
        char *slash = strrchr(buf, '/');
        if (slash) {
            strcpy(slash + 1, "dwcompile");
            if (access(buf, X_OK) == 0)
                return buf;
        }
    }
    return "dwcompile";
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void refresh_space(struct dwu_space *space, void *arg)
{
    (void)arg;
    dwu_space_refresh(space);
}

static void count_sample(struct summary *sum, struct compile_queue *q, struct dwu_space *space,
                         const struct sample_frame *frames, int n, enum stop_reason stop)
{
    sum->samples++;
    sum->frames += (uint64_t)n;
    sum->stopped[stop]++;
    for (int i = 0; i < n; i++) {
        sum->by_source[frames[i].source]++;
        if (frames[i].source == FRAME_DWARF)
            compile_queue_note_fallback(q, space, frames[i].exact ? frames[i].ip : frames[i].ip - 1);
    }
}

static void print_summary(const char *input, const struct summary *sum, const struct perf_data_stats *st,
                          const struct compile_queue *q)
{
    fprintf(stderr, "dwperf: %s: %" PRIu64 " samples, %" PRIu64 " frames (%" PRIu64 " kernel, as recorded)\n",
            input, sum->samples, sum->frames, sum->by_source[FRAME_KERNEL]);
    fprintf(stderr,
            "dwperf: user frames by the table that unwound them: %" PRIu64 " eh_elf, %" PRIu64
            " eh_elf with rows the audit could not check, %" PRIu64 " eh_elf with synthesised rows, %" PRIu64
            " DWARF interpreted; %" PRIu64 " outermost\n",
            sum->by_source[FRAME_EH_ELF], sum->by_source[FRAME_UNCHECKED], sum->by_source[FRAME_SYNTHESISED],
            sum->by_source[FRAME_DWARF], sum->by_source[FRAME_LAST]);
    uint64_t early = 0;
    for (int r = 0; r < STOP_REASONS; r++)
        early += r != STOP_END && r != STOP_NO_USER ? sum->stopped[r] : 0;
    fprintf(stderr, "dwperf: %" PRIu64 " stacks reached their outermost frame, %" PRIu64 " stopped early",
            sum->stopped[STOP_END], early);
    const char *sep = ": ";
    for (int r = 0; r < STOP_REASONS; r++)
        if (r != STOP_END && sum->stopped[r]) {
            fprintf(stderr, "%s%" PRIu64 " %s", sep, sum->stopped[r], sample_stop_reason_text((enum stop_reason)r));
            sep = ", ";
        }
    fputc('\n', stderr);
    struct compile_stats cs;
    compile_queue_stats(q, &cs);
    if (cs.compiled || cs.failed)
        fprintf(stderr, "dwperf: eh_elfs compiled into the cache: %u (%u failed)\n", cs.compiled, cs.failed);
    if (st->malformed || st->unknown)
        fprintf(stderr, "dwperf: %s: %" PRIu64 " malformed records skipped%s%s%s, %" PRIu64 " records of other types\n",
                input, st->malformed, st->malformed ? " (first: " : "", st->malformed ? st->first_malformed : "",
                st->malformed ? ")" : "", st->unknown);
}

/* A sample walked, not yet printed nor counted.  Printed after the next
 * record is read, it keeps the fields of its perf_sample that printing
 * reads (its event's attribute and name copied: the reader's pointers do
 * not outlive that read). */
struct walked_sample {
    int pending;
    struct perf_sample s;          /* callchain, registers and stack not used any more */
    struct perf_attr attr;
    char *attr_name;               /* owned; attr.name */
    size_t attr_name_cap;
    struct dwu_space *space;
    struct sample_frame frames[SAMPLE_MAX_FRAMES];
    int n;
    enum stop_reason stop;
};

/* Keep S (walked in SPACE) in W; -1 when out of memory. */
static int keep_sample(struct walked_sample *w, const struct perf_sample *s, struct dwu_space *space)
{
    w->s = *s;
    w->s.callchain = NULL;
    w->s.stack = NULL;
    w->space = space;
    if (s->attr) {
        w->attr = *s->attr;
        size_t len = strlen(s->attr->name) + 1;
        if (len > w->attr_name_cap) {
            char *name = realloc(w->attr_name, len);
            if (!name)
                return -1;
            w->attr_name = name;
            w->attr_name_cap = len;
        }
        w->attr.name = memcpy(w->attr_name, s->attr->name, len);
        w->s.attr = &w->attr;
    }
    w->pending = 1;
    return 0;
}

/* What run keeps across records. */
struct run_state {
    struct processes *procs;
    struct script_output *out;
    struct compile_queue *q;
    struct summary sum;
    int progress;
    double next_progress;
};

/* What is left to do on the walked sample: print it, count it, and every
 * 256 samples take the eh_elfs compiled since and show the progress. */
static void finish_sample(struct run_state *rs, struct walked_sample *w)
{
    if (!w->pending)
        return;
    w->pending = 0;
    char unknown[16];
    script_output_sample(rs->out, &w->s, processes_comm(rs->procs, w->s.tid, unknown, sizeof unknown), w->space,
                         w->frames, w->n);
    count_sample(&rs->sum, rs->q, w->space, w->frames, w->n, w->stop);
    if ((rs->sum.samples & 255) == 0) {
        if (compile_queue_poll(rs->q))
            processes_each_space(rs->procs, refresh_space, NULL);
        if (rs->progress && now() >= rs->next_progress) {
            fprintf(stderr, "\rdwperf: %" PRIu64 " samples, %" PRIu64 " frames", rs->sum.samples, rs->sum.frames);
            rs->next_progress = now() + 0.5;
        }
    }
}

static int run(const struct options *opt)
{
    char err[256];
    struct perf_data *pd = perf_data_open(opt->input, err, sizeof err);
    if (!pd) {
        cli_error(NULL, "%s", err);   /* ERR names the file (or standard input) */
        return EXIT_TROUBLE;
    }
    char dwcompile[PATH_MAX];
    struct run_state rs = {
        .procs = processes_new(opt->cache_dir),
        .out = script_output_new(stdout, opt->format, opt->cache_dir),
        .q = opt->cache_dir && opt->compile != COMPILE_NEVER
                 ? compile_queue_new(opt->cache_dir, find_dwcompile(dwcompile, sizeof dwcompile), opt->compile)
                 : NULL,
        .progress = !opt->quiet && isatty(2),
        .next_progress = now() + 0.5,
    };
    static struct walked_sample walked;
    int status = EXIT_CLEAN;
    struct perf_event ev;
    int rc = 0;
    if (!rs.procs || !rs.out) {
        cli_error(opt->input, "out of memory");
        status = EXIT_TROUBLE;
    }
    while (status == EXIT_CLEAN && (rc = perf_data_next(pd, &ev)) > 0) {
        if (ev.kind != PERF_EVENT_SAMPLE) {
            finish_sample(&rs, &walked);   /* in the process as it was */
            processes_apply(rs.procs, &ev);
            continue;
        }
        const struct perf_sample *s = &ev.u.sample;
        struct dwu_space *space = processes_space(rs.procs, s->pid);
        sample_prefetch(space, s);
        finish_sample(&rs, &walked);
        walked.n = sample_unwind(space, s, walked.frames, &walked.stop);
        if (keep_sample(&walked, s, space) != 0) {
            cli_error(opt->input, "out of memory");
            status = EXIT_TROUBLE;
        }
    }
    finish_sample(&rs, &walked);
    free(walked.attr_name);
    walked.attr_name = NULL;
    walked.attr_name_cap = 0;
    if (rs.progress)
        fputs("\r\033[K", stderr);
    const struct perf_data_stats *st = perf_data_stats(pd);
    if (status == EXIT_CLEAN && rc < 0) {
        cli_error(opt->input, "%s", perf_data_error(pd));
        status = EXIT_TROUBLE;
    } else if (status == EXIT_CLEAN && !rs.sum.samples && st->malformed) {
        /* Nothing read but malformed records: not a recording dwperf can use. */
        cli_error(opt->input, "no sample could be read: %" PRIu64 " malformed records (first: %s)", st->malformed,
                  st->first_malformed);
        status = EXIT_TROUBLE;
    }
    script_output_finish(rs.out);
    if (rs.q && compile_queue_wait(rs.q) && !opt->quiet)
        fprintf(stderr, "dwperf: waited for the eh_elfs being compiled (the next run uses them)\n");
    if (!opt->quiet)
        print_summary(opt->input, &rs.sum, st, rs.q);
    compile_queue_free(rs.q);
    processes_free(rs.procs);
    perf_data_close(pd);
    return status;
}

/* The runtime's refusals (an eh_elf another user could have written, next
 * to an object the recording names or in the cache): said once each. */
static void say_refusal(const char *message, void *arg)
{
    (void)arg;
    fprintf(stderr, "dwperf: %s\n", message);
}

int main(int argc, char **argv)
{
    cli_tool_name = "dwperf";
    dwu_set_error_callback(say_refusal, NULL);
    static const char *const formats[] = {"script", "folded", NULL};
    static const char *const policies[] = {"auto", "always", "never", NULL};
    enum { OPT_FORMAT = 256, OPT_CACHE, OPT_COMPILE };
    static const struct option longopts[] = {
        {"input", required_argument, NULL, 'i'},      {"format", required_argument, NULL, OPT_FORMAT},
        {"cache", required_argument, NULL, OPT_CACHE}, {"compile", required_argument, NULL, OPT_COMPILE},
        {"quiet", no_argument, NULL, 'q'},            {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},          {NULL, 0, NULL, 0},
    };
    char cache[PATH_MAX];
    struct options opt = {.input = "perf.data", .cache_dir = cache_dir_default(cache, sizeof cache)};
    int c, k;
    while ((c = getopt_long(argc, argv, "i:qhV", longopts, NULL)) != -1) {
        switch (c) {
        case 'i': opt.input = optarg; break;
        case OPT_FORMAT:
            if ((k = cli_pick("--format", optarg, formats)) < 0)
                return EXIT_TROUBLE;
            opt.format = (enum output_format)k;
            break;
        case OPT_CACHE: opt.cache_dir = optarg; break;
        case OPT_COMPILE:
            if ((k = cli_pick("--compile", optarg, policies)) < 0)
                return EXIT_TROUBLE;
            opt.compile = (enum compile_policy)k;
            break;
        case 'q': opt.quiet = 1; break;
        default: return cli_end_of_options(c, usage);   /* --help, --version, or a mistake */
        }
    }
    if (optind != argc) {
        cli_error(NULL, "unexpected argument '%s' (the recording is given with -i)", argv[optind]);
        usage(stderr);
        return EXIT_TROUBLE;
    }
    cli_buffer_stdout();
    return cli_finish_stdout(run(&opt));
}
