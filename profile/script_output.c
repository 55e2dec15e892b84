/* SPDX-License-Identifier: Apache-2.0 */
/*
 * script_output: perf script's text and folded stacks (see the header).
 */
#include "script_output.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "profile/symbol_store.h"
#include "profile/symbol_table.h"

/* PERF_SAMPLE_CPU: the sample field that says the CPU was recorded. */
#define SAMPLE_CPU (1u << 7)

/* A string-keyed open-addressing table: objects' symbol tables, and the
 * folded stacks' counts. */
struct entry {
    char *key;
    void *value;            /* a symbol_table, or unused */
    uint64_t count;
    size_t order;           /* first seen */
};

struct table {
    struct entry *slots;
    size_t n, cap;
};

static uint64_t hash_of(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 1099511628211ull;
    return h;
}

static struct entry *find(struct table *t, const char *key, int *created)
{
    *created = 0;
    if (2 * (t->n + 1) > t->cap) {
        size_t ncap = t->cap ? 2 * t->cap : 256;
        struct entry *ns = calloc(ncap, sizeof *ns);
        if (!ns)
            return NULL;
        for (size_t i = 0; i < t->cap; i++)
            if (t->slots[i].key) {
                size_t s = hash_of(t->slots[i].key) & (ncap - 1);
                while (ns[s].key)
                    s = (s + 1) & (ncap - 1);
                ns[s] = t->slots[i];
            }
        free(t->slots);
        t->slots = ns;
        t->cap = ncap;
    }
    size_t s = hash_of(key) & (t->cap - 1);
    while (t->slots[s].key && strcmp(t->slots[s].key, key) != 0)
        s = (s + 1) & (t->cap - 1);
    if (!t->slots[s].key) {
        if (!(t->slots[s].key = strdup(key)))
            return NULL;
        t->slots[s].order = t->n++;
        *created = 1;
    }
    return &t->slots[s];
}

struct script_output {
    FILE *out;
    enum output_format format;
    struct table symbols;   /* object path -> symbol_table */
    struct table stacks;    /* folded stack -> count */
    struct symbol_table *kernel;   /* /proc/kallsyms, opened at the first kernel frame */
    const char *cache_dir;         /* where the kernel's table is kept between runs */
    char *line;             /* the folded stack being built */
    size_t line_cap;
};

struct script_output *script_output_new(FILE *out, enum output_format format, const char *cache_dir)
{
    struct script_output *o = calloc(1, sizeof *o);
    if (o) {
        o->out = out;
        o->format = format;
        o->cache_dir = cache_dir;
    }
    return o;
}

/* How one frame is named: its object, the address perf prints, its symbol. */
struct frame_name {
    const char *dso;        /* "[unknown]" when in no mapping */
    uint64_t printed;
    const char *symbol;     /* NULL: [unknown] */
    uint64_t offset;
};

static const struct symbol_table *symbols_of(struct script_output *o, const struct dwu_mapping *m)
{
    int created;
    struct entry *e = find(&o->symbols, m->path, &created);
    if (!e)
        return NULL;
    if (created)
        e->value = symbol_store_object(o->cache_dir, m->path, m->build_id, m->build_id_len);
    return e->value;
}

static void name_frame(struct script_output *o, struct dwu_space *space, const struct sample_frame *f,
                       struct frame_name *name)
{
    /* A caller's row, and its symbol, are those of the call: one byte
     * before the return address; perf prints that address too. */
    uint64_t at = f->exact ? f->ip : f->ip - 1;
    *name = (struct frame_name){"[unknown]", at, NULL, 0};
    if (f->source == FRAME_KERNEL) {
        name->dso = "[kernel.kallsyms]";
        if (!o->kernel)
            o->kernel = symbol_store_kernel(o->cache_dir);
        if (o->kernel && symbol_table_lookup(o->kernel, at, &name->symbol, &name->offset) != 0)
            name->symbol = NULL;
        return;
    }
    struct dwu_mapping m;
    int status;
    uint64_t own;
    if (!space || dwu_space_mapping_at(space, at, &m, &status) != 0)
        return;
    name->dso = m.name;
    name->printed = at - m.start + m.offset;
    if (dwu_space_object_address(space, at, &own) != 0)
        return;
    const struct symbol_table *t = symbols_of(o, &m);
    if (!t)
        return;
    name->printed = symbol_table_printed_address(t, own);
    if (symbol_table_lookup(t, own, &name->symbol, &name->offset) != 0)
        name->symbol = NULL;
}

/* V in hexadecimal, right-aligned in WIDTH columns (as "%*" PRIx64). */
static void put_hex(FILE *out, uint64_t v, int width)
{
    char digits[16];
    int n = 0;
    do {
        digits[15 - n++] = "0123456789abcdef"[v & 15];
        v >>= 4;
    } while (v);
    for (; width > n; width--)
        putc_unlocked(' ', out);
    fwrite_unlocked(digits + 16 - n, 1, (size_t)n, out);
}

static void print_script(struct script_output *o, const struct perf_sample *s, const char *comm,
                         struct dwu_space *space, const struct sample_frame *frames, int n)
{
    fprintf(o->out, "%s %5u ", comm, s->tid);
    if (s->attr && (s->attr->sample_type & SAMPLE_CPU))
        fprintf(o->out, "[%03u] ", s->cpu);
    fprintf(o->out, "%5" PRIu64 ".%06" PRIu64 ": %10" PRIu64 " %s: \n", s->time / 1000000000,
            s->time % 1000000000 / 1000, s->period, s->attr ? s->attr->name : "unknown");
    /* One line a frame: formatted here, not by printf (most of the output). */
    for (int i = 0; i < n; i++) {
        struct frame_name name;
        name_frame(o, space, &frames[i], &name);
        putc_unlocked('\t', o->out);
        put_hex(o->out, name.printed, 16);
        putc_unlocked(' ', o->out);
        if (name.symbol) {
            fputs_unlocked(name.symbol, o->out);
            fputs_unlocked("+0x", o->out);
            put_hex(o->out, name.offset, 0);
        } else {
            fputs_unlocked("[unknown]", o->out);
        }
        fputs_unlocked(" (", o->out);
        fputs_unlocked(name.dso, o->out);
        fputs_unlocked(")\n", o->out);
    }
    putc_unlocked('\n', o->out);
}

static int append(struct script_output *o, size_t *len, const char *text)
{
    size_t k = strlen(text);
    if (*len + k + 2 > o->line_cap) {
        size_t cap = (*len + k + 2) * 2;
        char *n = realloc(o->line, cap);
        if (!n)
            return -1;
        o->line = n;
        o->line_cap = cap;
    }
    memcpy(o->line + *len, text, k);
    *len += k;
    o->line[*len] = 0;
    return 0;
}

static void count_folded(struct script_output *o, const char *comm, struct dwu_space *space,
                         const struct sample_frame *frames, int n)
{
    size_t len = 0;
    if (append(o, &len, comm) != 0)
        return;
    for (int i = n - 1; i >= 0; i--) {
        struct frame_name name;
        name_frame(o, space, &frames[i], &name);
        char unknown[4096];
        const char *base = strrchr(name.dso, '/');
        snprintf(unknown, sizeof unknown, "[%s]", base ? base + 1 : name.dso);
        if (append(o, &len, ";") != 0 || append(o, &len, name.symbol ? name.symbol : unknown) != 0)
            return;
    }
    int created;
    struct entry *e = find(&o->stacks, o->line, &created);
    if (e)
        e->count++;
}

void script_output_sample(struct script_output *o, const struct perf_sample *s, const char *comm,
                          struct dwu_space *space, const struct sample_frame *frames, int n)
{
    if (o->format == OUTPUT_SCRIPT)
        print_script(o, s, comm, space, frames, n);
    else
        count_folded(o, comm, space, frames, n);
}

static int by_order(const void *a, const void *b)
{
    const struct entry *x = *(const struct entry *const *)a, *y = *(const struct entry *const *)b;
    return x->order < y->order ? -1 : x->order > y->order;
}

void script_output_finish(struct script_output *o)
{
    if (!o)
        return;
    struct entry **lines = o->stacks.n ? calloc(o->stacks.n, sizeof *lines) : NULL;
    size_t k = 0;
    for (size_t i = 0; lines && i < o->stacks.cap; i++)
        if (o->stacks.slots[i].key)
            lines[k++] = &o->stacks.slots[i];
    if (lines) {
        qsort(lines, k, sizeof *lines, by_order);
        for (size_t i = 0; i < k; i++)
            fprintf(o->out, "%s %" PRIu64 "\n", lines[i]->key, lines[i]->count);
    }
    free(lines);
    for (size_t i = 0; i < o->stacks.cap; i++)
        free(o->stacks.slots[i].key);
    for (size_t i = 0; i < o->symbols.cap; i++)
        if (o->symbols.slots[i].key) {
            free(o->symbols.slots[i].key);
            symbol_table_free(o->symbols.slots[i].value);
        }
    symbol_table_free(o->kernel);
    free(o->stacks.slots);
    free(o->symbols.slots);
    free(o->line);
    free(o);
}
