/*
 * objects: the code objects loaded in this process (see objects.h).
 */
#include "objects.h"

#include "eh_elf_find.h"
#include "identity.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct registry {
    struct dwu_object *objects;      /* sorted by lo */
    size_t count;
    unsigned long long generation;   /* dlpi_adds + dlpi_subs when built */
    struct registry *older;          /* the one it replaced (kept, see refresh) */
};

static _Atomic(struct registry *) current;
static int eh_elfs_wanted = 1;

/* A segment found by the first phase, with its object's file name. */
struct found {
    struct dwu_object o;
    struct dwu_identity id;
    char path[PATH_MAX];
};

struct collect {
    struct found *items;
    size_t count, cap;
    int oom;
};

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* [ADDR, ADDR + SIZE) lies in one readable PT_LOAD of the object: what its
 * other program headers point at is read only then (a header that lies
 * must not send a read outside what the loader mapped). */
static int mapped_in(const struct dl_phdr_info *info, uint64_t addr, uint64_t size)
{
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uint64_t lo = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type == PT_LOAD && (ph->p_flags & PF_R) && addr >= lo && addr - lo <= ph->p_memsz &&
            size <= ph->p_memsz - (addr - lo))
            return 1;
    }
    return 0;
}

static int collect_object(struct dl_phdr_info *info, size_t size, void *arg)
{
    struct collect *c = arg;
    (void)size;
    const char *name = info->dlpi_name;
    if ((name && ends_with(name, ".eh_elf.so")) || dwu_is_loaded_eh_elf(info->dlpi_addr))
        return 0;   /* compiled tables, ours or another copy's */
    const uint8_t *hdr = NULL, *hdr_start = NULL, *hdr_end = NULL;
    for (int i = 0; i < info->dlpi_phnum; i++)
        if (info->dlpi_phdr[i].p_type == PT_GNU_EH_FRAME)
            hdr = (const uint8_t *)(uintptr_t)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
    for (int i = 0; hdr && i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uint64_t lo = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type == PT_LOAD && (uintptr_t)hdr >= lo && (uintptr_t)hdr < lo + ph->p_memsz) {
            hdr_start = (const uint8_t *)(uintptr_t)lo;
            hdr_end = (const uint8_t *)(uintptr_t)(lo + ph->p_memsz);
        }
    }
    if (!hdr_end)
        hdr = NULL;
    /* The identity an eh_elf must carry to be used for this object. */
    struct dwu_identity id = {0};
    for (int i = 0; i < info->dlpi_phnum && !id.kind; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_NOTE && mapped_in(info, info->dlpi_addr + ph->p_vaddr, ph->p_memsz))
            dwu_identity_from_notes((const uint8_t *)(uintptr_t)(info->dlpi_addr + ph->p_vaddr),
                                    ph->p_memsz, &id);
    }
    for (int i = 0; i < info->dlpi_phnum && !id.kind; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_GNU_EH_FRAME && mapped_in(info, info->dlpi_addr + ph->p_vaddr, ph->p_memsz))
            dwu_identity_from_hdr((const uint8_t *)(uintptr_t)(info->dlpi_addr + ph->p_vaddr),
                                  ph->p_memsz, &id);
    }
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
            continue;
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
        f->o = (struct dwu_object){
            .lo = info->dlpi_addr + ph->p_vaddr, .hi = info->dlpi_addr + ph->p_vaddr + ph->p_memsz,
            .bias = info->dlpi_addr, .eh_frame_hdr = hdr,
            .readable_start = hdr_start, .readable_end = hdr_end, .table_bias = info->dlpi_addr,
        };
        f->id = id;
        snprintf(f->path, sizeof f->path, "%s", name ? name : "");
    }
    return 0;
}

static int read_generation(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    *(unsigned long long *)arg = info->dlpi_adds + info->dlpi_subs;
    return 1;
}

static unsigned long long loader_generation(void)
{
    unsigned long long g = 0;
    dl_iterate_phdr(read_generation, &g);
    return g;
}

/* Map every page of the loaded eh_elfs now, so that the first unwinds
 * through a large object do not take a page fault per table page touched
 * (libz3's tables are 2 MiB). */
static int prefault_eh_elf(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    (void)arg;
    if (!dwu_is_loaded_eh_elf(info->dlpi_addr) && !(info->dlpi_name && ends_with(info->dlpi_name, ".eh_elf.so")))
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

static int by_lo(const void *a, const void *b)
{
    const struct found *x = a, *y = b;
    return x->o.lo < y->o.lo ? -1 : x->o.lo > y->o.lo;
}

static struct registry *rebuild(void)
{
    struct collect c = {0};
    dl_iterate_phdr(collect_object, &c);
    struct registry *r = calloc(1, sizeof *r);
    struct dwu_object *objs = calloc(c.count + 1, sizeof *objs);
    if (c.oom || !r || !objs) {
        free(c.items);
        free(r);
        free(objs);
        return NULL;
    }
    qsort(c.items, c.count, sizeof *c.items, by_lo);
    for (size_t i = 0; i < c.count; i++) {
        objs[i] = c.items[i].o;
        if (eh_elfs_wanted) {
            objs[i].step = dwu_find_eh_elf(c.items[i].path, &c.items[i].id, NULL);
            dwu_eh_elf_entries_of(objs[i].step, &objs[i].trace, &objs[i].frame);
        }
    }
    free(c.items);
    if (eh_elfs_wanted)
        dl_iterate_phdr(prefault_eh_elf, NULL);
    r->objects = objs;
    r->count = c.count;
    /* After our own dlopens, so that they do not look like a change. */
    r->generation = loader_generation();
    return r;
}

/* Registries are never freed: a reader may still hold an old one.  They are
 * replaced only when objects are loaded or unloaded, and each keeps the one
 * it replaced (reachable, not leaked).  Called under dwu_eh_elf_lock. */
static void replace_registry(struct registry *n)
{
    n->older = atomic_load(&current);
    atomic_store(&current, n);
}

static struct registry *refresh(struct registry *seen)
{
    dwu_eh_elf_lock();
    struct registry *r = atomic_load(&current);
    if (r == seen && (!r || r->generation != loader_generation())) {
        struct registry *n = rebuild();
        if (n) {
            replace_registry(n);
            r = n;
        }
    }
    dwu_eh_elf_unlock();
    return r;
}

static const struct dwu_object *lookup(const struct registry *r, uint64_t ip)
{
    size_t lo = 0, hi = r ? r->count : 0;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (r->objects[mid].hi <= ip)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < (r ? r->count : 0) && r->objects[lo].lo <= ip ? &r->objects[lo] : NULL;
}

const struct dwu_object *dwu_object_at(uint64_t ip)
{
    struct registry *r = atomic_load(&current);
    const struct dwu_object *o = lookup(r, ip);
    if (o)
        return o;
    struct registry *n = refresh(r);
    return n != r ? lookup(n, ip) : NULL;
}

const void *dwu_objects_version(void)
{
    return atomic_load_explicit(&current, memory_order_acquire);
}

void dwu_use_eh_elfs(int use)
{
    dwu_eh_elf_lock();
    eh_elfs_wanted = use;
    struct registry *n = rebuild();
    if (n)
        replace_registry(n);
    dwu_eh_elf_unlock();
}

size_t dwu_object_count(size_t *with_eh_elf)
{
    struct registry *r = atomic_load(&current);
    if (!r)
        r = refresh(NULL);
    size_t n = 0;
    for (size_t i = 0; r && i < r->count; i++)
        n += r->objects[i].step != NULL;
    if (with_eh_elf)
        *with_eh_elf = n;
    return r ? r->count : 0;
}
