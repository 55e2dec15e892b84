/* SPDX-License-Identifier: Apache-2.0 */
/*
 * space: address spaces — another process's mappings of object files, and
 * the walk over them (dwunwind.h, "Address spaces").
 *
 * A space is an array of mappings sorted by start address, disjoint.  Each
 * mapping holds a reference to its object file (object_file.c, shared
 * between spaces) and the dwu_object the walk (walk.h) steps with: its
 * addresses, its bias (run-time address minus the object's own), the
 * eh_elf's entry, or the file's table for the DWARF fallback.  The last
 * two mappings a walk used are remembered, as the in-process walk does.
 */
#include "dwunwind.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "object_file.h"
#include "objects.h"
#include "walk.h"

struct space_mapping {
    struct dwu_object o;              /* o.lo, o.hi: the mapping's addresses */
    uint64_t offset;                  /* file offset at o.lo */
    char *path;
    char *name;                       /* NULL: PATH */
    struct dwu_object_file *file;     /* NULL when it could not be opened */
    int status;                       /* dwu_map_status */
    int own_known;                    /* o.bias places the mapping in the file's addresses */
};

struct dwu_space {
    struct space_mapping *maps;
    size_t count, cap;
    char *cache_dir;
    const struct dwu_object *recent[2];
};

struct dwu_space *dwu_space_create(const char *cache_dir)
{
    struct dwu_space *s = calloc(1, sizeof *s);
    if (s && cache_dir && !(s->cache_dir = strdup(cache_dir))) {
        free(s);
        return NULL;
    }
    return s;
}

static void release_mapping(struct space_mapping *m)
{
    if (m->file)
        dwu_object_file_release(m->file);
    free(m->path);
    free(m->name);
}

/* A copy of M's strings into M; -1 when out of memory (M then owns none). */
static int copy_strings(struct space_mapping *m)
{
    char *path = strdup(m->path), *name = m->name ? strdup(m->name) : NULL;
    if (!path || (m->name && !name)) {
        free(path);
        free(name);
        m->path = m->name = NULL;
        return -1;
    }
    m->path = path;
    m->name = name;
    return 0;
}

void dwu_space_destroy(struct dwu_space *space)
{
    if (!space)
        return;
    for (size_t i = 0; i < space->count; i++)
        release_mapping(&space->maps[i]);
    free(space->maps);
    free(space->cache_dir);
    free(space);
}

static int reserve(struct dwu_space *s, size_t more)
{
    if (s->count + more <= s->cap)
        return 0;
    size_t cap = s->cap ? s->cap * 2 : 16;
    while (cap < s->count + more)
        cap *= 2;
    struct space_mapping *n = realloc(s->maps, cap * sizeof *n);
    if (!n)
        return -1;
    s->maps = n;
    s->cap = cap;
    return 0;
}

struct dwu_space *dwu_space_clone(const struct dwu_space *space)
{
    struct dwu_space *c = dwu_space_create(space->cache_dir);
    if (!c || reserve(c, space->count) != 0) {
        dwu_space_destroy(c);
        return NULL;
    }
    for (size_t i = 0; i < space->count; i++) {
        struct space_mapping m = space->maps[i];
        if (copy_strings(&m) != 0) {
            dwu_space_destroy(c);
            return NULL;
        }
        if (m.file)
            dwu_object_file_ref(m.file);
        c->maps[c->count++] = m;
    }
    return c;
}

/* Remove [LO, HI) from the space's mappings, cutting those that straddle
 * it.  Returns -1 (nothing changed) when out of memory. */
static int cut_range(struct dwu_space *s, uint64_t lo, uint64_t hi)
{
    if (reserve(s, 1) != 0)
        return -1;
    for (size_t i = 0; i < s->count; i++) {
        struct space_mapping *m = &s->maps[i];
        if (m->o.hi <= lo || m->o.lo >= hi)
            continue;
        if (m->o.lo < lo && m->o.hi > hi) {   /* split in two: the upper part is a copy */
            struct space_mapping upper = *m;
            if (copy_strings(&upper) != 0)
                return -1;
            if (upper.file)
                dwu_object_file_ref(upper.file);
            upper.offset += hi - m->o.lo;
            upper.o.lo = hi;
            m->o.hi = lo;
            memmove(&s->maps[i + 2], &s->maps[i + 1], (s->count - i - 1) * sizeof *m);
            s->maps[i + 1] = upper;
            s->count++;
            return 0;
        }
        if (m->o.lo < lo) {
            m->o.hi = lo;
        } else if (m->o.hi > hi) {
            m->offset += hi - m->o.lo;
            m->o.lo = hi;
        } else {
            release_mapping(m);
            memmove(m, m + 1, (s->count - i - 1) * sizeof *m);
            s->count--;
            i--;
        }
    }
    return 0;
}

void dwu_space_unmap(struct dwu_space *space, uint64_t start, uint64_t size)
{
    uint64_t end = size > UINT64_MAX - start ? UINT64_MAX : start + size;
    cut_range(space, start, end);
    space->recent[0] = space->recent[1] = NULL;
}

/* The mapping's object: where its addresses are in the file's, and how it
 * unwinds.  Returns the dwu_map_status. */
static int describe(struct space_mapping *m, const struct dwu_mapping *want)
{
    struct dwu_object_file *f = m->file;
    if (want->build_id_len &&   /* longer than any identity: never equal */
        (f->build_id.kind != DWU_IDENTITY_BUILD_ID || f->build_id.len != want->build_id_len ||
         memcmp(f->build_id.bytes, want->build_id, want->build_id_len) != 0))
        return DWU_MAP_OTHER_BUILD;
    const struct dwu_load_segment *seg = dwu_object_file_segment_at(f, want->offset);
    if (!seg)
        return DWU_MAP_NO_TABLE;
    /* Run-time START holds file offset OFFSET, which is own address
     * OFFSET - seg->offset + seg->vaddr. */
    m->o.bias = want->start - (want->offset - seg->offset + seg->vaddr);
    m->own_known = 1;
    m->o.step = f->step;
    m->o.eh_frame_hdr = f->eh_frame_hdr;
    m->o.readable_start = f->readable_start;
    m->o.readable_end = f->readable_end;
    m->o.table_bias = f->table_bias;
    m->o.memo = f->memo;
    if (f->step)
        return DWU_MAP_EH_ELF;
    return f->eh_frame_hdr ? DWU_MAP_DWARF : DWU_MAP_NO_TABLE;
}

int dwu_space_map(struct dwu_space *space, const struct dwu_mapping *want)
{
    if (!want->size || want->size > UINT64_MAX - want->start || !want->path)
        return DWU_MAP_NO_FILE;
    /* WANT's strings may be a mapping's that cut_range frees (a caller
     * mapping again what dwu_space_mapping_at gave): copied first. */
    uint8_t build_id[DWU_IDENTITY_MAX];
    struct dwu_mapping w = *want;
    if (w.build_id && w.build_id_len) {
        memcpy(build_id, w.build_id, w.build_id_len < sizeof build_id ? w.build_id_len : sizeof build_id);
        w.build_id = build_id;
    } else {
        w.build_id_len = 0;
    }
    struct space_mapping m = {
        .o = {.lo = w.start, .hi = w.start + w.size},
        .offset = w.offset,
        .path = (char *)w.path,
        .name = (char *)w.name,
    };
    if (copy_strings(&m) != 0)
        return DWU_MAP_NO_MEMORY;
    if (cut_range(space, m.o.lo, m.o.hi) != 0 || reserve(space, 1) != 0) {
        free(m.path);
        free(m.name);
        return DWU_MAP_NO_MEMORY;
    }
    w.path = m.path;
    m.file = dwu_object_file_open(m.path, w.build_id, w.build_id_len, space->cache_dir, &m.status);
    if (m.file) {
        m.status = describe(&m, &w);
        if (m.status < 0) {   /* no unwinding from it: an address in it gives DWU_ENOINFO */
            m.o.step = NULL;
            m.o.eh_frame_hdr = NULL;
            m.o.memo = NULL;
        }
    }
    size_t at = 0;
    while (at < space->count && space->maps[at].o.lo < m.o.lo)
        at++;
    memmove(&space->maps[at + 1], &space->maps[at], (space->count - at) * sizeof m);
    space->maps[at] = m;
    space->count++;
    space->recent[0] = space->recent[1] = NULL;
    return m.status;
}

static struct space_mapping *mapping_at(const struct dwu_space *s, uint64_t addr)
{
    size_t lo = 0, hi = s->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->maps[mid].o.hi <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < s->count && s->maps[lo].o.lo <= addr ? &s->maps[lo] : NULL;
}

int dwu_space_mapping_at(const struct dwu_space *space, uint64_t addr, struct dwu_mapping *m, int *status)
{
    const struct space_mapping *sm = mapping_at(space, addr);
    if (!sm)
        return -1;
    *m = (struct dwu_mapping){.start = sm->o.lo, .size = sm->o.hi - sm->o.lo, .offset = sm->offset,
                              .path = sm->path, .name = sm->name ? sm->name : sm->path};
    if (sm->file && sm->file->build_id.kind == DWU_IDENTITY_BUILD_ID) {
        m->build_id = sm->file->build_id.bytes;
        m->build_id_len = sm->file->build_id.len;
    }
    if (status)
        *status = sm->status;
    return 0;
}

int dwu_space_object_address(const struct dwu_space *space, uint64_t addr, uint64_t *own)
{
    const struct space_mapping *sm = mapping_at(space, addr);
    if (!sm || !sm->own_known)
        return -1;
    *own = addr - sm->o.bias;
    return 0;
}

int dwu_space_refresh(struct dwu_space *space)
{
    int found = 0;
    for (size_t i = 0; i < space->count; i++) {
        struct space_mapping *m = &space->maps[i];
        if (m->status != DWU_MAP_DWARF)
            continue;
        if (dwu_object_file_find_eh_elf_again(m->file, m->path, space->cache_dir)) {
            m->o.step = m->file->step;
            m->status = DWU_MAP_EH_ELF;
            found++;
        }
    }
    return found;
}

/* The object of a mapping that can be unwound, with the two last ones
 * remembered. */
static const struct dwu_object *space_object_at(void *ctx, uint64_t pc)
{
    struct dwu_space *s = ctx;
    const struct dwu_object *o = s->recent[0];
    if (o && pc >= o->lo && pc < o->hi)
        return o;
    o = s->recent[1];
    if (!o || pc < o->lo || pc >= o->hi) {
        const struct space_mapping *m = mapping_at(s, pc);
        if (!m || m->status < 0)
            return NULL;
        o = &m->o;
    }
    s->recent[1] = s->recent[0];
    s->recent[0] = o;
    return o;
}

int dwu_space_step(struct dwu_space *space, struct dwu_regs *regs, const struct dwu_memory *mem)
{
    struct dwu_regs out;
    int rc = dwu_walk_step(regs, &out, mem, space_object_at, space);
    if (rc == DWU_OK)
        *regs = out;
    return rc;
}

/* A profiler walks each recorded sample once, and what the walk reads
 * first is then in no cache: the stack copy above rsp (where the return
 * addresses of the first frames are) and the space's last objects (the
 * object lookup).  The walk reads them one after the other, each waiting
 * on the one before; asked for at once, their misses overlap (on make
 * bench's recordings, a third less time per frame).  STACK_BYTES of the
 * copy are asked for.  Looking the sample's IP up to ask for its mapping
 * and eh_elf too was no faster: the lookup waits on the space's lines.
 * Inlined: GCC takes a function that only prefetches for one without
 * effect, and drops the call. */
static inline __attribute__((always_inline)) void prefetch_walk(const struct dwu_space *space,
                                                                 const struct dwu_regs *regs,
                                                                 const struct dwu_memory *mem,
                                                                 uint64_t stack_bytes)
{
    if (mem->read == dwu_read_stack_copy && (regs->valid & (1u << DWU_RSP))) {
        const struct dwu_stack_copy *c = mem->arg;
        uint64_t off = regs->r[DWU_RSP] - c->base;
        for (uint64_t line = 0; line < stack_bytes && off < c->size && c->size - off > line; line += 64)
            __builtin_prefetch(c->data + off + line);
    }
    for (int k = 0; k < 2; k++)
        if (space->recent[k])
            __builtin_prefetch(space->recent[k]);
    if (space->count)
        __builtin_prefetch(space->maps);
}

/* How much of the stack copy a walk asks for as it starts: the lines of
 * the first frames, which it reads at once. */
#define WALK_PREFETCH_BYTES 512

/* How much dwu_space_prefetch asks for, a sample's work ahead of the walk:
 * time enough for the lines of more callers to come (on make bench's C++
 * recording, 2 KiB walk a tenth faster than 512 bytes; 4 KiB is no faster
 * on the C recordings). */
#define AHEAD_PREFETCH_BYTES 2048

/* And of the mapping array, which the object lookup searches: a process
 * seen for the first time in a while has none of it cached (on make
 * bench's recording of short processes, a tenth faster per frame). */
#define AHEAD_MAPPINGS_BYTES 2048

void dwu_space_prefetch(const struct dwu_space *space, const struct dwu_regs *regs, const struct dwu_memory *mem)
{
    prefetch_walk(space, regs, mem, AHEAD_PREFETCH_BYTES);
    uint64_t bytes = space->count * sizeof *space->maps;
    for (uint64_t line = 64; line < bytes && line < AHEAD_MAPPINGS_BYTES; line += 64)
        __builtin_prefetch((const char *)space->maps + line);
}

int dwu_space_unwind(struct dwu_space *space, struct dwu_regs *regs, const struct dwu_memory *mem,
                     uint64_t *ips, int max, int *status)
{
    prefetch_walk(space, regs, mem, WALK_PREFETCH_BYTES);
    return dwu_walk(regs, mem, ips, max, status, space_object_at, space);
}

const char *dwu_map_strerror(int status)
{
    switch (status) {
    case DWU_MAP_EH_ELF: return "unwound by its eh_elf";
    case DWU_MAP_DWARF: return "unwound by interpreting its .eh_frame";
    case DWU_MAP_NO_FILE: return "the object's file cannot be opened";
    case DWU_MAP_NOT_ELF: return "the object's file is not an x86_64 ELF object (or its headers are damaged)";
    case DWU_MAP_OTHER_BUILD: return "the object's file is another build than the one mapped";
    case DWU_MAP_NO_TABLE: return "the mapped code has no unwind table";
    case DWU_MAP_NO_MEMORY: return "out of memory";
    default: return "unknown mapping status";
    }
}
