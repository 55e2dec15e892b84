/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sframe_build: H_valid's functions through semantics/write/sframe_write.
 */
#include "sframe_build.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "object/debug_info.h"
#include "sys/error.h"
#include "synth/function_index.h"

/* Whether EB's new .eh_frame holds F: not a file's FDE of no code, nor an
 * added FDE it could not encode. */
static int in_new_eh_frame(const struct validated_fde *f, const struct eh_frame_build *eb)
{
    if (f->fde)
        return f->fde->fault == FDE_SOUND;
    for (size_t i = 0; i < eb->nunrepaired; i++)
        if (eb->unrepaired[i].fde == f)
            return 0;
    return 1;
}

static int by_range(const void *a, const void *b)
{
    const struct validated_fde *x = *(const struct validated_fde *const *)a, *y = *(const struct validated_fde *const *)b;
    if (x->lo != y->lo)
        return x->lo < y->lo ? -1 : 1;
    return x->hi < y->hi ? -1 : x->hi > y->hi;
}

/* F's function name, as validated_table names the repaired FDEs. */
static void name_function(const struct validated_fde *f, struct audit_input *af, struct debug_info *di,
                          int *di_open, char *buf, size_t size)
{
    if (f->function[0]) {
        snprintf(buf, size, "%s", f->function);
        return;
    }
    size_t i = function_index_at(&af->prog.index, f->lo);
    if (i != (size_t)-1 && af->prog.index.funcs[i].name && af->prog.index.funcs[i].name[0]) {
        snprintf(buf, size, "%s", af->prog.index.funcs[i].name);
        return;
    }
    if (*di_open == 0)   /* once, and only when some function needs it */
        *di_open = debug_info_open(di, &af->ef) == 0 ? 1 : -1;
    uint64_t start = i == (size_t)-1 ? f->lo : af->prog.index.funcs[i].lo;
    if (*di_open > 0)
        debug_info_name(di, f->lo, &start, buf, size);
    else
        snprintf(buf, size, "0x%llx", (unsigned long long)f->lo);
}

/* Add the functions ORDER[0..N) to the writer, listing those left out. */
static int add_functions(struct sframe_build *b, const struct validated_fde **order, size_t n, struct audit_input *af)
{
    struct debug_info di;
    int di_open = 0, rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        struct sframe_added added;
        const char *why;
        uint64_t at;
        int r = sframe_writer_add(&b->w, &order[i]->table, &added, &why, &at);
        if (r < 0) {
            rc = -1;
        } else if (r == 1) {
            b->summary.functions++;
            b->summary.fdes += added.fdes;
            b->summary.pcmask_fdes += added.pcmask_fdes;
            b->summary.flex_fdes += added.flex_fdes;
            b->summary.fres += added.fres;
        } else {
            struct repair_sframe_left *l = &b->left[b->nleft++];
            *l = (struct repair_sframe_left){.lo = order[i]->lo, .hi = order[i]->hi, .at = at, .why = why};
            name_function(order[i], af, &di, &di_open, l->function, sizeof l->function);
        }
    }
    if (di_open > 0)
        debug_info_close(&di);
    return rc;
}

int sframe_build_prepare(struct sframe_build *b, unsigned version, const struct validated_table *vt,
                         const struct eh_frame_build *eb, struct audit_input *af, char *err, size_t errlen)
{
    memset(b, 0, sizeof *b);
    if (sframe_writer_init(&b->w, version) != 0)
        return error_set(err, errlen, "SFrame version %u: 1, 2 and 3 are written", version);
    const struct validated_fde **order = calloc(vt->nfdes + 1, sizeof *order);
    b->left = calloc(vt->nfdes + 1, sizeof *b->left);
    if (!order || !b->left) {
        free(order);
        sframe_build_release(b);
        return error_set(err, errlen, "out of memory");
    }
    size_t n = 0;
    for (size_t i = 0; i < vt->nfdes; i++)
        if (in_new_eh_frame(&vt->fdes[i], eb))
            order[n++] = &vt->fdes[i];
    qsort(order, n, sizeof *order, by_range);
    int rc = add_functions(b, order, n, af);
    free(order);
    if (rc != 0) {
        sframe_build_release(b);
        return error_set(err, errlen, "out of memory");
    }
    b->summary.version = version;
    b->summary.size = sframe_writer_size(&b->w);
    b->summary.left = b->left;
    b->summary.nleft = b->nleft;
    return 0;
}

int sframe_build_write(struct sframe_build *b, uint64_t addr, char *err, size_t errlen)
{
    const char *why = NULL;
    b->sframe.n = 0;
    int rc = sframe_writer_write(&b->w, addr, &b->sframe, &why);
    if (rc == -2)
        return error_set(err, errlen, "out of memory");
    if (rc != 0)
        return error_set(err, errlen, "cannot write .sframe at 0x%llx: %s", (unsigned long long)addr, why);
    return 0;
}

void sframe_build_release(struct sframe_build *b)
{
    sframe_writer_release(&b->w);
    free(b->left);
    cfi_bytes_release(&b->sframe);
    memset(b, 0, sizeof *b);
}
