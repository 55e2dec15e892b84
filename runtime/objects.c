/*
 * objects: the code objects loaded in this process (see objects.h).
 */
#include "objects.h"

#include "eh_elf_file.h"
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
static pthread_mutex_t rebuild_lock = PTHREAD_MUTEX_INITIALIZER;
static int eh_elfs_wanted = 1;

/* The eh_elfs this runtime loaded, which stay loaded: found again by their
 * file at the next rebuild (not loaded again, see open_eh_elf), and not
 * objects to unwind (their names are /proc/self/fd/N).  Changed under
 * rebuild_lock only. */
struct loaded_eh_elf {
    dev_t dev;
    ino_t ino;
    struct dwu_identity id;          /* of the object it unwinds */
    uint64_t bias;                   /* its load bias */
    dwu_eh_elf_step_fn step;
};
static struct loaded_eh_elf *loaded;
static size_t nloaded, caploaded;

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

static int loaded_eh_elf(uint64_t bias)
{
    for (size_t i = 0; i < nloaded; i++)
        if (loaded[i].bias == bias)
            return 1;
    return 0;
}

static const struct loaded_eh_elf *loaded_from(const struct stat *st)
{
    for (size_t i = 0; i < nloaded; i++)
        if (loaded[i].dev == st->st_dev && loaded[i].ino == st->st_ino)
            return &loaded[i];
    return NULL;
}

static void remember_eh_elf(const struct stat *st, const struct dwu_identity *id, uint64_t bias,
                            dwu_eh_elf_step_fn step)
{
    if (nloaded == caploaded) {
        size_t cap = caploaded ? caploaded * 2 : 16;
        struct loaded_eh_elf *n = realloc(loaded, cap * sizeof *n);
        if (!n)
            return;   /* then loaded again (the same object) at the next rebuild */
        loaded = n;
        caploaded = cap;
    }
    loaded[nloaded++] = (struct loaded_eh_elf){st->st_dev, st->st_ino, *id, bias, step};
}

static int same_identity(const struct dwu_identity *a, const struct dwu_identity *b)
{
    return a->kind == b->kind && a->len == b->len && memcmp(a->bytes, b->bytes, a->len) == 0;
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
    if ((name && ends_with(name, ".eh_elf.so")) || loaded_eh_elf(info->dlpi_addr))
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
            .readable_start = hdr_start, .readable_end = hdr_end,
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

static int same_file(const struct stat *a, const struct stat *b)
{
    return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* The eh_elf at PATH, if it is a well-formed eh_elf compiled from the build
 * whose identity is ID (see eh_elf_file.h: anything else, a stale file
 * included, is ignored, and the object is unwound from DWARF).
 *
 * The file checked is the file loaded: the descriptor checked is handed to
 * dlopen as /proc/self/fd/N.  The loader knows an object by every name it
 * was asked for, and looks names up before it opens anything: a later
 * /proc/self/fd/N with the same N, another file, would be taken for this
 * one.  So a descriptor dlopen has seen stays open for as long as the
 * eh_elf is loaded (for ever: registries are never freed), and a file
 * loaded already is found again by its device and inode (a rebuild), never
 * handed to dlopen twice.  Without /proc, PATH is loaded if it still names
 * the file checked. */
static dwu_eh_elf_step_fn open_eh_elf(const char *path, const struct dwu_identity *id)
{
    if (!id->kind)
        return NULL;
    /* O_NONBLOCK: a FIFO must not block the open (it is then refused). */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    struct stat checked, seen;
    if (fstat(fd, &checked) != 0) {
        close(fd);
        return NULL;
    }
    const struct loaded_eh_elf *known = loaded_from(&checked);
    if (known || dwu_eh_elf_file_check(fd, id) != 0) {
        close(fd);
        return known && same_identity(&known->id, id) ? known->step : NULL;
    }
    char by_fd[32];
    snprintf(by_fd, sizeof by_fd, "/proc/self/fd/%d", fd);
    const char *name = by_fd;
    if (stat(by_fd, &seen) != 0 || !same_file(&seen, &checked)) {
        if (stat(path, &seen) != 0 || !same_file(&seen, &checked)) {
            close(fd);
            return NULL;
        }
        name = path;
    }
    void *h = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    struct link_map *lm = NULL;
    if (!h || dlinfo(h, RTLD_DI_LINKMAP, &lm) != 0 || !lm) {
        if (h)
            dlclose(h);
        close(fd);
        return NULL;
    }
    /* Loaded now, or loaded before from the same file, by another name:
     * it then answers to this one too, whose descriptor must stay open. */
    int fresh = lm->l_name && strcmp(lm->l_name, name) == 0;
    const unsigned *abi = dlsym(h, DWU_EH_ELF_VERSION);
    const uint8_t *identity = dlsym(h, DWU_EH_ELF_IDENTITY);
    void *step = dlsym(h, DWU_EH_ELF_STEP);
    if (!abi || *abi != DWU_EH_ELF_ABI || !step || !identity || !dwu_identity_equal(id, identity)) {
        dlclose(h);
        if (name != by_fd || fresh)
            close(fd);
        return NULL;
    }
    if (name != by_fd)
        close(fd);
    dwu_eh_elf_step_fn fn;
    memcpy(&fn, &step, sizeof fn);
    remember_eh_elf(&checked, id, lm->l_addr, fn);
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
    int n = snprintf(path, sizeof path, "%s.eh_elf.so", object);
    dwu_eh_elf_step_fn fn = n > 0 && (size_t)n < sizeof path ? open_eh_elf(path, id) : NULL;
    /* Not in a set-user-ID or set-group-ID program: whoever runs it must
     * not choose the code it loads. */
    const char *dirs = secure_getenv("DWUNWIND_PATH");
    while (!fn && dirs && *dirs) {
        size_t len = strcspn(dirs, ":");
        if (len && len < sizeof path) {
            n = snprintf(path, sizeof path, "%.*s/%s.eh_elf.so", (int)len, dirs, base);
            if (n > 0 && (size_t)n < sizeof path)   /* a truncated name is another file */
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
    if (!loaded_eh_elf(info->dlpi_addr) && !(info->dlpi_name && ends_with(info->dlpi_name, ".eh_elf.so")))
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
 * replaced only when objects are loaded or unloaded, and each keeps the one
 * it replaced (reachable, not leaked).  Called under rebuild_lock. */
static void replace_registry(struct registry *n)
{
    n->older = atomic_load(&current);
    atomic_store(&current, n);
}

static struct registry *refresh(struct registry *seen)
{
    pthread_mutex_lock(&rebuild_lock);
    struct registry *r = atomic_load(&current);
    if (r == seen && (!r || r->generation != loader_generation())) {
        struct registry *n = rebuild();
        if (n) {
            replace_registry(n);
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
        replace_registry(n);
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
