/* SPDX-License-Identifier: Apache-2.0 */
/*
 * error: format a tool error's reason.
 */
#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <sys/stat.h>

int error_set(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

const char *error_file_kind(unsigned mode)
{
    if (S_ISDIR(mode))
        return "directory";
    if (S_ISCHR(mode))
        return "character device";
    if (S_ISBLK(mode))
        return "block device";
    if (S_ISFIFO(mode))
        return "FIFO";
    if (S_ISSOCK(mode))
        return "socket";
    if (S_ISLNK(mode))
        return "symbolic link";
    return "special file";
}
