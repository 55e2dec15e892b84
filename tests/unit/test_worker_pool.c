/*
 * Unit tests for tools/worker_pool.h: every task's result comes back once,
 * whatever the order the workers finish in; the job count is clamped to the
 * tasks and otherwise unbounded (more workers than the 256 a fixed array
 * once held); a task that fails makes its worker, and the pool, fail.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "tools/worker_pool.h"

/* A task's result: its number and its square.  Task FAIL_AT (if any) fails. */
struct result {
    uint32_t task, square;
};

static uint32_t fail_at = UINT32_MAX;

static int square_task(uint32_t task, int fd, void *arg)
{
    (void)arg;
    if (task == fail_at)
        return -1;
    if (task % 7 == 0)
        usleep(1000);   /* some finish late, so results interleave */
    struct result r = {task, task * task};
    return worker_pool_write(fd, &r, sizeof r);
}

struct seen {
    unsigned *count;    /* [ntasks]: results received per task */
    uint32_t ntasks;
    int bad;            /* a result that is not its task's */
};

static int receive_square(int fd, void *arg)
{
    struct seen *s = arg;
    struct result r;
    if (worker_pool_read(fd, &r, sizeof r) != 0)
        return -1;
    if (r.task >= s->ntasks || r.square != r.task * r.task)
        s->bad = 1;
    else
        s->count[r.task]++;
    return 0;
}

/* Run NTASKS tasks in JOBS workers; *STARTED receives the pool's job count.
 * Returns worker_pool_finish's answer, with *SEEN filled. */
static int run_pool(uint32_t ntasks, unsigned jobs, unsigned *started, struct seen *seen)
{
    seen->count = calloc(ntasks ? ntasks : 1, sizeof *seen->count);
    seen->ntasks = ntasks;
    seen->bad = 0;
    assert_non_null(seen->count);
    char err[256];
    struct worker_pool *p = worker_pool_start(ntasks, jobs, square_task, NULL, err, sizeof err);
    assert_non_null(p);
    *started = worker_pool_jobs(p);
    int open;
    while ((open = worker_pool_receive(p, receive_square, seen)) > 0)
        ;
    assert_int_equal(open, 0);
    return worker_pool_finish(p);
}

static void test_every_result_once(void **state)
{
    (void)state;
    struct seen s;
    unsigned started;
    fail_at = UINT32_MAX;
    assert_int_equal(run_pool(100, 4, &started, &s), 0);
    assert_int_equal(started, 4);
    assert_false(s.bad);
    for (uint32_t i = 0; i < 100; i++)
        assert_int_equal(s.count[i], 1);
    free(s.count);
}

static void test_more_workers_than_256(void **state)
{
    (void)state;
    struct seen s;
    unsigned started;
    fail_at = UINT32_MAX;
    assert_int_equal(run_pool(300, 300, &started, &s), 0);
    assert_int_equal(started, 300);
    assert_false(s.bad);
    for (uint32_t i = 0; i < 300; i++)
        assert_int_equal(s.count[i], 1);
    free(s.count);
}

static void test_jobs_clamped_to_tasks(void **state)
{
    (void)state;
    struct seen s;
    unsigned started;
    fail_at = UINT32_MAX;
    assert_int_equal(run_pool(3, 8, &started, &s), 0);
    assert_int_equal(started, 3);
    free(s.count);
    assert_int_equal(run_pool(0, 8, &started, &s), 0);
    assert_int_equal(started, 0);
    free(s.count);
}

static void test_failing_task(void **state)
{
    (void)state;
    struct seen s;
    unsigned started;
    fail_at = 5;
    assert_int_equal(run_pool(20, 2, &started, &s), -1);
    fail_at = UINT32_MAX;
    assert_false(s.bad);
    assert_int_equal(s.count[5], 0);
    free(s.count);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_result_once),
        cmocka_unit_test(test_more_workers_than_256),
        cmocka_unit_test(test_jobs_clamped_to_tasks),
        cmocka_unit_test(test_failing_task),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
/* SPDX-License-Identifier: Apache-2.0 */
