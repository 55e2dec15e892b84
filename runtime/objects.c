/*
 * objects: the code objects loaded in this process (see objects.h).
 */
#include "objects.h"

#include "identity.h"

#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct registry {
    struct dwu_object *objects;      /* sorted by lo */
    size_t count;
    unsigned long long generation;   /* dlpi_adds + dlpi_subs when built */
};

static _Atomic(struct registry *) current;
static pthread_mutex_t rebuild_lock = PTHREAD_MUTEX_INITIALIZER;
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

static int collect_object(struct dl_phdr_info *info, size_t size, void *arg)
{
    struct collect *c = arg;
    (void)size;
    const char *name = info->dlpi_name;
    if (name && ends_with(name, ".eh_elf.so"))
        return 0;   /* our own compiled tables */
    const uint8_t *hdr = NULL, *hdr_end = NULL;
    for (int i = 0; i < info->dlpi_phnum; i++)
        if (info->dlpi_phdr[i].p_type == PT_GNU_EH_FRAME)
            hdr = (const uint8_t *)(uintptr_t)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
    for (int i = 0; hdr && i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uint64_t lo = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type == PT_LOAD && (uintptr_t)hdr >= lo && (uintptr_t)hdr < lo + ph->p_memsz)
            hdr_end = (const uint8_t *)(uintptr_t)(lo + ph->p_memsz);
    }
    if (!hdr_end)
        hdr = NULL;
    /* The identity an eh_elf must carry to be used for this object. */
    struct dwu_identity id = {0};
    for (int i = 0; i < info->dlpi_phnum && !id.kind; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_NOTE)
            dwu_identity_from_notes((const uint8_t *)(uintptr_t)(info->dlpi_addr + ph->p_vaddr),
                                    ph->p_memsz, &id);
    }
    for (int i = 0; i < info->dlpi_phnum && !id.kind; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_GNU_EH_FRAME)
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
            .bias = info->dlpi_addr, .eh_frame_hdr = hdr, .readable_end = hdr_end,
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

/* The eh_elf at PATH, if it was compiled from the build whose identity is
 * ID (a stale one is ignored: the object is then unwound from DWARF). */
static dwu_eh_elf_step_fn open_eh_elf(const char *path, const struct dwu_identity *id)
{
    if (!id->kind || access(path, R_OK) != 0)
        return NULL;
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h)
        return NULL;
    const unsigned *abi = dlsym(h, DWU_EH_ELF_VERSION);
    const uint8_t *identity = dlsym(h, DWU_EH_ELF_IDENTITY);
    void *step = dlsym(h, DWU_EH_ELF_STEP);
    if (!abi || *abi != DWU_EH_ELF_ABI || !step || !identity || !dwu_identity_equal(id, identity)) {
        dlclose(h);
        return NULL;
    }
    dwu_eh_elf_step_fn fn;
    memcpy(&fn, &step, sizeof fn);
    return fn;
}

/* BASENAME.eh_elf.so next to OBJECT, then in each DWUNWIND_PATH directory. */
static dwu_eh_elf_step_fn find_eh_elf(const char *object, const struct dwu_identity *id)
{
    char self[PATH_MAX], path[PATH_MAX + 16];
    if (!object[0]) {
        ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
        if (n <= 0)
            return NULL;
        self[n] = 0;
        object = self;
    }
    if (object[0] != '/')
        return NULL;   /* the vDSO and other objects without a file */
    const char *base = strrchr(object, '/') + 1;
    snprintf(path, sizeof path, "%s.eh_elf.so", object);
    dwu_eh_elf_step_fn fn = open_eh_elf(path, id);
    const char *dirs = getenv("DWUNWIND_PATH");
    while (!fn && dirs && *dirs) {
        size_t len = strcspn(dirs, ":");
        if (len) {
            snprintf(path, sizeof path, "%.*s/%s.eh_elf.so", (int)len, dirs, base);
            fn = open_eh_elf(path, id);
        }
        dirs += len + (dirs[len] == ':');
    }
    return fn;
}

/* Map every page of the loaded eh_elfs now, so that the first unwinds
 * through a large object do not take a page fault per table page touched
 * (libz3's tables are 2 MiB). */
static int prefault_eh_elf(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    (void)arg;
    if (!info->dlpi_name || !ends_with(info->dlpi_name, ".eh_elf.so"))
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
        if (eh_elfs_wanted)
            objs[i].step = find_eh_elf(c.items[i].path, &c.items[i].id);
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
 * replaced only when objects are loaded or unloaded. */
static struct registry *refresh(struct registry *seen)
{
    pthread_mutex_lock(&rebuild_lock);
    struct registry *r = atomic_load(&current);
    if (r == seen && (!r || r->generation != loader_generation())) {
        struct registry *n = rebuild();
        if (n) {
            atomic_store(&current, n);
            r = n;
        }
    }
    pthread_mutex_unlock(&rebuild_lock);
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

void dwu_use_eh_elfs(int use)
{
    pthread_mutex_lock(&rebuild_lock);
    eh_elfs_wanted = use;
    struct registry *n = rebuild();
    if (n)
        atomic_store(&current, n);
    pthread_mutex_unlock(&rebuild_lock);
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
