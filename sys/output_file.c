/* SPDX-License-Identifier: Apache-2.0 */
/*
 * output_file: the files a tool writes, replaced safely (see output_file.h).
 */
#include "output_file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.h"
#include "signals.h"

/* Links followed before giving up, as the kernel does (MAXSYMLINKS). */
#define MAX_LINKS 40

/* What the link LINK (SIZE its lstat size) points to, as a path usable from
 * here: relative targets are relative to LINK's directory.  NULL with errno. */
static char *link_destination(const char *link, size_t size)
{
    size_t cap = size + 1 > 64 ? size + 1 : 64;   /* st_size is 0 in some file systems */
    char *target = NULL;
    for (;;) {
        char *more = realloc(target, cap);
        if (!more) {
            free(target);
            return NULL;
        }
        target = more;
        ssize_t n = readlink(link, target, cap);
        if (n < 0) {
            free(target);
            return NULL;
        }
        if ((size_t)n < cap) {
            target[n] = '\0';
            break;
        }
        cap *= 2;
    }
    const char *slash = strrchr(link, '/');
    if (target[0] == '/' || !slash)
        return target;
    size_t dirlen = (size_t)(slash - link) + 1;
    char *joined = malloc(dirlen + strlen(target) + 1);
    if (joined) {
        memcpy(joined, link, dirlen);
        strcpy(joined + dirlen, target);
    }
    free(target);
    return joined;
}

char *output_target(const char *path, char *err, size_t errlen)
{
    if (!*path) {
        error_set(err, errlen, "empty file name");
        return NULL;
    }
    char *cur = strdup(path);
    for (int links = 0; cur; links++) {
        struct stat st;
        if (lstat(cur, &st) != 0) {
            if (errno == ENOENT)
                return cur;   /* created */
            int e = errno;
            if (links)
                error_set(err, errlen, "cannot examine %s, where its link leads: %s", cur, strerror(e));
            else
                error_set(err, errlen, "cannot examine: %s", strerror(e));
            free(cur);
            return NULL;
        }
        if (S_ISREG(st.st_mode))
            return cur;
        if (!S_ISLNK(st.st_mode)) {
            if (links)
                error_set(err, errlen, "not a regular file (a link to %s: %s)", cur, error_file_kind(st.st_mode));
            else
                error_set(err, errlen, "not a regular file (%s)", error_file_kind(st.st_mode));
            free(cur);
            return NULL;
        }
        if (links == MAX_LINKS) {
            error_set(err, errlen, "too many levels of symbolic links");
            free(cur);
            return NULL;
        }
        char *next = link_destination(cur, (size_t)st.st_size);
        if (!next) {
            int e = errno;
            error_set(err, errlen, "cannot read the link %s: %s", cur, strerror(e));
            free(cur);
            return NULL;
        }
        free(cur);
        cur = next;
    }
    error_set(err, errlen, "out of memory");
    return NULL;
}

int output_dir_check(const char *dir, const char *name, char *err, size_t errlen)
{
    struct stat st;
    if (stat(dir, &st) != 0) {
        int e = errno;
        if (e != ENOENT)
            return error_set(err, errlen, "%s: cannot examine: %s", dir, strerror(e));
        if (lstat(dir, &st) == 0)
            return error_set(err, errlen, "%s: a symbolic link to nothing, not a directory", dir);
        return 0;   /* created */
    }
    if (!S_ISDIR(st.st_mode))
        return error_set(err, errlen, "%s: not a directory (%s)", dir,
                         S_ISREG(st.st_mode) ? "regular file" : error_file_kind(st.st_mode));
    size_t len = strlen(dir) + strlen(name) + 2;
    char *path = malloc(len);
    if (!path)
        return error_set(err, errlen, "out of memory");
    snprintf(path, len, "%s/%s", dir, name);
    char why[512];
    char *target = output_target(path, why, sizeof why);
    int rc = target ? 0 : error_set(err, errlen, "%s: %s", path, why);
    free(target);
    free(path);
    return rc;
}

int output_temp_create(struct output_temp *t, const char *target, const char *suffix, char *err,
                       size_t errlen)
{
    static const char pattern[] = ".tmp-XXXXXX";
    size_t len = strlen(target) + sizeof pattern + strlen(suffix);
    t->fd = -1;
    t->path = malloc(len);
    if (!t->path)
        return error_set(err, errlen, "out of memory");
    snprintf(t->path, len, "%s%s%s", target, pattern, suffix);
    /* Created and registered with the signals blocked: an interruption
     * between the two would leave the file. */
    sigset_t saved;
    signals_block(NULL, &saved);
    int e = 0;
    t->fd = mkstemps(t->path, (int)strlen(suffix));
    if (t->fd < 0) {
        e = errno;
    } else if (signals_register(t->path, 0) != 0) {
        e = ENOMEM;
        unlink(t->path);
        close(t->fd);
        t->fd = -1;
    }
    signals_restore(&saved);
    if (t->fd < 0) {
        free(t->path);
        t->path = NULL;
        return error_set(err, errlen, "cannot create a temporary file next to it: %s", strerror(e));
    }
    /* The mode of the file replaced, else what the umask allows. */
    struct stat st;
    mode_t mode;
    if (stat(target, &st) == 0 && S_ISREG(st.st_mode)) {
        mode = st.st_mode & 07777;
    } else {
        mode_t mask = umask(0);
        umask(mask);
        mode = 0666 & ~mask;
    }
    if (fchmod(t->fd, mode) != 0) {
        e = errno;
        close(t->fd);
        output_temp_discard(t);
        return error_set(err, errlen, "cannot set the mode of a temporary file: %s", strerror(e));
    }
    return 0;
}

/* Unregister and free T (its file already renamed or removed). */
static void temp_release(struct output_temp *t)
{
    signals_unregister(t->path);
    free(t->path);
    t->path = NULL;
    t->fd = -1;
}

void output_temp_discard(struct output_temp *t)
{
    if (!t->path)
        return;
    unlink(t->path);
    temp_release(t);
}

int output_temp_commit(struct output_temp *t, const char *target, char *err, size_t errlen)
{
    struct stat st;
    if (lstat(target, &st) == 0 && !S_ISREG(st.st_mode)) {   /* replaced since output_target */
        output_temp_discard(t);
        return error_set(err, errlen, "not a regular file (%s)",
                         error_file_kind(st.st_mode));
    }
    if (rename(t->path, target) != 0) {
        int e = errno;
        output_temp_discard(t);
        return error_set(err, errlen, "cannot write: %s", strerror(e));
    }
    temp_release(t);
    return 0;
}

/* The output PATH through a temporary file: WRITE_TEMP fills its fd (and
 * closes it).  Returns 0, or -1 with ERR. */
static int write_output(const char *path, int (*write_temp)(int fd, const void *arg), const void *arg,
                        char *err, size_t errlen)
{
    char *target = output_target(path, err, errlen);
    if (!target)
        return -1;
    struct output_temp t;
    int rc = output_temp_create(&t, target, "", err, errlen);
    if (rc == 0) {
        errno = 0;
        if (write_temp(t.fd, arg) != 0) {
            int e = errno;
            output_temp_discard(&t);
            rc = e ? error_set(err, errlen, "cannot write: %s", strerror(e))
                   : error_set(err, errlen, "cannot write");
        } else {
            rc = output_temp_commit(&t, target, err, errlen);
        }
    }
    free(target);
    return rc;
}

struct bytes {
    const char *text;
    size_t size;
};

static int write_bytes(int fd, const void *arg)
{
    const struct bytes *b = arg;
    int failed = 0;
    for (size_t done = 0; !failed && done < b->size;) {
        ssize_t w = write(fd, b->text + done, b->size - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w == 0)
            errno = ENOSPC;
        failed = w <= 0;
        done += w > 0 ? (size_t)w : 0;
    }
    int e = errno;
    if (close(fd) != 0 && !failed) {
        failed = 1;
        e = errno;
    }
    errno = e;
    return failed ? -1 : 0;
}

int output_write(const char *path, const char *text, size_t size, char *err, size_t errlen)
{
    struct bytes b = {text, size};
    return write_output(path, write_bytes, &b, err, errlen);
}

struct stream {
    int (*writer)(FILE *f, const void *arg);
    const void *arg;
};

static int write_stream(int fd, const void *arg)
{
    const struct stream *s = arg;
    FILE *f = fdopen(fd, "w");
    if (!f) {
        int e = errno;
        close(fd);
        errno = e;
        return -1;
    }
    errno = 0;
    int rc = s->writer(f, s->arg);
    int e = errno;
    if (fclose(f) != 0 && rc == 0) {
        rc = -1;
        e = errno;
    }
    errno = rc ? e : 0;
    return rc;
}

int output_write_stream(const char *path, int (*writer)(FILE *f, const void *arg), const void *arg,
                        char *err, size_t errlen)
{
    struct stream s = {writer, arg};
    return write_output(path, write_stream, &s, err, errlen);
}
