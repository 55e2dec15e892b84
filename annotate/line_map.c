/* SPDX-License-Identifier: Apache-2.0 */
/*
 * line_map: .debug_line rows of one source file (read by object/debug_info).
 */
#include "line_map.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "kit/sorted_search.h"
#include "object/debug_info.h"
#include "sys/error.h"

static int by_addr(const void *a, const void *b)
{
    const struct line_row *x = a, *y = b;
    if (x->addr != y->addr)
        return x->addr < y->addr ? -1 : 1;
    return (x->order > y->order) - (x->order < y->order);
}

/* The assembled source, and the last file name of the line table compared
 * with it (rows name the same few files over and over). */
struct source_match {
    const char *source, *resolved;   /* RESOLVED: its real path, or NULL */
    char last[PATH_MAX];
    int last_is_source;
};

/* Whether the line table's file name NAME is the source. */
static int same_file(struct source_match *sm, const char *name)
{
    if (strcmp(name, sm->source) == 0)
        return 1;
    if (strcmp(name, sm->last) == 0)
        return sm->last_is_source;
    char real[PATH_MAX];
    int same = sm->resolved && realpath(name, real) && strcmp(real, sm->resolved) == 0;
    if (strlen(name) < sizeof sm->last) {
        strcpy(sm->last, name);
        sm->last_is_source = same;
    }
    return same;
}

static int add_row(struct line_map *m, size_t *cap, uint64_t addr, uint32_t line)
{
    if (m->nrows == *cap) {
        size_t more = *cap ? 2 * *cap : 256;
        struct line_row *rows = realloc(m->rows, more * sizeof *rows);
        if (!rows)
            return -1;
        m->rows = rows;
        *cap = more;
    }
    m->rows[m->nrows] = (struct line_row){addr, line, (uint32_t)m->nrows};
    m->nrows++;
    return 0;
}

struct collect {
    struct line_map *m;
    size_t cap;
    struct source_match sm;
};

/* One row of the line table: the source's line, or 0 for another file's. */
static int collect_row(void *arg, uint64_t addr, uint32_t line, const char *file)
{
    struct collect *c = arg;
    return add_row(c->m, &c->cap, addr, file && same_file(&c->sm, file) ? line : 0) != 0;   /* 1: no memory */
}

int line_map_read(struct line_map *m, struct elf_file *ef, const char *source, char *err,
                  size_t errlen)
{
    memset(m, 0, sizeof *m);
    char real[PATH_MAX];
    struct collect c = {.m = m, .sm = {.source = source, .resolved = realpath(source, real)}};
    int rc = debug_line_rows(ef, collect_row, &c, err, errlen);
    if (rc != 0) {
        line_map_release(m);
        return rc < 0 ? -1 : error_set(err, errlen, "out of memory");
    }
    if (m->nrows)
        qsort(m->rows, m->nrows, sizeof *m->rows, by_addr);
    return 0;
}

void line_map_release(struct line_map *m)
{
    free(m->rows);
    memset(m, 0, sizeof *m);
}

static uint64_t row_addr_key(const void *rows, size_t i)
{
    return ((const struct line_row *)rows)[i].addr;
}

uint32_t line_map_line_at(const struct line_map *m, uint64_t addr)
{
    size_t n = sorted_count_at_most(m->rows, m->nrows, row_addr_key, addr);
    /* Rows at the same address: the last one is the line the bytes belong to. */
    return n > 0 ? m->rows[n - 1].line : 0;
}
