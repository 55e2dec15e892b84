/* SPDX-License-Identifier: Apache-2.0 */
/*
 * nested_walk: a signal handler that interrupts dwu_backtrace while the
 * walk holds its thread's row cache walks with another one, and both walks
 * find the frames libgcc finds.
 *
 * The moment is made, not waited for: runtime/unwind.c is built into this
 * program with DWU_TEST_NESTED_WALK, so that dwu_test_cache_taken below
 * runs where the walk has taken its cache, and raises SIGUSR1 there; the
 * handler's own dwu_backtrace then takes a cache too.  The thread's owned
 * cache is taken with a flag in its TLS (unwind.c): without it the handler
 * would take the same cache, and rewrite rows the interrupted walk is
 * reading.  Prints one line; exit status 0 when the caches differ and the
 * frames agree, 1 otherwise.
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "runtime/dwunwind.h"
#include "tests/unwind/libgcc_walk.h"

#define MAX 64

static volatile sig_atomic_t armed;
static const void *taken[2];   /* the interrupted walk's cache, then the handler's */
static int ntaken;
static void *inner[MAX];
static int ninner;

void dwu_test_cache_taken(const void *cache);
void dwu_test_cache_taken(const void *cache)
{
    if (!armed || ntaken >= 2)
        return;
    taken[ntaken++] = cache;
    if (ntaken == 1)
        raise(SIGUSR1);   /* delivered before raise returns: inside the walk */
}

static void handler(int sig)
{
    (void)sig;
    ninner = dwu_backtrace(inner, MAX);
}

static void *outer[MAX];
static int nouter;
static uint64_t reference[MAX];
static int nreference;

__attribute__((noinline)) static void walk_here(void)
{
    armed = 1;
    nouter = dwu_backtrace(outer, MAX);
    armed = 0;
    nreference = libgcc_walk(reference, MAX);
    __asm__ volatile("" ::: "memory");
}
__attribute__((noinline)) static void chain_2(void) { walk_here(); __asm__ volatile(""); }
__attribute__((noinline)) static void chain_1(void) { chain_2(); __asm__ volatile(""); }

int main(void)
{
    if (libgcc_walk_init() != 0)
        return 1;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGUSR1, &sa, NULL) != 0)
        return 1;
    void *warm[MAX];
    dwu_backtrace(warm, MAX);   /* the thread claims its owned cache */
    chain_1();
    /* The callers (from walk_here's own caller on) as libgcc sees them: the
     * outer walk's frames after its first; the handler's last frames. */
    int callers = nreference - 1, same_outer = nouter == nreference, same_inner = ninner > callers;
    for (int i = 1; same_outer && i < nouter; i++)
        same_outer = (uint64_t)(uintptr_t)outer[i] == reference[i];
    for (int i = 0; same_inner && i < callers; i++)
        same_inner = (uint64_t)(uintptr_t)inner[ninner - callers + i] == reference[1 + i];
    int ok = ntaken == 2 && taken[0] && taken[0] != taken[1] && same_outer && same_inner;
    printf("nested walk: the interrupted walk's row cache %p, the handler's %p (%s); %d frames, the handler's %d: "
           "%s libgcc's\n", taken[0], ntaken > 1 ? taken[1] : NULL,
           ntaken == 2 && taken[0] != taken[1] ? "different" : "NOT different", nouter, ninner,
           same_outer && same_inner ? "the callers as" : "NOT the callers as");
    return !ok;
}
