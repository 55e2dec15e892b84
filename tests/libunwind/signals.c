/* SPDX-License-Identifier: Apache-2.0 */
/*
 * signals: the drop-in's walks where a profiler makes them — in a SIGPROF
 * handler, every 250 microseconds, that interrupts whatever the program
 * does: malloc and free,
 * stdio, dlopen and dlclose of a library and calls into it, and deep
 * chains (tests/unwind/frames.c).  Each sample walks twice: unw_backtrace,
 * and a cursor from the signal's context (unw_init_local2,
 * UNW_INIT_SIGNAL_FRAME) stepped with unw_step; the two must give the
 * same frames from the interrupted one on, and the cursor's walk must end
 * at the outermost frame (unw_step 0).  A crash or a hang (a lock the
 * handler waits for) ends the run: tests/libunwind/run.sh runs it under a
 * timeout.  The dynamic loader's and malloc's locks are held by the code
 * interrupted, so only an async-signal-safe walk gets through.
 *
 *   signals SECONDS LIBRARY
 *
 * Prints "signals: N samples, F frames, M mismatches, S short walks";
 * exit status 1 when M or S is not 0 or there were no samples.
 */
#define _GNU_SOURCE
#define UNW_LOCAL_ONLY
#include <dlfcn.h>
#include <libunwind.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tests/unwind/frames.h"

#define MAX_FRAMES 128

static volatile sig_atomic_t samples, frames, mismatches, short_walks;

static void on_prof(int sig, siginfo_t *info, void *context)
{
    (void)sig, (void)info;
    void *ips[MAX_FRAMES];
    unw_word_t walked[MAX_FRAMES];
    int n = unw_backtrace(ips, MAX_FRAMES);
    unw_cursor_t c;
    if (unw_init_local2(&c, context, UNW_INIT_SIGNAL_FRAME) != 0) {
        short_walks++;
        return;
    }
    int m = 0, r;
    do {
        unw_get_reg(&c, UNW_REG_IP, &walked[m++]);
        r = unw_step(&c);
    } while (r > 0 && m < MAX_FRAMES);
    if (r < 0 && m < MAX_FRAMES)
        short_walks++;
    /* unw_backtrace's frames from the interrupted one on are the cursor's */
    int k = 0;
    while (k < n && (unw_word_t)(uintptr_t)ips[k] != walked[0])
        k++;
    if (k == n || n - k != m || memcmp(ips + k, walked, sizeof walked[0] * (size_t)m) != 0)
        mismatches++;
    samples++;
    frames += m;
}

static volatile int sink;

/* Called at the bottom of the library's frames (tests/unwind/churn_lib.c). */
static int in_library(int depth)
{
    char *p = malloc((size_t)(64 + depth));
    if (p)
        snprintf(p, 64, "%d", depth);
    int r = p ? p[0] : 0;
    free(p);
    return r;
}

static int spin(void *arg)
{
    (void)arg;
    for (int i = 0; i < 20000; i++)
        sink += i;
    return 1;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: signals SECONDS LIBRARY\n");
        return 2;
    }
    double seconds = atof(argv[1]);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_prof;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigaction(SIGPROF, &sa, NULL);
    /* every 250 microseconds (a high-resolution timer, not the profiling
     * clock's ticks) */
    timer_t timer;
    struct sigevent ev;
    memset(&ev, 0, sizeof ev);
    ev.sigev_notify = SIGEV_SIGNAL;
    ev.sigev_signo = SIGPROF;
    struct itimerspec every = {{0, 250000}, {0, 250000}};
    if (timer_create(CLOCK_MONOTONIC, &ev, &timer) != 0 || timer_settime(timer, 0, &every, NULL) != 0) {
        perror("timer_create");
        return 2;
    }
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    unsigned round = 0;
    do {
        char line[256];
        void *blocks[64];
        for (int i = 0; i < 64; i++)
            blocks[i] = malloc((size_t)(16 + (round * 7 + (unsigned)i * 13) % 4000));
        for (int i = 0; i < 64; i++)
            free(blocks[i]);
        snprintf(line, sizeof line, "round %u %f %s", round, seconds, argv[2]);
        sink += (int)strlen(line);
        void *lib = dlopen(argv[2], RTLD_NOW | RTLD_LOCAL);
        if (lib) {
            int (*fn)(int, int (*)(int)) = (int (*)(int, int (*)(int)))dlsym(lib, "churn_work");
            if (fn)
                sink += fn(8, in_library);
            dlclose(lib);
        }
        chain(10 + (int)(round % 20), spin, NULL);
        chain_recursive(10 + (int)(round % 30), spin, NULL);
        round++;
        clock_gettime(CLOCK_MONOTONIC, &now);
    } while ((double)(now.tv_sec - start.tv_sec) + (double)(now.tv_nsec - start.tv_nsec) / 1e9 < seconds);
    timer_delete(timer);
    printf("signals: %d samples, %d frames, %d mismatches, %d short walks (%u rounds)\n", (int)samples, (int)frames,
           (int)mismatches, (int)short_walks, round);
    return samples > 0 && mismatches == 0 && short_walks == 0 ? 0 : 1;
}
