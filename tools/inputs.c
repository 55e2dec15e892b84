/* SPDX-License-Identifier: Apache-2.0 */
/*
 * inputs: arguments, directories walked, names of one file merged (inputs.h).
 */
#include "inputs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "shard.h"
#include "kit/grow.h"
#include "sys/error.h"

static struct input_file *grow(struct input_list *list)
{
    struct input_file *files = grow_array(list->files, &list->cap, list->n + 1, sizeof *files);
    if (!files)
        return NULL;
    list->files = files;
    struct input_file *f = &list->files[list->n];
    memset(f, 0, sizeof *f);
    return f;
}

static int add_name(struct input_file *f, const char *name)
{
    char **names = realloc(f->names, (f->nnames + 1) * sizeof *names);
    if (!names)
        return -1;
    f->names = names;
    if (!(names[f->nnames] = strdup(name)))
        return -1;
    f->nnames++;
    return 0;
}

static int add_new(struct input_list *list, const char *path, const char *name, const char *reason,
                   const struct stat *st)
{
    struct input_file *f = grow(list);
    if (!f)
        return -1;
    if (st) {
        f->dev = st->st_dev;
        f->ino = st->st_ino;
        f->identified = 1;
    }
    f->path = strdup(path);
    int bad = !f->path || add_name(f, name) != 0 || (reason && !(f->error = strdup(reason)));
    list->n++;   /* freed with the list even when half made */
    return bad ? -1 : 0;
}

int inputs_add(struct input_list *list, const char *path, const char *name)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return add_new(list, path, name, NULL, NULL);
    for (size_t i = 0; i < list->n; i++) {
        struct input_file *f = &list->files[i];
        if (f->identified && f->dev == st.st_dev && f->ino == st.st_ino) {
            for (size_t k = 0; k < f->nnames; k++)
                if (strcmp(f->names[k], name) == 0)
                    return 0;   /* the same name twice: once is enough */
            return add_name(f, name);
        }
    }
    return add_new(list, path, name, NULL, &st);
}

int inputs_add_error(struct input_list *list, const char *name, const char *reason)
{
    return add_new(list, name, name, reason, NULL);
}

/* Whether the regular file PATH begins with the ELF magic. */
static int is_elf(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return 0;
    unsigned char m[4];
    ssize_t n = pread(fd, m, sizeof m, 0);
    close(fd);
    return n == 4 && memcmp(m, "\177ELF", 4) == 0;
}

/* Whether PATH's target lies inside the directory ROOT (resolved, no
 * trailing slash but for "/"). */
static int inside(const char *path, const char *root)
{
    char *real = realpath(path, NULL);
    if (!real)
        return 0;
    size_t n = strlen(root);
    int in = strcmp(root, "/") == 0 || (strncmp(real, root, n) == 0 && real[n] == '/');
    free(real);
    return in;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

/* Walk DIR (whose resolved path is ROOT) into LIST; *FOUND counts the ELF
 * files taken.  Returns -1 out of memory only. */
static int walk(struct input_list *list, const char *dir, const char *root, size_t *found, int depth)
{
    struct dirent **entries;
    int n = scandir(dir, &entries, NULL, by_name);
    if (n < 0) {
        char reason[128];
        snprintf(reason, sizeof reason, "cannot read directory: %s", strerror(errno));
        return inputs_add_error(list, dir, reason);
    }
    int rc = 0;
    size_t dlen = strlen(dir);
    int slash = dlen && dir[dlen - 1] == '/';
    for (int i = 0; i < n; i++) {
        const char *name = entries[i]->d_name;
        if (rc != 0 || strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
            continue;
        char *path;
        if (asprintf(&path, "%s%s%s", dir, slash ? "" : "/", name) < 0) {
            rc = -1;
            continue;
        }
        struct stat st;
        if (lstat(path, &st) == 0) {
            if (S_ISDIR(st.st_mode)) {
                if (depth < 256)   /* PATH_MAX bounds it sooner; no loop without links */
                    rc = walk(list, path, root, found, depth + 1);
            } else if (S_ISREG(st.st_mode) || (S_ISLNK(st.st_mode) && stat(path, &st) == 0 &&
                                                S_ISREG(st.st_mode) && inside(path, root))) {
                if (is_elf(path)) {
                    ++*found;
                    rc = inputs_add(list, path, path);
                }
            }
        }
        free(path);
    }
    for (int i = 0; i < n; i++)
        free(entries[i]);
    free(entries);
    return rc;
}

/* Whether the package PATH was read already (by this or another name);
 * else it is remembered (a failure to remember reads it again). */
static int seen_deb(struct input_list *list, const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return 0;
    for (size_t i = 0; i < list->ndebs; i++)
        if (list->debs[i].st_dev == st.st_dev && list->debs[i].st_ino == st.st_ino)
            return 1;
    struct stat *debs = realloc(list->debs, (list->ndebs + 1) * sizeof *debs);
    if (debs) {
        list->debs = debs;
        list->debs[list->ndebs++] = st;
    }
    return 0;
}

int inputs_expand(char **args, int nargs, const struct input_packages *packages, struct input_list *list,
                  char *err, size_t errlen)
{
    memset(list, 0, sizeof *list);
    for (int i = 0; i < nargs; i++) {
        struct stat st;
        int rc;
        if (stat(args[i], &st) == 0 && S_ISDIR(st.st_mode)) {
            char *root = realpath(args[i], NULL);
            size_t found = 0;
            rc = root ? walk(list, args[i], root, &found, 0) : inputs_add_error(list, args[i], strerror(errno));
            free(root);
            list->dirs++;
            list->dirs_without_elf += !found;
        } else if (packages && packages->is_package(args[i])) {
            rc = seen_deb(list, args[i]) ? 0 : packages->expand(list, args[i]);
        } else {
            rc = inputs_add(list, args[i], args[i]);
        }
        if (rc != 0) {
            inputs_free(list);
            return error_set(err, errlen, "out of memory");
        }
    }
    return 0;
}

static void free_file(struct input_file *f)
{
    for (size_t k = 0; k < f->nnames; k++)
        free(f->names[k]);
    free(f->names);
    free(f->path);
    free(f->error);
}

int inputs_shard(struct input_list *list, unsigned k, unsigned n)
{
    if (list->n > (size_t)INT_MAX)
        return -1;
    char **first = malloc((list->n + 1) * sizeof *first);
    if (!first)
        return -1;
    for (size_t i = 0; i < list->n; i++)
        first[i] = list->files[i].names[0];
    int kept = shard_select(first, (int)list->n, k, n);
    if (kept < 0) {
        free(first);
        return -1;
    }
    /* FIRST keeps its names in the list's order: walk both. */
    size_t out = 0, at = 0;
    for (size_t i = 0; i < list->n; i++) {
        if (at < (size_t)kept && first[at] == list->files[i].names[0]) {
            list->files[out++] = list->files[i];
            at++;
        } else {
            free_file(&list->files[i]);
        }
    }
    list->n = out;
    free(first);
    return 0;
}

void inputs_why_none(const struct input_list *list, size_t skipped, size_t failed, char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = 0;
#define PART(...) \
    do { \
        if (at < len) \
            at += (size_t)snprintf(buf + at, len - at, "%s", at ? ", " : ""); \
        if (at < len) \
            at += (size_t)snprintf(buf + at, len - at, __VA_ARGS__); \
    } while (0)
    if (list->dirs_without_elf)
        PART("%zu of %zu director%s held no ELF file", list->dirs_without_elf, list->dirs,
             list->dirs == 1 ? "y" : "ies");
    if (list->packages_without_elf)
        PART("%zu of %zu package%s held no ELF file", list->packages_without_elf, list->packages,
             list->packages == 1 ? "" : "s");
    if (skipped)
        PART("%zu file%s skipped (not ELF)", skipped, skipped == 1 ? "" : "s");
    if (failed)
        PART("%zu file%s could not be audited", failed, failed == 1 ? "" : "s");
    if (!at)
        PART("no file to audit");
#undef PART
}

void inputs_free(struct input_list *list)
{
    for (size_t i = 0; i < list->n; i++)
        free_file(&list->files[i]);
    free(list->files);
    for (size_t i = 0; i < list->nfds; i++)
        close(list->fds[i]);
    free(list->fds);
    free(list->debs);
    memset(list, 0, sizeof *list);
}
