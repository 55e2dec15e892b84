/* SPDX-License-Identifier: Apache-2.0 */
#include "audit_select.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "synth/request.h"

/* One FDE as the audit went through it. */
struct fde_seen {
    uint64_t pc_begin;
    int doubt;                     /* some address wrong, undecided or not judged */
    int entry;                     /* its first row is a function's entry */
};

/* The audit's callback: one object's records being gathered. */
struct gather {
    struct audit_select_object *o;
    size_t capat;
    struct fde_seen *fdes;
    size_t nfdes, capfdes;
    int out_of_memory;
};

static int grow(void **p, size_t *cap, size_t n, size_t size)
{
    if (n < *cap)
        return 0;
    size_t c = *cap ? *cap * 2 : 256;
    void *q = realloc(*p, c * size);
    if (!q)
        return -1;
    *p = q;
    *cap = c;
    return 0;
}

/* The CFA rsp+8 and the return address at CFA-8: a call's entry. */
static int entry_row(const struct unwind_row *row)
{
    return row && row->cfa.kind == CFA_RULE_REG_OFFSET && row->cfa.reg == ABI_RSP &&
           row->cfa.offset == ABI_ENTRY_CFA_OFFSET && row->reg[ABI_RA].kind == REG_RULE_OFFSET &&
           row->reg[ABI_RA].offset == ABI_ENTRY_RA_OFFSET;
}

/* Whether the run should look at AT: a rule wrong or undecided, or a row
 * not judged where code runs (not padding nor unreached code, which no
 * thread stands on; not the stack's end, whose rule is no frame's). */
static int in_doubt(const struct check_at *at)
{
    if (at->what != CHECK_AT_DECIDED)
        return at->what == CHECK_AT_KEPT && at->reached && at->reached != SYNTH_PADDING && !at->insn->is_padding &&
               !(at->dwarf && at->dwarf->reg[ABI_RA].kind == REG_RULE_UNDEFINED);
    for (unsigned c = 0; c <= CHECK_COLUMN_CFA; c++)
        if (at->verdict[c] == RULE_FAILS || at->verdict[c] == RULE_UNDECIDED)
            return 1;
    return 0;
}

static void at_address(void *arg, const struct check_at *at)
{
    struct gather *g = arg;
    struct audit_select_object *o = g->o;
    if (!at->insn || g->out_of_memory)
        return;
    if (grow((void **)&o->at, &g->capat, o->nat, sizeof *o->at) != 0) {
        g->out_of_memory = 1;
        return;
    }
    struct audit_select_at *a = &o->at[o->nat++];
    a->addr = at->insn->addr;
    a->what = (uint8_t)at->what;
    memcpy(a->verdict, at->verdict, sizeof a->verdict);
    if (!at->fde)
        return;
    struct fde_seen *f = g->nfdes ? &g->fdes[g->nfdes - 1] : NULL;
    if (!f || f->pc_begin != at->fde->pc_begin) {
        if (grow((void **)&g->fdes, &g->capfdes, g->nfdes, sizeof *g->fdes) != 0) {
            g->out_of_memory = 1;
            return;
        }
        f = &g->fdes[g->nfdes++];
        f->pc_begin = at->fde->pc_begin;
        f->doubt = 0;
        f->entry = 0;
    }
    if (at->insn->addr == f->pc_begin)
        f->entry = entry_row(at->dwarf);
    if (in_doubt(at))
        f->doubt = 1;
}

static int by_address(const void *a, const void *b)
{
    uint64_t x = ((const struct audit_select_at *)a)->addr, y = ((const struct audit_select_at *)b)->addr;
    return x < y ? -1 : x > y;
}

static int by_pc_begin(const void *a, const void *b)
{
    uint64_t x = ((const struct fde_seen *)a)->pc_begin, y = ((const struct fde_seen *)b)->pc_begin;
    return x < y ? -1 : x > y;
}

/* The FDEs in doubt, each once (an FDE's addresses may come in several runs). */
static int select_fdes(struct audit_select_object *o, struct fde_seen *fdes, size_t n)
{
    qsort(fdes, n, sizeof *fdes, by_pc_begin);
    o->entries = malloc((n ? n : 1) * sizeof *o->entries);
    if (!o->entries)
        return -1;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        int doubt = 0, entry = 0;
        for (; j < n && fdes[j].pc_begin == fdes[i].pc_begin; j++)
            doubt |= fdes[j].doubt, entry |= fdes[j].entry;
        if (doubt && entry)
            o->entries[o->nentries++] = fdes[i].pc_begin;
        else if (doubt)
            o->not_selectable++;
        i = j;
    }
    return 0;
}

void audit_select_init(struct audit_select *as, struct run_result *result)
{
    memset(as, 0, sizeof *as);
    as->result = result;
}

void audit_select_release(struct audit_select *as)
{
    for (size_t i = 0; i < as->nobjects; i++) {
        free(as->objects[i].at);
        free(as->objects[i].entries);
    }
    free(as->objects);
    memset(as, 0, sizeof *as);
}

static void audit(struct audit_select *as, uint32_t object, struct audit_select_object *o)
{
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    struct gather g = {o, 0, NULL, 0, 0, 0};
    struct check_options opt = {CHECK_PROVE_EXPRESSIONS, CHECK_PROVE_TIMEOUT_MS, at_address, &g, 0};
    struct check_result audit;
    int not_elf;
    char err[512];
    as->audits++;
    if (check_file(as->result->objects[object], &opt, &audit, &not_elf, err, sizeof err) != 0) {
        o->state = -1;
        if (run_result_not_audited(as->result, object, err) != 0)
            as->result->join_out_of_memory = 1;
    } else {
        check_result_release(&audit);
        qsort(o->at, o->nat, sizeof *o->at, by_address);
        o->state = g.out_of_memory || select_fdes(o, g.fdes, g.nfdes) != 0 ? -1 : 1;
        if (o->state < 0 && run_result_not_audited(as->result, object, "out of memory") != 0)
            as->result->join_out_of_memory = 1;
    }
    free(g.fdes);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    as->seconds += (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
}

const struct audit_select_object *audit_select_object(struct audit_select *as, uint32_t object)
{
    if (object >= as->result->nobjects)
        return NULL;
    if (object >= as->nobjects) {
        size_t n = as->result->nobjects;
        struct audit_select_object *grown = realloc(as->objects, n * sizeof *grown);
        if (!grown)
            return NULL;
        memset(grown + as->nobjects, 0, (n - as->nobjects) * sizeof *grown);
        as->objects = grown;
        as->nobjects = n;
    }
    struct audit_select_object *o = &as->objects[object];
    if (o->state == 0)
        audit(as, object, o);
    return o->state > 0 ? o : NULL;
}

const struct audit_select_at *audit_select_at(const struct audit_select_object *o, uint64_t addr)
{
    struct audit_select_at key = {.addr = addr};
    return bsearch(&key, o->at, o->nat, sizeof *o->at, by_address);
}
