/* SPDX-License-Identifier: Apache-2.0 */
/*
 * symbol_store: symbol tables in the cache (see the header).
 *
 * The file: "DWSYMBL1", then the counts (u64: ranges, segments, bytes of
 * names, bytes of the source's name), the segments (vaddr, memsz, offset),
 * the ranges (start, its symbol's start, the name's offset, or all ones
 * for "no symbol"), the names, each ending in a NUL, and the source.
 */
#include "symbol_store.h"

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache_dir.h"
#include "runtime/identity.h"
#include "runtime/trusted_path.h"
#include "symbol_sources.h"
#include "symbol_table_private.h"

#define MAGIC "DWSYMBL1"
#define NO_NAME STORED_NO_NAME

static int write_all(FILE *f, const void *p, size_t n)
{
    return n == 0 || fwrite(p, 1, n, f) == n ? 0 : -1;
}

/* Write T as the entry NAME of the directory open at DIRFD, through a
 * temporary (runtime/trusted_path.h: O_EXCL, renamed into place). */
static int write_at(const struct symbol_table *t, int dirfd, const char *name)
{
    struct dwu_trusted_temp tmp;
    if (dwu_trusted_temp_create(dirfd, name, "", 0, &tmp) != 0)
        return -1;
    int copy = dup(tmp.fd);
    FILE *f = copy >= 0 ? fdopen(copy, "wb") : NULL;
    if (!f) {
        if (copy >= 0)
            close(copy);
        dwu_trusted_temp_discard(dirfd, &tmp);
        return -1;
    }
    uint64_t counts[4] = {t->nranges, t->nsegments, t->names_len, strlen(t->source)};
    int rc = write_all(f, MAGIC, 8) | write_all(f, counts, sizeof counts);
    for (size_t i = 0; i < t->nsegments && !rc; i++) {
        uint64_t seg[3] = {t->segments[i].vaddr, t->segments[i].memsz, t->segments[i].offset};
        rc = write_all(f, seg, sizeof seg);
    }
    if (t->stored_ranges)
        rc = rc || write_all(f, t->stored_ranges, t->nranges * sizeof *t->stored_ranges);
    for (size_t i = 0; i < t->nranges && !t->stored_ranges && !rc; i++) {
        int32_t k = t->ranges[i].symbol;
        struct stored_range r = {t->ranges[i].start, k == NONE ? 0 : t->symbols[k].start,
                                 k == NONE ? NO_NAME : t->symbols[k].name};
        rc = write_all(f, &r, sizeof r);
    }
    rc |= write_all(f, t->stored_ranges ? t->stored_names : t->names, t->names_len) |
          write_all(f, t->source, counts[3]);
    rc |= fclose(f);
    if (rc) {
        dwu_trusted_temp_discard(dirfd, &tmp);
        return -1;
    }
    return dwu_trusted_temp_commit(dirfd, &tmp, name);
}

int symbol_store_write(const struct symbol_table *t, const char *path)
{
    const char *base;
    int dirfd = dwu_trusted_parent_open(path, &base);
    if (dirfd < 0)
        return -1;
    int rc = write_at(t, dirfd, base);
    close(dirfd);
    return rc;
}

/* The table file open at FD (closed here), when a regular file of at most
 * 1 GiB passing the trust rule, mapped read-only; NULL otherwise.  (The
 * cache's files are replaced by a rename, never rewritten in place.) */
static uint8_t *map_fd(int fd, size_t *size)
{
    struct stat st;
    void *map = MAP_FAILED;
    if (fd >= 0 && fstat(fd, &st) == 0 && dwu_trusted_stat(&st, 0, NULL, 0) == 0 && st.st_size > 0 &&
        st.st_size <= (1 << 30)) {
        *size = (size_t)st.st_size;
        map = mmap(NULL, *size, PROT_READ, MAP_PRIVATE, fd, 0);
    }
    if (fd >= 0)
        close(fd);
    return map == MAP_FAILED ? NULL : map;
}

/* The table in MAP (SIZE bytes, mapped), every count, name and the ranges'
 * order checked, read in place; NULL if damaged (MAP is then the caller's). */
static struct symbol_table *decode(uint8_t *map, size_t size)
{
    uint64_t c[4];
    if (size < 8 + sizeof c || memcmp(map, MAGIC, 8) != 0)
        return NULL;
    memcpy(c, map + 8, sizeof c);
    const uint64_t limit = 1u << 30;
    if (c[0] > limit / 24 || c[1] > 64 || c[2] > limit || c[3] >= 4096 ||
        size != 8 + sizeof c + c[1] * 24 + c[0] * 24 + c[2] + c[3] || (c[2] && map[size - c[3] - 1] != 0))
        return NULL;
    struct symbol_table *t = calloc(1, sizeof *t);
    if (!t || !(t->segments = calloc(c[1] + 1, sizeof *t->segments))) {
        free(t);
        return NULL;
    }
    const uint8_t *p = map + 8 + sizeof c;
    for (size_t i = 0; i < c[1]; i++, p += 24) {
        uint64_t seg[3];
        memcpy(seg, p, sizeof seg);
        t->segments[i] = (struct segment){seg[0], seg[1], seg[2]};
    }
    t->nsegments = c[1];
    /* 8-byte aligned: the header and the segments are 8-byte words. */
    const struct stored_range *r = (const struct stored_range *)(const void *)p;
    for (size_t i = 0; i < c[0]; i++) {
        if ((r[i].name != NO_NAME && r[i].name >= c[2]) || (i && r[i].start <= r[i - 1].start)) {
            free(t->segments);
            free(t);
            return NULL;
        }
        t->in_tree += r[i].name != NO_NAME;
    }
    t->stored_ranges = r;
    t->nranges = c[0];
    t->root = NONE;
    t->stored_names = (const char *)(p + c[0] * 24);
    t->names_len = c[2];
    memcpy(t->source, p + c[0] * 24 + c[2], c[3]);
    t->source[c[3]] = 0;
    t->map = map;
    t->map_size = size;
    return t;
}

/* The table in the file open at FD (closed here), or NULL. */
static struct symbol_table *read_fd(int fd)
{
    size_t size;
    uint8_t *map = map_fd(fd, &size);
    struct symbol_table *t = map ? decode(map, size) : NULL;
    if (map && !t)
        munmap(map, size);
    return t;
}

struct symbol_table *symbol_store_read(const char *path)
{
    return read_fd(open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
}

/* The key of the kernel's symbols now: boot, modules, user. */
static int kernel_key(char *key, size_t len)
{
    char boot[64] = "";
    FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
    if (!f || !fgets(boot, sizeof boot, f)) {
        if (f)
            fclose(f);
        return -1;
    }
    fclose(f);
    boot[strcspn(boot, "\n")] = 0;
    uint64_t h = dwu_fnv1a("", 0);
    if ((f = fopen("/proc/modules", "r"))) {
        char buf[4096];
        size_t n;
        while ((n = fread(buf, 1, sizeof buf, f)) > 0)
            h = (h ^ dwu_fnv1a(buf, n)) * 1099511628211ull;
        fclose(f);
    }
    return snprintf(key, len, "kallsyms-%s-%016llx-%u.sym", boot, (unsigned long long)h, (unsigned)geteuid()) <
                   (int)len ? 0 : -1;
}

struct symbol_table *symbol_store_kernel(const char *cache_dir)
{
    char key[160];
    int dirfd = cache_dir ? cache_dir_open(cache_dir) : -1;
    int cached = dirfd >= 0 && kernel_key(key, sizeof key) == 0;
    struct symbol_table *t = cached ? read_fd(cache_dir_read(dirfd, key)) : NULL;
    if (t)
        return t;
    t = symbol_table_open_kallsyms();
    if (t && cached && symbol_table_count(t))
        write_at(t, dirfd, key);
    return t;
}

/* The stamp of the files symbol_table_open would read PATH's symbols
 * from (all but a .gnu_debuglink's): which exist, their sizes and times. */
static uint64_t sources_stamp(const char *path, const struct symbol_build_id *id)
{
    static char paths[8][4096];
    size_t n = symbol_sources_candidates(path, NULL, id, paths, 8);
    uint64_t h = dwu_fnv1a("", 0);
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        uint64_t facts[3] = {0, 0, 0};
        if (stat(paths[i], &st) == 0)
            facts[0] = 1, facts[1] = (uint64_t)st.st_size, facts[2] = (uint64_t)st.st_mtime;
        h = (h ^ dwu_fnv1a(paths[i], strlen(paths[i]))) * 1099511628211ull;
        h = (h ^ dwu_fnv1a(facts, sizeof facts)) * 1099511628211ull;
    }
    return h;
}

struct symbol_table *symbol_store_object(const char *cache_dir, const char *path, const uint8_t *build_id,
                                         size_t len)
{
    if (!cache_dir || !build_id || !len || len > DWU_IDENTITY_MAX)
        return symbol_table_open(path, build_id, len);
    struct symbol_build_id id = {.len = len};
    memcpy(id.bytes, build_id, len);
    int dirfd = cache_dir_open(cache_dir);
    if (dirfd < 0)
        return symbol_table_open(path, build_id, len);
    char hex[2 * DWU_IDENTITY_MAX + 1], file[NAME_MAX + 1];
    for (size_t i = 0; i < len; i++)
        snprintf(hex + 2 * i, 3, "%02x", build_id[i]);
    snprintf(file, sizeof file, "symbols-%s-%016llx.sym", hex, (unsigned long long)sources_stamp(path, &id));
    struct symbol_table *t = read_fd(cache_dir_read(dirfd, file));
    if (t)
        return t;
    t = symbol_table_open(path, build_id, len);
    if (t)
        write_at(t, dirfd, file);
    return t;
}
