/* SPDX-License-Identifier: Apache-2.0 */
/*
 * worker_pool: tasks run in forked worker processes, results read back in
 * the parent.
 *
 * A front end that handles many files (dwcheck) starts a pool over tasks
 * 0 .. NTASKS-1 with JOBS workers.  Each worker is a forked child with a
 * pipe to the parent; it takes the next task from a counter all workers
 * share (so a big file does not hold up a fixed share of the others), runs
 * it with the RUN callback, which writes the task's result to the pipe, and
 * exits when no task is left.  The parent waits for results with
 * worker_pool_receive, which hands each pipe that has data to the RECEIVE
 * callback; results arrive in any order, and the caller puts them back in
 * its own.  It lives with the front ends: the stages are libraries that do
 * one file in the calling process, and only a command line has many.
 *
 * The format of a result on the pipe is the caller's (RUN writes one,
 * RECEIVE reads one); worker_pool_write and worker_pool_read move whole
 * buffers over a pipe.
 *
 * Ownership and invariants: the pool owns its children, the read ends of
 * their pipes and the shared counter; worker_pool_finish waits for every
 * child and frees everything.  Its arrays are sized from the job count,
 * never a fixed bound: JOBS is at most NTASKS (a worker with no task is not
 * started), and otherwise any count the system lets us fork.  Workers
 * inherit the parent's memory: stdio buffers are flushed before the fork,
 * and a worker leaves with _exit, never through the parent's atexit work.
 */
#ifndef DWCHECK_WORKER_POOL_H
#define DWCHECK_WORKER_POOL_H

#include <stddef.h>
#include <stdint.h>

struct worker_pool;

/* In a worker: run task TASK and write its result to FD.  Returns 0, or -1
 * (the worker then stops and exits with status 2). */
typedef int (*worker_run_fn)(uint32_t task, int fd, void *arg);

/* In the parent: read one result from FD, a worker's pipe that has data or
 * has reached its end.  Returns 0, or -1 at the end of the pipe or on a
 * broken result: the pool then closes the pipe. */
typedef int (*worker_receive_fn)(int fd, void *arg);

/*
 * Start min(JOBS, NTASKS) workers (JOBS at least 1) running RUN(task, fd,
 * ARG) over the tasks.  Returns the pool, or NULL with a reason in ERR
 * (out of memory, fork or pipe failed: the workers already started are then
 * stopped and waited for).
 */
struct worker_pool *worker_pool_start(uint32_t ntasks, unsigned jobs, worker_run_fn run, void *arg,
                                      char *err, size_t errlen);

/* The number of workers P started. */
unsigned worker_pool_jobs(const struct worker_pool *p);

/*
 * Wait until a worker's pipe has data or ends, and call RECEIVE(fd, ARG) for
 * every such pipe.  Returns the number of pipes still open (0: every worker
 * is done and all results are in; nothing is waited for then), or -1 when
 * waiting failed.  A signal that interrupts the wait is not a failure.
 */
int worker_pool_receive(struct worker_pool *p, worker_receive_fn receive, void *arg);

/* Close the pipes, wait for every worker and free P.  Returns 0 when every
 * worker exited with status 0, else -1. */
int worker_pool_finish(struct worker_pool *p);

/* Write, or read, exactly N bytes at BUF to, or from, FD (retrying
 * interrupted calls).  Return 0, or -1 (an error, or the end of the pipe). */
int worker_pool_write(int fd, const void *buf, size_t n);
int worker_pool_read(int fd, void *buf, size_t n);

#endif
