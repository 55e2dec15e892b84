/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tests/register_frame/signal_walk.c: the registered frames searched from a
 * signal handler while another thread registers and deregisters.
 *
 * A worker thread spins in a callback that a registered JIT function
 * (jit_code.h) called; the main thread sends it SIGPROF again and again.
 * The handler walks its stack with the drop-in's libunwind API (the
 * async-signal-safe part: unw_getcontext, unw_init_local, unw_step,
 * unw_get_proc_info) and counts the walks that found the JIT frame's
 * procedure as registered (its start and end, not libunwind's one-byte
 * procedure of a frame without unwind information) and went on past it
 * to the worker's start; it also asks _Unwind_Find_FDE for the code of
 * the churning thread, which meanwhile maps, registers, deregisters and
 * unmaps one JIT function after another (a search must never read a
 * section once its deregistration has returned).
 *   signal_walk SIGNALS      prints "walks N, found M" and exits 0 when M == N > 0
 */
#define UNW_LOCAL_ONLY
#include <libunwind.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "jit_code.h"

void __register_frame(void *begin);
void __deregister_frame(void *begin);
struct dwarf_eh_bases {
    void *tbase, *dbase, *func;
};
const void *_Unwind_Find_FDE(void *pc, struct dwarf_eh_bases *bases);

static struct jit_code jit;
static atomic_int stop, spinning;
static atomic_long walks, found, churns;
static _Atomic(uint8_t *) churning;

static void on_signal(int sig)
{
    (void)sig;
    unw_context_t uc;
    unw_cursor_t c;
    int frames = 0, jit_frame = -1;
    unw_getcontext(&uc);
    if (unw_init_local(&c, &uc) != 0)
        return;
    while (frames < 64 && unw_step(&c) > 0) {
        unw_word_t ip;
        unw_proc_info_t pi;
        frames++;
        unw_get_reg(&c, UNW_REG_IP, &ip);
        if (ip > (unw_word_t)jit.page && ip <= (unw_word_t)jit.page + JIT_CODE_SIZE &&
            unw_get_proc_info(&c, &pi) == 0 && pi.start_ip == (unw_word_t)jit.page &&
            pi.end_ip == (unw_word_t)jit.page + JIT_CODE_SIZE)
            jit_frame = frames;
    }
    uint8_t *other = atomic_load(&churning);
    struct dwarf_eh_bases bases;
    if (other)
        _Unwind_Find_FDE(other + 1, &bases);
    atomic_fetch_add(&walks, 1);
    /* past the JIT frame: the worker's own, then the thread's start */
    if (jit_frame > 0 && frames >= jit_frame + 2)
        atomic_fetch_add(&found, 1);
}

static void spin(void *arg)
{
    (void)arg;
    atomic_store(&spinning, 1);
    while (!atomic_load(&stop))
        ;
}

static __attribute__((noinline)) void *worker(void *arg)
{
    jit.fn(spin, arg);
    __asm__ volatile("" ::: "memory");
    return NULL;
}

static void *churn(void *arg)
{
    (void)arg;
    while (!atomic_load(&stop)) {
        struct jit_code j = jit_code_make();
        __register_frame(j.section);
        atomic_store(&churning, j.page);
        __deregister_frame(j.section);
        munmap(j.page, j.size);
        atomic_fetch_add(&churns, 1);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    long signals = argc > 1 ? atol(argv[1]) : 2000;
    jit = jit_code_make();
    __register_frame(jit.section);
    struct sigaction sa = {.sa_handler = on_signal, .sa_flags = SA_RESTART};
    sigemptyset(&sa.sa_mask);
    sigaction(SIGPROF, &sa, NULL);
    pthread_t w, ch;
    pthread_create(&w, NULL, worker, NULL);
    pthread_create(&ch, NULL, churn, NULL);
    while (!atomic_load(&spinning))
        ;
    struct timespec pause = {0, 50000};
    for (long i = 0; i < signals; i++) {
        pthread_kill(w, SIGPROF);
        nanosleep(&pause, NULL);
    }
    /* the last handler done */
    while (atomic_load(&walks) < 1)
        ;
    nanosleep(&pause, NULL);
    atomic_store(&stop, 1);
    pthread_join(w, NULL);
    pthread_join(ch, NULL);
    __deregister_frame(jit.section);
    long n = atomic_load(&walks), m = atomic_load(&found);
    printf("walks %ld, found %ld, registrations meanwhile %ld\n", n, m, atomic_load(&churns));
    return n > 0 && m == n ? 0 : 1;
}
