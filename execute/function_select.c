/* SPDX-License-Identifier: Apache-2.0 */
#include "function_select.h"

#include <stdlib.h>
#include <string.h>

/* The symbol glibc's loader calls after each change of its list of objects. */
#define LOADER_HOOK "_dl_debug_state"

int function_select_init(struct function_select *fs, char *const *names, size_t n, struct audit_select *audit)
{
    memset(fs, 0, sizeof *fs);
    fs->names = names;
    fs->nnames = n;
    fs->audit = n ? NULL : audit;
    fs->found = calloc(n ? n : 1, 1);
    return fs->found ? 0 : -1;
}

void function_select_release(struct function_select *fs)
{
    free(fs->found);
    free(fs->searched);
    memset(fs, 0, sizeof *fs);
}

void function_select_forget(struct function_select *fs)
{
    fs->nsearched = 0;
}

static int searched(struct function_select *fs, const struct live_object *o)
{
    for (size_t i = 0; i < fs->nsearched; i++)
        if (fs->searched[i] == o)
            return 1;
    if (fs->nsearched == fs->capsearched) {
        size_t cap = fs->capsearched ? fs->capsearched * 2 : 16;
        const struct live_object **grown = realloc(fs->searched, cap * sizeof *grown);
        if (!grown)
            return 1;   /* not searched: its functions are not checked */
        fs->searched = grown;
        fs->capsearched = cap;
    }
    fs->searched[fs->nsearched++] = o;
    return 0;
}

/* Whether NAME is asked for; its index in *I. */
static int asked(const struct function_select *fs, const char *name, size_t *i)
{
    for (*i = 0; *i < fs->nnames; (*i)++)
        if (strcmp(fs->names[*i], name) == 0)
            return 1;
    return 0;
}

/* O audited (once: audit_select keeps it) and its functions in doubt handed, at BIAS. */
static void by_audit(struct function_select *fs, const struct live_object *o, uint64_t bias,
                     void (*found)(void *arg, uint64_t addr, int loader), void *arg)
{
    struct run_result *r = fs->audit->result;
    size_t audits = fs->audit->audits;
    const struct audit_select_object *ao = audit_select_object(fs->audit, (uint32_t)o->index);
    r->select_seconds = fs->audit->seconds;
    if (fs->audit->audits > audits) {
        *(fs->scanned ? &r->objects_audited_during : &r->objects_audited_start) += 1;
        r->functions_selected += ao ? ao->nentries : 0;
        r->fdes_not_selectable += ao ? ao->not_selectable : 0;
    }
    if (!ao)
        return;
    for (size_t i = 0; i < ao->nentries; i++)
        found(arg, ao->entries[i] + bias, 0);
}

void function_select_scan(struct function_select *fs, struct live_objects *lo,
                          void (*found)(void *arg, uint64_t addr, int loader), void *arg)
{
    live_objects_refresh(lo);
    for (size_t m = 0; m < lo->nmaps; m++) {
        struct live_mapping *map = &lo->maps[m];
        struct live_object *o = map->object;
        if (!o || searched(fs, o))
            continue;
        if (fs->audit)
            by_audit(fs, o, map->bias, found, arg);
        char err[ELF_FILE_ERRLEN];
        if (elf_file_load_symbols(&o->ef, err, sizeof err) != 0)
            continue;
        for (size_t s = 0; s < o->ef.nsymbols; s++) {
            const struct elf_symbol *sym = &o->ef.symbols[s];
            size_t i;
            if (sym->type != STT_FUNC || sym->shndx == SHN_UNDEF || !sym->value)
                continue;
            if (strcmp(sym->name, LOADER_HOOK) == 0)
                found(arg, sym->value + map->bias, 1);
            else if (!fs->audit && asked(fs, sym->name, &i)) {
                fs->found[i] = 1;
                found(arg, sym->value + map->bias, 0);
            }
        }
    }
    fs->scanned = 1;
}

const char *function_select_missing(const struct function_select *fs)
{
    for (size_t i = 0; i < fs->nnames; i++)
        if (!fs->found[i])
            return fs->names[i];
    return NULL;
}
