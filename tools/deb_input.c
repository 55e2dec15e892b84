/* SPDX-License-Identifier: Apache-2.0 */
/*
 * deb_input: a Debian package's ELF files read with libarchive (deb_input.h).
 */
#include "deb_input.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#define CHUNK (64 * 1024)

int deb_input_is_deb(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return 0;
    char h[8 + 13];
    ssize_t n = pread(fd, h, sizeof h, 0);
    close(fd);
    return n == (ssize_t)sizeof h && memcmp(h, "!<arch>\n", 8) == 0 && memcmp(h + 8, "debian-binary", 13) == 0;
}

/* The outer archive, read by the inner one as its stream. */
struct outer {
    struct archive *ar;
    char buf[CHUNK];
};

static la_ssize_t read_outer(struct archive *inner, void *arg, const void **data)
{
    (void)inner;
    struct outer *o = arg;
    *data = o->buf;
    return archive_read_data(o->ar, o->buf, sizeof o->buf);
}

struct reading {
    struct input_list *list;
    const char *deb;
    uint64_t *held;      /* bytes held in memory files over the run */
    char *buf;           /* [CHUNK] */
};

static int add_error(struct reading *rd, const char *member, const char *reason)
{
    char *name;
    if (asprintf(&name, "%s:%s", rd->deb, member) < 0)
        return -1;
    int rc = inputs_add_error(rd->list, name, reason);
    free(name);
    return rc;
}

static int keep_fd(struct input_list *list, int fd)
{
    int *fds = realloc(list->fds, (list->nfds + 1) * sizeof *fds);
    if (!fds)
        return -1;
    list->fds = fds;
    list->fds[list->nfds++] = fd;
    return 0;
}

static int write_all(int fd, const char *p, size_t n)
{
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            if (w == 0)
                errno = ENOSPC;   /* no progress: say why, not a stale errno */
            return -1;
        }
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* The member just read the head of (FIRST bytes in rd->buf, SIZE in all),
 * called MEMBER, into a memory file and LIST.  Returns 0 (errors become
 * inputs not audited), -1 out of memory, -2 the stream is broken. */
static int take_member(struct reading *rd, struct archive *tar, const char *member, size_t first, int64_t size)
{
    char reason[160];
    if (size < 0 || (uint64_t)size > DEB_INPUT_MEMBER_MAX) {
        snprintf(reason, sizeof reason, "member of %lld bytes: larger than the %llu MiB limit",
                 (long long)size, (unsigned long long)(DEB_INPUT_MEMBER_MAX >> 20));
        return add_error(rd, member, reason);
    }
    if (*rd->held + (uint64_t)size > DEB_INPUT_TOTAL_MAX) {
        snprintf(reason, sizeof reason, "not read: the members held at once would pass the %llu MiB limit",
                 (unsigned long long)(DEB_INPUT_TOTAL_MAX >> 20));
        return add_error(rd, member, reason);
    }
    /* Each member held is an open file: keep room for the workers' pipes. */
    struct rlimit nofile;
    if (getrlimit(RLIMIT_NOFILE, &nofile) == 0 && nofile.rlim_cur != RLIM_INFINITY &&
        rd->list->nfds + DEB_INPUT_SPARE_FDS >= nofile.rlim_cur) {
        snprintf(reason, sizeof reason, "not read: the members held at once would pass the %llu open files "
                 "allowed (ulimit -n)", (unsigned long long)nofile.rlim_cur);
        return add_error(rd, member, reason);
    }
    int fd = memfd_create("dwcheck-deb-member", MFD_CLOEXEC);
    if (fd < 0) {
        snprintf(reason, sizeof reason, "cannot hold the member in memory: %s", strerror(errno));
        return add_error(rd, member, reason);
    }
    uint64_t done = 0;
    size_t n = first;
    int broken = 0;
    for (;;) {
        if (done + n > (uint64_t)size || write_all(fd, rd->buf, n) != 0) {
            broken = done + n > (uint64_t)size ? 2 : 1;
            break;
        }
        done += n;
        la_ssize_t r = archive_read_data(tar, rd->buf, CHUNK);
        if (r < 0) {
            broken = 2;
            break;
        }
        if (r == 0)
            break;
        n = (size_t)r;
    }
    if (!broken && done != (uint64_t)size)
        broken = 2;
    if (broken) {
        close(fd);
        snprintf(reason, sizeof reason, broken == 1 ? "cannot hold the member in memory: %s" : "corrupt member: %s",
                 broken == 1 ? strerror(errno) : "its data does not match its size in the tar header");
        return add_error(rd, member, reason) ? -1 : broken == 2 ? -2 : 0;
    }
    if (keep_fd(rd->list, fd) != 0) {
        close(fd);
        return -1;
    }
    *rd->held += (uint64_t)size;
    char path[64], *name;
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    if (asprintf(&name, "%s:%s", rd->deb, member) < 0)
        return -1;
    int rc = inputs_add(rd->list, path, name);
    free(name);
    return rc;
}

/* "./usr/lib/x" -> "/usr/lib/x"; "usr/lib/x" (a tar written without
 * "./") -> "/usr/lib/x" too: in the static buffer BUF, which the result
 * may be. */
static const char *member_path_in(const char *p, char *buf, size_t size)
{
    if (p[0] == '.' && p[1] == '/')
        return p + 1;
    if (p[0] == '/')
        return p;
    snprintf(buf, size, "/%s", p);
    return buf;
}
#define member_path(p) member_path_in((p), (char[PATH_MAX + 2]){0}, PATH_MAX + 2)

/* A hard link NAME to TARGET: one more name of TARGET's input, if it is one. */
static int add_link(struct reading *rd, const char *name, const char *target)
{
    char *want, *full;
    if (asprintf(&want, "%s:%s", rd->deb, member_path(target)) < 0)
        return -1;
    if (asprintf(&full, "%s:%s", rd->deb, member_path(name)) < 0) {
        free(want);
        return -1;
    }
    int rc = 0;
    for (size_t i = 0; i < rd->list->n && rc == 0; i++) {
        struct input_file *f = &rd->list->files[i];
        for (size_t k = 0; !f->error && k < f->nnames; k++)
            if (strcmp(f->names[k], want) == 0) {
                rc = inputs_add(rd->list, f->path, full);
                rc = rc ? rc : 1;
                break;
            }
    }
    free(want);
    free(full);
    return rc < 0 ? -1 : rc;   /* 1: added */
}

/* PATH (absolute) with its "." and ".." components resolved, in place. */
static void normalise(char *path)
{
    char *out = path, *in = path;
    while (*in) {
        while (*in == '/')
            in++;
        char *end = strchr(in, '/');
        size_t n = end ? (size_t)(end - in) : strlen(in);
        if (n == 0 || (n == 1 && in[0] == '.')) {
        } else if (n == 2 && in[0] == '.' && in[1] == '.') {
            while (out > path && *--out != '/')
                ;
        } else {
            *out++ = '/';
            memmove(out, in, n);
            out += n;
        }
        in += n;
    }
    if (out == path)
        *out++ = '/';
    *out = '\0';
}

/* A symbolic link of the package: its path and the path it leads to. */
struct symlink {
    char *name, *target;
};

/* LINK (a member path) to TARGET (as the link holds it), as a member path. */
static char *link_target(const char *link, const char *target)
{
    char *full;
    if (target[0] == '/') {
        full = strdup(target);
    } else {
        const char *slash = strrchr(link, '/');
        int dir = slash ? (int)(slash - link) : 0;
        if (asprintf(&full, "%.*s/%s", dir, link, target) < 0)
            full = NULL;
    }
    if (full)
        normalise(full);
    return full;
}

/* The package's symbolic links to its ELF files: more names of those
 * files (links to links too, up to 8 deep).  -1 out of memory. */
static int add_symlinks(struct reading *rd, struct symlink *links, size_t n)
{
    for (int pass = 0; pass < 8; pass++) {
        int added = 0;
        for (size_t i = 0; i < n; i++) {
            if (!links[i].name)
                continue;
            int rc = add_link(rd, links[i].name, links[i].target);
            if (rc < 0)
                return -1;
            if (rc > 0) {
                free(links[i].name);
                links[i].name = NULL;
                added = 1;
            }
        }
        if (!added)
            break;
    }
    return 0;
}

/* Read the tar streamed from O.  Returns 0, -1 out of memory; a fault in
 * the stream is named in REASON (else left empty). */
static int read_tar(struct reading *rd, struct outer *o, size_t *found, char *reason, size_t len)
{
    struct archive *tar = archive_read_new();
    if (!tar)
        return -1;
    archive_read_support_filter_all(tar);
    archive_read_support_format_tar(tar);
    int rc = 0;
    if (archive_read_open(tar, o, NULL, read_outer, NULL) != ARCHIVE_OK) {
        snprintf(reason, len, "data.tar: %s", archive_error_string(tar));
        archive_read_free(tar);
        return 0;
    }
    struct archive_entry *e;
    int r;
    struct symlink *links = NULL;
    size_t nlinks = 0;
    while (rc == 0 && (r = archive_read_next_header(tar, &e)) != ARCHIVE_EOF) {
        if (r != ARCHIVE_OK && r != ARCHIVE_WARN) {
            snprintf(reason, len, "data.tar: %s", archive_error_string(tar));
            break;
        }
        const char *name = archive_entry_pathname(e);
        if (!name)
            continue;
        if (archive_entry_hardlink(e)) {
            rc = add_link(rd, name, archive_entry_hardlink(e)) < 0 ? -1 : 0;
            continue;
        }
        if (archive_entry_filetype(e) == AE_IFLNK && archive_entry_symlink(e)) {
            /* Resolved once every file is in: a link may come first. */
            struct symlink *more = realloc(links, (nlinks + 1) * sizeof *more);
            char *target = link_target(member_path(name), archive_entry_symlink(e));
            char *own = strdup(member_path(name));
            if (more)
                links = more;
            if (!more || !target || !own) {
                free(target);
                free(own);
                rc = -1;
                continue;
            }
            links[nlinks++] = (struct symlink){own, target};
            continue;
        }
        if (archive_entry_filetype(e) != AE_IFREG)
            continue;
        /* The head: is it ELF? */
        size_t have = 0;
        la_ssize_t n;
        while (have < 4 && (n = archive_read_data(tar, rd->buf + have, CHUNK - have)) > 0)
            have += (size_t)n;
        if (have < 4 || memcmp(rd->buf, "\177ELF", 4) != 0)
            continue;   /* not ELF (or empty): the next header skips the rest */
        ++*found;
        rc = take_member(rd, tar, member_path(name), have, archive_entry_size(e));
        if (rc == -2) {
            snprintf(reason, len, "data.tar: %s", archive_error_string(tar) ? archive_error_string(tar)
                                                                          : "corrupt member");
            rc = 0;
            break;
        }
    }
    archive_read_free(tar);
    if (rc == 0)
        rc = add_symlinks(rd, links, nlinks);
    for (size_t i = 0; i < nlinks; i++) {
        free(links[i].name);
        free(links[i].target);
    }
    free(links);
    return rc;
}

int deb_input_expand(struct input_list *list, const char *path)
{
    static uint64_t held;
    static int raised;
    struct rlimit nofile;
    if (!raised++ && getrlimit(RLIMIT_NOFILE, &nofile) == 0 && nofile.rlim_cur < nofile.rlim_max) {
        nofile.rlim_cur = nofile.rlim_max;   /* as many members as the system lets us hold */
        setrlimit(RLIMIT_NOFILE, &nofile);
    }
    struct outer *o = malloc(sizeof *o);
    struct reading rd = {list, path, &held, malloc(CHUNK)};
    if (!o || !rd.buf || !(o->ar = archive_read_new())) {
        free(o);
        free(rd.buf);
        return -1;
    }
    archive_read_support_format_ar(o->ar);
    char reason[512] = "";
    size_t found = 0;
    int rc = 0, data = 0;
    if (archive_read_open_filename(o->ar, path, CHUNK) != ARCHIVE_OK) {
        snprintf(reason, sizeof reason, "cannot read the package: %s", archive_error_string(o->ar));
    } else {
        struct archive_entry *e;
        int r;
        while ((r = archive_read_next_header(o->ar, &e)) == ARCHIVE_OK || r == ARCHIVE_WARN) {
            const char *name = archive_entry_pathname(e);
            if (name && strncmp(name, "data.tar", 8) == 0) {
                data = 1;
                rc = read_tar(&rd, o, &found, reason, sizeof reason);
                break;
            }
        }
        if (!data && !reason[0])
            snprintf(reason, sizeof reason, "not a Debian package: no data.tar member%s%s",
                     r == ARCHIVE_EOF ? "" : ": ", r == ARCHIVE_EOF ? "" : archive_error_string(o->ar));
    }
    archive_read_free(o->ar);
    free(o);
    free(rd.buf);
    list->packages++;
    list->packages_without_elf += !found;
    if (rc == 0 && reason[0])
        rc = inputs_add_error(list, path, reason);
    return rc;
}

const struct input_packages deb_input_packages = {deb_input_is_deb, deb_input_expand};
