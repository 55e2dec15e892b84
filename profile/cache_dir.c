/*
 * cache_dir: dwperf's cache directory (see the header).
 */
#include "cache_dir.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

int cache_dir_create(const char *dir)
{
    char path[PATH_MAX];
    if (snprintf(path, sizeof path, "%s", dir) >= (int)sizeof path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    for (char *p = path + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            if (mkdir(path, 0755) != 0 && errno != EEXIST)
                return -1;
            *p = '/';
        }
    return mkdir(path, 0755) != 0 && errno != EEXIST ? -1 : 0;
}
