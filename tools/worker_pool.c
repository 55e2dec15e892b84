/* SPDX-License-Identifier: Apache-2.0 */
/*
 * worker_pool: forked workers over a shared task counter (worker_pool.h).
 */
#include "worker_pool.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sys/error.h"

struct worker_pool {
    unsigned jobs;          /* workers started */
    int open;               /* pipes not yet at their end */
    pid_t *pids;            /* [jobs] */
    struct pollfd *fds;     /* [jobs]; fd -1 once closed */
    uint32_t *next;         /* the next task, in memory shared with the workers */
};

int worker_pool_write(int fd, const void *buf, size_t n)
{
    const char *c = buf;
    while (n > 0) {
        ssize_t w = write(fd, c, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        c += w;
        n -= (size_t)w;
    }
    return 0;
}

int worker_pool_read(int fd, void *buf, size_t n)
{
    char *c = buf;
    while (n > 0) {
        ssize_t r = read(fd, c, n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        c += r;
        n -= (size_t)r;
    }
    return 0;
}

/* A worker: the next task until none is left. */
static int work(uint32_t ntasks, uint32_t *next, worker_run_fn run, void *arg, int fd)
{
    for (;;) {
        uint32_t task = __atomic_fetch_add(next, 1, __ATOMIC_RELAXED);
        if (task >= ntasks)
            return 0;
        if (run(task, fd, arg) != 0)
            return 2;
    }
}

static void pool_free(struct worker_pool *p)
{
    if (p->next != MAP_FAILED)
        munmap(p->next, sizeof *p->next);
    free(p->pids);
    free(p->fds);
    free(p);
}

/* Stop the workers P started (a start that failed half-way). */
static void stop_workers(struct worker_pool *p)
{
    for (unsigned k = 0; k < p->jobs; k++) {
        close(p->fds[k].fd);
        kill(p->pids[k], SIGKILL);
        while (waitpid(p->pids[k], NULL, 0) < 0 && errno == EINTR)
            ;
    }
    pool_free(p);
}

struct worker_pool *worker_pool_start(uint32_t ntasks, unsigned jobs, worker_run_fn run, void *arg,
                                      char *err, size_t errlen)
{
    if (jobs > ntasks)
        jobs = ntasks;
    struct worker_pool *p = calloc(1, sizeof *p);
    if (!p) {
        error_set(err, errlen, "out of memory");
        return NULL;
    }
    p->next = mmap(NULL, sizeof *p->next, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    p->pids = calloc(jobs ? jobs : 1, sizeof *p->pids);
    p->fds = calloc(jobs ? jobs : 1, sizeof *p->fds);
    if (p->next == MAP_FAILED || !p->pids || !p->fds) {
        error_set(err, errlen, "out of memory");
        pool_free(p);
        return NULL;
    }
    *p->next = 0;
    fflush(NULL);
    for (unsigned k = 0; k < jobs; k++) {
        int fd[2];
        if (pipe(fd) != 0) {
            error_set(err, errlen, "cannot start worker processes: %s", strerror(errno));
            stop_workers(p);
            return NULL;
        }
        pid_t pid = fork();
        if (pid < 0) {
            error_set(err, errlen, "cannot start worker processes: %s", strerror(errno));
            close(fd[0]);
            close(fd[1]);
            stop_workers(p);
            return NULL;
        }
        if (pid == 0) {
            close(fd[0]);
            _exit(work(ntasks, p->next, run, arg, fd[1]));
        }
        close(fd[1]);
        p->pids[k] = pid;
        p->fds[k] = (struct pollfd){.fd = fd[0], .events = POLLIN};
        p->jobs++;
        p->open++;
    }
    return p;
}

unsigned worker_pool_jobs(const struct worker_pool *p)
{
    return p->jobs;
}

int worker_pool_receive(struct worker_pool *p, worker_receive_fn receive, void *arg)
{
    if (p->open == 0)
        return 0;
    if (poll(p->fds, (nfds_t)p->jobs, -1) < 0)
        return errno == EINTR ? p->open : -1;
    for (unsigned k = 0; k < p->jobs; k++) {
        struct pollfd *f = &p->fds[k];
        if (f->fd < 0 || !(f->revents & (POLLIN | POLLHUP | POLLERR)))
            continue;
        if (receive(f->fd, arg) != 0) {
            close(f->fd);
            f->fd = -1;
            p->open--;
        }
    }
    return p->open;
}

int worker_pool_finish(struct worker_pool *p)
{
    int rc = 0;
    for (unsigned k = 0; k < p->jobs; k++) {
        int ws;
        if (p->fds[k].fd >= 0)
            close(p->fds[k].fd);
        pid_t w;
        while ((w = waitpid(p->pids[k], &ws, 0)) < 0 && errno == EINTR)
            ;
        if (w < 0 || !WIFEXITED(ws) || WEXITSTATUS(ws) != 0)
            rc = -1;
    }
    pool_free(p);
    return rc;
}
