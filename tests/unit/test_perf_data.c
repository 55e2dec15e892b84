/*
 * Unit tests of perf_data.
 *
 * On recordings made here (a two-thread program under `perf record -e
 * cpu-clock -e page-faults:u --call-graph dwarf`, and one with
 * --buildid-mmap; the tests that need them skip when perf cannot record),
 * cross-checked against perf's own output:
 *   - samples: tid, time, period, event name and ip of every sample, in
 *     order, against `perf script` (and the recording is out of order in
 *     the file, `perf report -D --disable-order`, so the order is earned);
 *   - the other records, interleaved with the samples: MMAP and MMAP2
 *     (pid/tid, start, len, pgoff, prot, filename, MMAP2's own build-id),
 *     COMM (exec), FORK, EXIT, against `perf script --show-mmap-events
 *     --show-task-events`;
 *   - sample contents: callchain, REGS_USER (abi, SP, IP), STACK_USER's
 *     dyn_size and bytes, against `perf report -D` (the stack bytes taken
 *     from its raw dump of each record at the offset it prints);
 *   - build-ids against `perf buildid-list`, event names against `perf evlist`;
 *   - pipe mode (`perf inject -b -o -`) read from a file and from a pipe on
 *     standard input, and the file-mode recording piped in, give what file
 *     mode gives; pipe-mode records are 4-aligned, callchains come 8-aligned.
 * On files written here:
 *   - the order: pipe-mode streams of samples and FINISHED_ROUNDs (random,
 *     and one where perf's max_timestamp rule decides) give the order
 *     `perf script` prints, which is not a full sort by time;
 *   - a file-mode file (attribute and ids, samples with callchain, registers
 *     and stack, COMM, MMAP2, the BUILD_ID and EVENT_DESC features) that
 *     perf script, perf evlist and perf buildid-list read as the reader does;
 *   - bad input: truncation at every length, corrupted header fields,
 *     record sizes of 0 and past the end, huge counts inside records, bad
 *     magics, a broken stream on standard input, byte mutations: an error
 *     with a reason, or the record skipped and counted, never a crash (the
 *     SAN build runs them under ASan and UBSan).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "profile/perf_data.h"

#define TEST_DIR "/tmp/test_perf_data.XXXXXX"
#include "tests/unit/test_shell.h"

/* m.data, m.pipe and b.data were recorded (group setup). */
static int recorded;

#define BUSY_C                                                                                     \
    "#include <pthread.h>\n#include <stdlib.h>\n#include <unistd.h>\n"                            \
    "static volatile unsigned long sink;\n"                                                        \
    "__attribute__((noinline)) static unsigned long leaf(unsigned long n) {\n"                     \
    "    unsigned long s = 0;\n"                                                                   \
    "    for (unsigned long i = 0; i < n; i++) s += i * i ^ (s >> 3);\n"                           \
    "    return s; }\n"                                                                            \
    "__attribute__((noinline)) static unsigned long deep(int d, unsigned long n) {\n"              \
    "    return d ? deep(d - 1, n) + 1 : leaf(n); }\n"                                             \
    "static void *work(void *arg) {\n"                                                             \
    "    for (int i = 0; i < 100; i++) {\n"                                                        \
    "        sink += deep(8 + i % 5, 2000000);\n"                                                  \
    "        for (int j = 0; j < 5000; j++) sink += getppid();\n"                                 \
    "        free(malloc(4096 * (1 + i % 64))); }\n"                                               \
    "    return arg; }\n"                                                                          \
    "int main(void) { pthread_t t; pthread_create(&t, NULL, work, NULL); work(NULL);\n"            \
    "    pthread_join(t, NULL); return 0; }\n"

/* ---- helpers -------------------------------------------------------------------------- */

static void write_bytes(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
}

static uint8_t *read_bytes(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    *n = (size_t)ftell(f);
    rewind(f);
    uint8_t *data = malloc(*n + 1);
    assert_non_null(data);
    assert_int_equal(fread(data, 1, *n, f), *n);
    fclose(f);
    return data;
}

/* Lines of text, the reader's or perf's, compared one by one. */
struct lines {
    char **v;
    size_t n, cap;
};

static void add_line(struct lines *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add_line(struct lines *l, const char *fmt, ...)
{
    if (l->n == l->cap)
        assert_non_null(l->v = realloc(l->v, (l->cap = l->cap ? 2 * l->cap : 64) * sizeof *l->v));
    va_list ap;
    va_start(ap, fmt);
    assert_true(vasprintf(&l->v[l->n++], fmt, ap) >= 0);
    va_end(ap);
}

static void free_lines(struct lines *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
    *l = (struct lines){0};
}

static void assert_same_lines(const struct lines *mine, const struct lines *theirs, const char *what)
{
    for (size_t i = 0; i < mine->n && i < theirs->n; i++)
        if (strcmp(mine->v[i], theirs->v[i]))
            fail_msg("%s: line %zu of %zu differs:\n  reader: %s\n  perf:   %s", what, i + 1,
                     theirs->n, mine->v[i], theirs->v[i]);
    if (mine->n != theirs->n)
        fail_msg("%s: the reader gives %zu lines, perf %zu", what, mine->n, theirs->n);
}

/* FNV-1a, to compare stack copies in a line. */
static uint32_t hash_bytes(const uint8_t *p, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 16777619u;
    return h;
}

typedef void format_fn(struct lines *out, const struct perf_event *ev);

/* Every event of the recording PATH, as FORMAT writes it; the reading must
 * end cleanly. */
static void reader_lines(const char *path, format_fn *format, struct lines *out)
{
    char err[256];
    struct perf_data *pd = perf_data_open(path, err, sizeof err);
    if (!pd)
        fail_msg("%s", err);
    struct perf_event ev;
    int r;
    while ((r = perf_data_next(pd, &ev)) > 0)
        format(out, &ev);
    if (r < 0)
        fail_msg("%s: %s", path, perf_data_error(pd));
    assert_int_equal(perf_data_stats(pd)->malformed, 0);
    perf_data_close(pd);
}

/* The same, with PATH's bytes coming through a pipe on standard input. */
static void reader_lines_from_stdin(const char *path, format_fn *format, struct lines *out)
{
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t cat = fork();
    assert_true(cat >= 0);
    if (cat == 0) {
        dup2(fds[1], 1);
        close(fds[0]);
        close(fds[1]);
        execlp("cat", "cat", path, (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    int saved = dup(0);
    dup2(fds[0], 0);
    close(fds[0]);
    reader_lines("-", format, out);
    dup2(saved, 0);
    close(saved);
    int status;
    waitpid(cat, &status, 0);
}

static uint64_t parse_time(const char *s)
{
    uint64_t sec = 0, ns = 0;
    sscanf(s, "%" SCNu64 ".%" SCNu64, &sec, &ns);
    return sec * 1000000000 + ns;
}

/* ---- recordings --------------------------------------------------------------------------- */

/* How many samples the file PATH holds before one of an earlier time. */
static int samples_out_of_order(const char *path)
{
    char *text = output_of("perf report -D --disable-order -i %s 2>/dev/null | "
                           "awk '/PERF_RECORD_SAMPLE\\(/ { if ($1 < last) n++; last = $1 } "
                           "END { print n + 0 }'", path);
    int n = atoi(text);
    free(text);
    return n;
}

static int group_setup(void **state)
{
    (void)state;
    if (!mkdtemp(dir))
        return -1;
    FILE *f = fopen(at("busy.c"), "w");
    if (!f || fputs(BUSY_C, f) < 0 || fclose(f))
        return -1;
    if (run("cc -O1 -g -pthread %s -o %s", at("busy.c"), at("busy")))
        return -1;
    /* m.data may or may not hold samples out of time order: the ordering
     * is checked on a fixture that does (test_recording_out_of_time_order) */
    recorded = run("cd %s && perf record -q -e cpu-clock -e page-faults:u -F 1000 "
                   "--call-graph dwarf,4096 -o m.data -- ./busy >record.log 2>&1", dir) == 0;
    recorded = recorded && run("cd %s && perf inject -b -i m.data -o - > m.pipe 2>>record.log && "
                               "perf record -q -e cpu-clock --buildid-mmap -F 1000 -o b.data -- "
                               "./busy >>record.log 2>&1", dir) == 0;
    if (!recorded)
        print_message("perf cannot record here (%s): the tests on recordings skip\n",
                      at("record.log"));
    return 0;
}

static int group_teardown(void **state)
{
    (void)state;
    return run("rm -rf %s", dir) == 0 ? 0 : -1;
}

/* ---- samples against perf script ------------------------------------------------------------ */

static void format_sample(struct lines *out, const struct perf_event *ev)
{
    const struct perf_sample *s = &ev->u.sample;
    if (ev->kind == PERF_EVENT_SAMPLE)
        add_line(out, "%u %" PRIu64 " %" PRIu64 " %s %" PRIx64, s->tid, s->time, s->period,
                 s->attr->name, s->ip);
}

/* The samples of the recording PATH as perf script prints them, in OUT as
 * format_sample writes them. */
static void perf_script_samples(const char *path, struct lines *theirs)
{
    char *text = output_of("perf script -i %s -F tid,time,period,event,ip --ns -G 2>/dev/null", path);
    char *save = NULL;
    for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        unsigned tid;
        char time[64];
        uint64_t period;
        int name_at;
        char *colon = strrchr(l, ':'); /* the event's, before the ip: names hold ':' too */
        if (sscanf(l, "%u %63[0-9.]: %" SCNu64 " %n", &tid, time, &period, &name_at) != 3 ||
            !colon || colon < l + name_at)
            fail_msg("perf script line not understood: %s", l);
        *colon = 0;
        add_line(theirs, "%u %" PRIu64 " %" PRIu64 " %s %" PRIx64, tid, parse_time(time),
                 period, l + name_at, (uint64_t)strtoull(colon + 1, NULL, 16));
    }
    free(text);
}

static void test_samples_match_perf_script(void **state)
{
    (void)state;
    if (!recorded)
        skip();
    struct lines mine = {0}, theirs = {0};
    reader_lines(at("m.data"), format_sample, &mine);
    perf_script_samples(at("m.data"), &theirs);
    assert_true(theirs.n > 100);
    assert_same_lines(&mine, &theirs, "samples");
    free_lines(&mine);
    free_lines(&theirs);
}

/* The fixture tests/unit/data/out_of_order.data (made by the script beside
 * it): a recording of two threads on two CPUs whose file holds samples
 * after later ones.  The reader gives them in time order, as perf script
 * does.  A recording made here may or may not show this, so the property
 * comes from the fixture, checked first by perf itself. */
static void test_recording_out_of_time_order(void **state)
{
    (void)state;
    if (run("perf version >/dev/null 2>&1"))
        skip();
    char path[512];
    const char *slash = strrchr(__FILE__, '/');
    snprintf(path, sizeof path, "%.*sdata/out_of_order.data", slash ? (int)(slash - __FILE__ + 1) : 0,
             __FILE__);
    int inversions = samples_out_of_order(path);
    if (inversions < 10)
        fail_msg("%s holds %d samples after a later one, not the 10 it was made with", path, inversions);
    struct lines mine = {0}, theirs = {0};
    reader_lines(path, format_sample, &mine);
    perf_script_samples(path, &theirs);
    assert_true(theirs.n > 100);
    assert_same_lines(&mine, &theirs, "samples of the fixture");
    uint64_t last = 0;
    for (size_t i = 0; i < mine.n; i++) {
        uint64_t t = strtoull(strchr(mine.v[i], ' ') + 1, NULL, 10);
        if (t < last)
            fail_msg("sample %zu of %zu comes after a later one: %s", i, mine.n, mine.v[i]);
        last = t;
    }
    free_lines(&mine);
    free_lines(&theirs);
}

/* ---- the other events against perf script --show-mmap-events ------------------------------------ */

static int with_build_ids;

static void format_event(struct lines *out, const struct perf_event *ev)
{
    char bid[48] = "";
    switch (ev->kind) {
    case PERF_EVENT_SAMPLE:
        add_line(out, "S %u %" PRIu64, ev->u.sample.tid, ev->u.sample.time);
        break;
    case PERF_EVENT_MMAP: {
        const struct perf_mmap *m = &ev->u.mmap;
        char prot[8] = "";
        if (m->mmap2)
            snprintf(prot, sizeof prot, "%c%c%c%c", m->prot & 1 ? 'r' : '-',
                     m->prot & 2 ? 'w' : '-', m->prot & 4 ? 'x' : '-', m->flags & 1 ? 's' : 'p');
        else
            snprintf(prot, sizeof prot, "%s", m->executable ? "x" : "r");
        for (size_t i = 0; with_build_ids && m->build_id && i < m->build_id_len; i++)
            sprintf(bid + 2 * i, "%02x", m->build_id[i]);
        add_line(out, "M %d/%d %" PRIx64 " %" PRIx64 " %" PRIx64 " %s %s %s", (int)m->pid,
                 (int)m->tid, m->start, m->len, m->pgoff, bid[0] ? bid : "-", prot, m->filename);
        break;
    }
    case PERF_EVENT_COMM:
        add_line(out, "C%s %s:%u/%u", ev->u.comm.exec ? " exec" : "", ev->u.comm.comm,
                 ev->u.comm.pid, ev->u.comm.tid);
        break;
    case PERF_EVENT_FORK:
    case PERF_EVENT_EXIT:
        add_line(out, "%s(%u:%u):(%u:%u)", ev->kind == PERF_EVENT_FORK ? "FORK" : "EXIT",
                 ev->u.task.pid, ev->u.task.tid, ev->u.task.ppid, ev->u.task.ptid);
        break;
    }
}

/* perf script's line for an MMAP or MMAP2 record, as format_event writes it. */
static void parse_mmap_line(struct lines *out, const char *rec)
{
    int pid, tid, mmap2 = !strncmp(rec, "MMAP2", 5);
    uint64_t start, len, pgoff;
    char prot[8], name[512], bid[48] = "-";
    const char *fields = strchr(rec, ' ');
    if (sscanf(fields, " %d/%d: [%" SCNx64 "(%" SCNx64 ") @ %" SCNx64, &pid, &tid, &start, &len,
               &pgoff) != 5)
        fail_msg("mmap line not understood: %s", rec);
    const char *id = strchr(fields, '<'), *tail = strstr(fields, "]: ");
    if (mmap2 && id && id < tail)
        sscanf(id + 1, "%47[0-9a-f]", bid);
    if (!tail || sscanf(tail + 3, "%7s %511[^\n]", prot, name) != 2)
        fail_msg("mmap line not understood: %s", rec);
    add_line(out, "M %d/%d %" PRIx64 " %" PRIx64 " %" PRIx64 " %s %s %s", pid, tid, start, len,
             pgoff, bid, prot, name);
}

static void perf_event_lines(const char *path, struct lines *out)
{
    char *text = output_of("perf script -i %s --show-mmap-events --show-task-events -F tid,time "
                           "--ns -G 2>/dev/null", path);
    char *save = NULL;
    for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        unsigned tid;
        char time[64];
        if (sscanf(l, "%u %63[0-9.]:", &tid, time) != 2)
            fail_msg("perf script line not understood: %s", l);
        const char *rec = strstr(l, "PERF_RECORD_");
        char comm[64];
        unsigned a, b, c, d;
        if (!rec)
            add_line(out, "S %u %" PRIu64, tid, parse_time(time));
        else if (!strncmp(rec += 12, "MMAP", 4))
            parse_mmap_line(out, rec);
        else if (sscanf(rec, "COMM: %63[^:]:%u/%u", comm, &a, &b) == 3)
            add_line(out, "C %s:%u/%u", comm, a, b);
        else if (sscanf(rec, "COMM exec: %63[^:]:%u/%u", comm, &a, &b) == 3)
            add_line(out, "C exec %s:%u/%u", comm, a, b);
        else if (sscanf(rec, "%4[A-Z](%u:%u):(%u:%u)", comm, &a, &b, &c, &d) == 5)
            add_line(out, "%s(%u:%u):(%u:%u)", comm, a, b, c, d);
        else
            fail_msg("perf script line not understood: %s", l);
    }
    free(text);
}

static void check_events(const char *path, int build_ids)
{
    struct lines mine = {0}, theirs = {0};
    with_build_ids = build_ids;
    reader_lines(path, format_event, &mine);
    perf_event_lines(path, &theirs);
    assert_same_lines(&mine, &theirs, path);
    free_lines(&mine);
    free_lines(&theirs);
}

static void test_events_match_perf_script(void **state)
{
    (void)state;
    if (!recorded)
        skip();
    check_events(at("m.data"), 0);
    /* --buildid-mmap: MMAP2 records carry the build-ids perf prints */
    check_events(at("b.data"), 1);
    char *text = output_of("perf script -i %s --show-mmap-events -F tid 2>/dev/null | "
                           "grep -c 'MMAP2.*<'", at("b.data"));
    assert_true(atoi(text) > 0);
    free(text);
}

/* ---- sample contents against perf report -D ------------------------------------------------------ */

static void format_details(struct lines *out, const struct perf_event *ev)
{
    if (ev->kind != PERF_EVENT_SAMPLE)
        return;
    const struct perf_sample *s = &ev->u.sample;
    char chain[8192];
    size_t n = 0;
    assert_int_equal((uintptr_t)s->callchain % 8, 0);
    for (uint64_t i = 0; i < s->callchain_nr && n < sizeof chain - 20; i++)
        n += (size_t)snprintf(chain + n, sizeof chain - n, ",%" PRIx64, s->callchain[i]);
    chain[n] = 0;
    add_line(out, "t=%" PRIu64 " ip=%" PRIx64 " chain=%" PRIu64 "%s abi=%" PRIu64 " sp=%" PRIx64
             " uip=%" PRIx64 " stack=%" PRIu64 "/%08x", s->time, s->ip, s->callchain_nr, chain,
             s->regs_abi, s->regs[PERF_X86_SP], s->regs[PERF_X86_IP], s->stack_size,
             hash_bytes(s->stack, (size_t)s->stack_size));
}

/* perf report -D: per record, its raw bytes (". ... raw event" and the hex
 * lines after it), then for a sample its header line, "... FP chain", the
 * entries, "... user regs" and the registers, "... ustack: size, offset". */
struct dump_sample {
    int open;
    uint64_t time, ip, nr, sp, uip, abi, stack, stack_at;
    char chain[8192];
    size_t chain_n;
};

struct dump {
    uint8_t raw[65536];
    size_t raw_n;
    struct dump_sample s;
};

static void dump_flush(struct dump *d, struct lines *out)
{
    const struct dump_sample *s = &d->s;
    if (!s->open)
        return;
    if (s->stack && s->stack_at + 8 + s->stack > d->raw_n)
        fail_msg("perf report -D: the stack of the sample at %" PRIu64 " is not in its raw dump",
                 s->time);
    add_line(out, "t=%" PRIu64 " ip=%" PRIx64 " chain=%" PRIu64 "%s abi=%" PRIu64 " sp=%" PRIx64
             " uip=%" PRIx64 " stack=%" PRIu64 "/%08x", s->time, s->ip, s->nr, s->chain, s->abi,
             s->sp, s->uip, s->stack, hash_bytes(d->raw + s->stack_at + 8, (size_t)s->stack));
    d->s.open = 0;
}

static void dump_raw_line(struct dump *d, const char *l)
{
    const char *p = strchr(l, ':') + 3;
    for (int k = 0; k < 16 && d->raw_n < sizeof d->raw; k++, p += 3) {
        unsigned byte;
        if (!p[0] || !p[1] || p[2] != ' ' || sscanf(p, "%2x", &byte) != 1)
            break;
        d->raw[d->raw_n++] = (uint8_t)byte;
    }
}

static void dump_line(struct dump *d, const char *l, struct lines *out)
{
    struct dump_sample *s = &d->s;
    unsigned idx, off;
    uint64_t v;
    char abi[16];
    const char *sample = strstr(l, "PERF_RECORD_SAMPLE(");
    if (!strncmp(l, ". ... raw event:", 16)) {
        dump_flush(d, out);
        d->raw_n = 0;
    } else if (!strncmp(l, ".  ", 3) && strchr(l, ':')) {
        dump_raw_line(d, l);
    } else if (sample) {
        *s = (struct dump_sample){.open = 1};
        sscanf(l, "%" SCNu64, &s->time);
        sscanf(strstr(sample, "): ") + 3, "%*d/%*d: %" SCNx64, &s->ip);
    } else if (!s->open) {
        return;
    } else if (sscanf(l, "..... %u: %" SCNx64, &idx, &v) == 2) {
        s->chain_n += (size_t)snprintf(s->chain + s->chain_n, sizeof s->chain - s->chain_n,
                                       ",%" PRIx64, v);
    } else if (sscanf(l, "... FP chain: nr:%" SCNu64, &v) == 1) {
        s->nr = v;
    } else if (sscanf(l, "... user regs: mask %*x ABI %15s", abi) == 1) {
        s->abi = !strcmp(abi, "64-bit") ? 2 : !strcmp(abi, "32-bit") ? 1 : 0;
    } else if (sscanf(l, ".... SP %" SCNx64, &v) == 1) {
        s->sp = v;
    } else if (sscanf(l, ".... IP %" SCNx64, &v) == 1) {
        s->uip = v;
    } else if (sscanf(l, "... ustack: size %" SCNu64 ", offset %x", &v, &off) == 2) {
        s->stack = v;
        s->stack_at = off;
    }
}

static void test_sample_contents_match_perf_report_dump(void **state)
{
    (void)state;
    if (!recorded)
        skip();
    struct lines mine = {0}, theirs = {0};
    reader_lines(at("m.data"), format_details, &mine);
    char *text = output_of("perf report -D -i %s 2>/dev/null", at("m.data"));
    struct dump *d = calloc(1, sizeof *d);
    assert_non_null(d);
    char *save = NULL;
    for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
        dump_line(d, l, &theirs);
    dump_flush(d, &theirs);
    free(d);
    free(text);
    assert_same_lines(&mine, &theirs, "sample contents");
    /* the recording has what the comparison is about */
    int kernel_chains = 0, stacks = 0;
    for (size_t i = 0; i < mine.n; i++) {
        kernel_chains += !strstr(mine.v[i], "chain=0 ");
        stacks += !strstr(mine.v[i], "stack=0/");
    }
    assert_true(kernel_chains > 0 && stacks > 0);
    free_lines(&mine);
    free_lines(&theirs);
}

/* ---- pipe mode, standard input ------------------------------------------------------------------- */

static void format_all(struct lines *out, const struct perf_event *ev)
{
    format_event(out, ev);
    if (ev->kind == PERF_EVENT_SAMPLE) {
        format_details(out, ev);
        add_line(out, "%s %u %" PRIu64, ev->u.sample.attr->name, ev->u.sample.cpu,
                 ev->u.sample.period);
    }
}

static void test_pipe_mode_and_stdin_equal_file_mode(void **state)
{
    (void)state;
    if (!recorded)
        skip();
    struct lines file = {0}, other = {0};
    with_build_ids = 0;
    reader_lines(at("m.data"), format_all, &file);
    reader_lines(at("m.pipe"), format_all, &other);
    assert_same_lines(&other, &file, "pipe mode from a file");
    free_lines(&other);
    reader_lines_from_stdin(at("m.pipe"), format_all, &other);
    assert_same_lines(&other, &file, "pipe mode on standard input");
    free_lines(&other);
    reader_lines_from_stdin(at("m.data"), format_all, &other);
    assert_same_lines(&other, &file, "file mode on standard input");
    free_lines(&other);
    free_lines(&file);

    /* the pipe-mode file has samples off 8-byte alignment (format_details
     * checked their callchains came aligned) */
    size_t n, misaligned = 0;
    uint8_t *p = read_bytes(at("m.pipe"), &n);
    for (size_t off = 16, size; off + 8 <= n; off += size) {
        size = (size_t)p[off + 6] | (size_t)p[off + 7] << 8;
        assert_true(size >= 8);
        misaligned += p[off] == 9 && off % 8;
    }
    assert_true(misaligned > 0);
    free(p);
}

/* ---- build-ids and names -------------------------------------------------------------------------- */

/* The build-ids of PATH are those `perf buildid-list LISTED` prints. */
static void check_build_ids(const char *path, const char *listed, int at_least)
{
    char err[256];
    struct perf_data *pd = perf_data_open(path, err, sizeof err);
    if (!pd)
        fail_msg("%s", err);
    struct perf_event ev;
    uint32_t pid = 0;
    while (perf_data_next(pd, &ev) > 0)
        if (ev.kind == PERF_EVENT_COMM && ev.u.comm.exec)
            pid = ev.u.comm.pid;
    assert_int_not_equal(pid, 0);
    char *text = output_of("perf buildid-list %s 2>/dev/null", listed);
    char *save = NULL;
    int n = 0;
    for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save), n++) {
        char hex[64], name[512], mine[64] = "";
        size_t len;
        assert_int_equal(sscanf(l, "%63s %511s", hex, name), 2);
        const uint8_t *id = perf_data_build_id(pd, pid, name, &len);
        if (!id)
            fail_msg("%s: no build-id for %s", path, name);
        for (size_t i = 0; i < len; i++)
            sprintf(mine + 2 * i, "%02x", id[i]);
        if (strcmp(mine, hex))
            fail_msg("%s: build-id of %s is %s, perf buildid-list says %s", path, name, mine, hex);
    }
    assert_true(n >= at_least);
    size_t len;
    assert_null(perf_data_build_id(pd, pid, "/no/such/object", &len));
    free(text);
    perf_data_close(pd);
}

static void test_build_ids_match_perf_buildid_list(void **state)
{
    (void)state;
    if (!recorded)
        skip();
    char listed[600];
    snprintf(listed, sizeof listed, "-i %s", at("m.data"));
    check_build_ids(at("m.data"), listed, 4);
    /* perf inject -b sends them as HEADER_BUILD_ID records (not [vdso]'s) */
    snprintf(listed, sizeof listed, "-i - < %s", at("m.pipe"));
    check_build_ids(at("m.pipe"), listed, 1);
}

static void check_names(const char *path, const char *listed_from)
{
    char err[256];
    struct perf_data *pd = perf_data_open(path, err, sizeof err);
    if (!pd)
        fail_msg("%s", err);
    size_t n;
    const struct perf_attr *attrs = perf_data_attrs(pd, &n);
    char *text = output_of("perf evlist -i %s 2>/dev/null", listed_from);
    char *save = NULL;
    size_t i = 0;
    for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save), i++) {
        assert_true(i < n);
        assert_string_equal(attrs[i].name, l);
    }
    assert_int_equal(i, n);
    free(text);
    perf_data_close(pd);
}

static void test_event_names_match_perf_evlist(void **state)
{
    (void)state;
    if (!recorded)
        skip();
    /* "page-faults:u" is not a name the reader could make up */
    check_names(at("m.data"), at("m.data"));
    check_names(at("m.pipe"), at("m.data"));
}

/* ---- files written here --------------------------------------------------------------------------- */

struct buf {
    uint8_t *p;
    size_t n, cap;
};

static void put(struct buf *b, const void *data, size_t n)
{
    if (b->n + n > b->cap)
        assert_non_null(b->p = realloc(b->p, b->cap = 2 * (b->n + n) + 64));
    memcpy(b->p + b->n, data, n);
    b->n += n;
}

static void put_le(struct buf *b, uint64_t v, size_t n)
{
    uint8_t x[8];
    for (size_t i = 0; i < n; i++)
        x[i] = (uint8_t)(v >> 8 * i);
    put(b, x, n);
}

static void put64(struct buf *b, uint64_t v) { put_le(b, v, 8); }
static void put32(struct buf *b, uint32_t v) { put_le(b, v, 4); }

static void set_le(struct buf *b, size_t at_, uint64_t v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        b->p[at_ + i] = (uint8_t)(v >> 8 * i);
}

static void put_zeros(struct buf *b, size_t n)
{
    static const uint8_t zeros[256];
    for (; n > sizeof zeros; n -= sizeof zeros)
        put(b, zeros, sizeof zeros);
    put(b, zeros, n);
}

/* S, its terminator, zeros up to a multiple of ALIGN. */
static void put_string(struct buf *b, const char *s, size_t align)
{
    size_t n = strlen(s) + 1;
    put(b, s, n);
    put_zeros(b, (align - n % align) % align);
}

static size_t begin_record(struct buf *b, uint32_t type, uint16_t misc)
{
    size_t start = b->n;
    put32(b, type);
    put_le(b, misc, 2);
    put_le(b, 0, 2);
    return start;
}

static void end_record(struct buf *b, size_t start)
{
    set_le(b, start + 6, b->n - start, 2);
}

enum {
    ST_IP = 1 << 0, ST_TID = 1 << 1, ST_TIME = 1 << 2, ST_CALLCHAIN = 1 << 5, ST_ID = 1 << 6,
    ST_CPU = 1 << 7, ST_PERIOD = 1 << 8, ST_REGS_USER = 1 << 12, ST_STACK_USER = 1 << 13,
};

/* A perf_event_attr of 128 bytes: a software event (cpu-clock), period 1,
 * sample_id_all. */
static void put_attr(struct buf *b, uint64_t sample_type, uint64_t regs_mask, uint32_t stack)
{
    put32(b, 1);
    put32(b, 128);
    put64(b, 0);
    put64(b, 1);
    put64(b, sample_type);
    put64(b, 0);
    put64(b, 1ull << 18);
    put_zeros(b, 80 - 48);
    put64(b, regs_mask);
    put32(b, stack);
    put_zeros(b, 128 - 92);
}

/* The crafted file-mode recording's samples: IP TID TIME ID CPU PERIOD
 * CALLCHAIN REGS_USER (BP, SP, IP) STACK_USER; its other records' trailer:
 * TID TIME ID CPU. */
#define CRAFTED_ST (ST_IP | ST_TID | ST_TIME | ST_ID | ST_CPU | ST_PERIOD | ST_CALLCHAIN |          \
                    ST_REGS_USER | ST_STACK_USER)
#define CRAFTED_REGS ((1u << PERF_X86_BP) | (1u << PERF_X86_SP) | (1u << PERF_X86_IP))
#define CRAFTED_PID 4242
#define CRAFTED_ID 11

static void put_trailer(struct buf *b, uint64_t time)
{
    put32(b, CRAFTED_PID);
    put32(b, CRAFTED_PID);
    put64(b, time);
    put64(b, CRAFTED_ID);
    put64(b, 1);
}

/* Where the crafted file has its records and fields, for the tests that
 * break them: the data, the MMAP2, sample K (in the order written), its
 * sample id, callchain nr and stack size, the feature table. */
static size_t crafted_data_at, crafted_mmap2_at, crafted_sample_at[4], crafted_id_at[4],
    crafted_nr_at[4], crafted_stack_at[4], crafted_table_at;

static void put_sample(struct buf *b, int k, uint64_t time)
{
    size_t start = begin_record(b, 9, 2);
    crafted_sample_at[k] = start;
    crafted_id_at[k] = start + 8 + 24;
    put64(b, 0x401000 + (uint64_t)k);
    put32(b, CRAFTED_PID);
    put32(b, CRAFTED_PID);
    put64(b, time);
    put64(b, CRAFTED_ID);
    put64(b, 1);
    put64(b, 1000 + (uint64_t)k);
    crafted_nr_at[k] = b->n;
    put64(b, 3);
    put64(b, (uint64_t)-512); /* PERF_CONTEXT_USER */
    put64(b, 0x401000 + (uint64_t)k);
    put64(b, 0x402000);
    put64(b, 2);
    put64(b, 0x7ffd0000 + (uint64_t)k); /* BP, SP, IP */
    put64(b, 0x7ffc0000 + (uint64_t)k);
    put64(b, 0x401000 + (uint64_t)k);
    crafted_stack_at[k] = b->n;
    put64(b, 64);
    for (int i = 0; i < 64; i++)
        put_le(b, (uint64_t)(k * 64 + i), 1);
    put64(b, 40);
    end_record(b, start);
}

static const uint8_t crafted_build_id[20] = {0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4, 5, 6,
                                             7, 8, 9, 10, 11, 12, 13, 14, 15, 16};

/* A file-mode recording: header, one attribute and its two ids, the data
 * (COMM, MMAP2, samples out of order around a FINISHED_ROUND), the feature
 * table, then BUILD_ID and EVENT_DESC. */
static struct buf crafted_file(void)
{
    struct buf b = {0};
    put(&b, "PERFILE2", 8);
    put64(&b, 104);
    put64(&b, 128 + 16);
    put64(&b, 104);           /* attrs */
    put64(&b, 128 + 16);
    put64(&b, 0);             /* data, set below */
    put64(&b, 0);
    put64(&b, 0);             /* event_types */
    put64(&b, 0);
    put64(&b, 1u << 2 | 1u << 12);
    put_zeros(&b, 24);
    put_attr(&b, CRAFTED_ST, CRAFTED_REGS, 64);
    put64(&b, 104 + 144);     /* its ids */
    put64(&b, 16);
    put64(&b, CRAFTED_ID);
    put64(&b, CRAFTED_ID + 1);
    size_t data = crafted_data_at = b.n;
    size_t r = begin_record(&b, 3, 1 << 13);
    put32(&b, CRAFTED_PID);
    put32(&b, CRAFTED_PID);
    put_string(&b, "crafted", 8);
    put_trailer(&b, 900);
    end_record(&b, r);
    r = crafted_mmap2_at = begin_record(&b, 10, 2);
    put32(&b, CRAFTED_PID);
    put32(&b, CRAFTED_PID);
    put64(&b, 0x400000);
    put64(&b, 0x3000);
    put64(&b, 0x1000);
    put_zeros(&b, 24);
    put32(&b, 5);             /* PROT_READ | PROT_EXEC */
    put32(&b, 2);             /* MAP_PRIVATE */
    put_string(&b, "/crafted/obj", 8);
    put_trailer(&b, 950);
    end_record(&b, r);
    put_sample(&b, 0, 2000);
    put_sample(&b, 1, 1000);
    r = begin_record(&b, 68, 0);
    end_record(&b, r);
    put_sample(&b, 2, 1500);
    put_sample(&b, 3, 3000);
    set_le(&b, 40, data, 8);
    set_le(&b, 48, b.n - data, 8);
    size_t table = crafted_table_at = b.n;
    put_zeros(&b, 32);
    size_t bid = b.n;
    r = begin_record(&b, 67, 2 | 1 << 15);
    put32(&b, (uint32_t)-1);
    put(&b, crafted_build_id, 20);
    put_le(&b, 20, 1);
    put_zeros(&b, 3);
    put_string(&b, "/crafted/obj", 64);
    end_record(&b, r);
    size_t desc = b.n;
    put32(&b, 1);
    put32(&b, 128);
    put_attr(&b, CRAFTED_ST, CRAFTED_REGS, 64);
    put32(&b, 2);
    put32(&b, 16);
    put_string(&b, "crafted-event", 16);
    put64(&b, CRAFTED_ID);
    put64(&b, CRAFTED_ID + 1);
    set_le(&b, table, bid, 8);
    set_le(&b, table + 8, desc - bid, 8);
    set_le(&b, table + 16, desc, 8);
    set_le(&b, table + 24, b.n - desc, 8);
    return b;
}

static void format_crafted(struct lines *out, const struct perf_event *ev)
{
    if (ev->kind == PERF_EVENT_SAMPLE)
        add_line(out, "%u %" PRIu64 " %s %" PRIx64, ev->u.sample.tid, ev->u.sample.time,
                 ev->u.sample.attr->name, ev->u.sample.ip);
}

static void test_crafted_file_reads_as_perf_reads_it(void **state)
{
    (void)state;
    struct buf b = crafted_file();
    write_bytes(at("crafted.data"), b.p, b.n);
    free(b.p);
    char err[256];
    struct perf_data *pd = perf_data_open(at("crafted.data"), err, sizeof err);
    if (!pd)
        fail_msg("%s", err);
    size_t n;
    const struct perf_attr *attrs = perf_data_attrs(pd, &n);
    assert_int_equal(n, 1);
    assert_string_equal(attrs[0].name, "crafted-event");
    assert_int_equal(attrs[0].sample_type, CRAFTED_ST);
    assert_int_equal(attrs[0].sample_regs_user, CRAFTED_REGS);
    struct perf_event ev;
    uint64_t times[4];
    int samples = 0, mmaps = 0;
    while (perf_data_next(pd, &ev) > 0) {
        if (ev.kind == PERF_EVENT_MMAP) {
            mmaps++;
            assert_string_equal(ev.u.mmap.filename, "/crafted/obj");
            assert_true(ev.u.mmap.executable);
            assert_int_equal(ev.u.mmap.build_id_len, 20);
            assert_memory_equal(ev.u.mmap.build_id, crafted_build_id, 20);
            assert_int_equal(ev.time, 950);
        }
        if (ev.kind != PERF_EVENT_SAMPLE)
            continue;
        const struct perf_sample *s = &ev.u.sample;
        int k = (int)(s->ip - 0x401000);
        assert_true(samples < 4 && k >= 0 && k < 4);
        times[samples++] = s->time;
        assert_int_equal(s->period, 1000 + k);
        assert_int_equal(s->cpu, 1);
        assert_int_equal(s->callchain_nr, 3);
        assert_int_equal(s->callchain[2], 0x402000);
        assert_int_equal(s->regs_abi, 2);
        assert_int_equal(s->regs_mask, CRAFTED_REGS);
        assert_int_equal(s->regs[PERF_X86_SP], 0x7ffc0000 + k);
        assert_int_equal(s->regs[PERF_X86_BP], 0x7ffd0000 + k);
        assert_int_equal(s->regs[PERF_X86_AX], 0);
        assert_int_equal(s->stack_size, 40);
        assert_int_equal(s->stack[39], (uint8_t)(k * 64 + 39));
    }
    /* 2000 and 1000 before the round, 1500 and 3000 after: released at the end */
    assert_int_equal(samples, 4);
    assert_true(times[0] == 1000 && times[1] == 1500 && times[2] == 2000 && times[3] == 3000);
    assert_int_equal(mmaps, 1);
    size_t len;
    const uint8_t *id = perf_data_build_id(pd, 1, "/crafted/obj", &len);
    assert_non_null(id);
    assert_int_equal(len, 20);
    perf_data_close(pd);

    if (run("perf script -i %s >/dev/null 2>&1", at("crafted.data")))
        skip();
    /* perf reads the file as the reader does */
    char *text = output_of("perf evlist -i %s 2>/dev/null", at("crafted.data"));
    assert_string_equal(text, "crafted-event\n");
    free(text);
    text = output_of("perf buildid-list -i %s 2>/dev/null", at("crafted.data"));
    assert_string_equal(text, "deadbeef0102030405060708090a0b0c0d0e0f10 /crafted/obj\n");
    free(text);
    struct lines mine = {0}, theirs = {0};
    reader_lines(at("crafted.data"), format_crafted, &mine);
    text = output_of("perf script -i %s -F tid,time,event,ip --ns -G 2>/dev/null",
                     at("crafted.data"));
    char *save = NULL;
    for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        unsigned tid;
        char time[64], name[64];
        uint64_t ip;
        assert_int_equal(sscanf(l, "%u %63[0-9.]: %63[^:]: %" SCNx64, &tid, time, name, &ip), 4);
        add_line(&theirs, "%u %" PRIu64 " %s %" PRIx64, tid, parse_time(time), name, ip);
    }
    free(text);
    assert_same_lines(&mine, &theirs, "crafted file");
    free_lines(&mine);
    free_lines(&theirs);
}

/* ---- the order of FINISHED_ROUNDs ---------------------------------------------------------------------- */

/* A pipe-mode stream: one attribute (IP TID TIME PERIOD, id 7) named by an
 * EVENT_UPDATE, then ITEMS: a time for a sample (ip = its index + 1), or
 * ROUND for a FINISHED_ROUND. */
#define ROUND UINT64_MAX

static struct buf ordered_stream(const uint64_t *items, size_t n)
{
    struct buf b = {0};
    put(&b, "PERFILE2", 8);
    put64(&b, 16);
    size_t r = begin_record(&b, 64, 0);
    put_attr(&b, ST_IP | ST_TID | ST_TIME | ST_PERIOD, 0, 0);
    put64(&b, 7);
    end_record(&b, r);
    r = begin_record(&b, 78, 0);
    put64(&b, 2);
    put64(&b, 7);
    put_string(&b, "ordered-event", 8);
    end_record(&b, r);
    for (size_t i = 0; i < n; i++) {
        r = begin_record(&b, items[i] == ROUND ? 68 : 9, 2);
        if (items[i] != ROUND) {
            put64(&b, i + 1);
            put32(&b, 42);
            put32(&b, 42);
            put64(&b, items[i]);
            put64(&b, 1);
        }
        end_record(&b, r);
    }
    return b;
}

/* The reader's order of STREAM is perf script's: 1 when it is not that of
 * a stable sort by time. */
static int check_order(const struct buf *stream, const uint64_t *items, size_t n)
{
    write_bytes(at("ordered.data"), stream->p, stream->n);
    struct lines mine = {0}, theirs = {0};
    reader_lines(at("ordered.data"), format_crafted, &mine);
    char *text = output_of("perf script -i - -F time,event,ip --ns -G < %s 2>/dev/null",
                           at("ordered.data"));
    char *save = NULL;
    for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        char time[64], name[64];
        uint64_t ip;
        assert_int_equal(sscanf(l, " %63[0-9.]: %63[^:]: %" SCNx64, time, name, &ip), 3);
        add_line(&theirs, "42 %" PRIu64 " %s %" PRIx64, parse_time(time), name, ip);
    }
    free(text);
    assert_same_lines(&mine, &theirs, "order");
    /* a stable sort of the samples by time, compared with the reader's order */
    int unsorted = 0;
    size_t k = 0;
    uint64_t *sorted = malloc(n * sizeof *sorted);
    assert_non_null(sorted);
    for (size_t i = 0; i < n; i++)
        if (items[i] != ROUND)
            sorted[k++] = items[i];
    for (size_t i = 1; i < k; i++)
        for (size_t j = i; j && sorted[j - 1] > sorted[j]; j--) {
            uint64_t x = sorted[j];
            sorted[j] = sorted[j - 1];
            sorted[j - 1] = x;
        }
    assert_int_equal(k, mine.n);
    for (size_t i = 0; i < k; i++) {
        uint64_t t = strtoull(strchr(mine.v[i], ' ') + 1, NULL, 10);
        unsorted |= t != sorted[i];
    }
    free(sorted);
    free_lines(&mine);
    free_lines(&theirs);
    return unsorted;
}

static void test_rounds_order_as_perf_script(void **state)
{
    (void)state;
    if (run("perf version >/dev/null 2>&1"))
        skip();
    /* perf's max_timestamp is the time of the queue's last record, set
     * anew when the queue was empty: after 1000 is flushed, 500 makes it
     * 500, so 700 waits for the end, and 600 goes before it (a running
     * maximum, 1000, would have released 700 at the fourth round) */
    static const uint64_t maxrule[] = {1000, ROUND, ROUND, 500, ROUND, 700, ROUND, 600};
    struct buf b = ordered_stream(maxrule, sizeof maxrule / sizeof *maxrule);
    assert_true(check_order(&b, maxrule, sizeof maxrule / sizeof *maxrule));
    free(b.p);
    /* random streams: times drifting forward with jitter, repeats, some 0 */
    uint64_t seed = 0x9e3779b97f4a7c15u, items[400];
    int unsorted = 0;
    for (int stream = 0; stream < 8; stream++) {
        uint64_t base = 1000;
        for (size_t i = 0; i < 400; i++) {
            seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
            unsigned roll = (unsigned)(seed % 100);
            base += seed % 7;
            if (roll < 12)
                items[i] = ROUND;
            else if (roll < 14)
                items[i] = 0; /* no time: returned at once */
            else if (roll < 20 && i && items[i - 1] != ROUND)
                items[i] = items[i - 1]; /* the same time again */
            else
                items[i] = base - (seed >> 20) % 150;
        }
        b = ordered_stream(items, 400);
        unsorted += check_order(&b, items, 400);
        free(b.p);
    }
    assert_true(unsorted > 0);
}

/* ---- bad input ------------------------------------------------------------------------------------------ */

/* Read DATA to its end: the opening fails with a reason, or every event
 * comes (its pointers read whole, for the sanitizers) and the end is clean
 * or an error with a reason.  Returns perf_data_next's last value, or -2
 * when the opening failed. */
static int read_safely(const uint8_t *data, size_t size, struct perf_data_stats *stats)
{
    char err[256] = "";
    struct perf_data *pd = perf_data_open_memory(data, size, err, sizeof err);
    if (!pd) {
        assert_true(err[0]);
        return -2;
    }
    struct perf_event ev;
    int r;
    uint64_t events = 0, sum = 0;
    while ((r = perf_data_next(pd, &ev)) > 0) {
        assert_true(++events <= size / 8);
        if (ev.kind == PERF_EVENT_SAMPLE) {
            const struct perf_sample *s = &ev.u.sample;
            for (uint64_t i = 0; i < s->callchain_nr; i++)
                sum += s->callchain[i];
            for (uint64_t i = 0; i < s->stack_size; i++)
                sum += s->stack[i];
            sum += strlen(s->attr->name);
        } else if (ev.kind == PERF_EVENT_MMAP) {
            sum += strlen(ev.u.mmap.filename);
            for (size_t i = 0; ev.u.mmap.build_id && i < ev.u.mmap.build_id_len; i++)
                sum += ev.u.mmap.build_id[i];
        } else if (ev.kind == PERF_EVENT_COMM) {
            sum += strlen(ev.u.comm.comm);
        }
    }
    if (r < 0)
        assert_true(perf_data_error(pd)[0]);
    if (stats)
        *stats = *perf_data_stats(pd);
    perf_data_close(pd);
    (void)sum;
    return r;
}

static void test_truncated_everywhere(void **state)
{
    (void)state;
    /* a file-mode file cut anywhere loses sections its header points to */
    struct buf file = crafted_file();
    for (size_t n = 0; n < file.n; n++)
        assert_int_equal(read_safely(file.p, n, NULL), -2);
    assert_int_equal(read_safely(file.p, file.n, NULL), 0);
    /* a stream cut between records ends there, inside one breaks */
    uint64_t items[] = {5, 3, ROUND, 4, 9, ROUND, 1};
    struct buf stream = ordered_stream(items, sizeof items / sizeof *items);
    size_t next_record = 16;
    for (size_t n = 0; n < stream.n; n++) {
        if (n > next_record)
            next_record += (size_t)stream.p[next_record + 6] | (size_t)stream.p[next_record + 7] << 8;
        assert_int_equal(read_safely(stream.p, n, NULL), n < 16 ? -2 : n == next_record ? 0 : -1);
    }
    free(file.p);
    free(stream.p);
    if (!recorded)
        return;
    size_t n;
    uint8_t *real = read_bytes(at("m.data"), &n);
    for (size_t cut = 0; cut < n; cut += n / 300 + 1)
        read_safely(real, cut, NULL);
    free(real);
    real = read_bytes(at("m.pipe"), &n);
    for (size_t cut = 0; cut < n; cut += n / 300 + 1)
        read_safely(real, cut, NULL);
    free(real);
}

static void test_corrupted_header_fields(void **state)
{
    (void)state;
    struct buf file = crafted_file();
    uint8_t *copy = malloc(file.n);
    assert_non_null(copy);
    const uint64_t values[] = {0, 1, 8, 15, 16, 63, 64, 104, file.n - 1, file.n, file.n + 1,
                               1ull << 32, 1ull << 63, UINT64_MAX};
    for (size_t field = 8; field < 104; field += 8)
        for (size_t v = 0; v < sizeof values / sizeof *values; v++) {
            memcpy(copy, file.p, file.n);
            for (int i = 0; i < 8; i++)
                copy[field + i] = (uint8_t)(values[v] >> 8 * i);
            read_safely(copy, file.n, NULL);
        }
    /* the ids section of the attribute, and the feature sections */
    size_t sections[] = {104 + 128, 104 + 136, crafted_table_at, crafted_table_at + 8,
                         crafted_table_at + 16, crafted_table_at + 24};
    for (size_t s = 0; s < sizeof sections / sizeof *sections; s++)
        for (size_t v = 0; v < sizeof values / sizeof *values; v++) {
            memcpy(copy, file.p, file.n);
            for (int i = 0; i < 8; i++)
                copy[sections[s] + i] = (uint8_t)(values[v] >> 8 * i);
            read_safely(copy, file.n, NULL);
        }
    /* the messages */
    char err[256];
    struct {
        size_t field;
        uint64_t value;
        const char *says;
    } cases[] = {
        {8, 50, "neither a pipe-mode nor a file-mode header"},
        {16, 8, "cannot hold an attribute"},
        {24, 1ull << 40, "attribute section lies outside"},
        {48, 1ull << 40, "data section lies outside"},
        {72, UINT64_MAX, "feature sections"},
        {104 + 128, 1ull << 40, "ids of attribute 0 lie outside"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        memcpy(copy, file.p, file.n);
        for (int i = 0; i < 8; i++)
            copy[cases[c].field + i] = (uint8_t)(cases[c].value >> 8 * i);
        assert_null(perf_data_open_memory(copy, file.n, err, sizeof err));
        if (!strstr(err, cases[c].says))
            fail_msg("header field at %zu: \"%s\" does not say \"%s\"", cases[c].field, err,
                     cases[c].says);
    }
    free(copy);
    free(file.p);
}

static void test_bad_magic(void **state)
{
    (void)state;
    char err[256];
    uint8_t header[16] = "2ELIFREP\x68";
    assert_null(perf_data_open_memory(header, sizeof header, err, sizeof err));
    assert_non_null(strstr(err, "big-endian"));
    memcpy(header, "PERFFILE", 8);
    assert_null(perf_data_open_memory(header, sizeof header, err, sizeof err));
    assert_non_null(strstr(err, "first version"));
    memcpy(header, "\x7f" "ELF\2\1\1\0", 8);
    assert_null(perf_data_open_memory(header, sizeof header, err, sizeof err));
    assert_non_null(strstr(err, "not a perf.data file"));
    assert_null(perf_data_open_memory(header, 7, err, sizeof err));
    assert_non_null(strstr(err, "too short"));
    write_bytes(at("empty.data"), "", 0);
    assert_null(perf_data_open(at("empty.data"), err, sizeof err));
    assert_non_null(strstr(err, "empty.data: "));
    assert_null(perf_data_open(at("no-such.data"), err, sizeof err));
    assert_non_null(strstr(err, "no-such.data: "));
}

/* What reading the crafted file with a field changed gives. */
struct patched {
    int samples, end;              /* samples returned, perf_data_next's last value */
    struct perf_data_stats stats;
    char error[256];
};

/* The crafted file with the SIZE bytes at OFFSET set to VALUE. */
static struct patched read_patched(size_t offset, uint64_t value, size_t size)
{
    struct buf file = crafted_file();
    set_le(&file, offset, value, size);
    char err[256];
    struct perf_data *pd = perf_data_open_memory(file.p, file.n, err, sizeof err);
    if (!pd)
        fail_msg("%s", err);
    struct perf_event ev;
    struct patched p = {0};
    while ((p.end = perf_data_next(pd, &ev)) > 0)
        p.samples += ev.kind == PERF_EVENT_SAMPLE;
    p.stats = *perf_data_stats(pd);
    snprintf(p.error, sizeof p.error, "%s", perf_data_error(pd));
    perf_data_close(pd);
    free(file.p);
    return p;
}

/* The offsets of the crafted file's parts, set by writing it. */
static void crafted_file_offsets(void)
{
    free(crafted_file().p);
}

static void test_broken_framing_ends_with_an_error(void **state)
{
    (void)state;
    crafted_file_offsets();
    struct patched p = read_patched(crafted_data_at + 6, 0, 2);
    assert_int_equal(p.end, -1);
    assert_non_null(strstr(p.error, "size of 0 bytes"));
    p = read_patched(crafted_data_at + 6, 0xffff, 2);
    assert_int_equal(p.end, -1);
    assert_non_null(strstr(p.error, "runs past the end"));
    /* the last sample's size cut by 8: it lacks its dyn_size (skipped),
     * and the next header, read from that dyn_size (40), has a size of 0;
     * the three samples queued before it come first */
    p = read_patched(crafted_sample_at[3] + 6, 200 - 8, 2);
    assert_int_equal(p.end, -1);
    assert_int_equal(p.samples, 3);
    assert_non_null(strstr(p.error, "size of 0 bytes"));
    assert_int_equal(p.stats.malformed, 1);
    assert_non_null(strstr(p.stats.first_malformed, "dyn_size"));

    /* a pipe stream broken inside an AUXTRACE's data, and a compressed one */
    uint64_t items[] = {5, 3, ROUND, 4};
    struct buf b = ordered_stream(items, 4);
    size_t r = begin_record(&b, 71, 0);
    put64(&b, 1ull << 40);
    put_zeros(&b, 32);
    end_record(&b, r);
    struct perf_data_stats stats;
    assert_int_equal(read_safely(b.p, b.n, &stats), -1);
    assert_int_equal(stats.samples, 3);
    char err[256];
    struct perf_data *pd = perf_data_open_memory(b.p, b.n, err, sizeof err);
    struct perf_event ev;
    while (perf_data_next(pd, &ev) > 0)
        ;
    assert_non_null(strstr(perf_data_error(pd), "run past the end"));
    perf_data_close(pd);
    set_le(&b, r, 81, 4);
    pd = perf_data_open_memory(b.p, b.n, err, sizeof err);
    while (perf_data_next(pd, &ev) > 0)
        ;
    assert_non_null(strstr(perf_data_error(pd), "compressed"));
    perf_data_close(pd);

    /* the stream on standard input, cut inside its last record */
    write_bytes(at("cut.pipe"), b.p, r + 20);
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t cat = fork();
    if (cat == 0) {
        dup2(fds[1], 1);
        close(fds[0]);
        close(fds[1]);
        execlp("cat", "cat", at("cut.pipe"), (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    int saved = dup(0);
    dup2(fds[0], 0);
    close(fds[0]);
    pd = perf_data_open("-", err, sizeof err);
    assert_non_null(pd);
    int got, samples = 0;
    while ((got = perf_data_next(pd, &ev)) > 0)
        samples++;
    assert_int_equal(got, -1);
    assert_int_equal(samples, 3);
    assert_non_null(strstr(perf_data_error(pd), "ends inside"));
    perf_data_close(pd);
    dup2(saved, 0);
    close(saved);
    waitpid(cat, NULL, 0);
    free(b.p);
}

static void test_malformed_records_are_skipped_and_counted(void **state)
{
    (void)state;
    crafted_file_offsets();
    struct {
        size_t offset;
        uint64_t value;
        const char *says;
    } cases[] = {
        {crafted_nr_at[1], 1ull << 61, "ends inside its callchain"},
        {crafted_nr_at[1], 18, "ends inside its callchain"},
        {crafted_nr_at[1], 17, "ends inside its user registers"},
        {crafted_stack_at[2], 1ull << 62, "ends inside its user stack"},
        {crafted_stack_at[2] + 8 + 64, 65, "dyn_size of 65 bytes"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        struct patched p = read_patched(cases[c].offset, cases[c].value, 8);
        assert_int_equal(p.end, 0);
        assert_int_equal(p.samples, 3);
        assert_int_equal(p.stats.malformed, 1);
        if (!strstr(p.stats.first_malformed, cases[c].says))
            fail_msg("\"%s\" does not say \"%s\"", p.stats.first_malformed, cases[c].says);
    }
    /* with one attribute, perf does not look the sample id up: nor does
     * the reader */
    struct patched p = read_patched(crafted_id_at[2], 99, 8);
    assert_int_equal(p.samples, 4);
    assert_int_equal(p.stats.malformed, 0);
    /* the MMAP2's filename without its terminator: the event is skipped */
    struct buf file = crafted_file();
    memset(file.p + crafted_mmap2_at + 8 + 64, 'x', 16);
    struct perf_data_stats stats;
    assert_int_equal(read_safely(file.p, file.n, &stats), 0);
    assert_int_equal(stats.malformed, 1);
    assert_non_null(strstr(stats.first_malformed, "MMAP2"));
    free(file.p);
}

static void test_mutations_never_crash(void **state)
{
    (void)state;
    struct buf file = crafted_file();
    uint64_t items[] = {5, 3, ROUND, 4, 9, ROUND, 1, 0, 7};
    struct buf stream = ordered_stream(items, sizeof items / sizeof *items);
    uint64_t seed = 88172645463325252u;
    for (int m = 0; m < 4000; m++) {
        struct buf *b = m % 2 ? &stream : &file;
        uint8_t *copy = malloc(b->n);
        assert_non_null(copy);
        memcpy(copy, b->p, b->n);
        for (int k = 0; k < 1 + m % 4; k++) {
            seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
            size_t at_ = (size_t)(seed % b->n);
            copy[at_] = (uint8_t)(seed >> 40) & ((seed >> 32) & 1 ? 0xff : 0x80);
        }
        read_safely(copy, b->n, NULL);
        free(copy);
    }
    free(file.p);
    free(stream.p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_samples_match_perf_script),
        cmocka_unit_test(test_recording_out_of_time_order),
        cmocka_unit_test(test_events_match_perf_script),
        cmocka_unit_test(test_sample_contents_match_perf_report_dump),
        cmocka_unit_test(test_pipe_mode_and_stdin_equal_file_mode),
        cmocka_unit_test(test_build_ids_match_perf_buildid_list),
        cmocka_unit_test(test_event_names_match_perf_evlist),
        cmocka_unit_test(test_crafted_file_reads_as_perf_reads_it),
        cmocka_unit_test(test_rounds_order_as_perf_script),
        cmocka_unit_test(test_truncated_everywhere),
        cmocka_unit_test(test_corrupted_header_fields),
        cmocka_unit_test(test_bad_magic),
        cmocka_unit_test(test_broken_framing_ends_with_an_error),
        cmocka_unit_test(test_malformed_records_are_skipped_and_counted),
        cmocka_unit_test(test_mutations_never_crash),
    };
    return cmocka_run_group_tests_name("test_perf_data", tests, group_setup, group_teardown);
}
/* SPDX-License-Identifier: Apache-2.0 */
