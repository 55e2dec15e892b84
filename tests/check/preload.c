/*
 * preload: a library the front-end tests preload (LD_PRELOAD) to change or
 * watch what a tool asks of the system, without a hook in the tools.
 *
 *   MANY_CORES=N         sysconf(_SC_NPROCESSORS_ONLN) answers N: a machine
 *                        with more cores than this one
 *   PRELOAD_WATCH=PATH   each open() of exactly PATH is logged
 *   PRELOAD_LOG=FILE     where the log goes, a line per event
 *                        ("sysconf cores", "open PATH"): the test's proof
 *                        that the tool asked, and how often
 *
 * Every other call is libc's.
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int real_open(const char *path, int flags, mode_t mode)
{
    static int (*next)(const char *, int, ...);
    if (!next)
        next = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open");
    return next ? next(path, flags, mode) : -1;
}

static void log_event(const char *what, const char *arg)
{
    const char *log = getenv("PRELOAD_LOG");
    if (!log || !*log)
        return;
    int fd = real_open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0)
        return;
    char line[4200];
    int n = snprintf(line, sizeof line, "%s%s%s\n", what, arg ? " " : "", arg ? arg : "");
    if (n > 0 && write(fd, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1) < 0) {
        /* best effort: the test sees the line missing */
    }
    close(fd);
}

long sysconf(int name)
{
    const char *many = getenv("MANY_CORES");
    if (name == _SC_NPROCESSORS_ONLN && many && *many) {
        log_event("sysconf cores", NULL);
        return strtol(many, NULL, 10);
    }
    long (*next)(int) = (long (*)(int))dlsym(RTLD_NEXT, "sysconf");
    return next ? next(name) : -1;
}

int open(const char *path, int flags, ...)
{
    mode_t mode = 0;
    if (flags & (O_CREAT | O_TMPFILE)) {
        va_list ap;
        va_start(ap, flags);
        mode = (mode_t)va_arg(ap, int);
        va_end(ap);
    }
    const char *watch = getenv("PRELOAD_WATCH");
    if (watch && strcmp(path, watch) == 0)
        log_event("open", path);
    return real_open(path, flags, mode);
}
/* SPDX-License-Identifier: Apache-2.0 */
