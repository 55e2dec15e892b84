/* SPDX-License-Identifier: Apache-2.0 */
/*
 * result_cache: audit results on disk, keyed by what they depend on
 * (result_cache.h).
 */
#include "result_cache.h"

#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "object/elf_file.h"
#include "object/identity.h"
#include "sys/error.h"
#include "runtime/trusted_path.h"

#define ENTRY_MAGIC "dwcheck\x1a"
#define ENTRY_LAYOUT 1u              /* this header's layout: raise it when it changes */

struct entry_header {
    char magic[8];                  /* ENTRY_MAGIC */
    uint32_t layout;                /* ENTRY_LAYOUT */
    uint32_t result_size;           /* sizeof(struct check_result) */
    uint32_t finding_size;          /* sizeof(struct finding) */
    uint32_t nfindings;
    uint64_t checksum;              /* dwu_fnv1a of the result and the findings */
    struct result_cache_key key;
};

/* The identity of a file without a build-id: a kind of its own, beside
 * runtime/identity's DWU_IDENTITY_*. */
enum { IDENTITY_CONTENT_HASH = DWU_IDENTITY_HDR_HASH + 1 };

struct result_cache {
    int dirfd;                      /* DIR, opened once: everything is under it */
    struct result_cache_key run;    /* the parts every file's key shares */
};

/* The subdirectory NAME (XX) of the cache open at DIRFD, opened without
 * following a link, when it passes the trust rule; made (0700) first when
 * MAKE.  A descriptor, or -1 with errno (EPERM: another user's). */
static int subdir_open(int dirfd, const char *name, int make)
{
    if (make && mkdirat(dirfd, name, 0700) != 0 && errno != EEXIST)
        return -1;
    int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    struct stat st;
    if (fd >= 0 && (fstat(fd, &st) != 0 || dwu_trusted_stat(&st, 1, NULL, 0) != 0)) {
        close(fd);
        errno = EPERM;
        return -1;
    }
    return fd;
}

/* Remove the temporaries killed runs left in the subdirectories of the
 * cache open at DIRFD. */
static void sweep(int dirfd)
{
    DIR *d = dwu_trusted_dir_stream(dirfd);
    if (!d)
        return;
    for (struct dirent *e; (e = readdir(d));) {
        if (strlen(e->d_name) != 2 || e->d_name[0] == '.')
            continue;
        int fd = subdir_open(dirfd, e->d_name, 0);
        if (fd >= 0) {
            dwu_trusted_temp_sweep(fd, NULL);
            close(fd);
        }
    }
    closedir(d);
}

/* A FNV-1a hash of all of FD's SIZE bytes, as an identity. */
static int content_identity(int fd, uint64_t size, struct dwu_identity *id)
{
    void *bytes = mmap(NULL, (size_t)size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (bytes == MAP_FAILED)
        return -1;
    uint64_t h = dwu_fnv1a(bytes, (size_t)size);
    munmap(bytes, (size_t)size);
    id->kind = IDENTITY_CONTENT_HASH;
    id->len = sizeof h;
    memcpy(id->bytes, &h, sizeof h);
    return 0;
}

/* The identity and size of the ELF file PATH (result_cache.h: the key). */
static int file_identity(const char *path, struct dwu_identity *id, uint64_t *size)
{
    struct elf_file ef;
    char err[ELF_FILE_ERRLEN];
    if (elf_file_open(&ef, path, err, sizeof err) != 0)
        return -1;
    struct stat st;
    int rc = fstat(ef.fd, &st);
    *size = (uint64_t)st.st_size;
    if (rc == 0 && (identity_of_file(&ef, id, err, sizeof err) != 0 || id->kind != DWU_IDENTITY_BUILD_ID))
        rc = content_identity(ef.fd, *size, id);
    elf_file_close(&ef);
    return rc;
}

struct result_cache *result_cache_open(const char *dir, const struct check_options *opt, char *err, size_t errlen)
{
    char why[PATH_MAX + 160];
    int dirfd = dwu_trusted_dir_open(dir, 1, why, sizeof why);
    if (dirfd < 0) {
        error_set(err, errlen, "not used as a cache: %s", why);
        return NULL;
    }
    struct result_cache *c = calloc(1, sizeof *c);
    if (!c) {
        close(dirfd);
        error_set(err, errlen, "out of memory");
        return NULL;
    }
    c->dirfd = dirfd;
    sweep(dirfd);
    uint64_t tool_size;
    memset(&c->run, 0, sizeof c->run);
    if (file_identity("/proc/self/exe", &c->run.tool, &tool_size) != 0) {
        result_cache_free(c);
        error_set(err, errlen, "cannot read the running dwcheck (/proc/self/exe) to key results by it");
        return NULL;
    }
    snprintf(c->run.version, sizeof c->run.version, "%s", DWCHECK_VERSION);
    c->run.prove = opt->prove;
    c->run.timeout_ms = opt->timeout_ms;
    return c;
}

void result_cache_free(struct result_cache *c)
{
    if (!c)
        return;
    close(c->dirfd);
    free(c);
}

int result_cache_key(const struct result_cache *c, const char *path, struct result_cache_key *key)
{
    memcpy(key, &c->run, sizeof *key);   /* bytewise: the padding too */
    return file_identity(path, &key->file, &key->file_size);
}

/* KEY's entry: its subdirectory XX (SUB) and its name there (NAME). */
static void entry_name(const struct result_cache_key *key, char sub[3], char name[15])
{
    char hash[17];
    snprintf(hash, sizeof hash, "%016llx", (unsigned long long)dwu_fnv1a(key, sizeof *key));
    memcpy(sub, hash, 2);
    sub[2] = '\0';
    memcpy(name, hash + 2, 15);
}

/* Read exactly N bytes from FD.  Returns 0, or -1 (an error, or the end of the file). */
static int read_exactly(int fd, void *buf, size_t n)
{
    char *at = buf;
    while (n > 0) {
        ssize_t r = read(fd, at, n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        at += r;
        n -= (size_t)r;
    }
    return 0;
}

/* The checksum of an entry's RESULT bytes (as stored: no pointer, no
 * capacity) and of its N FINDINGS. */
static uint64_t payload_checksum(const void *result, const void *findings, size_t n)
{
    uint64_t h[2] = {dwu_fnv1a(result, sizeof(struct check_result)), dwu_fnv1a(findings, n * sizeof(struct finding))};
    return dwu_fnv1a(h, sizeof h);
}

/* The entry open at FD, checked against KEY, into R. */
static enum result_cache_lookup read_entry(int fd, const struct result_cache_key *key, struct check_result *r)
{
    struct entry_header h;
    struct stat st;
    if (fstat(fd, &st) != 0 || read_exactly(fd, &h, sizeof h) != 0 || memcmp(h.magic, ENTRY_MAGIC, 8) != 0 ||
        h.layout != ENTRY_LAYOUT || h.result_size != sizeof *r || h.finding_size != sizeof *r->findings)
        return RESULT_CACHE_DAMAGED;
    if (memcmp(&h.key, key, sizeof *key) != 0)
        return RESULT_CACHE_ABSENT;   /* another key of the same hash */
    uint64_t size = sizeof h + sizeof *r + (uint64_t)h.nfindings * sizeof *r->findings;
    if ((uint64_t)st.st_size != size || read_exactly(fd, r, sizeof *r) != 0 || r->nfindings != h.nfindings ||
        r->findings || r->cap)
        return RESULT_CACHE_DAMAGED;
    unsigned char stored[sizeof *r];   /* the bytes read, padding included */
    memcpy(stored, r, sizeof *r);
    if (r->nfindings && (!(r->findings = malloc(r->nfindings * sizeof *r->findings)) ||
                         read_exactly(fd, r->findings, r->nfindings * sizeof *r->findings) != 0))
        return RESULT_CACHE_DAMAGED;
    if (payload_checksum(stored, r->findings, r->nfindings) != h.checksum)
        return RESULT_CACHE_DAMAGED;
    r->cap = r->nfindings;
    for (size_t i = 0; i < r->nfindings; i++)
        if (r->findings[i].kind >= FINDING_KINDS || r->findings[i].severity > SEVERITY_ERROR)
            return RESULT_CACHE_DAMAGED;
    return RESULT_CACHE_HIT;
}

enum result_cache_lookup result_cache_load(const struct result_cache *c, const struct result_cache_key *key,
                                           struct check_result *r)
{
    memset(r, 0, sizeof *r);
    char sub[3], name[15];
    entry_name(key, sub, name);
    /* Never through a link, never another user's file (a forged entry,
     * its checksum recomputed, would pass every other check). */
    int subfd = subdir_open(c->dirfd, sub, 0);
    int fd = subfd >= 0 ? dwu_trusted_openat(subfd, name, NULL, 0) : -1;
    enum result_cache_lookup found = fd < 0 && errno != ENOENT ? RESULT_CACHE_DAMAGED
                                     : fd < 0                  ? RESULT_CACHE_ABSENT
                                                               : read_entry(fd, key, r);
    if (fd >= 0)
        close(fd);
    if (subfd >= 0)
        close(subfd);
    if (found != RESULT_CACHE_HIT) {
        free(r->findings);
        memset(r, 0, sizeof *r);
    }
    return found;
}

/* SIZE BYTES as the entry NAME of the directory open at SUBFD: a temporary
 * (O_EXCL, a random name, locked) renamed over it, so that a link there is
 * replaced, never written through.  0, or -1 with errno. */
static int write_entry(int subfd, const char *name, const char *bytes, size_t size)
{
    struct dwu_trusted_temp t;
    if (dwu_trusted_temp_create(subfd, name, "", 0, &t) != 0)
        return -1;
    for (size_t done = 0; done < size;) {
        ssize_t w = write(t.fd, bytes + done, size - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            int e = w == 0 ? ENOSPC : errno;
            dwu_trusted_temp_discard(subfd, &t);
            errno = e;
            return -1;
        }
        done += (size_t)w;
    }
    return dwu_trusted_temp_commit(subfd, &t, name);
}

int result_cache_store(const struct result_cache *c, const struct result_cache_key *key,
                       const struct check_result *r, char *err, size_t errlen)
{
    struct entry_header h;
    size_t findings_size = r->nfindings * sizeof *r->findings;
    size_t size = sizeof h + sizeof *r + findings_size;
    char *bytes = calloc(1, size);
    char sub[3], name[15];
    entry_name(key, sub, name);
    int subfd = -1, rc = -1;
    if (!bytes) {
        error_set(err, errlen, "out of memory");
    } else if ((subfd = subdir_open(c->dirfd, sub, 1)) < 0) {
        error_set(err, errlen, "%s: %s", sub, errno == EPERM ? "not a directory of yours" : strerror(errno));
    } else {
        /* The result as a worker sends it, its pointer and capacity left out. */
        struct check_result plain = *r;
        plain.findings = NULL;
        plain.cap = 0;
        memcpy(bytes + sizeof h, &plain, sizeof plain);
        if (findings_size)
            memcpy(bytes + sizeof h + sizeof plain, r->findings, findings_size);
        memset(&h, 0, sizeof h);
        memcpy(h.magic, ENTRY_MAGIC, 8);
        h.layout = ENTRY_LAYOUT;
        h.result_size = sizeof *r;
        h.finding_size = sizeof *r->findings;
        h.nfindings = (uint32_t)r->nfindings;
        h.checksum = payload_checksum(bytes + sizeof h, bytes + sizeof h + sizeof plain,
                                      r->nfindings);
        memcpy(&h.key, key, sizeof *key);
        memcpy(bytes, &h, sizeof h);
        rc = write_entry(subfd, name, bytes, size);
        if (rc != 0)
            error_set(err, errlen, "%s/%s: cannot write: %s", sub, name, strerror(errno));
    }
    if (subfd >= 0)
        close(subfd);
    free(bytes);
    return rc;
}
