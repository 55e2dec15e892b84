/* SPDX-License-Identifier: Apache-2.0 */
/*
 * signals: an interrupted tool leaves nothing behind (see signals.h).
 */
#include "signals.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const int caught[] = {SIGINT, SIGTERM, SIGHUP};
#define NCAUGHT (sizeof caught / sizeof caught[0])

struct registered {
    const char *path;
    int is_dir;
};

/* Changed only with the caught signals blocked (see signals.h). */
static struct registered *registry;
static size_t nregistered, capregistered;
static volatile sig_atomic_t child_pgid;
static int installed[NCAUGHT];   /* a handler is ours (the signal was not ignored) */
static int install_done;

static void on_signal(int sig);

/* The handlers, once; a signal ignored at start keeps being ignored. */
static void install(void)
{
    if (install_done)
        return;
    install_done = 1;
    struct sigaction sa = {.sa_handler = on_signal};
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < NCAUGHT; i++)
        sigaddset(&sa.sa_mask, caught[i]);
    for (size_t i = 0; i < NCAUGHT; i++) {
        struct sigaction old;
        if (sigaction(caught[i], NULL, &old) != 0 || old.sa_handler == SIG_IGN)
            continue;
        installed[i] = sigaction(caught[i], &sa, NULL) == 0;
    }
}

void signals_block(const sigset_t *more, sigset_t *saved)
{
    sigset_t set;
    if (more)
        set = *more;
    else
        sigemptyset(&set);
    for (size_t i = 0; i < NCAUGHT; i++)
        sigaddset(&set, caught[i]);
    sigprocmask(SIG_BLOCK, &set, saved);
}

void signals_restore(const sigset_t *saved)
{
    sigprocmask(SIG_SETMASK, saved, NULL);
}

int signals_register(const char *path, int is_dir)
{
    sigset_t saved;
    signals_block(NULL, &saved);
    install();
    int rc = 0;
    if (nregistered == capregistered) {
        size_t cap = capregistered ? 2 * capregistered : 16;
        struct registered *more = realloc(registry, cap * sizeof *more);
        if (more) {
            registry = more;
            capregistered = cap;
        } else {
            rc = -1;
        }
    }
    if (rc == 0)
        registry[nregistered++] = (struct registered){path, is_dir};
    signals_restore(&saved);
    return rc;
}

void signals_unregister(const char *path)
{
    sigset_t saved;
    signals_block(NULL, &saved);
    for (size_t i = nregistered; i-- > 0;)
        if (registry[i].path == path) {
            memmove(&registry[i], &registry[i + 1], (nregistered - i - 1) * sizeof *registry);
            nregistered--;
            break;
        }
    if (nregistered == 0) {
        free(registry);
        registry = NULL;
        capregistered = 0;
    }
    signals_restore(&saved);
}

void signals_install(void)
{
    sigset_t saved;
    signals_block(NULL, &saved);
    install();
    signals_restore(&saved);
}

void signals_set_child(pid_t pgid)
{
    child_pgid = pgid;
}

void signals_in_child(const sigset_t *saved)
{
    struct sigaction dfl = {.sa_handler = SIG_DFL};
    sigemptyset(&dfl.sa_mask);
    for (size_t i = 0; i < NCAUGHT; i++)
        if (installed[i])
            sigaction(caught[i], &dfl, NULL);
    signals_restore(saved);
}

void signals_stop_group(pid_t pid, int *status)
{
    int st = 0;
    pid_t r = 0;
    kill(-pid, SIGTERM);
    /* 200 looks 10 ms apart: what a compiler driver needs to remove its files. */
    for (int i = 0; i < 200 && (r = waitpid(pid, &st, WNOHANG)) == 0; i++) {
        struct timespec ten_ms = {0, 10 * 1000 * 1000};
        nanosleep(&ten_ms, NULL);
    }
    kill(-pid, SIGKILL);   /* what is left of the group, if anything */
    while (r == 0 || (r < 0 && errno == EINTR))
        r = waitpid(pid, &st, 0);
    if (status)
        *status = st;
}

static void on_signal(int sig)
{
    int saved_errno = errno;
    pid_t child = child_pgid;
    if (child > 0)
        signals_stop_group(child, NULL);
    for (size_t i = 0; i < nregistered; i++)
        if (!registry[i].is_dir)
            unlink(registry[i].path);
    for (size_t i = nregistered; i-- > 0;)   /* the innermost first */
        if (registry[i].is_dir)
            rmdir(registry[i].path);
    /* Die of SIG, as without the handler. */
    struct sigaction dfl = {.sa_handler = SIG_DFL};
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
    sigset_t only;
    sigemptyset(&only);
    sigaddset(&only, sig);
    raise(sig);
    sigprocmask(SIG_UNBLOCK, &only, NULL);
    errno = saved_errno;
}
