/* SPDX-License-Identifier: Apache-2.0 */
/*
 * objects: the code objects loaded in this process (see objects.h).
 */
#include "objects.h"

#include "eh_elf_find.h"
#include "identity.h"
#include "startup_objects.h"

#include <dlfcn.h>
#include <elf.h>
#include <limits.h>
#include <link.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- the eh_elfs, by the identity of their object ------------------------- */

struct eh_elf_entry {
    struct dwu_identity id;
    dwu_eh_elf_step_fn step;
    dwu_eh_elf_trace_fn trace;
    dwu_eh_elf_frame_fn frame;
};

/* Published whole and never freed (a walk may be reading an older one);
 * each keeps the one it replaced, reachable. */
struct eh_elf_set {
    size_t count;
    struct eh_elf_set *older;
    struct eh_elf_entry entry[];
};

static _Atomic(struct eh_elf_set *) eh_elfs;
static atomic_ulong version = 1;
static int eh_elfs_wanted = 1;

static int same_identity(const struct dwu_identity *a, const struct dwu_identity *b)
{
    return a->kind && a->kind == b->kind && a->len == b->len && memcmp(a->bytes, b->bytes, a->len) == 0;
}

static const struct eh_elf_entry *eh_elf_of(const struct eh_elf_set *set, const struct dwu_identity *id)
{
    for (size_t i = 0; set && i < set->count; i++)
        if (same_identity(&set->entry[i].id, id))
            return &set->entry[i];
    return NULL;
}

/* ---- records: the objects as loaded now ----------------------------------- */

#define RECORDS 1024                 /* a power of two */
#define FINGERPRINT_MAX 32

/*
 * A record is written once, then read by any context; it is rewritten
 * only when the table is full and its object is no longer loaded (no walk
 * can be using it then: a walk asks only for addresses of its own stack,
 * whose objects stay loaded).  A reader that compares a record while it
 * is being rewritten sees SEQ change (odd while writing) and takes it for
 * another object's; GEN tells a row kept for the record's former object
 * from one of its present object.
 */
struct record {
    struct dwu_object o;             /* first: what the walk is handed */
    _Atomic int state;               /* 0 free, 1 being written, 2 ready */
    atomic_uint seq;                 /* odd while being rewritten */
    atomic_ulong gen;                /* counts the objects it has described */
    /* _dl_find_object's answer for the object */
    const void *link_map, *eh_frame;
    uint64_t map_start, map_end;
    /* bytes of the object that tell it from another loaded in its place:
     * its build-id (in its first page), else the start of .eh_frame_hdr */
    const uint8_t *fingerprint_at;
    uint8_t fingerprint[FINGERPRINT_MAX];
    uint8_t fingerprint_len;
    struct dwu_identity id;          /* which eh_elf fits it */
    int permanent;                   /* loaded with the program: never unloaded */
};

static struct record records[RECORDS];

/* [ADDR, ADDR + SIZE) lies in one readable PT_LOAD of the object. */
static int mapped_in(const ElfW(Phdr) *ph, unsigned phnum, uint64_t bias, uint64_t addr, uint64_t size)
{
    for (unsigned i = 0; i < phnum; i++) {
        uint64_t lo = bias + ph[i].p_vaddr;
        if (ph[i].p_type == PT_LOAD && (ph[i].p_flags & PF_R) && addr >= lo && addr - lo <= ph[i].p_memsz &&
            size <= ph[i].p_memsz - (addr - lo))
            return 1;
    }
    return 0;
}

/* The program headers of the object whose first segment starts at
 * MAP_START (its ELF header, when that segment maps the file's start),
 * read only within that first page; NULL when they are not there. */
static const ElfW(Phdr) *program_headers(uint64_t map_start, uint64_t map_end, unsigned *phnum)
{
    const ElfW(Ehdr) *eh = (const ElfW(Ehdr) *)(uintptr_t)map_start;
    uint64_t page = 4096, limit = map_end - map_start < page ? map_end - map_start : page;
    if (limit < sizeof *eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
        eh->e_phentsize != sizeof(ElfW(Phdr)) || eh->e_phoff > limit ||
        eh->e_phnum > (limit - eh->e_phoff) / sizeof(ElfW(Phdr)))
        return NULL;
    *phnum = eh->e_phnum;
    return (const ElfW(Phdr) *)(uintptr_t)(map_start + eh->e_phoff);
}

/* R's record as the object is loaded now: what _dl_find_object said, its
 * table's segment and its identity.  0, or -1 when its headers cannot be
 * read (it is then treated as having no unwind information). */
static int describe(const struct dl_find_object *f, struct record *r)
{
    memset(r, 0, sizeof *r);
    r->link_map = f->dlfo_link_map;
    r->eh_frame = f->dlfo_eh_frame;
    r->map_start = (uint64_t)(uintptr_t)f->dlfo_map_start;
    r->map_end = (uint64_t)(uintptr_t)f->dlfo_map_end;
    uint64_t bias = f->dlfo_link_map->l_addr;
    unsigned phnum = 0;
    const ElfW(Phdr) *ph = program_headers(r->map_start, r->map_end, &phnum);
    if (!ph)
        return -1;
    r->o = (struct dwu_object){.lo = r->map_start, .hi = r->map_end, .bias = bias, .table_bias = bias};
    uint64_t hdr = (uint64_t)(uintptr_t)f->dlfo_eh_frame, hdr_size = 0;
    for (unsigned i = 0; i < phnum; i++) {
        uint64_t lo = bias + ph[i].p_vaddr;
        if (ph[i].p_type == PT_LOAD && (ph[i].p_flags & PF_R) && hdr && hdr >= lo && hdr - lo < ph[i].p_memsz) {
            r->o.eh_frame_hdr = (const uint8_t *)(uintptr_t)hdr;
            r->o.readable_start = (const uint8_t *)(uintptr_t)lo;
            r->o.readable_end = (const uint8_t *)(uintptr_t)(lo + ph[i].p_memsz);
        }
        if (ph[i].p_type == PT_GNU_EH_FRAME)
            hdr_size = ph[i].p_memsz;
    }
    for (unsigned i = 0; i < phnum && !r->id.kind; i++)
        if (ph[i].p_type == PT_NOTE && mapped_in(ph, phnum, bias, bias + ph[i].p_vaddr, ph[i].p_memsz))
            dwu_identity_from_notes((const uint8_t *)(uintptr_t)(bias + ph[i].p_vaddr), ph[i].p_memsz, &r->id);
    const uint8_t *hdr_bytes = r->o.eh_frame_hdr;
    if (!r->id.kind && hdr_bytes && hdr_size && mapped_in(ph, phnum, bias, hdr, hdr_size))
        dwu_identity_from_hdr(hdr_bytes, hdr_size, &r->id);
    /* The fingerprint: the build-id's bytes where they lie in the first
     * page (mapped by whatever object is loaded there), else the start of
     * .eh_frame_hdr (inside the object's extent, which _dl_find_object
     * gives again). */
    if (r->id.kind == DWU_IDENTITY_BUILD_ID) {
        size_t n = r->id.len < FINGERPRINT_MAX ? r->id.len : FINGERPRINT_MAX;
        const uint8_t *at = NULL;
        for (unsigned i = 0; i < phnum && !at; i++) {
            uint64_t lo = bias + ph[i].p_vaddr;
            const uint8_t *p = (const uint8_t *)(uintptr_t)lo;
            if (ph[i].p_type == PT_NOTE && lo >= r->map_start && lo + ph[i].p_memsz <= r->map_start + 4096)
                for (uint64_t k = 0; k + n <= ph[i].p_memsz && !at; k++)
                    if (memcmp(p + k, r->id.bytes, n) == 0)
                        at = p + k;
        }
        if (at) {
            r->fingerprint_at = at;
            r->fingerprint_len = (uint8_t)n;
        }
    }
    if (!r->fingerprint_at && hdr_bytes) {
        uint64_t room = (uint64_t)(r->o.readable_end - hdr_bytes);
        r->fingerprint_at = hdr_bytes;
        r->fingerprint_len = (uint8_t)(room < FINGERPRINT_MAX ? room : FINGERPRINT_MAX);
    }
    if (r->fingerprint_at)
        memcpy(r->fingerprint, r->fingerprint_at, r->fingerprint_len);
    r->permanent = dwu_startup_object(r->map_start);
    const struct eh_elf_entry *e = eh_elfs_wanted ? eh_elf_of(atomic_load(&eh_elfs), &r->id) : NULL;
    if (e) {
        r->o.step = e->step;
        r->o.trace = e->trace;
        r->o.frame = e->frame;
    }
    return 0;
}

/* Whether the ready record R is the object F describes.  The fingerprint
 * is read only where F's object is mapped (its first page): R may be being
 * rewritten, which the caller learns from R's sequence afterwards. */
static int is_loaded_as(const struct record *r, const struct dl_find_object *f)
{
    uint64_t start = (uint64_t)(uintptr_t)f->dlfo_map_start, at = (uint64_t)(uintptr_t)r->fingerprint_at;
    if (r->link_map != f->dlfo_link_map || r->eh_frame != f->dlfo_eh_frame || r->map_start != start ||
        r->map_end != (uint64_t)(uintptr_t)f->dlfo_map_end)
        return 0;
    if (!r->fingerprint_at)
        return 1;
    uint64_t len = r->fingerprint_len, end = (uint64_t)(uintptr_t)f->dlfo_map_end;
    int in_first_page = at >= start && len <= 4096 && at - start <= 4096 - len && at + len <= end;
    int in_hdr = f->dlfo_eh_frame && at == (uint64_t)(uintptr_t)f->dlfo_eh_frame && r->o.readable_end &&
                 len <= (uint64_t)(r->o.readable_end - r->fingerprint_at);
    if (!in_first_page && !in_hdr)
        return 0;
    return memcmp(r->fingerprint_at, r->fingerprint, len) == 0;
}

/* Whether the ready record R is still F's object, read consistently. */
static int stable_match(struct record *r, const struct dl_find_object *f)
{
    unsigned seq = atomic_load_explicit(&r->seq, memory_order_acquire);
    if (seq & 1)
        return 0;
    int match = is_loaded_as(r, f);
    atomic_thread_fence(memory_order_acquire);
    return match && atomic_load_explicit(&r->seq, memory_order_relaxed) == seq;
}

static size_t slot_of(const struct dl_find_object *f)
{
    uint64_t h = (uint64_t)(uintptr_t)f->dlfo_link_map ^ ((uint64_t)(uintptr_t)f->dlfo_map_start >> 12);
    h *= 0x9e3779b97f4a7c15u;
    return (size_t)(h >> 40) & (RECORDS - 1);
}

/* R's object, when it can be unwound: by its .eh_frame, or by an eh_elf
 * (one compiled from synthesis gives rows to an object without tables). */
static const struct dwu_object *unwindable(const struct record *r)
{
    return r->o.eh_frame_hdr || __atomic_load_n(&r->o.step, __ATOMIC_ACQUIRE) ? &r->o : NULL;
}

/* Write F's object into R, which the caller holds (state 1). */
static const struct dwu_object *fill(struct record *r, const struct dl_find_object *f)
{
    struct record fresh;
    int ok = describe(f, &fresh) == 0;
    atomic_fetch_add_explicit(&r->seq, 1, memory_order_relaxed);   /* odd */
    atomic_thread_fence(memory_order_release);
    r->o = fresh.o;
    r->link_map = fresh.link_map;
    r->eh_frame = fresh.eh_frame;
    r->map_start = fresh.map_start;
    r->map_end = fresh.map_end;
    r->fingerprint_at = fresh.fingerprint_at;
    memcpy(r->fingerprint, fresh.fingerprint, sizeof r->fingerprint);
    r->fingerprint_len = fresh.fingerprint_len;
    r->id = fresh.id;
    r->permanent = fresh.permanent;
    atomic_fetch_add_explicit(&r->gen, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&r->seq, 1, memory_order_release);   /* even */
    atomic_store_explicit(&r->state, 2, memory_order_release);
    return ok ? unwindable(r) : NULL;
}

/* A record whose object is no longer loaded, taken (state 1), or NULL.
 * Judged by _dl_find_object's answer alone: nothing of the object is read
 * (an object being unloaded may be unmapped already), and a record whose
 * link map and extent are still an object's is kept. */
static struct record *reclaim(void)
{
    for (size_t i = 0; i < RECORDS; i++) {
        struct record *r = &records[i];
        int ready = 2;
        if (r->permanent || atomic_load_explicit(&r->state, memory_order_acquire) != 2 ||
            !atomic_compare_exchange_strong(&r->state, &ready, 1))
            continue;
        struct dl_find_object now;
        if (_dl_find_object((void *)(uintptr_t)r->map_start, &now) != 0 || r->link_map != now.dlfo_link_map ||
            r->map_start != (uint64_t)(uintptr_t)now.dlfo_map_start ||
            r->map_end != (uint64_t)(uintptr_t)now.dlfo_map_end || r->eh_frame != now.dlfo_eh_frame)
            return r;
        atomic_store_explicit(&r->state, 2, memory_order_release);   /* still loaded */
    }
    return NULL;
}

const struct dwu_object *dwu_objects_at(uint64_t ip)
{
    struct dl_find_object f;
    if (_dl_find_object((void *)(uintptr_t)ip, &f) != 0 || !f.dlfo_link_map)
        return NULL;
    size_t at = slot_of(&f);
    for (size_t probe = 0; probe < RECORDS; probe++) {
        struct record *r = &records[(at + probe) & (RECORDS - 1)];
        int state = atomic_load_explicit(&r->state, memory_order_acquire);
        if (state == 2 && stable_match(r, &f))
            return unwindable(r);
        if (state == 0) {
            int expected = 0;
            if (!atomic_compare_exchange_strong(&r->state, &expected, 1))
                continue;   /* another context took it: look further */
            return fill(r, &f);
        }
        /* 1: being written (perhaps by the context this one interrupted) */
    }
    /* The table is full: the record of an object unloaded since is reused. */
    struct record *r = reclaim();
    return r ? fill(r, &f) : NULL;
}

unsigned long dwu_objects_generation(const struct dwu_object *o)
{
    return atomic_load_explicit(&((const struct record *)(const void *)o)->gen, memory_order_acquire);
}

int dwu_objects_permanent(const struct dwu_object *o)
{
    return o && ((const struct record *)(const void *)o)->permanent;
}

unsigned long dwu_objects_version(void)
{
    return atomic_load_explicit(&version, memory_order_acquire);
}

/* ---- loading eh_elfs (not async-signal-safe) ------------------------------ */

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

static int is_eh_elf(const struct dl_phdr_info *info)
{
    return (info->dlpi_name && ends_with(info->dlpi_name, ".eh_elf.so")) || dwu_eh_elf_is_loaded(info->dlpi_addr);
}

/* The objects loaded now, with their file names and identities. */
struct found {
    struct dwu_identity id;
    char path[PATH_MAX];
};

struct collect {
    struct found *items;
    size_t count, cap;
    int oom;
};

static int collect_object(struct dl_phdr_info *info, size_t size, void *arg)
{
    struct collect *c = arg;
    (void)size;
    if (is_eh_elf(info))
        return 0;
    struct dwu_identity id = {0};
    const ElfW(Phdr) *ph = info->dlpi_phdr;
    for (int i = 0; i < info->dlpi_phnum && !id.kind; i++)
        if (ph[i].p_type == PT_NOTE &&
            mapped_in(ph, (unsigned)info->dlpi_phnum, info->dlpi_addr, info->dlpi_addr + ph[i].p_vaddr, ph[i].p_memsz))
            dwu_identity_from_notes((const uint8_t *)(uintptr_t)(info->dlpi_addr + ph[i].p_vaddr), ph[i].p_memsz, &id);
    for (int i = 0; i < info->dlpi_phnum && !id.kind; i++)
        if (ph[i].p_type == PT_GNU_EH_FRAME &&
            mapped_in(ph, (unsigned)info->dlpi_phnum, info->dlpi_addr, info->dlpi_addr + ph[i].p_vaddr, ph[i].p_memsz))
            dwu_identity_from_hdr((const uint8_t *)(uintptr_t)(info->dlpi_addr + ph[i].p_vaddr), ph[i].p_memsz, &id);
    if (c->count == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 32;
        struct found *n = realloc(c->items, cap * sizeof *n);
        if (!n) {
            c->oom = 1;
            return 1;
        }
        c->items = n;
        c->cap = cap;
    }
    struct found *f = &c->items[c->count++];
    f->id = id;
    snprintf(f->path, sizeof f->path, "%s", info->dlpi_name ? info->dlpi_name : "");
    return 0;
}

/* Map every page of the loaded eh_elfs now, so that the first unwinds
 * through a large object do not take a page fault per table page touched
 * (libz3's tables are 2 MiB). */
static int prefault_eh_elf(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    (void)arg;
    if (!is_eh_elf(info))
        return 0;
    long page = sysconf(_SC_PAGESIZE);
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD || (ph->p_flags & PF_W))
            continue;
        const volatile uint8_t *p = (const volatile uint8_t *)(uintptr_t)(info->dlpi_addr + ph->p_vaddr);
        for (uint64_t off = 0; off < ph->p_memsz; off += (uint64_t)page)
            (void)p[off];
    }
    return 0;
}

/* Give every ready record the eh_elf of SET that fits it (none when eh_elfs
 * are not wanted).  Each pointer is one aligned store: a walk reads the old
 * or the new. */
static void update_records(const struct eh_elf_set *set)
{
    for (size_t i = 0; i < RECORDS; i++) {
        struct record *r = &records[i];
        int ready = 2;   /* held while updated: not rewritten meanwhile */
        if (!atomic_compare_exchange_strong(&r->state, &ready, 1))
            continue;
        const struct eh_elf_entry *e = eh_elfs_wanted ? eh_elf_of(set, &r->id) : NULL;
        __atomic_store_n(&r->o.step, e ? e->step : NULL, __ATOMIC_RELEASE);
        __atomic_store_n(&r->o.trace, e ? e->trace : NULL, __ATOMIC_RELEASE);
        __atomic_store_n(&r->o.frame, e ? e->frame : NULL, __ATOMIC_RELEASE);
        atomic_store_explicit(&r->state, 2, memory_order_release);
    }
}

/* Under dwu_eh_elf_lock. */
static void load_eh_elfs_locked(void)
{
    struct collect c = {0};
    dl_iterate_phdr(collect_object, &c);
    struct eh_elf_set *old = atomic_load(&eh_elfs);
    struct eh_elf_set *set = c.oom ? NULL : malloc(sizeof *set + (c.count + (old ? old->count : 0)) * sizeof set->entry[0]);
    if (set) {
        /* the eh_elfs found before stay (their objects may be loaded again) */
        set->count = 0;
        for (size_t i = 0; old && i < old->count; i++)
            set->entry[set->count++] = old->entry[i];
        for (size_t i = 0; eh_elfs_wanted && i < c.count; i++) {
            if (!c.items[i].id.kind || eh_elf_of(set, &c.items[i].id))
                continue;
            struct eh_elf_entry *e = &set->entry[set->count];
            e->id = c.items[i].id;
            e->step = dwu_eh_elf_find(c.items[i].path, &c.items[i].id, NULL);
            dwu_eh_elf_entries_of(e->step, &e->trace, &e->frame);
            set->count += e->step != NULL;
        }
        set->older = old;
        atomic_store(&eh_elfs, set);
        if (eh_elfs_wanted)
            dl_iterate_phdr(prefault_eh_elf, NULL);
    }
    free(c.items);
    update_records(atomic_load(&eh_elfs));
    atomic_fetch_add(&version, 1);
}

void dwu_objects_load_eh_elfs(void)
{
    dwu_eh_elf_lock();
    load_eh_elfs_locked();
    dwu_eh_elf_unlock();
}

void dwu_objects_use_eh_elfs(int use)
{
    dwu_eh_elf_lock();
    eh_elfs_wanted = use;
    load_eh_elfs_locked();
    dwu_eh_elf_unlock();
}

size_t dwu_objects_count(size_t *with_eh_elf)
{
    struct collect c = {0};
    dwu_eh_elf_lock();
    dl_iterate_phdr(collect_object, &c);
    const struct eh_elf_set *set = atomic_load(&eh_elfs);
    size_t n = 0;
    for (size_t i = 0; eh_elfs_wanted && i < c.count; i++)
        n += eh_elf_of(set, &c.items[i].id) != NULL;
    dwu_eh_elf_unlock();
    free(c.items);
    if (with_eh_elf)
        *with_eh_elf = n;
    return c.count;
}

/* When the library is loaded: which objects are never unloaded, and the
 * eh_elfs of what is loaded then, outside any signal handler. */
__attribute__((constructor)) static void objects_at_load(void)
{
    dwu_startup_objects_find();
    dwu_objects_load_eh_elfs();
}
