/* SPDX-License-Identifier: Apache-2.0 */
#include "live_objects.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void live_objects_init(struct live_objects *lo, pid_t pid, struct run_result *result)
{
    memset(lo, 0, sizeof *lo);
    lo->pid = pid;
    lo->result = result;
}

static void object_free(struct live_object *o)
{
    if (o->state == 1) {
        fde_lookup_release(&o->lookup);
        cfi_section_release(&o->eh_frame);
    }
    if (o->state != 0)
        elf_file_close(&o->ef);
    free(o->path);
    free(o);
}

void live_objects_release(struct live_objects *lo)
{
    for (size_t i = 0; i < lo->nobjects; i++)
        object_free(lo->objects[i]);
    free(lo->objects);
    free(lo->maps);
    memset(lo, 0, sizeof *lo);
}

void live_objects_forget_maps(struct live_objects *lo)
{
    free(lo->maps);
    lo->maps = NULL;
    lo->nmaps = 0;
}

/* The object at PATH, opened on first use: state 1 when its .eh_frame can be
 * looked up, -1 when it cannot (the reason does not matter here: its code
 * is counted as code without a table). */
static struct live_object *object_at(struct live_objects *lo, const char *path)
{
    for (size_t i = 0; i < lo->nobjects; i++)
        if (strcmp(lo->objects[i]->path, path) == 0)
            return lo->objects[i];
    struct live_object *o = calloc(1, sizeof *o);
    struct live_object **grown = realloc(lo->objects, (lo->nobjects + 1) * sizeof *grown);
    if (!o || !grown || !(o->path = strdup(path))) {
        free(o);
        if (grown)
            lo->objects = grown;
        return NULL;
    }
    lo->objects = grown;
    lo->objects[lo->nobjects++] = o;
    o->index = -1;
    char err[ELF_FILE_ERRLEN];
    if (elf_file_open(&o->ef, path, err, sizeof err) != 0) {
        o->state = -2;   /* nothing to close */
        return o;
    }
    o->state = -1;
    if (cfi_section_read(&o->ef, ".eh_frame", &o->eh_frame, err, sizeof err) != 1)
        return o;
    if (fde_lookup_init(&o->lookup, &o->eh_frame) != 0) {
        cfi_section_release(&o->eh_frame);
        return o;
    }
    o->state = 1;
    o->index = run_result_object(lo->result, path);
    return o;
}

/* The load bias of a mapping of O at START from file offset OFFSET: the
 * PT_LOAD segment whose page holds that offset says at which file address
 * the mapping begins. */
static int mapping_bias(const struct live_object *o, uint64_t start, uint64_t offset, uint64_t *bias)
{
    for (size_t i = 0; i < o->ef.nphdrs; i++) {
        const GElf_Phdr *ph = &o->ef.phdrs[i];
        if (ph->p_type != PT_LOAD)
            continue;
        uint64_t page = ph->p_offset & ~(uint64_t)0xfff;
        if (offset >= page && offset < ph->p_offset + ph->p_filesz) {
            *bias = start - ((ph->p_vaddr & ~(uint64_t)0xfff) + (offset - page));
            return 0;
        }
    }
    return -1;
}

static void read_maps(struct live_objects *lo)
{
    char name[64];
    snprintf(name, sizeof name, "/proc/%d/maps", (int)lo->pid);
    FILE *f = fopen(name, "r");
    if (!f)
        return;
    live_objects_forget_maps(lo);
    char line[4096 + 128];
    size_t cap = 0;
    while (fgets(line, sizeof line, f)) {
        uint64_t start, end, offset;
        char perms[8];
        int path_at = 0;
        if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %7s %" SCNx64 " %*s %*s %n", &start, &end, perms, &offset,
                   &path_at) < 4 || perms[2] != 'x')
            continue;
        char *path = line + path_at;
        path[strcspn(path, "\n")] = '\0';
        struct live_mapping m = {start, end, 0, NULL};
        if (path[0] == '/' && !strstr(path, " (deleted)")) {
            struct live_object *o = object_at(lo, path);
            if (o && o->state == 1 && mapping_bias(o, start, offset, &m.bias) == 0)
                m.object = o;
        }
        if (lo->nmaps == cap) {
            cap = cap ? cap * 2 : 32;
            struct live_mapping *grown = realloc(lo->maps, cap * sizeof *grown);
            if (!grown)
                break;
            lo->maps = grown;
        }
        lo->maps[lo->nmaps++] = m;
    }
    fclose(f);
}

void live_objects_refresh(struct live_objects *lo)
{
    read_maps(lo);
}

static const struct live_mapping *mapping_at(struct live_objects *lo, uint64_t pc)
{
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < lo->nmaps; i++)
            if (pc >= lo->maps[i].start && pc < lo->maps[i].end)
                return &lo->maps[i];
        if (pass == 0)
            read_maps(lo);
    }
    return NULL;
}

const struct eh_frame_fde *live_objects_fde(struct live_objects *lo, uint64_t pc, struct live_object **object,
                                       uint64_t *bias)
{
    const struct live_mapping *m = mapping_at(lo, pc);
    if (!m || !m->object)
        return NULL;
    *object = m->object;
    *bias = m->bias;
    return fde_lookup_fde(&m->object->lookup, pc - m->bias);
}

int live_objects_row(struct live_objects *lo, uint64_t pc, struct live_object **object, uint64_t *addr,
                     const struct unwind_row **row, const struct eh_frame_fde **fde)
{
    const struct live_mapping *m = mapping_at(lo, pc);
    if (!m || !m->object)
        return 0;
    *object = m->object;
    *addr = pc - m->bias;
    *row = fde_lookup_row(&m->object->lookup, *addr, fde);
    return *row != NULL;
}
