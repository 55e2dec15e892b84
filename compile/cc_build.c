/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cc_build: $CC on the generated C, renamed into place (cc_build.h).
 */
#include "cc_build.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys/command.h"
#include "sys/error.h"
#include "sys/signals.h"
#include "runtime/trusted_path.h"

/* The C under a name of its own: LINK, DIR/eh_elf.c, a symbolic link to
 * it, DIR being SO.src in SO's directory, which is the build's own (mode
 * 0700, removed with what it holds however the run ends: cc_build_shared).
 * The compiler writes the name of its input into the object (an STT_FILE
 * symbol); given this one whatever the C's temporary name, two builds of
 * one input by one compiler are byte for byte the same (the linker's
 * build-id hashes the rest). */
struct fixed_name {
    char dir[PATH_MAX];
    char link[PATH_MAX + 16];
};

static int fixed_name_make(struct fixed_name *fx, const char *so, const char *c, char *err, size_t errlen)
{
    fx->dir[0] = fx->link[0] = '\0';
    char *target = realpath(c, NULL);   /* the link is read from another directory */
    if (!target)
        return error_set(err, errlen, "%s: %s", c, strerror(errno));
    if ((size_t)snprintf(fx->dir, sizeof fx->dir, "%s.src", so) >= sizeof fx->dir) {
        fx->dir[0] = '\0';
        free(target);
        return error_set(err, errlen, "file name too long");
    }
    /* Made and registered with the signals blocked: an interruption between
     * the two would leave them. */
    sigset_t saved;
    signals_block(NULL, &saved);
    int e = 0;
    if (mkdir(fx->dir, 0700) != 0) {
        e = errno;
        fx->dir[0] = '\0';
    } else if (signals_register(fx->dir, 1) != 0) {
        e = ENOMEM;
        rmdir(fx->dir);
        fx->dir[0] = '\0';
    } else {
        snprintf(fx->link, sizeof fx->link, "%s/eh_elf.c", fx->dir);
        if (symlink(target, fx->link) != 0) {
            e = errno;
        } else if (signals_register(fx->link, 0) != 0) {
            e = ENOMEM;
            unlink(fx->link);
        }
        if (e)
            fx->link[0] = '\0';
    }
    signals_restore(&saved);
    free(target);
    return e ? error_set(err, errlen, "cannot make the C's link: %s", strerror(e)) : 0;
}

static void fixed_name_remove(struct fixed_name *fx)
{
    if (fx->link[0]) {
        unlink(fx->link);
        signals_unregister(fx->link);
    }
    if (fx->dir[0]) {
        rmdir(fx->dir);
        signals_unregister(fx->dir);
    }
}

/* $CC -O2 -fPIC -shared ... -o SO C, within the limits of sys/command,
 * C under its fixed name (SO's directory the build's own).  Returns 0, or
 * -1 with ERR. */
static int run_compiler(const char *so, const char *c, char *err, size_t errlen)
{
    struct fixed_name fx;
    if (fixed_name_make(&fx, so, c, err, errlen) != 0) {
        fixed_name_remove(&fx);
        return -1;
    }
    /* With unwind tables, and without the C runtime's start files (whose
     * _init has none, and which an eh_elf does not need): a signal handler
     * may interrupt an eh_elf's code, its loading included (a walk in
     * progress, dwu_init), and walks out through it. */
    static char *const flags[] = {"-O2", "-fPIC", "-shared", "-nostartfiles", "-fasynchronous-unwind-tables", "-o"};
    size_t ncc;
    char **cc = command_cc(&ncc);
    char **argv = cc ? calloc(ncc + sizeof flags / sizeof flags[0] + 3, sizeof *argv) : NULL;
    if (!argv) {
        command_words_free(cc);
        fixed_name_remove(&fx);
        return error_set(err, errlen, "out of memory");
    }
    size_t k = 0;
    for (size_t i = 0; i < ncc; i++)
        argv[k++] = cc[i];
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        argv[k++] = flags[i];
    argv[k++] = (char *)so;
    argv[k++] = fx.link;
    struct command_result res;
    int rc = command_run(argv, 0, NULL, &res);
    if (rc != 0) {
        char who[256];
        snprintf(who, sizeof who, "the C compiler (%s)", cc[0]);
        if (res.end == COMMAND_EXITED)
            error_set(err, errlen, "%s failed on the generated code", who);
        else
            command_failure(&res, who, err, errlen);
    }
    command_words_free(cc);
    free(argv);
    fixed_name_remove(&fx);
    return rc == 0 ? 0 : -1;
}

/* Rename BASE of WORK (the compiler's output) over BASE of DIRFD, which
 * must still be a regular file or absent.  0, or -1 with ERR. */
static int put_in_place(int dirfd, const struct dwu_trusted_temp *work, const char *base, char *err, size_t errlen)
{
    struct stat st;
    if (fstatat(dirfd, base, &st, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISREG(st.st_mode))   /* since output_target */
        return error_set(err, errlen, "not a regular file (%s)", error_file_kind(st.st_mode));
    if (renameat(work->fd, base, dirfd, base) != 0)
        return error_set(err, errlen, "cannot write: %s", strerror(errno));
    return 0;
}

int cc_build_shared(const char *c_path, const char *target, char *err, size_t errlen)
{
    /* The compiler writes into a directory of its own beside TARGET
     * (runtime/trusted_path.h: mode 0700 under a random name, locked while
     * it lives), where no one else can put a link for it to follow; a
     * killed run's is removed by the next (the sweep), an interrupted
     * one's by sys/signals. */
    const char *base;
    struct dwu_trusted_temp work = {.fd = -1};
    int dirfd = dwu_trusted_parent_open(target, &base);
    if (dirfd >= 0)
        dwu_trusted_temp_sweep(dirfd, base);
    if (dirfd < 0 || dwu_trusted_temp_create(dirfd, base, "", 1, &work) != 0) {
        int e = errno;
        if (dirfd >= 0)
            close(dirfd);
        error_set(err, errlen, "cannot create a temporary directory next to it: %s", strerror(e));
        return CC_BUILD_TARGET;
    }
    char work_path[PATH_MAX], so[PATH_MAX + NAME_MAX + 2];
    int rc = CC_BUILD_TARGET;
    if ((size_t)snprintf(work_path, sizeof work_path, "%.*s%s", (int)(base - target), target, work.name) >=
        sizeof work_path) {
        error_set(err, errlen, "file name too long");
    } else {
        snprintf(so, sizeof so, "%s/%s", work_path, base);
        if (signals_register(so, 0) != 0 || signals_register(work_path, 1) != 0)
            error_set(err, errlen, "out of memory");
        else if (run_compiler(so, c_path, err, errlen) != 0)
            rc = CC_BUILD_COMPILER;
        else if (put_in_place(dirfd, &work, base, err, errlen) == 0)
            rc = 0;
        signals_unregister(work_path);
        signals_unregister(so);
    }
    dwu_trusted_temp_discard(dirfd, &work);
    close(dirfd);
    return rc;
}
