/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cache_dir: dwperf's cache directory (see the header).
 */
#include "cache_dir.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/trusted_path.h"

const char *cache_dir_default(char *buf, size_t len)
{
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    int n;
    if (xdg && xdg[0] == '/')
        n = snprintf(buf, len, "%s/dwcheck/eh_elf", xdg);
    else if (home && home[0] == '/')
        n = snprintf(buf, len, "%s/.cache/dwcheck/eh_elf", home);
    else
        return NULL;
    return n > 0 && (size_t)n < len ? buf : NULL;
}

/* The cache opened last: its name and descriptor (-1: refused). */
static char *opened;
static int opened_fd = -1;

int cache_dir_open(const char *dir)
{
    if (!dir)
        return -1;
    if (opened && strcmp(opened, dir) == 0)
        return opened_fd;
    char *name = strdup(dir);
    if (!name)
        return -1;
    char why[PATH_MAX + 160];
    int fd = dwu_trusted_dir_open(dir, 1, why, sizeof why);
    if (fd < 0)
        fprintf(stderr, "dwperf: %s: not used as a cache: %s\n", dir, why);
    else
        dwu_trusted_temp_sweep(fd, NULL);   /* what killed runs left */
    if (opened_fd >= 0)
        close(opened_fd);
    free(opened);
    opened = name;
    opened_fd = fd;
    return fd;
}

int cache_dir_read(int dirfd, const char *name)
{
    char why[256];
    return dwu_trusted_openat(dirfd, name, why, sizeof why);
}

int cache_dir_write(int dirfd, const char *name, const void *data, size_t size)
{
    struct dwu_trusted_temp t;
    if (dwu_trusted_temp_create(dirfd, name, "", 0, &t) != 0)
        return -1;
    const char *at = data;
    for (size_t done = 0; done < size;) {
        ssize_t w = write(t.fd, at + done, size - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            dwu_trusted_temp_discard(dirfd, &t);
            return -1;
        }
        done += (size_t)w;
    }
    return dwu_trusted_temp_commit(dirfd, &t, name);
}
