/* SPDX-License-Identifier: Apache-2.0 */
/*
 * eh_elf_find: finding, checking and loading eh_elfs (see eh_elf_find.h).
 */
#include "eh_elf_find.h"

#include "eh_elf_file.h"
#include "trusted_path.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* The eh_elfs this runtime loaded, which stay loaded: found again by their
 * file at the next rebuild (not loaded again, see open_eh_elf), and not
 * objects to unwind (their names are /proc/self/fd/N).  Changed under
 * the lock only. */
struct loaded_eh_elf {
    dev_t dev;
    ino_t ino;
    struct dwu_identity id;          /* of the object it unwinds */
    uint64_t bias;                   /* its load bias */
    dwu_eh_elf_step_fn step;
    dwu_eh_elf_trace_fn trace;
    dwu_eh_elf_frame_fn frame;
};
static struct loaded_eh_elf *loaded;
static size_t nloaded, caploaded;


int dwu_eh_elf_is_loaded(uint64_t bias)
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
                            dwu_eh_elf_step_fn step, dwu_eh_elf_trace_fn trace, dwu_eh_elf_frame_fn frame)
{
    if (nloaded == caploaded) {
        size_t cap = caploaded ? caploaded * 2 : 16;
        struct loaded_eh_elf *n = realloc(loaded, cap * sizeof *n);
        if (!n)
            return;   /* then loaded again (the same object) at the next rebuild */
        loaded = n;
        caploaded = cap;
    }
    loaded[nloaded++] = (struct loaded_eh_elf){st->st_dev, st->st_ino, *id, bias, step, trace, frame};
}

static int same_identity(const struct dwu_identity *a, const struct dwu_identity *b)
{
    return a->kind == b->kind && a->len == b->len && memcmp(a->bytes, b->bytes, a->len) == 0;
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
 * the file checked.
 *
 * Before anything is read, the descriptor passes the trust rule
 * (trusted_path.h: its owner and mode, and those of every directory up to
 * /), or the file is refused and said once.  NOFOLLOW: PATH must not be a
 * symbolic link (a cache entry). */
static dwu_eh_elf_step_fn open_eh_elf(const char *path, const struct dwu_identity *id, int nofollow)
{
    if (!id->kind)
        return NULL;
    /* O_NONBLOCK: a FIFO must not block the open (it is then refused). */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | (nofollow ? O_NOFOLLOW : 0));
    if (fd < 0) {
        if (nofollow && errno == ELOOP)
            dwu_trusted_report_refusal(path, "a symbolic link in the cache directory");
        return NULL;
    }
    struct stat checked, seen;
    if (fstat(fd, &checked) != 0) {
        close(fd);
        return NULL;
    }
    const struct loaded_eh_elf *known = loaded_from(&checked);
    char why[PATH_MAX + 160];
    if (!known && dwu_trusted_fd(fd, path, why, sizeof why) != 0) {
        dwu_trusted_report_refusal(path, why);
        close(fd);
        return NULL;
    }
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
    void *step = dlsym(h, DWU_EH_ELF_STEP), *trace = dlsym(h, DWU_EH_ELF_TRACE), *frame = dlsym(h, DWU_EH_ELF_FRAME);
    if (!abi || *abi < DWU_EH_ELF_ABI_OLDEST || *abi > DWU_EH_ELF_ABI || !step || !trace || !identity ||
        !dwu_identity_equal(id, identity)) {
        dlclose(h);
        if (name != by_fd || fresh)
            close(fd);
        return NULL;
    }
    if (name != by_fd)
        close(fd);
    dwu_eh_elf_step_fn fn;
    dwu_eh_elf_trace_fn trace_fn;
    dwu_eh_elf_frame_fn frame_fn = NULL;   /* optional: the walk then calls the trace entry */
    memcpy(&fn, &step, sizeof fn);
    memcpy(&trace_fn, &trace, sizeof trace_fn);
    if (frame)
        memcpy(&frame_fn, &frame, sizeof frame_fn);
    remember_eh_elf(&checked, id, lm->l_addr, fn, trace_fn, frame_fn);
    return fn;
}

/* BASENAME.eh_elf.so next to OBJECT, then in each DWUNWIND_PATH directory,
 * then IDENTITY.eh_elf.so in CACHE_DIR. */
dwu_eh_elf_step_fn dwu_eh_elf_find(const char *object, const struct dwu_identity *id, const char *cache_dir)
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
    dwu_eh_elf_step_fn fn = n > 0 && (size_t)n < sizeof path ? open_eh_elf(path, id, 0) : NULL;
    /* Not in a set-user-ID or set-group-ID program: whoever runs it must
     * not choose the code it loads. */
    const char *dirs = secure_getenv("DWUNWIND_PATH");
    while (!fn && dirs && *dirs) {
        size_t len = strcspn(dirs, ":");
        if (len && len < sizeof path) {
            n = snprintf(path, sizeof path, "%.*s/%s.eh_elf.so", (int)len, dirs, base);
            if (n > 0 && (size_t)n < sizeof path)   /* a truncated name is another file */
                fn = open_eh_elf(path, id, 0);
        }
        dirs += len + (dirs[len] == ':');
    }
    char name[2 * DWU_IDENTITY_MAX + 16];
    if (!fn && cache_dir && dwu_eh_elf_name(id, name, sizeof name) > 0) {
        n = snprintf(path, sizeof path, "%s/%s", cache_dir, name);
        if (n > 0 && (size_t)n < sizeof path)
            fn = open_eh_elf(path, id, 1);
    }
    return fn;
}

void dwu_eh_elf_entries_of(dwu_eh_elf_step_fn step, dwu_eh_elf_trace_fn *trace, dwu_eh_elf_frame_fn *frame)
{
    *trace = NULL;
    *frame = NULL;
    for (size_t i = 0; step && i < nloaded; i++)
        if (loaded[i].step == step) {
            *trace = loaded[i].trace;
            *frame = loaded[i].frame;
            return;
        }
}

int dwu_eh_elf_name(const struct dwu_identity *id, char *buf, size_t size)
{
    if (!id->kind || !id->len || size < 2 * (size_t)id->len + 16)
        return -1;
    size_t at = 0;
    if (id->kind != DWU_IDENTITY_BUILD_ID)
        buf[at++] = 'h';
    for (unsigned i = 0; i < id->len; i++)
        at += (size_t)snprintf(buf + at, size - at, "%02x", id->bytes[i]);
    return (int)at + snprintf(buf + at, size - at, ".eh_elf.so");
}

void dwu_eh_elf_lock(void)
{
    pthread_mutex_lock(&lock);
}

void dwu_eh_elf_unlock(void)
{
    pthread_mutex_unlock(&lock);
}
