/* SPDX-License-Identifier: Apache-2.0 */
/*
 * trusted_path: the StrictModes rule, refusals reported once, and
 * temporaries made and swept under a directory's descriptor (see the
 * header).
 */
#include "trusted_path.h"

#include "dwunwind.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

__attribute__((format(printf, 3, 4))) static int fail(char *why, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (why && size)
        vsnprintf(why, size, fmt, ap);
    va_end(ap);
    return -1;
}

static int same_file(const struct stat *a, const struct stat *b)
{
    return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

int dwu_trusted_sticky(void)
{
    /* Read once; a race between two first readers reads the same value. */
    static volatile int cached = -1;
    if (cached < 0) {
        const char *v = secure_getenv("DWUNWIND_TRUST_STICKY");
        cached = v && strcmp(v, "1") == 0;
    }
    return cached;
}

int dwu_trusted_stat(const struct stat *st, int dir, char *why, size_t size)
{
    uid_t me = geteuid();
    if (dir ? !S_ISDIR(st->st_mode) : !S_ISREG(st->st_mode))
        return fail(why, size, dir ? "not a directory" : "not a regular file");
    if (st->st_uid != me && st->st_uid != 0)
        return fail(why, size, "owned by uid %u, neither uid %u nor root", (unsigned)st->st_uid, (unsigned)me);
    int sticky = dir && (st->st_mode & S_ISVTX);
    /* Asked for: a sticky directory of ours or root's (/tmp), where others
     * may add entries but not rename or remove ours; each entry is checked
     * in turn. */
    if (sticky && dwu_trusted_sticky())
        return 0;
    if (st->st_mode & S_IWOTH)
        return fail(why, size, "writable by others (mode %04o%s)", (unsigned)(st->st_mode & 07777),
                    sticky ? "; DWUNWIND_TRUST_STICKY=1 admits a sticky directory" : "");
    if (st->st_mode & S_IWGRP)
        return fail(why, size, "writable by its group (mode %04o)", (unsigned)(st->st_mode & 07777));
    return 0;
}

/* ---- the directories of a path ------------------------------------------- */

/* Open CANON (an absolute path without links, "." or "..") from /, one
 * directory at a time without following links, each checked; missing ones
 * made (0700) when CREATE.  The last one is opened with O_PATH, or for
 * reading when READ.  The descriptor, or -1 with WHY. */
static int walk(const char *canon, int create, int read, char *why, size_t size)
{
    char at[PATH_MAX] = "/", reason[128];
    size_t atlen = 0;   /* AT is "/" until a name is appended */
    int fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
    for (const char *p = canon;;) {
        struct stat st;
        if (fd < 0)
            return fail(why, size, "%s: %s", at, strerror(errno));
        if (fstat(fd, &st) != 0 || dwu_trusted_stat(&st, 1, reason, sizeof reason) != 0) {
            close(fd);
            return fail(why, size, "directory %s: %s", at, reason);
        }
        while (*p == '/')
            p++;
        if (!*p)
            break;
        size_t len = strcspn(p, "/");
        char name[NAME_MAX + 1];
        if (len > NAME_MAX || atlen + 1 + len >= sizeof at) {
            close(fd);
            return fail(why, size, "%s: %s", canon, strerror(ENAMETOOLONG));
        }
        memcpy(name, p, len);
        name[len] = '\0';
        p += len;
        at[atlen++] = '/';
        memcpy(at + atlen, name, len + 1);
        atlen += len;
        int next = openat(fd, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (next < 0 && errno == ENOENT && create) {
            if (mkdirat(fd, name, 0700) != 0 && errno != EEXIST) {
                int e = errno;
                close(fd);
                return fail(why, size, "cannot create %s: %s", at, strerror(e));
            }
            next = openat(fd, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        }
        int e = errno;
        close(fd);
        fd = next;
        if (fd < 0)   /* ELOOP, ENOTDIR: a file, or a link put where the canonical path had a directory */
            return fail(why, size, "%s: %s", at,
                        e == ELOOP || e == ENOTDIR ? "not a directory" : strerror(e));
    }
    if (!read)
        return fd;
    int r = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    int e = errno;
    close(fd);
    return r >= 0 ? r : fail(why, size, "%s: %s", at, strerror(e));
}

/* PATH made absolute and canonical (realpath) into OUT; when CREATE, the
 * part that does not exist yet is appended as it is (without ".."). */
static int canonical(const char *path, int create, char *out, char *why, size_t size)
{
    char abs[PATH_MAX], cwd[PATH_MAX];
    int n = path[0] == '/' ? snprintf(abs, sizeof abs, "%s", path)
            : getcwd(cwd, sizeof cwd) ? snprintf(abs, sizeof abs, "%s/%s", cwd, path)
                                      : -1;
    if (n < 0 || (size_t)n >= sizeof abs)
        return fail(why, size, "%s: cannot make the path absolute", path);
    if (realpath(abs, out))
        return 0;
    if (errno != ENOENT || !create)
        return fail(why, size, "%s: %s", path, strerror(errno));
    /* The longest prefix that exists, then the rest as given. */
    char prefix[PATH_MAX];
    memcpy(prefix, abs, (size_t)n + 1);
    size_t keep;
    for (;;) {
        char *slash = strrchr(prefix, '/');
        *slash = '\0';
        keep = (size_t)(slash - prefix);
        if (realpath(keep ? prefix : "/", out))
            break;
        if (errno != ENOENT)
            return fail(why, size, "%s: %s", keep ? prefix : "/", strerror(errno));
    }
    const char *rest = abs + keep;   /* "/a/b": created */
    for (const char *p = rest; (p = strstr(p, "/..")); p += 3)
        if (p[3] == '/' || !p[3])
            return fail(why, size, "%s: \"..\" after a directory that does not exist", path);
    if (strlen(out) + strlen(rest) + 1 >= PATH_MAX)
        return fail(why, size, "%s: %s", path, strerror(ENAMETOOLONG));
    strcat(out, rest);
    return 0;
}

int dwu_trusted_dir_open(const char *dir, int create, char *why, size_t size)
{
    char canon[PATH_MAX];
    if (canonical(dir, create, canon, why, size) != 0)
        return -1;
    return walk(canon, create, 1, why, size);
}

int dwu_trusted_fd(int fd, const char *path, char *why, size_t size)
{
    struct stat st, there;
    char reason[128], canon[PATH_MAX], proc[32];
    if (fstat(fd, &st) != 0)
        return fail(why, size, "%s", strerror(errno));
    if (dwu_trusted_stat(&st, 0, reason, sizeof reason) != 0)
        return fail(why, size, "%s", reason);
    snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(proc, canon, sizeof canon - 1);
    if (n > 0 && canon[0] == '/')
        canon[n] = '\0';
    else if (!path || !realpath(path, canon))
        return fail(why, size, "cannot tell which directory holds it");
    char *slash = strrchr(canon, '/');
    *slash = '\0';
    int dirfd = walk(canon[0] ? canon : "/", 0, 0, why, size);
    if (dirfd < 0)
        return -1;
    int found = fstatat(dirfd, slash + 1, &there, AT_SYMLINK_NOFOLLOW) == 0 && same_file(&st, &there);
    close(dirfd);
    return found ? 0 : fail(why, size, "moved or replaced while checked");
}

int dwu_trusted_path(const char *path, char *why, size_t size)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return fail(why, size, "%s", strerror(errno));
    int rc = dwu_trusted_fd(fd, path, why, size);
    close(fd);
    return rc;
}

int dwu_trusted_openat(int dirfd, const char *name, char *why, size_t size)
{
    int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        fail(why, size, "%s", e == ELOOP ? "a symbolic link" : strerror(e));
        errno = e;
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || dwu_trusted_stat(&st, 0, why, size) != 0) {
        close(fd);
        errno = EPERM;
        return -1;
    }
    return fd;
}

/* ---- refusals ------------------------------------------------------------ */

static pthread_mutex_t report_lock = PTHREAD_MUTEX_INITIALIZER;
static dwu_error_fn report_fn;
static void *report_arg;
static char **reported;           /* the files reported already */
static size_t nreported, capreported;
static int log_fd = -2;           /* DWUNWIND_LOG's descriptor; -2: not looked at yet, -1: none */

void dwu_set_error_callback(dwu_error_fn fn, void *arg)
{
    pthread_mutex_lock(&report_lock);
    report_fn = fn;
    report_arg = arg;
    pthread_mutex_unlock(&report_lock);
}

static int open_log(void)
{
    const char *name = secure_getenv("DWUNWIND_LOG");
    if (!name || !*name)
        return -1;
    if (strcmp(name, "stderr") == 0)
        return 2;
    return open(name, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
}

void dwu_trusted_report_refusal(const char *path, const char *why)
{
    pthread_mutex_lock(&report_lock);
    for (size_t i = 0; i < nreported; i++)
        if (strcmp(reported[i], path) == 0) {
            pthread_mutex_unlock(&report_lock);
            return;
        }
    if (log_fd == -2)
        log_fd = open_log();
    if (!report_fn && log_fd < 0) {   /* said nowhere: said when a callback is there to hear it */
        pthread_mutex_unlock(&report_lock);
        return;
    }
    if (nreported == capreported) {   /* out of memory: said again next time */
        size_t cap = capreported ? 2 * capreported : 8;
        char **more = realloc(reported, cap * sizeof *more);
        if (more) {
            reported = more;
            capreported = cap;
        }
    }
    if (nreported < capreported && (reported[nreported] = strdup(path)))
        nreported++;
    char line[PATH_MAX + 512];
    int n = snprintf(line, sizeof line, "dwunwind: %s: not loaded: %s\n", path, why);
    size_t len = n < 0 ? 0 : (size_t)n < sizeof line ? (size_t)n : sizeof line - 1;
    if (report_fn) {
        if (len)
            line[len - 1] = '\0';   /* the message without the tool's name and the newline */
        report_fn(line + strlen("dwunwind: "), report_arg);
    } else if (len && write(log_fd, line, len) < 0) {
        /* nowhere else to say it */
    }
    pthread_mutex_unlock(&report_lock);
}

/* ---- temporaries ---------------------------------------------------------- */

static const char tag_chars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
#define TAG_LEN 6

static void random_tag(char tag[TAG_LEN + 1])
{
    static unsigned long counter;
    unsigned char r[TAG_LEN];
    if (getrandom(r, sizeof r, GRND_NONBLOCK) != (ssize_t)sizeof r) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        unsigned long long x = (unsigned long long)ts.tv_nsec ^ ((unsigned long long)getpid() << 32) ^ ++counter;
        for (int i = 0; i < TAG_LEN; i++, x = x * 6364136223846793005ull + 1442695040888963407ull)
            r[i] = (unsigned char)(x >> 56);
    }
    for (int i = 0; i < TAG_LEN; i++)
        tag[i] = tag_chars[r[i] % (sizeof tag_chars - 1)];
    tag[TAG_LEN] = '\0';
}

int dwu_trusted_temp_create(int dirfd, const char *base, const char *suffix, int dir, struct dwu_trusted_temp *t)
{
    t->fd = -1;
    t->dir = dir;
    for (int tries = 0; tries < 100; tries++) {
        char tag[TAG_LEN + 1];
        random_tag(tag);
        if ((size_t)snprintf(t->name, sizeof t->name, "%s.tmp-%s%s", base, tag, suffix) >= sizeof t->name) {
            errno = ENAMETOOLONG;
            return -1;
        }
        int fd;
        if (dir) {
            if (mkdirat(dirfd, t->name, 0700) != 0) {
                if (errno == EEXIST)
                    continue;
                return -1;
            }
            fd = openat(dirfd, t->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (fd < 0) {
                int e = errno;
                unlinkat(dirfd, t->name, AT_REMOVEDIR);
                errno = e;
                return -1;
            }
        } else {
            fd = openat(dirfd, t->name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
            if (fd < 0) {
                if (errno == EEXIST)
                    continue;
                return -1;
            }
        }
        /* At once: a sweep that holds it (young and empty) lets go at once. */
        while (flock(fd, LOCK_EX) != 0 && errno == EINTR)
            ;
        t->fd = fd;
        return 0;
    }
    errno = EEXIST;
    return -1;
}

DIR *dwu_trusted_dir_stream(int fd)
{
    int copy = dup(fd);
    DIR *d = copy >= 0 ? fdopendir(copy) : NULL;
    if (!d) {
        if (copy >= 0)
            close(copy);
        return NULL;
    }
    rewinddir(d);
    return d;
}

/* Remove what the directory open at FD holds, DEPTH levels of directories
 * down at most. */
static void empty_dir(int fd, int depth)
{
    for (int pass = 0; pass < 4; pass++) {   /* readdir may skip names removed under it */
        DIR *d = dwu_trusted_dir_stream(fd);
        if (!d)
            return;
        int removed = 0, left = 0;
        for (struct dirent *e; (e = readdir(d));) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            struct stat st;
            if (fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
                continue;
            if (S_ISDIR(st.st_mode) && depth > 0) {
                int sub = openat(fd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                if (sub >= 0) {
                    empty_dir(sub, depth - 1);
                    close(sub);
                }
            }
            if (unlinkat(fd, e->d_name, S_ISDIR(st.st_mode) ? AT_REMOVEDIR : 0) == 0)
                removed++;
            else
                left++;
        }
        closedir(d);
        if (!left || !removed)
            return;
    }
}

static int dir_is_empty(int fd)
{
    DIR *d = dwu_trusted_dir_stream(fd);
    if (!d)
        return 0;
    int empty = 1;
    for (struct dirent *e; empty && (e = readdir(d));)
        empty = strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0;
    closedir(d);
    return empty;
}

int dwu_trusted_temp_commit(int dirfd, struct dwu_trusted_temp *t, const char *name)
{
    if (renameat(dirfd, t->name, dirfd, name) != 0) {
        int e = errno;
        dwu_trusted_temp_discard(dirfd, t);
        errno = e;
        return -1;
    }
    close(t->fd);
    t->fd = -1;
    t->name[0] = '\0';
    return 0;
}

void dwu_trusted_temp_discard(int dirfd, struct dwu_trusted_temp *t)
{
    struct stat mine, there;
    if (t->fd < 0)
        return;
    /* Only if the name is still T's (a sweep may have taken it, then another run the name). */
    if (fstat(t->fd, &mine) == 0 && fstatat(dirfd, t->name, &there, AT_SYMLINK_NOFOLLOW) == 0 &&
        same_file(&mine, &there)) {
        if (t->dir)
            empty_dir(t->fd, 3);
        unlinkat(dirfd, t->name, t->dir ? AT_REMOVEDIR : 0);
    }
    close(t->fd);
    t->fd = -1;
    t->name[0] = '\0';
}

int dwu_trusted_parent_open(const char *path, const char **base)
{
    const char *slash = strrchr(path, '/');
    char dir[PATH_MAX];
    int n = !slash ? snprintf(dir, sizeof dir, ".") : slash == path ? snprintf(dir, sizeof dir, "/")
                                                    : snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    *base = slash ? slash + 1 : path;
    if (n < 0 || (size_t)n >= sizeof dir || !**base) {
        errno = n < 0 || (size_t)n >= sizeof dir ? ENAMETOOLONG : EISDIR;
        return -1;
    }
    return open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

/* NAME is BASE.tmp-XXXXXX... (any BASE when BASE is NULL). */
static int temp_name(const char *name, const char *base)
{
    const char *tag;
    if (base) {
        size_t n = strlen(base);
        if (strncmp(name, base, n) != 0 || strncmp(name + n, ".tmp-", 5) != 0)
            return 0;
        tag = name + n + 5;
    } else {
        const char *at = strstr(name, ".tmp-");
        if (!at || at == name)
            return 0;
        tag = at + 5;
    }
    for (int i = 0; i < TAG_LEN; i++)
        if (!tag[i] || !strchr(tag_chars, tag[i]))
            return 0;
    return 1;
}

/* Remove the temporary NAME of DIRFD if it is a leftover; 1 when removed. */
static int sweep_one(int dirfd, const char *name)
{
    struct stat st, now;
    if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0 || st.st_uid != geteuid() ||
        !(S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)))
        return 0;
    int dir = S_ISDIR(st.st_mode);
    int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | (dir ? O_DIRECTORY : 0));
    if (fd < 0)
        return 0;
    int removed = 0;
    if (fstat(fd, &now) == 0 && same_file(&st, &now) && flock(fd, LOCK_EX | LOCK_NB) == 0) {
        int young = time(NULL) - now.st_mtime < DWU_TEMP_STALE_SECONDS;
        int empty = dir ? dir_is_empty(fd) : now.st_size == 0;
        if (!young || !empty) {
            if (dir)
                empty_dir(fd, 3);
            removed = unlinkat(dirfd, name, dir ? AT_REMOVEDIR : 0) == 0;
        }
    }
    close(fd);
    return removed;
}

int dwu_trusted_temp_sweep(int dirfd, const char *base)
{
    DIR *d = dwu_trusted_dir_stream(dirfd);
    if (!d)
        return 0;
    char **names = NULL;
    size_t n = 0, cap = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (!temp_name(e->d_name, base))
            continue;
        if (n == cap) {
            size_t more = cap ? 2 * cap : 8;
            char **grown = realloc(names, more * sizeof *grown);
            if (!grown)
                break;
            names = grown;
            cap = more;
        }
        if (!(names[n] = strdup(e->d_name)))
            break;
        n++;
    }
    closedir(d);
    int removed = 0;
    for (size_t i = 0; i < n; i++) {
        removed += sweep_one(dirfd, names[i]);
        free(names[i]);
    }
    free(names);
    return removed;
}
