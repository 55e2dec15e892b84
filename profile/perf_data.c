/* SPDX-License-Identifier: Apache-2.0 */
/*
 * perf_data: reading a perf.data recording in perf's order (see
 * perf_data.h).  This file holds the input (a mapping, a buffer or a
 * stream), the framing of records, the records perf adds (HEADER_ATTR,
 * FINISHED_ROUND, ...) and perf's ordered-events queue; perf_meta keeps what
 * the recording says about itself, perf_records decodes the kernel's
 * records.
 *
 * The order is perf's (tools/perf/util/ordered-events.c, session.c): a
 * kernel record with a time is queued; one without (no TIME field, or the
 * time 0 of records perf synthesizes) is returned at once, ahead of the
 * queue.  At a FINISHED_ROUND, if the queue is not empty, the queued records
 * whose time is at most NEXT_FLUSH are released in (time, arrival) order,
 * then NEXT_FLUSH becomes MAX_TIME, the time of the last record of the
 * queue, which is the largest time queued since the queue was last empty;
 * NEXT_FLUSH starts at 0, so the first round releases nothing.  At the end
 * of the input, or where it breaks, everything queued is released.
 */
#include "profile/perf_data.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profile/perf_meta.h"
#include "profile/perf_order.h"
#include "profile/perf_records.h"

/* A record read: its bytes, and the copy that holds them when they do not
 * point into the input (read from a stream, or misaligned in memory). */

struct perf_data {
    /* the input: DATA[POS, END) when in memory (MAPPED: munmap SIZE bytes;
     * OWNED_INPUT: free), else the stream FD (pipe mode) */
    const uint8_t *data;
    size_t size, pos, end;
    int mapped;
    uint8_t *owned_input;
    int fd;
    int close_fd;                  /* the file opened here, or -1 */
    uint64_t stream_offset;        /* bytes read from FD */
    int done;                      /* the input is consumed, or broken (ERROR) */
    struct perf_record pending;         /* read ahead by the opening in pipe mode */
    int has_pending;

    struct perf_meta meta;

    /* the ordered-events queue, and perf's rounds */
    struct perf_order queue;
    uint64_t max_time, next_flush, release_limit;
    int releasing;

    uint8_t *current;              /* the copy holding the record returned last */
    struct perf_data_stats stats;
    char error[256];
};

static int broken(struct perf_data *pd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int broken(struct perf_data *pd, const char *fmt, ...)
{
    if (!pd->error[0]) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(pd->error, sizeof pd->error, fmt, ap);
        va_end(ap);
    }
    pd->done = 1;
    return -1;
}

static void malformed(struct perf_data *pd, const char *why)
{
    if (!pd->stats.malformed++)
        snprintf(pd->stats.first_malformed, sizeof pd->stats.first_malformed, "%s", why);
}

static uint64_t input_offset(const struct perf_data *pd)
{
    return pd->fd >= 0 ? pd->stream_offset : pd->pos;
}

/* ---- framing ------------------------------------------------------------------- */

/* Read N bytes from FD: how many came before the end, or -1. */
static ssize_t read_full(int fd, uint8_t *buf, size_t n)
{
    size_t got = 0;
    while (got < n) {
        ssize_t r = read(fd, buf + got, n - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return -1;
        if (r == 0)
            break;
        got += (size_t)r;
    }
    return (ssize_t)got;
}

static int read_stream_record(struct perf_data *pd, struct perf_record *r)
{
    uint8_t header[PERF_HEADER_SIZE];
    ssize_t got = read_full(pd->fd, header, sizeof header);
    if (got == 0)
        return 0;
    if (got < 0)
        return broken(pd, "reading at offset %#" PRIx64 ": %s", pd->stream_offset, strerror(errno));
    if (got < PERF_HEADER_SIZE)
        return broken(pd, "the input ends inside the record header at offset %#" PRIx64,
                      pd->stream_offset);
    size_t size = get16(header + 6);
    if (size < PERF_HEADER_SIZE)
        return broken(pd, "the record at offset %#" PRIx64 " has a size of %zu bytes, less than "
                      "its 8-byte header", pd->stream_offset, size);
    uint8_t *buf = malloc(size);
    if (!buf)
        return broken(pd, "out of memory for a record of %zu bytes", size);
    memcpy(buf, header, sizeof header);
    if (read_full(pd->fd, buf + PERF_HEADER_SIZE, size - PERF_HEADER_SIZE) !=
        (ssize_t)(size - PERF_HEADER_SIZE)) {
        free(buf);
        return broken(pd, "the input ends inside the record of %zu bytes at offset %#" PRIx64,
                      size, pd->stream_offset);
    }
    pd->stream_offset += size;
    *r = (struct perf_record){.rec = buf, .len = size, .owned = buf};
    return 1;
}

static int read_memory_record(struct perf_data *pd, struct perf_record *r)
{
    size_t left = pd->end - pd->pos;
    if (!left)
        return 0;
    if (left < PERF_HEADER_SIZE)
        return broken(pd, "the data ends inside the record header at offset %#zx (%zu bytes "
                      "left)", pd->pos, left);
    const uint8_t *p = pd->data + pd->pos;
    size_t size = get16(p + 6);
    if (size < PERF_HEADER_SIZE)
        return broken(pd, "the record at offset %#zx has a size of %zu bytes, less than its "
                      "8-byte header", pd->pos, size);
    if (size > left)
        return broken(pd, "the record of %zu bytes at offset %#zx runs past the end of the "
                      "data (%zu bytes left)", size, pd->pos, left);
    *r = (struct perf_record){.rec = p, .len = size};
    if ((uintptr_t)p % 8) { /* pipe-mode records need not be 8-aligned: a callchain must be */
        if (!(r->owned = malloc(size)))
            return broken(pd, "out of memory for a record of %zu bytes", size);
        r->rec = memcpy(r->owned, p, size);
    }
    pd->pos += size;
    return 1;
}

/* The next record of the input: 1, 0 at its end, -1 when broken (ERROR). */
static int read_record(struct perf_data *pd, struct perf_record *r)
{
    if (pd->has_pending) {
        pd->has_pending = 0;
        *r = pd->pending;
        return 1;
    }
    if (pd->done)
        return pd->error[0] ? -1 : 0;
    int got = pd->fd >= 0 ? read_stream_record(pd, r) : read_memory_record(pd, r);
    if (got > 0)
        pd->stats.records++;
    else if (got == 0)
        pd->done = 1;
    return got;
}

/* Step over N bytes that follow a record outside its size (AUXTRACE data,
 * tracing data). */
static int skip_payload(struct perf_data *pd, uint64_t n)
{
    if (pd->fd < 0) {
        if (n > pd->end - pd->pos)
            return broken(pd, "the %" PRIu64 " bytes that follow the record before offset %#zx "
                          "run past the end of the data", n, pd->pos);
        pd->pos += n;
        return 0;
    }
    uint8_t buf[4096];
    for (uint64_t left = n; left;) {
        size_t chunk = left < sizeof buf ? (size_t)left : sizeof buf;
        if (read_full(pd->fd, buf, chunk) != (ssize_t)chunk)
            return broken(pd, "the input ends inside the %" PRIu64 " bytes that follow a record",
                          n);
        left -= chunk;
        pd->stream_offset += chunk;
    }
    return 0;
}

/* ---- the ordered-events queue ------------------------------------------------------- */

static int queue_push(struct perf_data *pd, struct perf_record *r, uint64_t time)
{
    if (perf_order_push(&pd->queue, r, time) != 0)
        return broken(pd, "out of memory for %zu queued records", perf_order_waiting(&pd->queue) + 1);
    /* perf's max_timestamp: set when a record goes to the queue's tail */
    if (perf_order_waiting(&pd->queue) == 1 || time >= pd->max_time)
        pd->max_time = time;
    return 0;
}

/* FINISHED_ROUND: perf flushes nothing, and keeps NEXT_FLUSH, when the
 * queue is empty. */
static void finished_round(struct perf_data *pd)
{
    if (!perf_order_waiting(&pd->queue))
        return;
    pd->release_limit = pd->next_flush;
    pd->releasing = 1;
    pd->next_flush = pd->max_time;
}

/* ---- records perf adds -------------------------------------------------------------- */

static int user_record(struct perf_data *pd, const struct perf_record *r, char *why)
{
    struct perf_meta *m = &pd->meta;
    switch (record_type(r->rec)) {
    case REC_HEADER_ATTR: return perf_meta_attr_record(m, r->rec, r->len, why);
    case REC_HEADER_EVENT_TYPE: return perf_meta_event_type(m, r->rec, r->len, why);
    case REC_HEADER_BUILD_ID: return perf_meta_build_id_record(m, r->rec, r->len, why);
    case REC_EVENT_UPDATE: return perf_meta_event_update(m, r->rec, r->len, why);
    case REC_HEADER_FEATURE: return perf_meta_feature_record(m, r->rec, r->len, why);
    case REC_FINISHED_ROUND:
        finished_round(pd);
        return 0;
    case REC_HEADER_TRACING_DATA: /* u32 size of the tracing data after the record */
    case REC_AUXTRACE:            /* u64 size of the trace data after the record */
        if (r->len < PERF_HEADER_SIZE + (record_type(r->rec) == REC_AUXTRACE ? 8 : 4)) {
            snprintf(why, PERF_WHY_LEN, "a record of %zu bytes is too short for the size of "
                     "the data that follows it", r->len);
            return -2; /* the framing is lost */
        }
        pd->stats.unknown++;
        return skip_payload(pd, record_type(r->rec) == REC_AUXTRACE ? get64(r->rec + 8)
                                                                     : get32(r->rec + 8));
    case REC_COMPRESSED:
        snprintf(why, PERF_WHY_LEN, "the recording is compressed (perf record -z), which this "
                 "reader does not read");
        return -2;
    default:
        pd->stats.unknown++;
        return 0;
    }
}

static void process_user_record(struct perf_data *pd, const struct perf_record *r)
{
    char why[PERF_WHY_LEN] = "";
    uint64_t at = input_offset(pd) - r->len;
    int ret = user_record(pd, r, why);
    if (ret == -2)
        broken(pd, "record at offset %#" PRIx64 ": %s", at, why);
    else if (ret < 0 && why[0])
        malformed(pd, why);
}

/* ---- the order ---------------------------------------------------------------------- */

/* The next kernel record in perf's order: 1, 0 at the end, -1 when the
 * input broke (after what was queued before the break). */
static int next_in_order(struct perf_data *pd, struct perf_record *out)
{
    for (;;) {
        if (perf_order_next(&pd->queue, out))
            return 1;
        if (pd->releasing) {
            pd->releasing = 0;
            if (perf_order_release(&pd->queue, pd->release_limit) != 0)
                return broken(pd, "out of memory for %zu queued records", perf_order_waiting(&pd->queue));
            continue;
        }
        struct perf_record r;
        int got = read_record(pd, &r);
        if (got <= 0) {
            if (perf_order_waiting(&pd->queue)) {
                if (perf_order_release(&pd->queue, UINT64_MAX) != 0)
                    return broken(pd, "out of memory for %zu queued records", perf_order_waiting(&pd->queue));
                continue;
            }
            return got;
        }
        if (record_type(r.rec) >= REC_USER_TYPE_START) {
            process_user_record(pd, &r);
            free(r.owned);
            continue;
        }
        char why[PERF_WHY_LEN];
        uint64_t time;
        int timed = perf_record_time(&pd->meta, r.rec, r.len, &time, why);
        if (timed == 0) {
            *out = r;
            return 1;
        }
        if (timed < 0)
            malformed(pd, why);
        if (timed < 0 || queue_push(pd, &r, time) < 0)
            free(r.owned);
    }
}

int perf_data_next(struct perf_data *pd, struct perf_event *ev)
{
    free(pd->current);
    pd->current = NULL;
    for (;;) {
        struct perf_record r;
        int got = next_in_order(pd, &r);
        if (got <= 0)
            return got;
        char why[PERF_WHY_LEN];
        int decoded = perf_record_decode(&pd->meta, r.rec, r.len, ev, &pd->stats.lost_samples, why);
        if (decoded > 0) {
            pd->stats.samples += ev->kind == PERF_EVENT_SAMPLE;
            pd->current = r.owned;
            return 1;
        }
        if (decoded < 0)
            malformed(pd, why);
        else
            pd->stats.unknown++;
        free(r.owned);
    }
}

/* ---- opening --------------------------------------------------------------------------- */

/* The first 16 bytes: the magic, and the size of the header (16 in pipe
 * mode).  0, or -1 with ERR. */
static int check_magic(const uint8_t *p, char *err, size_t errlen)
{
    if (!memcmp(p, "PERFILE2", 8))
        return 0;
    if (!memcmp(p, "2ELIFREP", 8))
        snprintf(err, errlen, "a big-endian perf.data file: only little-endian recordings are "
                 "read");
    else if (!memcmp(p, "PERFFILE", 8))
        snprintf(err, errlen, "a perf.data file of the first version (PERFFILE), which is not "
                 "read");
    else
        snprintf(err, errlen, "not a perf.data file (it does not start with PERFILE2)");
    return -1;
}

static int section_ok(const struct perf_data *pd, const uint8_t *section)
{
    uint64_t offset = get64(section), size = get64(section + 8);
    return offset <= pd->size && size <= pd->size - offset;
}

/* The attribute section: entries of ATTR_SIZE bytes, each an attribute and
 * the file section of its ids. */
static int read_attrs(struct perf_data *pd, const uint8_t *h, char *err, size_t errlen)
{
    uint64_t attr_size = get64(h + 16), offset = get64(h + 24), size = get64(h + 32);
    if (!size)
        return 0;
    if (attr_size < 64 + 16 || attr_size > size) {
        snprintf(err, errlen, "attribute entries of %" PRIu64 " bytes (in a section of %" PRIu64
                 ") cannot hold an attribute and its ids", attr_size, size);
        return -1;
    }
    char why[PERF_WHY_LEN];
    for (uint64_t i = 0; i < size / attr_size; i++) {
        const uint8_t *entry = pd->data + offset + i * attr_size, *ids = entry + attr_size - 16;
        if (!section_ok(pd, ids)) {
            snprintf(err, errlen, "the ids of attribute %" PRIu64 " lie outside the file", i);
            return -1;
        }
        if (perf_meta_add_attr(&pd->meta, entry, attr_size - 16, pd->data + get64(ids),
                               get64(ids + 8) / 8, why)) {
            snprintf(err, errlen, "attribute %" PRIu64 ": %s", i, why);
            return -1;
        }
    }
    return 0;
}

/* The feature sections: after the data, one file section per bit of the
 * header's 256 feature bits, in the order of the bits. */
static int read_features(struct perf_data *pd, const uint8_t *h, char *err, size_t errlen)
{
    uint64_t table = get64(h + 40) + get64(h + 48), n = 0;
    for (int w = 0; w < 4; w++)
        n += (uint64_t)__builtin_popcountll(get64(h + 72 + 8 * w));
    if (table > pd->size || n * 16 > pd->size - table) {
        snprintf(err, errlen, "the table of %" PRIu64 " feature sections at offset %#" PRIx64
                 " runs past the end of the file", n, table);
        return -1;
    }
    const uint8_t *section = pd->data + table;
    char why[PERF_WHY_LEN];
    for (unsigned bit = 0; bit < 256; bit++) {
        if (!(get64(h + 72 + 8 * (bit / 64)) >> (bit % 64) & 1))
            continue;
        if (!section_ok(pd, section)) {
            snprintf(err, errlen, "feature section %u lies outside the file", bit);
            return -1;
        }
        if (perf_meta_feature(&pd->meta, bit, pd->data + get64(section), get64(section + 8), why))
            malformed(pd, why);
        section += 16;
    }
    return 0;
}

/* The file-mode header: magic, size, attr_size, the attrs, data and
 * event_types sections, and (in a header of 104 bytes) the feature bits. */
static int read_file_header(struct perf_data *pd, char *err, size_t errlen)
{
    enum { HEADER_V0 = 72, HEADER_FEATURES = 104 };
    const uint8_t *h = pd->data;
    uint64_t size = get64(h + 8);
    if (size < HEADER_V0 || size > pd->size) {
        snprintf(err, errlen, "a header of %" PRIu64 " bytes (in a file of %zu) is neither a "
                 "pipe-mode nor a file-mode header", size, pd->size);
        return -1;
    }
    if (!section_ok(pd, h + 24) || !section_ok(pd, h + 40)) {
        snprintf(err, errlen, "the %s section lies outside the file (truncated?)",
                 section_ok(pd, h + 24) ? "data" : "attribute");
        return -1;
    }
    pd->pos = get64(h + 40);
    pd->end = pd->pos + get64(h + 48);
    if (read_attrs(pd, h, err, errlen))
        return -1;
    return size >= HEADER_FEATURES ? read_features(pd, h, err, errlen) : 0;
}

/* Pipe mode: the records perf sends before the first kernel record describe
 * the recording (attributes, features): read them now, keep that record. */
static void read_pipe_prologue(struct perf_data *pd)
{
    struct perf_record r;
    while (!pd->done && read_record(pd, &r) > 0) {
        if (record_type(r.rec) < REC_USER_TYPE_START) {
            pd->pending = r;
            pd->has_pending = 1;
            return;
        }
        process_user_record(pd, &r);
        free(r.owned);
    }
}

static struct perf_data *reader_new(void)
{
    struct perf_data *pd = calloc(1, sizeof *pd);
    if (pd)
        pd->fd = pd->close_fd = -1;
    return pd;
}

/* A reader over SIZE bytes at DATA, already in PD. */
static struct perf_data *open_in_memory(struct perf_data *pd, char *err, size_t errlen)
{
    if (pd->size < 16) {
        snprintf(err, errlen, "%zu bytes are too short for a perf.data header", pd->size);
    } else if (!check_magic(pd->data, err, errlen)) {
        if (get64(pd->data + 8) == 16) {
            pd->pos = 16;
            pd->end = pd->size;
            read_pipe_prologue(pd);
            return pd;
        }
        if (!read_file_header(pd, err, errlen))
            return pd;
    }
    perf_data_close(pd);
    return NULL;
}

struct perf_data *perf_data_open_memory(const void *data, size_t size, char *err, size_t errlen)
{
    struct perf_data *pd = reader_new();
    if (!pd) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    pd->data = data;
    pd->size = size;
    return open_in_memory(pd, err, errlen);
}

/* The rest of the stream after its FIRST 16 bytes, into memory. */
static int read_whole(struct perf_data *pd, const uint8_t *first, char *err, size_t errlen)
{
    size_t cap = 1 << 20, n = 16;
    uint8_t *buf = malloc(cap);
    ssize_t got = 0;
    while (buf && (got = read_full(pd->fd, buf + n, cap - n)) == (ssize_t)(cap - n)) {
        uint8_t *bigger = cap < SIZE_MAX / 2 ? realloc(buf, 2 * cap) : NULL;
        if (!bigger)
            free(buf);
        buf = bigger;
        n = cap;
        cap *= 2;
    }
    if (!buf || got < 0) {
        snprintf(err, errlen, "%s", buf ? strerror(errno) : "out of memory");
        free(buf);
        return -1;
    }
    memcpy(buf, first, 16);
    pd->owned_input = buf;
    pd->data = buf;
    pd->size = n + (size_t)got;
    pd->fd = -1;
    return 0;
}

/* A stream: pipe mode is read as it comes; a file-mode recording piped in
 * is read whole first. */
static struct perf_data *open_stream(struct perf_data *pd, char *err, size_t errlen)
{
    uint8_t first[16];
    ssize_t got = read_full(pd->fd, first, sizeof first);
    if (got < 0) {
        snprintf(err, errlen, "%s", strerror(errno));
    } else if (got < 16) {
        snprintf(err, errlen, "%zd bytes are too short for a perf.data header", got);
    } else if (!check_magic(first, err, errlen)) {
        if (get64(first + 8) == 16) {
            pd->stream_offset = 16;
            read_pipe_prologue(pd);
            return pd;
        }
        if (!read_whole(pd, first, err, errlen))
            return open_in_memory(pd, err, errlen);
    }
    perf_data_close(pd);
    return NULL;
}

static struct perf_data *open_fd(struct perf_data *pd, int fd, char *err, size_t errlen)
{
    struct stat st;
    pd->fd = fd;
    if (fstat(fd, &st)) {
        snprintf(err, errlen, "%s", strerror(errno));
    } else if (!S_ISREG(st.st_mode)) {
        return open_stream(pd, err, errlen);
    } else if (st.st_size == 0) {
        snprintf(err, errlen, "the file is empty");
    } else {
        void *map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (map != MAP_FAILED) {
            pd->data = map;
            pd->size = (size_t)st.st_size;
            pd->mapped = 1;
            pd->fd = -1;
            return open_in_memory(pd, err, errlen);
        }
        snprintf(err, errlen, "%s", strerror(errno));
    }
    perf_data_close(pd);
    return NULL;
}

struct perf_data *perf_data_open(const char *path, char *err, size_t errlen)
{
    int from_stdin = !strcmp(path, "-");
    char why[200];
    int fd = from_stdin ? 0 : open(path, O_RDONLY | O_CLOEXEC);
    struct perf_data *pd = fd >= 0 ? reader_new() : NULL;
    if (fd < 0) {
        snprintf(why, sizeof why, "%s", strerror(errno));
    } else if (!pd) {
        snprintf(why, sizeof why, "out of memory");
        if (!from_stdin)
            close(fd);
    } else {
        pd->close_fd = from_stdin ? -1 : fd;
        if ((pd = open_fd(pd, fd, why, sizeof why)))
            return pd;
    }
    snprintf(err, errlen, "%s: %s", from_stdin ? "standard input" : path, why);
    return NULL;
}

void perf_data_close(struct perf_data *pd)
{
    if (!pd)
        return;
    perf_order_free(&pd->queue);
    if (pd->has_pending)
        free(pd->pending.owned);
    free(pd->current);
    perf_meta_release(&pd->meta);
    if (pd->mapped)
        munmap((void *)pd->data, pd->size);
    free(pd->owned_input);
    if (pd->close_fd >= 0)
        close(pd->close_fd);
    free(pd);
}

/* ---- queries ------------------------------------------------------------------------- */

const char *perf_data_error(const struct perf_data *pd)
{
    return pd->error;
}

const struct perf_data_stats *perf_data_stats(const struct perf_data *pd)
{
    return &pd->stats;
}

const struct perf_attr *perf_data_attrs(const struct perf_data *pd, size_t *n)
{
    *n = pd->meta.n_attrs;
    return pd->meta.attrs;
}

const uint8_t *perf_data_build_id(const struct perf_data *pd, uint32_t pid, const char *filename,
                                  size_t *len)
{
    const struct perf_meta_build_id *b = perf_meta_build_id(&pd->meta, pid, filename);
    *len = b ? b->len : 0;
    return b ? b->id : NULL;
}
