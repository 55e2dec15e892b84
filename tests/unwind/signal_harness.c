/*
 * signal_harness: dwu_backtrace called from a SIGPROF handler while the
 * interrupted thread does what programs do: dlopen()s, calls into and
 * dlclose()s libraries, malloc()s and frees, prints (tests/unwind/harness.sh
 * runs it many times and counts crashes and hangs).
 *
 *   signal_harness --libs DIR [--seconds S] [--rate HZ] [--sources LIST]
 *                  [--no-dlopen] [--nested] [--warm] [--walker dwunwind|libgcc]
 *                  [--dwu-init]
 *
 * The main thread loops until S seconds (0.5) have passed: it loads one of
 * DIR/churn_lib0.so, churn_lib1.so, ... (churn_lib.c) in turn, calls it down
 * some frames and back into this program (malloc, free, fprintf to
 * /dev/null, and every third time another of the libraries loaded, called
 * and unloaded), unloads it, and keeps a pool of allocations of varied sizes
 * (some large enough for mmap).  --no-dlopen leaves the libraries out.
 * --dwu-init calls dwu_init after each load of the loop (when the runtime
 * has it: one that loads the eh_elfs of objects loaded since only then).
 *
 * SIGPROF reaches the main thread only, from the LIST of sources
 * (default "itimer,timer"):
 *   itimer    setitimer(ITIMER_PROF) at HZ (the kernel rounds it to its tick)
 *   timer     timer_create(CLOCK_MONOTONIC), SIGEV_THREAD_ID to the main
 *             thread, at HZ (10000)
 *   cputimer  the same on the main thread's CPU clock
 *   thread    a helper thread that pthread_kill()s the main thread at HZ
 *
 * The handler walks with dwu_backtrace and checks the walk at once (nothing
 * else happens there): it must
 *   - start with the handler's own two return addresses, as libgcc finds
 *     them when the handler is called directly before the signals start;
 *   - go on through the signal trampoline (an address in libc);
 *   - end with main's caller chain: the return address into main and those
 *     from main's caller to _start, as libgcc found them at start-up (so the
 *     frame before it is the interrupted loop, whatever it called);
 *   - so have at least 4 frames more than that chain.
 * Without --warm no dwu_backtrace runs before the signals start: the first
 * is made in a handler (libgcc made the reference lists).  --nested: the
 * main thread also calls dwu_backtrace in a loop (most of its time), from
 * one call site, and each walk must equal libgcc's list at that site (taken
 * in the first iteration); the signals then interrupt walks in progress.
 * --walker libgcc walks with libgcc's _Unwind_Backtrace instead, everywhere:
 * the control, which shows that the checks hold when the unwinder is sound
 * (the churn libraries are built without crt files, whose code has no CFI).
 *
 * Prints a summary, and how many of the objects have an eh_elf; exits 0
 * when signals arrived and every walk passed, 1 otherwise, 2 on a usage or
 * set-up error.  A crash or a hang is for the caller to see.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <getopt.h>
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "libgcc_walk.h"
#include "runtime/dwunwind.h"

#ifdef __clang__
#define KEEP __attribute__((noinline))
#else
#define KEEP __attribute__((noinline, noclone))
#endif
#define MAX_FRAMES 128
#define MAX_LIBS 8
#define POOL 64
#define NESTED_WALKS 200   /* main-thread walks per iteration with --nested */

/* The runtime's count of its objects and of those with an eh_elf
 * (runtime/objects.h, not the public API): weak, and printed only when the
 * runtime has it. */
size_t dwu_objects_count(size_t *with_eh_elf) __attribute__((weak));
/* A runtime that loads the eh_elfs of objects loaded since only when asked
 * has dwu_init (--dwu-init calls it after each dlopen, outside handlers). */
void dwu_init(void) __attribute__((weak));

typedef int (*walker_fn)(void **ips, int max);
typedef int (*churn_callback)(int);
typedef int (*churn_work_fn)(int depth, churn_callback cb);

enum { SRC_ITIMER = 1, SRC_TIMER = 2, SRC_CPU_TIMER = 4, SRC_THREAD = 8 };

struct options {
    const char *libs;
    double seconds, rate;
    unsigned sources;
    int dlopen_churn, nested, warm, init;
};

/* What the walks must show: made before the signals start, read-only after. */
static struct {
    void *head[2];                  /* return addresses in sample() and on_signal() */
    void *tail[MAX_FRAMES];         /* from the return into main to _start */
    int ntail;
    uintptr_t libc_lo, libc_hi;     /* libc's code: the signal trampoline is there */
    void *nested[MAX_FRAMES];       /* the main thread's walk (--nested) */
    int nnested;
} ref;

/* Written by the handler (on the main thread only), read once the signals
 * are blocked. */
static struct {
    long samples, nested_hits, bad;
    const char *why;                /* the first bad sample's */
    void *ips[MAX_FRAMES];
    int n;
} seen;

static struct {
    long walks, bad;
    void *ips[MAX_FRAMES];
    int n;
} main_walks;

static volatile sig_atomic_t probing, in_walk;
static walker_fn walker = dwu_backtrace;   /* the unwinder under test */

/* ---- walkers ------------------------------------------------------------- */

/* libgcc's list from this function's caller on, as dwu_backtrace lists it. */
KEEP static int gcc_walker(void **ips, int max)
{
    uint64_t raw[MAX_FRAMES + 1];
    int n = libgcc_walk(raw, max < MAX_FRAMES ? max + 1 : MAX_FRAMES + 1);
    for (int i = 1; i < n; i++)
        ips[i - 1] = (void *)(uintptr_t)raw[i];
    return n > 0 ? n - 1 : 0;
}

/* The one call site of a walker in the handler. */
KEEP static int sample(walker_fn walk, void **ips, int max)
{
    int n = walk(ips, max);
    __asm__ volatile("" ::: "memory");   /* not a tail call */
    return n;
}

/* ---- the handler ---------------------------------------------------------- */

static const char *sample_fault(void *const *ips, int n)
{
    if (n < 4 + ref.ntail)
        return "too few frames";
    if (ips[0] != ref.head[0] || ips[1] != ref.head[1])
        return "does not start in the handler";
    if ((uintptr_t)ips[2] < ref.libc_lo || (uintptr_t)ips[2] >= ref.libc_hi)
        return "no signal trampoline (libc) above the handler";
    if (memcmp(ips + n - ref.ntail, ref.tail, (size_t)ref.ntail * sizeof *ips) != 0)
        return "does not end with main's caller chain";
    return NULL;
}

static void check_sample(void *const *ips, int n)
{
    seen.samples++;
    seen.nested_hits += in_walk != 0;
    const char *why = sample_fault(ips, n);
    if (!why)
        return;
    if (seen.bad++ == 0) {
        seen.why = why;
        seen.n = n;
        memcpy(seen.ips, ips, (size_t)n * sizeof *ips);
    }
}

KEEP static void on_signal(int sig, siginfo_t *info, void *context)
{
    (void)sig;
    (void)info;
    (void)context;
    int saved_errno = errno;
    void *ips[MAX_FRAMES];
    int n = sample(probing ? gcc_walker : walker, ips, MAX_FRAMES);
    if (probing) {
        ref.head[0] = n > 0 ? ips[0] : NULL;
        ref.head[1] = n > 1 ? ips[1] : NULL;
    } else {
        check_sample(ips, n);
    }
    errno = saved_errno;
}

/* The handler's own return addresses, by libgcc, in a direct call. */
KEEP static void probe_handler(void)
{
    probing = 1;
    on_signal(0, NULL, NULL);
    probing = 0;
    __asm__ volatile("" ::: "memory");
}

/* ---- references made before the signals ------------------------------------ */

/* Called from workload(), called from main: libgcc's list from here is
 * [record_tail, workload, main, main's callers...]. */
KEEP static void record_tail(void)
{
    uint64_t raw[MAX_FRAMES];
    int n = libgcc_walk(raw, MAX_FRAMES);
    ref.ntail = 0;
    for (int i = 2; i < n; i++)
        ref.tail[ref.ntail++] = (void *)(uintptr_t)raw[i];
    __asm__ volatile("" ::: "memory");
}

static int find_code(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    Dl_info *libc = arg;
    if (info->dlpi_addr != (uintptr_t)libc->dli_fbase)
        return 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X)) {
            ref.libc_lo = info->dlpi_addr + ph->p_vaddr;
            ref.libc_hi = ref.libc_lo + ph->p_memsz;
        }
    }
    return 1;
}

static int find_libc(void)
{
    Dl_info libc;
    void *some_libc_function = (void *)(uintptr_t)&sigaction;
    if (!dladdr(some_libc_function, &libc) || !libc.dli_fbase)
        return -1;
    dl_iterate_phdr(find_code, &libc);
    return ref.libc_hi ? 0 : -1;
}

/* ---- the main thread's own walks (--nested) ---------------------------------- */

KEEP static int main_walk(walker_fn walk, void **ips, int max)
{
    in_walk = 1;
    int n = walk(ips, max);
    in_walk = 0;
    return n;
}

/* REFERENCE: WALK is gcc_walker, the first iteration: keep its list. */
KEEP static void nested_walks(walker_fn walk, int reference)
{
    void *ips[MAX_FRAMES];
    for (int k = 0; k < NESTED_WALKS; k++) {
        int n = main_walk(walk, ips, MAX_FRAMES);
        if (reference) {
            ref.nnested = n;
            memcpy(ref.nested, ips, (size_t)n * sizeof *ips);
            continue;
        }
        main_walks.walks++;
        if (n == ref.nnested && memcmp(ips, ref.nested, (size_t)n * sizeof *ips) == 0)
            continue;
        if (main_walks.bad++ == 0) {
            main_walks.n = n;
            memcpy(main_walks.ips, ips, (size_t)n * sizeof *ips);
        }
    }
}

/* ---- the churn ------------------------------------------------------------- */

static char lib_paths[MAX_LIBS][4096];
static int nlibs;
static FILE *sink;
static void *pool[POOL];
static unsigned long churn_counter;

/* Absolute names: the runtime looks for eh_elfs only of those. */
static int find_libs(const char *dir)
{
    char *abs_dir = realpath(dir, NULL);
    for (nlibs = 0; abs_dir && nlibs < MAX_LIBS; nlibs++) {
        snprintf(lib_paths[nlibs], sizeof lib_paths[nlibs], "%s/churn_lib%d.so", abs_dir, nlibs);
        if (access(lib_paths[nlibs], R_OK) != 0)
            break;
    }
    free(abs_dir);
    return nlibs;
}

/* DIR/churn_libN.so loaded, and its SYMBOL; exits on failure. */
static void *load(int n, const char *symbol, void **handle)
{
    *handle = dlopen(lib_paths[n % nlibs], RTLD_NOW | RTLD_LOCAL);
    void *sym = *handle ? dlsym(*handle, symbol) : NULL;
    if (!sym) {
        fprintf(stderr, "signal_harness: %s\n", dlerror());
        exit(2);
    }
    return sym;
}

/* Another library loaded, called and unloaded from inside a library's call. */
static int load_inner(int id)
{
    void *h, *sym = load(id + 1, "churn_id", &h);
    int (*id_of)(void);
    memcpy(&id_of, &sym, sizeof id_of);
    int r = id_of();
    dlclose(h);
    return r;
}

/* Called from the libraries (with --no-dlopen, directly): allocations of
 * varied sizes, a line printed and, every third call with the libraries,
 * another library loaded and unloaded. */
static int on_callback(int id)
{
    int r = 0;
    for (int k = 0; k < 4; k++) {
        size_t size = 16 + (size_t)id * 97 + churn_counter++ * 131 % 6000;
        char *p = malloc(size);
        if (!p)
            abort();
        memset(p, id + k, size);
        r += p[size / 2];
        free(p);
    }
    fprintf(sink, "callback %d: %d\n", id, r);
    if (nlibs && churn_counter % 3 == 0)
        r += load_inner(id);
    return r;
}

static int init_after_dlopen;   /* --dwu-init */

static int call_library(long i)
{
    void *h, *sym = load((int)i, "churn_work", &h);
    if (init_after_dlopen && dwu_init)
        dwu_init();
    churn_work_fn work;
    memcpy(&work, &sym, sizeof work);
    int r = work(4 + (int)(i % 13), on_callback);
    dlclose(h);
    return r;
}

/* Replace one allocation of the pool: up to 64 KiB, and now and then one
 * above the mmap threshold. */
static void stir_pool(long i)
{
    size_t slot = (size_t)i * 7919 % POOL;
    size_t size = i % 50 == 0 ? (size_t)256 << 10 : 32 + (size_t)(i * 2654435761u % 65536);
    free(pool[slot]);
    pool[slot] = malloc(size);
    if (!pool[slot])
        abort();
    memset(pool[slot], (int)i, size < 4096 ? size : 4096);
}

static void churn_once(const struct options *o, long i)
{
    int r = o->dlopen_churn ? call_library(i) : on_callback((int)(i % 7));
    stir_pool(i);
    fprintf(sink, "iteration %ld: %d\n", i, r);
}

/* ---- the signal sources -------------------------------------------------------- */

static timer_t timers[2];
static int ntimers;
static pthread_t main_thread, sender;
static atomic_int sending;

static void *send_signals(void *arg)
{
    const struct options *o = arg;
    prctl(PR_SET_TIMERSLACK, 1UL);
    struct timespec pause = {0, (long)(1e9 / o->rate)};
    while (atomic_load(&sending)) {
        pthread_kill(main_thread, SIGPROF);
        nanosleep(&pause, NULL);
    }
    return NULL;
}

static int make_timer(clockid_t clock, double rate)
{
    struct sigevent ev;
    memset(&ev, 0, sizeof ev);
    ev.sigev_notify = SIGEV_THREAD_ID;
    ev.sigev_signo = SIGPROF;
    ev._sigev_un._tid = gettid();
    long ns = (long)(1e9 / rate);
    struct itimerspec every = {{ns / 1000000000, ns % 1000000000}, {ns / 1000000000, ns % 1000000000}};
    if (timer_create(clock, &ev, &timers[ntimers]) != 0)
        return -1;
    return timer_settime(timers[ntimers++], 0, &every, NULL);
}

static void block_sigprof(int how)
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGPROF);
    pthread_sigmask(how, &set, NULL);
}

static int start_signals(const struct options *o)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_signal;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGPROF, &sa, NULL) != 0)
        return -1;
    long us = (long)(1e6 / o->rate);
    struct itimerval every = {{us / 1000000, us % 1000000}, {us / 1000000, us % 1000000}};
    if ((o->sources & SRC_ITIMER) && setitimer(ITIMER_PROF, &every, NULL) != 0)
        return -1;
    if ((o->sources & SRC_TIMER) && make_timer(CLOCK_MONOTONIC, o->rate) != 0)
        return -1;
    if ((o->sources & SRC_CPU_TIMER) && make_timer(CLOCK_THREAD_CPUTIME_ID, o->rate) != 0)
        return -1;
    if (o->sources & SRC_THREAD) {
        main_thread = pthread_self();
        atomic_store(&sending, 1);
        block_sigprof(SIG_BLOCK);   /* the sender inherits the blocked signal */
        int rc = pthread_create(&sender, NULL, send_signals, (void *)o);
        block_sigprof(SIG_UNBLOCK);
        if (rc != 0)
            return -1;
    }
    return 0;
}

static void stop_signals(const struct options *o)
{
    block_sigprof(SIG_BLOCK);
    struct itimerval off;
    memset(&off, 0, sizeof off);
    setitimer(ITIMER_PROF, &off, NULL);
    for (int i = 0; i < ntimers; i++)
        timer_delete(timers[i]);
    if (o->sources & SRC_THREAD) {
        atomic_store(&sending, 0);
        pthread_join(sender, NULL);
    }
}

/* ---- the run --------------------------------------------------------------------- */

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Runs for o->seconds with the signals on; returns the iterations. */
KEEP static long workload(const struct options *o)
{
    record_tail();
    probe_handler();
    if (o->warm) {
        void *ips[MAX_FRAMES];
        walker(ips, MAX_FRAMES);
    }
    if (start_signals(o) != 0) {
        perror("signal_harness: starting the signals");
        exit(2);
    }
    double end = now() + o->seconds;
    long i;
    for (i = 0; now() < end; i++) {
        if (o->nested)
            nested_walks(i == 0 ? gcc_walker : walker, i == 0);
        churn_once(o, i);
    }
    stop_signals(o);
    return i;
}

static void print_frames(const char *title, void *const *ips, int n)
{
    fprintf(stderr, "%s (%d frames):\n", title, n);
    for (int i = 0; i < n; i++) {
        Dl_info d;
        int known = dladdr(ips[i], &d);
        fprintf(stderr, "  #%-2d %p %s+0x%lx (%s)\n", i, ips[i], known && d.dli_sname ? d.dli_sname : "?",
                known && d.dli_saddr ? (unsigned long)((char *)ips[i] - (char *)d.dli_saddr) : 0UL,
                known && d.dli_fname ? d.dli_fname : "?");
    }
}

static unsigned parse_sources(const char *list)
{
    static const struct { const char *name; unsigned bit; } names[] = {
        {"itimer", SRC_ITIMER}, {"timer", SRC_TIMER}, {"cputimer", SRC_CPU_TIMER}, {"thread", SRC_THREAD}};
    unsigned bits = 0;
    char copy[256];
    snprintf(copy, sizeof copy, "%s", list);
    char *save = NULL;
    for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        unsigned bit = 0;
        for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
            if (strcmp(t, names[k].name) == 0)
                bit = names[k].bit;
        if (!bit)
            return 0;
        bits |= bit;
    }
    return bits;
}

static int parse_options(int argc, char **argv, struct options *o)
{
    static const struct option long_options[] = {
        {"libs", required_argument, NULL, 'l'},    {"seconds", required_argument, NULL, 's'},
        {"rate", required_argument, NULL, 'r'},    {"sources", required_argument, NULL, 'S'},
        {"no-dlopen", no_argument, NULL, 'n'},     {"nested", no_argument, NULL, 'N'},
        {"warm", no_argument, NULL, 'w'},          {"walker", required_argument, NULL, 'W'},
        {"dwu-init", no_argument, NULL, 'i'},      {NULL, 0, NULL, 0}};
    *o = (struct options){NULL, 0.5, 10000, SRC_ITIMER | SRC_TIMER, 1, 0, 0, 0};
    int c;
    while ((c = getopt_long(argc, argv, "", long_options, NULL)) != -1) {
        switch (c) {
        case 'l': o->libs = optarg; break;
        case 's': o->seconds = atof(optarg); break;
        case 'r': o->rate = atof(optarg); break;
        case 'S': o->sources = parse_sources(optarg); break;
        case 'n': o->dlopen_churn = 0; break;
        case 'N': o->nested = 1; break;
        case 'w': o->warm = 1; break;
        case 'i': o->init = 1; break;
        case 'W':
            if (strcmp(optarg, "libgcc") == 0)
                walker = gcc_walker;
            else if (strcmp(optarg, "dwunwind") != 0)
                return -1;
            break;
        default: return -1;
        }
    }
    if (optind != argc || !o->sources || o->rate <= 0 || o->seconds <= 0 || (o->dlopen_churn && !o->libs))
        return -1;
    return 0;
}

int main(int argc, char **argv)
{
    struct options o;
    if (parse_options(argc, argv, &o) != 0) {
        fprintf(stderr, "usage: signal_harness --libs DIR [--seconds S] [--rate HZ] "
                        "[--sources itimer,timer,cputimer,thread] [--no-dlopen] [--nested] [--warm] "
                        "[--walker dwunwind|libgcc] [--dwu-init]\n");
        return 2;
    }
    if (libgcc_walk_init() != 0 || find_libc() != 0)
        return 2;
    if (o.dlopen_churn && find_libs(o.libs) == 0) {
        fprintf(stderr, "signal_harness: no %s/churn_lib0.so\n", o.libs);
        return 2;
    }
    init_after_dlopen = o.init;
    sink = fopen("/dev/null", "w");
    if (!sink)
        return 2;
    long iterations = workload(&o);
    for (int k = 0; k < POOL; k++)
        free(pool[k]);
    fclose(sink);
    printf("signal_harness: %ld samples (%ld during a main-thread walk), %ld iterations, %ld main-thread walks; "
           "%ld bad samples, %ld bad main-thread walks\n",
           seen.samples, seen.nested_hits, iterations, main_walks.walks, seen.bad, main_walks.bad);
    if (dwu_objects_count) {
        size_t with_eh_elf, segments = dwu_objects_count(&with_eh_elf);
        printf("signal_harness: %zu code segments, %zu with an eh_elf\n", segments, with_eh_elf);
    }
    if (seen.bad) {
        fprintf(stderr, "first bad sample: %s\n", seen.why);
        print_frames("its walk", seen.ips, seen.n);
        print_frames("main's caller chain expected at the end", ref.tail, ref.ntail);
    }
    if (main_walks.bad) {
        print_frames("first bad main-thread walk", main_walks.ips, main_walks.n);
        print_frames("expected (libgcc)", ref.nested, ref.nnested);
    }
    if (seen.samples == 0)
        fprintf(stderr, "signal_harness: no signal arrived\n");
    return seen.samples && !seen.bad && !main_walks.bad ? 0 : 1;
}
/* SPDX-License-Identifier: Apache-2.0 */
