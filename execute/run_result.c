/* SPDX-License-Identifier: Apache-2.0 */
#include "run_result.h"

#include <stdlib.h>
#include <string.h>

#define EMPTY_OBJECT UINT32_MAX

void run_result_init(struct run_result *r)
{
    memset(r, 0, sizeof *r);
    r->exit_code = -1;
}

void run_result_release(struct run_result *r)
{
    for (size_t i = 0; i < r->nobjects; i++) {
        free(r->objects[i]);
        free(r->not_audited[i]);
    }
    free(r->objects);
    free(r->not_audited);
    free(r->slots);
    run_result_init(r);
}

int run_result_object(struct run_result *r, const char *path)
{
    for (size_t i = 0; i < r->nobjects; i++)
        if (strcmp(r->objects[i], path) == 0)
            return (int)i;
    char **grown = realloc(r->objects, (r->nobjects + 1) * sizeof *grown);
    if (!grown)
        return -1;
    r->objects = grown;
    char **notes = realloc(r->not_audited, (r->nobjects + 1) * sizeof *notes);
    if (!notes)
        return -1;
    r->not_audited = notes;
    r->not_audited[r->nobjects] = NULL;
    if (!(r->objects[r->nobjects] = strdup(path)))
        return -1;
    return (int)r->nobjects++;
}

int run_result_not_audited(struct run_result *r, uint32_t object, const char *why)
{
    free(r->not_audited[object]);
    r->not_audited[object] = strdup(why);
    return r->not_audited[object] ? 0 : -1;
}

static size_t slot_of(uint32_t object, uint64_t addr, size_t nslots)
{
    uint64_t h = (addr ^ ((uint64_t)object << 47)) * 0x9e3779b97f4a7c15ull;
    return (size_t)(h >> 20) & (nslots - 1);
}

static int grow(struct run_result *r)
{
    size_t n = r->nslots ? r->nslots * 2 : 1024;
    struct run_address *slots = malloc(n * sizeof *slots);
    if (!slots)
        return -1;
    for (size_t i = 0; i < n; i++)
        slots[i].object = EMPTY_OBJECT;
    for (size_t i = 0; i < r->nslots; i++) {
        if (r->slots[i].object == EMPTY_OBJECT)
            continue;
        size_t s = slot_of(r->slots[i].object, r->slots[i].addr, n);
        while (slots[s].object != EMPTY_OBJECT)
            s = (s + 1) & (n - 1);
        slots[s] = r->slots[i];
    }
    free(r->slots);
    r->slots = slots;
    r->nslots = n;
    return 0;
}

struct run_address *run_result_find(const struct run_result *r, uint32_t object, uint64_t addr)
{
    if (r->nslots == 0)
        return NULL;
    size_t s = slot_of(object, addr, r->nslots);
    while (r->slots[s].object != EMPTY_OBJECT) {
        if (r->slots[s].object == object && r->slots[s].addr == addr)
            return &r->slots[s];
        s = (s + 1) & (r->nslots - 1);
    }
    return NULL;
}

struct run_address *run_result_address(struct run_result *r, uint32_t object, uint64_t addr)
{
    struct run_address *known = run_result_find(r, object, addr);
    if (known)
        return known;
    if ((r->used + 1) * 2 > r->nslots && grow(r) != 0)
        return NULL;
    size_t s = slot_of(object, addr, r->nslots);
    while (r->slots[s].object != EMPTY_OBJECT)
        s = (s + 1) & (r->nslots - 1);
    memset(&r->slots[s], 0, sizeof r->slots[s]);
    r->slots[s].object = object;
    r->slots[s].addr = addr;
    r->used++;
    return &r->slots[s];
}

static int by_place(const void *a, const void *b)
{
    const struct run_address *x = a, *y = b;
    if (x->object != y->object)
        return x->object < y->object ? -1 : 1;
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

struct run_address *run_result_sorted(const struct run_result *r, size_t *n)
{
    *n = 0;
    if (r->used == 0)
        return NULL;
    struct run_address *out = malloc(r->used * sizeof *out);
    if (!out)
        return NULL;
    for (size_t i = 0; i < r->nslots; i++)
        if (r->slots[i].object != EMPTY_OBJECT)
            out[(*n)++] = r->slots[i];
    qsort(out, *n, sizeof *out, by_place);
    return out;
}
