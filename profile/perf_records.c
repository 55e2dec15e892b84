/* SPDX-License-Identifier: Apache-2.0 */
/* perf_records: decoding one perf.data record (see perf_records.h). */
#include "profile/perf_records.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "profile/perf_meta.h"

/* The fields of a sample before its first variable-sized one: perf checks a
 * sample holds them before it reads its time (PERF_SAMPLE_MASK). */
#define SAMPLE_FIXED                                                                               \
    (SAMPLE_IDENTIFIER | SAMPLE_IP | SAMPLE_TID | SAMPLE_TIME | SAMPLE_ADDR | SAMPLE_ID |          \
     SAMPLE_STREAM_ID | SAMPLE_CPU | SAMPLE_PERIOD)

static size_t words(uint64_t bits)
{
    return 8 * (size_t)__builtin_popcountll(bits);
}

static const char *record_name(uint32_t type)
{
    switch (type) {
    case REC_MMAP: return "MMAP";
    case REC_LOST: return "LOST";
    case REC_COMM: return "COMM";
    case REC_EXIT: return "EXIT";
    case REC_FORK: return "FORK";
    case REC_SAMPLE: return "SAMPLE";
    case REC_MMAP2: return "MMAP2";
    case REC_LOST_SAMPLES: return "LOST_SAMPLES";
    default: return "kernel";
    }
}

/* Where the sample id of a record is, in bytes from its start (perf's
 * id_pos and is_pos, from the first attribute as perf takes them); 0 when
 * the records carry none. */
static size_t id_offset(const struct perf_attr *first, const uint8_t *rec, size_t len)
{
    uint64_t st = first->sample_type;
    if (record_type(rec) == REC_SAMPLE) {
        if (st & SAMPLE_IDENTIFIER)
            return PERF_HEADER_SIZE;
        if (!(st & SAMPLE_ID))
            return 0;
        return PERF_HEADER_SIZE + words(st & (SAMPLE_IP | SAMPLE_TID | SAMPLE_TIME | SAMPLE_ADDR));
    }
    size_t from_end = 8;
    if (!(st & SAMPLE_IDENTIFIER)) {
        if (!(st & SAMPLE_ID))
            return 0;
        from_end += words(st & (SAMPLE_CPU | SAMPLE_STREAM_ID));
    }
    return len >= PERF_HEADER_SIZE + from_end ? len - from_end : SIZE_MAX;
}

const struct perf_attr *perf_record_attr(const struct perf_meta *m, const uint8_t *rec, size_t len,
                                         char *why)
{
    if (!m->n_attrs) {
        snprintf(why, PERF_WHY_LEN, "%s record comes before any attribute",
                 record_name(record_type(rec)));
        return NULL;
    }
    const struct perf_attr *first = &m->attrs[0];
    if (m->n_attrs == 1 || (record_type(rec) != REC_SAMPLE && !first->sample_id_all))
        return first;
    size_t off = id_offset(first, rec, len);
    if (!off)
        return first;
    if (off > len || len - off < 8) {
        snprintf(why, PERF_WHY_LEN, "%s record of %zu bytes is too short to hold its sample id",
                 record_name(record_type(rec)), len);
        return NULL;
    }
    uint64_t id = get64(rec + off);
    const struct perf_attr *at = id ? perf_meta_attr_by_id(m, id) : first; /* 0: synthesized */
    if (!at)
        snprintf(why, PERF_WHY_LEN, "%s record has the sample id %" PRIu64
                 ", which no attribute has", record_name(record_type(rec)), id);
    return at;
}

/* The size of the sample_id trailer of a non-sample record of AT. */
static size_t trailer_size(const struct perf_attr *at)
{
    return at->sample_id_all ? words(at->sample_type & SAMPLE_ID_TRAILER) : 0;
}

int perf_record_time(const struct perf_meta *m, const uint8_t *rec, size_t len, uint64_t *time,
                     char *why)
{
    const struct perf_attr *at = perf_record_attr(m, rec, len, why);
    if (!at)
        return -1;
    uint64_t st = at->sample_type;
    if (!(st & SAMPLE_TIME))
        return 0;
    size_t body = len - PERF_HEADER_SIZE;
    uint64_t t;
    if (record_type(rec) == REC_SAMPLE) {
        if (body < words(st & SAMPLE_FIXED)) {
            snprintf(why, PERF_WHY_LEN, "SAMPLE record of %zu bytes is shorter than its "
                     "fixed fields (%zu bytes)", len, words(st & SAMPLE_FIXED));
            return -1;
        }
        t = get64(rec + PERF_HEADER_SIZE + words(st & (SAMPLE_IDENTIFIER | SAMPLE_IP | SAMPLE_TID)));
    } else {
        if (!at->sample_id_all)
            return 0;
        if (body < trailer_size(at)) {
            snprintf(why, PERF_WHY_LEN, "%s record of %zu bytes is shorter than its sample_id "
                     "trailer (%zu bytes)", record_name(record_type(rec)), len, trailer_size(at));
            return -1;
        }
        t = get64(rec + len - trailer_size(at) + words(st & SAMPLE_TID));
    }
    if (t == 0 || t == UINT64_MAX)
        return 0;
    *time = t;
    return 1;
}

/* ---- samples ------------------------------------------------------------------ */

/* A cursor over a sample's fields; FIELD names the one being read, for the
 * message when the record ends inside it. */
struct cursor {
    const uint8_t *p, *end;
    const char *field;
};

static int skip(struct cursor *c, const char *field, uint64_t n)
{
    c->field = field;
    if ((uint64_t)(c->end - c->p) < n)
        return -1;
    c->p += n;
    return 0;
}

static int take(struct cursor *c, const char *field, uint64_t *v)
{
    if (skip(c, field, 8))
        return -1;
    *v = get64(c->p - 8);
    return 0;
}

/* N words of SIZE bytes each, N read from the record: refused before the
 * product can overflow. */
static int skip_array(struct cursor *c, const char *field, uint64_t n, uint64_t size)
{
    c->field = field;
    if (n > (uint64_t)(c->end - c->p) / size)
        return -1;
    c->p += n * size;
    return 0;
}

/* PERF_SAMPLE_READ: one counter's values, or a group's (read_format). */
static int skip_read(struct cursor *c, uint64_t read_format)
{
    uint64_t nr;
    size_t times = words(read_format & (READ_TOTAL_TIME_ENABLED | READ_TOTAL_TIME_RUNNING));
    size_t per_value = 8 + words(read_format & (READ_ID | READ_LOST));
    if (!(read_format & READ_GROUP))
        return skip(c, "read values", times + per_value);
    return take(c, "read group", &nr) || skip(c, "read times", times) ||
           skip_array(c, "read group", nr, per_value);
}

static int skip_branch_stack(struct cursor *c, uint64_t branch_sample_type)
{
    uint64_t nr;
    size_t per_branch = 24 + (branch_sample_type & BRANCH_COUNTERS ? 8 : 0);
    return take(c, "branch stack", &nr) ||
           skip(c, "branch stack", branch_sample_type & BRANCH_HW_INDEX ? 8 : 0) ||
           skip_array(c, "branch stack", nr, per_branch);
}

/* abi, then the registers of MASK when abi is not 0 (REGS_USER, REGS_INTR);
 * those perf numbers for x86_64 into REGS when it is not NULL. */
static int take_regs(struct cursor *c, const char *field, uint64_t mask, uint64_t *abi,
                     uint64_t *regs)
{
    if (take(c, field, abi))
        return -1;
    if (!*abi)
        return 0;
    const uint8_t *values = c->p;
    if (skip(c, field, words(mask)))
        return -1;
    for (unsigned bit = 0, k = 0; bit < 64; bit++)
        if (mask >> bit & 1) {
            if (regs && bit < PERF_X86_NREGS)
                regs[bit] = get64(values + 8 * k);
            k++;
        }
    return 0;
}

/* size, the copy of the stack, and the dyn_size of it that is valid (only
 * when size is not 0).  -1 when the record ends inside them, -2 with WHY
 * when dyn_size is larger than the copy. */
static int take_stack(struct cursor *c, struct perf_sample *s, char *why)
{
    uint64_t size, dyn_size;
    if (take(c, "user stack", &size))
        return -1;
    if (!size)
        return 0;
    s->stack = c->p;
    if (skip(c, "user stack", size) || take(c, "user stack's dyn_size", &dyn_size))
        return -1;
    if (dyn_size > size) {
        snprintf(why, PERF_WHY_LEN, "SAMPLE record's user stack has a dyn_size of %" PRIu64
                 " bytes, more than its %" PRIu64, dyn_size, size);
        return -2;
    }
    s->stack_size = dyn_size;
    return 0;
}

/* The fields after the stack, none of them kept. */
static int skip_tail(struct cursor *c, const struct perf_attr *at)
{
    uint64_t st = at->sample_type, abi, aux;
    /* WEIGHT and WEIGHT_STRUCT share one word */
    size_t weight = st & (SAMPLE_WEIGHT | SAMPLE_WEIGHT_STRUCT) ? 8 : 0;
    if (skip(c, "weight, data_src and transaction",
             weight + words(st & (SAMPLE_DATA_SRC | SAMPLE_TRANSACTION))))
        return -1;
    if (st & SAMPLE_REGS_INTR && take_regs(c, "interrupt registers", at->sample_regs_intr, &abi,
                                           NULL))
        return -1;
    if (skip(c, "physical address, cgroup and page sizes",
             words(st & (SAMPLE_PHYS_ADDR | SAMPLE_CGROUP | SAMPLE_DATA_PAGE_SIZE |
                         SAMPLE_CODE_PAGE_SIZE))))
        return -1;
    return st & SAMPLE_AUX ? take(c, "aux data", &aux) || skip(c, "aux data", aux) : 0;
}

/* The fields in the order perf_output_sample writes them: 0, -1 when the
 * record ends inside one (C->FIELD names it), -2 with WHY. */
static int sample_fields(struct cursor *c, const struct perf_attr *at, struct perf_sample *s,
                         char *why)
{
    uint64_t st = at->sample_type, v;
    if (skip(c, "identifier", st & SAMPLE_IDENTIFIER ? 8 : 0) ||
        (st & SAMPLE_IP && take(c, "ip", &s->ip)))
        return -1;
    if (st & SAMPLE_TID) {
        if (take(c, "pid and tid", &v))
            return -1;
        s->pid = (uint32_t)v;
        s->tid = (uint32_t)(v >> 32);
    }
    if ((st & SAMPLE_TIME && take(c, "time", &s->time)) ||
        skip(c, "addr, id and stream_id", words(st & (SAMPLE_ADDR | SAMPLE_ID | SAMPLE_STREAM_ID))))
        return -1;
    if (st & SAMPLE_CPU) {
        if (take(c, "cpu", &v))
            return -1;
        s->cpu = (uint32_t)v;
    }
    if ((st & SAMPLE_PERIOD && take(c, "period", &s->period)) ||
        (st & SAMPLE_READ && skip_read(c, at->read_format)))
        return -1;
    if (st & SAMPLE_CALLCHAIN) {
        if (take(c, "callchain", &s->callchain_nr))
            return -1;
        s->callchain = (const uint64_t *)(const void *)c->p;
        if (skip_array(c, "callchain", s->callchain_nr, 8))
            return -1;
    }
    if (st & SAMPLE_RAW) {
        /* u32 size, then the data: the kernel pads both to a multiple of 8 */
        if (skip(c, "raw data", 4) || skip(c, "raw data", get32(c->p - 4)))
            return -1;
    }
    if ((st & SAMPLE_BRANCH_STACK && skip_branch_stack(c, at->branch_sample_type)) ||
        (st & SAMPLE_REGS_USER &&
         take_regs(c, "user registers", at->sample_regs_user, &s->regs_abi, s->regs)))
        return -1;
    s->regs_mask = s->regs_abi ? at->sample_regs_user : 0;
    if (st & SAMPLE_STACK_USER) {
        int r = take_stack(c, s, why);
        if (r)
            return r;
    }
    return skip_tail(c, at);
}

static int decode_sample(const struct perf_attr *at, const uint8_t *rec, size_t len,
                         struct perf_event *ev, char *why)
{
    struct perf_sample *s = &ev->u.sample;
    *s = (struct perf_sample){
        .attr = at, .misc = record_misc(rec), .pid = UINT32_MAX, .tid = UINT32_MAX,
        .cpu = UINT32_MAX, .period = at->sample_period,
    };
    struct cursor c = {rec + PERF_HEADER_SIZE, rec + len, ""};
    int r = sample_fields(&c, at, s, why);
    if (r == -1)
        snprintf(why, PERF_WHY_LEN, "SAMPLE record of %zu bytes ends inside its %s", len, c.field);
    if (r)
        return -1;
    ev->kind = PERF_EVENT_SAMPLE;
    ev->time = s->time;
    return 1;
}

/* ---- the other records ------------------------------------------------------------ */

/* A string that starts at OFF of BODY (N bytes) and is terminated there. */
static const char *body_string(const uint8_t *body, size_t n, size_t off)
{
    return off < n && memchr(body + off, 0, n - off) ? (const char *)body + off : NULL;
}

static const uint8_t *build_id_of(const struct perf_meta *m, struct perf_mmap *mm)
{
    /* the kernel's map is "[kernel.kallsyms]_text", its build-id "[kernel.kallsyms]" */
    static const char kernel[] = "[kernel.kallsyms]";
    const char *name = strncmp(mm->filename, kernel, sizeof kernel - 1) ? mm->filename : kernel;
    const struct perf_meta_build_id *b = perf_meta_build_id(m, mm->pid, name);
    mm->build_id_len = b ? b->len : 0;
    return b ? b->id : NULL;
}

/* MMAP: pid, tid, addr, len, pgoff, filename.  MMAP2 adds, before the
 * filename, maj, min, ino, ino_generation (or a build-id) and prot, flags. */
static int decode_mmap(const struct perf_meta *m, const uint8_t *rec, const uint8_t *body,
                       size_t n, struct perf_event *ev)
{
    int mmap2 = record_type(rec) == REC_MMAP2;
    size_t name_at = mmap2 ? 64 : 32;
    struct perf_mmap *mm = &ev->u.mmap;
    if (!(mm->filename = body_string(body, n, name_at)))
        return -1;
    mm->pid = get32(body);
    mm->tid = get32(body + 4);
    mm->start = get64(body + 8);
    mm->len = get64(body + 16);
    mm->pgoff = get64(body + 24);
    mm->mmap2 = mmap2;
    mm->misc = record_misc(rec);
    if (!mmap2) {
        mm->executable = !(mm->misc & MISC_MMAP_DATA);
    } else {
        mm->prot = get32(body + 56);
        mm->flags = get32(body + 60);
        mm->executable = mm->prot & 4 /* PROT_EXEC */ ||
                         (mm->misc & MISC_CPUMODE_MASK) == MISC_KERNEL;
        if (record_misc(rec) & MISC_MMAP_BUILD_ID) {
            if (body[32] > 20)
                return -1;
            mm->build_id = body[32] ? body + 36 : NULL;
            mm->build_id_len = body[32];
        }
    }
    if (!mm->build_id)
        mm->build_id = build_id_of(m, mm);
    ev->kind = PERF_EVENT_MMAP;
    return 1;
}

static int decode_other(const struct perf_meta *m, const uint8_t *rec, const uint8_t *body,
                        size_t n, struct perf_event *ev, uint64_t *lost)
{
    switch (record_type(rec)) {
    case REC_MMAP:
    case REC_MMAP2:
        return decode_mmap(m, rec, body, n, ev);
    case REC_COMM:
        ev->kind = PERF_EVENT_COMM;
        ev->u.comm = (struct perf_comm){get32(body), get32(body + 4), body_string(body, n, 8),
                                        !!(record_misc(rec) & MISC_COMM_EXEC)};
        return ev->u.comm.comm ? 1 : -1;
    case REC_FORK:
    case REC_EXIT:
        if (n < 24)
            return -1;
        ev->kind = record_type(rec) == REC_FORK ? PERF_EVENT_FORK : PERF_EVENT_EXIT;
        ev->u.task = (struct perf_task){get32(body), get32(body + 4), get32(body + 8),
                                        get32(body + 12)};
        return 1;
    case REC_LOST:
    case REC_LOST_SAMPLES: {
        size_t at = record_type(rec) == REC_LOST ? 8 : 0;
        if (n < at + 8)
            return -1;
        *lost += get64(body + at);
        return 0;
    }
    default:
        return 0;
    }
}

/* The smallest body of each kind returned, before its strings. */
static size_t min_body(uint32_t type)
{
    switch (type) {
    case REC_MMAP: return 32;
    case REC_MMAP2: return 64;
    case REC_COMM: return 8;
    default: return 0;
    }
}

int perf_record_decode(const struct perf_meta *m, const uint8_t *rec, size_t len, struct perf_event *ev,
                       uint64_t *lost, char *why)
{
    const struct perf_attr *at = perf_record_attr(m, rec, len, why);
    if (!at)
        return -1;
    memset(ev, 0, sizeof *ev);
    if (record_type(rec) == REC_SAMPLE)
        return decode_sample(at, rec, len, ev, why);
    size_t n = len - PERF_HEADER_SIZE, trailer = trailer_size(at);
    uint32_t type = record_type(rec);
    if (n < trailer || n - trailer < min_body(type)) {
        snprintf(why, PERF_WHY_LEN, "%s record of %zu bytes is too short for its fields and "
                 "its sample_id trailer (%zu bytes)", record_name(type), len, trailer);
        return -1;
    }
    n -= trailer;
    if (at->sample_id_all && at->sample_type & SAMPLE_TIME)
        ev->time = get64(rec + PERF_HEADER_SIZE + n + words(at->sample_type & SAMPLE_TID));
    int r = decode_other(m, rec, rec + PERF_HEADER_SIZE, n, ev, lost);
    if (r < 0)
        snprintf(why, PERF_WHY_LEN, "%s record of %zu bytes does not hold its fields (a "
                 "terminated name, a build-id of at most 20 bytes)", record_name(type), len);
    return r;
}
