/* SPDX-License-Identifier: Apache-2.0 */
/* perf_meta: a recording's events and build-ids (see perf_meta.h). */
#include "profile/perf_meta.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/grow.h"
#include "kit/sorted_search.h"
#include "profile/perf_abi.h"

/* perf_event_attr: the first published size, and the offsets of the fields
 * read (fields past an attribute's size are 0). */
enum {
    ATTR_SIZE_VER0 = 64,
    ATTR_TYPE = 0, ATTR_SIZE = 4, ATTR_CONFIG = 8, ATTR_SAMPLE_PERIOD = 16, ATTR_SAMPLE_TYPE = 24,
    ATTR_READ_FORMAT = 32, ATTR_FLAGS = 40, ATTR_BRANCH_SAMPLE_TYPE = 72,
    ATTR_SAMPLE_REGS_USER = 80, ATTR_SAMPLE_STACK_USER = 88, ATTR_SAMPLE_REGS_INTR = 96,
};
#define ATTR_FLAG_FREQ (1ull << 10)
#define ATTR_FLAG_SAMPLE_ID_ALL (1ull << 18)

/* Feature bits (tools/perf/util/header.h) and EVENT_UPDATE kinds. */
enum { FEAT_BUILD_ID = 2, FEAT_EVENT_DESC = 12 };
enum { EVENT_UPDATE_NAME = 2 };

static uint64_t attr_u64(const uint8_t *a, size_t size, size_t off)
{
    return off + 8 <= size ? get64(a + off) : 0;
}

static uint32_t attr_u32(const uint8_t *a, size_t size, size_t off)
{
    return off + 4 <= size ? get32(a + off) : 0;
}

/* The names perf gives the generic hardware and software events. */
static const char *const hardware_names[] = {
    "cycles", "instructions", "cache-references", "cache-misses", "branches",
    "branch-misses", "bus-cycles", "stalled-cycles-frontend", "stalled-cycles-backend", "ref-cycles",
};
static const char *const software_names[] = {
    "cpu-clock", "task-clock", "page-faults", "context-switches", "cpu-migrations", "minor-faults",
    "major-faults", "alignment-faults", "emulation-faults", "dummy", "bpf-output", "cgroup-switches",
};

static char *default_name(uint32_t type, uint64_t config)
{
    const char *known = NULL;
    if (type == 0 && config < sizeof hardware_names / sizeof *hardware_names)
        known = hardware_names[config];
    else if (type == 1 && config < sizeof software_names / sizeof *software_names)
        known = software_names[config];
    char buf[64];
    if (!known)
        snprintf(buf, sizeof buf, "event type %" PRIu32 " config %#" PRIx64, type, config);
    return strdup(known ? known : buf);
}

/* Name attribute I with the LEN bytes at S (no terminator needed). */
static int set_name(struct perf_meta *m, size_t i, const char *s, size_t len, int given, char *why)
{
    char *copy = strndup(s, len);
    if (!copy) {
        snprintf(why, PERF_WHY_LEN, "out of memory");
        return -1;
    }
    free(m->names[i].owned);
    m->names[i] = (struct perf_meta_name){copy, given};
    m->attrs[i].name = copy;
    return 0;
}

static int compare_ids(const void *a, const void *b)
{
    const struct perf_meta_id *x = a, *y = b;
    return x->id < y->id ? -1 : x->id > y->id;
}

int perf_meta_add_attr(struct perf_meta *m, const uint8_t *a, size_t size, const uint8_t *ids,
                       uint64_t n_ids, char *why)
{
    if (size < ATTR_SIZE_VER0) {
        snprintf(why, PERF_WHY_LEN, "an attribute of %zu bytes is shorter than the first "
                 "perf_event_attr (64 bytes)", size);
        return -1;
    }
    if (GROW(m->attrs, m->cap_attrs, m->n_attrs + 1) || GROW(m->names, m->cap_names, m->n_attrs + 1) ||
        n_ids > SIZE_MAX - m->n_ids ||
        GROW(m->ids, m->cap_ids, m->n_ids + n_ids)) {
        snprintf(why, PERF_WHY_LEN, "out of memory for %" PRIu64 " sample ids", n_ids);
        return -1;
    }
    size_t i = m->n_attrs;
    struct perf_attr *at = &m->attrs[i];
    uint64_t flags = attr_u64(a, size, ATTR_FLAGS);
    *at = (struct perf_attr){
        .type = get32(a + ATTR_TYPE),
        .config = attr_u64(a, size, ATTR_CONFIG),
        .sample_type = attr_u64(a, size, ATTR_SAMPLE_TYPE),
        .read_format = attr_u64(a, size, ATTR_READ_FORMAT),
        .sample_regs_user = attr_u64(a, size, ATTR_SAMPLE_REGS_USER),
        .sample_stack_user = attr_u32(a, size, ATTR_SAMPLE_STACK_USER),
        .sample_id_all = !!(flags & ATTR_FLAG_SAMPLE_ID_ALL),
        .sample_period = attr_u64(a, size, ATTR_SAMPLE_PERIOD),
        .freq = !!(flags & ATTR_FLAG_FREQ),
        .sample_regs_intr = attr_u64(a, size, ATTR_SAMPLE_REGS_INTR),
        .branch_sample_type = attr_u64(a, size, ATTR_BRANCH_SAMPLE_TYPE),
    };
    m->names[i] = (struct perf_meta_name){default_name(at->type, at->config), 0};
    if (!m->names[i].owned) {
        snprintf(why, PERF_WHY_LEN, "out of memory");
        return -1;
    }
    at->name = m->names[i].owned;
    for (uint64_t k = 0; k < n_ids; k++)
        m->ids[m->n_ids++] = (struct perf_meta_id){get64(ids + 8 * k), i};
    if (n_ids)
        qsort(m->ids, m->n_ids, sizeof *m->ids, compare_ids);
    m->n_attrs++;
    return 0;
}

static uint64_t id_key(const void *ids, size_t i)
{
    return ((const struct perf_meta_id *)ids)[i].id;
}

const struct perf_attr *perf_meta_attr_by_id(const struct perf_meta *m, uint64_t id)
{
    size_t lo = sorted_count_below(m->ids, m->n_ids, id_key, id);
    return lo < m->n_ids && m->ids[lo].id == id ? &m->attrs[m->ids[lo].attr] : NULL;
}

/* HEADER_ATTR: the attribute (as long as its own size field says; 0 means
 * the first size) and its ids up to the record's end. */
int perf_meta_attr_record(struct perf_meta *m, const uint8_t *rec, size_t len, char *why)
{
    size_t body = len - PERF_HEADER_SIZE;
    if (body < ATTR_SIZE_VER0) {
        snprintf(why, PERF_WHY_LEN, "HEADER_ATTR record of %zu bytes is too short for an "
                 "attribute", len);
        return -1;
    }
    const uint8_t *a = rec + PERF_HEADER_SIZE;
    size_t size = get32(a + ATTR_SIZE) ? get32(a + ATTR_SIZE) : ATTR_SIZE_VER0;
    if (size > body) {
        snprintf(why, PERF_WHY_LEN, "HEADER_ATTR record of %zu bytes holds an attribute of "
                 "%zu bytes", len, size);
        return -1;
    }
    return perf_meta_add_attr(m, a, size, a + size, (body - size) / 8, why);
}

/* A perf_header_string at *P (u32 length, then that many bytes holding a
 * terminated string): the string, *P moved past it; NULL if malformed. */
static const char *header_string(const uint8_t **p, const uint8_t *end)
{
    if (end - *p < 4)
        return NULL;
    uint32_t n = get32(*p);
    if ((size_t)(end - *p - 4) < n || !memchr(*p + 4, 0, n))
        return NULL;
    const char *s = (const char *)*p + 4;
    *p += 4 + (size_t)n;
    return s;
}

/* HEADER_EVENT_DESC: u32 nr, u32 attr_size, then per event its attribute,
 * u32 nr_ids, its name (a perf_header_string) and its ids.  An event is
 * matched to an attribute by its first id, else by its position. */
static int event_desc(struct perf_meta *m, const uint8_t *p, size_t size, char *why)
{
    const uint8_t *end = p + size;
    if (size < 8) {
        snprintf(why, PERF_WHY_LEN, "EVENT_DESC feature of %zu bytes has no header", size);
        return -1;
    }
    uint32_t nr = get32(p), attr_size = get32(p + 4);
    p += 8;
    for (uint32_t i = 0; i < nr; i++) {
        if ((size_t)(end - p) < attr_size || (size_t)(end - p) - attr_size < 4) {
            snprintf(why, PERF_WHY_LEN, "EVENT_DESC feature: event %" PRIu32 " of %" PRIu32
                     " runs past the section's end", i, nr);
            return -1;
        }
        p += attr_size;
        uint32_t nr_ids = get32(p);
        p += 4;
        const char *name = header_string(&p, end);
        if (!name || (size_t)(end - p) / 8 < nr_ids) {
            snprintf(why, PERF_WHY_LEN, "EVENT_DESC feature: the name or the ids of event %"
                     PRIu32 " run past the section's end", i);
            return -1;
        }
        const struct perf_attr *at = nr_ids ? perf_meta_attr_by_id(m, get64(p)) : NULL;
        size_t k = at ? (size_t)(at - m->attrs) : i;
        if (k < m->n_attrs && set_name(m, k, name, strlen(name), 1, why))
            return -1;
        p += 8 * (size_t)nr_ids;
    }
    return 0;
}

/* FNV-1a: paths share long prefixes, which a search by name would compare
 * again and again (one lookup per mapping of every process). */
static uint64_t filename_hash(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 0x100000001b3ull;
    return h;
}

static int compare_build_ids(const struct perf_meta_build_id *e, uint64_t hash, const char *filename, int32_t pid)
{
    if (e->hash != hash)
        return e->hash < hash ? -1 : 1;
    int c = strcmp(e->filename, filename);
    return c ? c : (e->pid > pid) - (e->pid < pid);
}

/* The first entry not below (HASH, FILENAME, PID). */
static size_t build_id_lower_bound(const struct perf_meta *m, uint64_t hash, const char *filename, int32_t pid)
{
    size_t lo = 0, hi = m->n_build_ids;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (compare_build_ids(&m->build_ids[mid], hash, filename, pid) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* A build_id_event (header, pid, 24 bytes of build-id, the filename up to
 * the record's size) at P, at most SIZE bytes: its size, or 0 with WHY. */
static size_t add_build_id_event(struct perf_meta *m, const uint8_t *p, size_t size, char *why)
{
    size_t len = size < PERF_HEADER_SIZE ? 0 : get16(p + 6);
    if (len < PERF_HEADER_SIZE + 4 + 24 || len > size || !memchr(p + 36, 0, len - 36)) {
        snprintf(why, PERF_WHY_LEN, "build-id entry of %zu bytes (in %zu) is not a pid, a "
                 "build-id and a terminated filename", len, size);
        return 0;
    }
    struct perf_meta_build_id e = {.pid = (int32_t)get32(p + 8), .len = 20};
    memcpy(e.id, p + 12, 20);
    if (record_misc(p) & MISC_BUILD_ID_SIZE)
        e.len = p[12 + 20];
    const char *filename = (const char *)p + 36;
    if (e.len > 20) {
        snprintf(why, PERF_WHY_LEN, "build-id of %s has a size of %u bytes (at most 20)",
                 filename, e.len);
        return 0;
    }
    e.hash = filename_hash(filename);
    size_t at = build_id_lower_bound(m, e.hash, filename, e.pid);
    if (at < m->n_build_ids && !compare_build_ids(&m->build_ids[at], e.hash, filename, e.pid)) {
        memcpy(m->build_ids[at].id, e.id, sizeof e.id);
        m->build_ids[at].len = e.len;
        return len;
    }
    if (GROW(m->build_ids, m->cap_build_ids, m->n_build_ids + 1) ||
        !(e.filename = strdup(filename))) {
        snprintf(why, PERF_WHY_LEN, "out of memory");
        return 0;
    }
    memmove(&m->build_ids[at + 1], &m->build_ids[at], (m->n_build_ids - at) * sizeof e);
    m->build_ids[at] = e;
    m->n_build_ids++;
    return len;
}

int perf_meta_build_id_record(struct perf_meta *m, const uint8_t *rec, size_t len, char *why)
{
    return add_build_id_event(m, rec, len, why) ? 0 : -1;
}

const struct perf_meta_build_id *perf_meta_build_id(const struct perf_meta *m, uint32_t pid,
                                                    const char *filename)
{
    uint64_t hash = filename_hash(filename);
    size_t at = build_id_lower_bound(m, hash, filename, INT32_MIN);
    const struct perf_meta_build_id *any = NULL;
    for (; at < m->n_build_ids && m->build_ids[at].hash == hash && !strcmp(m->build_ids[at].filename, filename);
         at++) {
        if (m->build_ids[at].pid == (int32_t)pid)
            return &m->build_ids[at];
        if (m->build_ids[at].pid == -1)
            any = &m->build_ids[at];
    }
    return any;
}

int perf_meta_feature(struct perf_meta *m, uint64_t feature, const uint8_t *p, size_t size,
                      char *why)
{
    if (feature == FEAT_EVENT_DESC)
        return event_desc(m, p, size, why);
    if (feature != FEAT_BUILD_ID)
        return 0;
    for (size_t off = 0, n; off < size; off += n)
        if (!(n = add_build_id_event(m, p + off, size - off, why)))
            return -1;
    return 0;
}

/* HEADER_FEATURE: u64 feature, then the feature's section. */
int perf_meta_feature_record(struct perf_meta *m, const uint8_t *rec, size_t len, char *why)
{
    if (len < PERF_HEADER_SIZE + 8) {
        snprintf(why, PERF_WHY_LEN, "HEADER_FEATURE record of %zu bytes has no feature number",
                 len);
        return -1;
    }
    return perf_meta_feature(m, get64(rec + 8), rec + 16, len - 16, why);
}

/* EVENT_UPDATE: u64 kind, u64 id, then for NAME a terminated name. */
int perf_meta_event_update(struct perf_meta *m, const uint8_t *rec, size_t len, char *why)
{
    if (len < PERF_HEADER_SIZE + 16) {
        snprintf(why, PERF_WHY_LEN, "EVENT_UPDATE record of %zu bytes is too short", len);
        return -1;
    }
    if (get64(rec + 8) != EVENT_UPDATE_NAME)
        return 0;
    uint64_t id = get64(rec + 16);
    const struct perf_attr *at = perf_meta_attr_by_id(m, id);
    const char *name = (const char *)rec + 24;
    if (!at || !memchr(name, 0, len - 24)) {
        snprintf(why, PERF_WHY_LEN, "EVENT_UPDATE names %s", at ? "an event without a "
                 "terminated name" : "a sample id that no attribute has");
        return -1;
    }
    return set_name(m, (size_t)(at - m->attrs), name, strlen(name), 1, why);
}

/* HEADER_EVENT_TYPE (old pipe files): u64 config, char name[64]; names the
 * events of that config that nothing else named. */
int perf_meta_event_type(struct perf_meta *m, const uint8_t *rec, size_t len, char *why)
{
    enum { MAX_EVENT_NAME = 64 };
    if (len < PERF_HEADER_SIZE + 8 + MAX_EVENT_NAME) {
        snprintf(why, PERF_WHY_LEN, "HEADER_EVENT_TYPE record of %zu bytes is too short", len);
        return -1;
    }
    const char *name = (const char *)rec + 16;
    for (size_t i = 0; i < m->n_attrs; i++)
        if (m->attrs[i].config == get64(rec + 8) && !m->names[i].given &&
            set_name(m, i, name, strnlen(name, MAX_EVENT_NAME), 0, why))
            return -1;
    return 0;
}

void perf_meta_release(struct perf_meta *m)
{
    for (size_t i = 0; i < m->n_attrs; i++)
        free(m->names[i].owned);
    for (size_t i = 0; i < m->n_build_ids; i++)
        free(m->build_ids[i].filename);
    free(m->attrs);
    free(m->names);
    free(m->ids);
    free(m->build_ids);
    *m = (struct perf_meta){0};
}
