/*
 * unwind_bench: nanoseconds per frame of dwunwind's eh_elfs against
 * libunwind, libgcc and a frame-pointer walk, on the same stacks, in one run.
 *
 *   unwind_bench [--seconds S]
 *
 * 1. A deep chain (tests/unwind/frames.c, 100 frames of varied shapes and a
 *    detour through libc): at its bottom each unwinder walks the whole
 *    stack, REPS times per trial, TRIALS trials; the median trial counts.
 *    The frame-pointer walk runs on the same shapes built with
 *    -fno-omit-frame-pointer and without the libc detour.
 * 2. Captured stacks: the corpus programs (C, and C++ exceptions), then
 *    small libz3 problems, run in a loop under a profiling timer; at each
 *    tick the signal handler unwinds the interrupted stack with every
 *    unwinder (from the signal context, as perf does), SAMPLE_REPS times
 *    each, and checks that the IPs agree with libunwind's and libgcc's.
 *    Per unwinder, the median over the samples of ns per frame: over all
 *    the walks, over the first (the unwinder's own tables and code come
 *    from memory: the workload evicted them since the last tick) and over
 *    the repeated ones.  eh_elf's speed-up over an unwinder is the median
 *    over the samples of their ratio on the same stack (paired: the mix of
 *    stacks a run happens to sample moves both alike).  libunwind without
 *    its cache runs in a second pass (its policy is global), paired with
 *    eh_elf's walks of that pass.
 * 3. Recorded stacks: each sample of part 2 is also recorded as perf
 *    records it (registers and a copy of the stack), and after the pass the
 *    copies are unwound by eh_elf and by libunwind's remote API, as perf
 *    report unwinds them (recorded_stacks.h).
 *
 * Prints ns/frame and eh_elf's speed-up over each; exit status 1 when
 * eh_elf's IP sequence differs from a reference, or a callee-saved register
 * eh_elf restores differs from libunwind's (compared on every captured
 * stack, untimed).  A stack on which libunwind and libgcc disagree with
 * each other, eh_elf agreeing with one, is counted and shown apart: the
 * interrupted code's CFI does not hold there, and no answer is the truth.
 */
#define _GNU_SOURCE
#define UNW_LOCAL_ONLY
#include <libunwind.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <ucontext.h>

#include "bench/bench_stats.h"
#include "bench/ip_lists.h"
#include "bench/recorded_stacks.h"
#include "runtime/dwunwind.h"
#include "tests/unwind/libgcc_walk.h"
#include "runtime/objects.h"   /* dwu_objects_at: is an IP in loaded code */
#include "tests/unwind/frames.h"
#include "tests/unwind/callee_saved.h"

#define DEPTH 100
#define REPS 200
#define TRIALS 9
#define SAMPLE_REPS 4
#define MAX_SAMPLES 20000

enum method { EH_ELF, UNW_STEP, UNW_STEP_NOCACHE, UNW_BACKTRACE, LIBGCC, FP_WALK, NMETHODS };
static const char *const method_name[NMETHODS] = {
    "eh_elf (dwu_unwind)", "libunwind unw_step, default cache", "libunwind unw_step, UNW_CACHE_NONE",
    "libunwind unw_backtrace", "libgcc _Unwind_Backtrace", "frame-pointer walk (fp build)",
};

/* ---- the unwinders, each returning the frames it walked --------------- */

static int walk_eh_elf(const struct dwu_regs *start, uint64_t *ips, int *status)
{
    struct dwu_regs regs = *start;
    return dwu_unwind(&regs, NULL, ips, MAX_FRAMES, status);
}

static int walk_libunwind(unw_context_t *uc, int signal_frame, uint64_t *ips)
{
    unw_cursor_t cur;
    if (unw_init_local2(&cur, uc, signal_frame ? UNW_INIT_SIGNAL_FRAME : 0) != 0)
        return 0;
    int n = 0;
    do {
        unw_word_t ip;
        unw_get_reg(&cur, UNW_REG_IP, &ip);
        ips[n++] = ip;
    } while (n < MAX_FRAMES && unw_step(&cur) > 0);
    return n;
}

static int walk_libgcc(uint64_t *ips)
{
    return libgcc_walk(ips, MAX_FRAMES);
}

static int walk_unw_backtrace(uint64_t *ips)
{
    return unw_backtrace((void **)ips, MAX_FRAMES);
}

static uint64_t stack_lo, stack_hi;

static __attribute__((noinline)) int walk_frame_pointers(uint64_t *ips)
{
    const uint64_t *fp = __builtin_frame_address(0);
    int n = 0;
    while (n < MAX_FRAMES && (uint64_t)(uintptr_t)fp > stack_lo && (uint64_t)(uintptr_t)fp < stack_hi) {
        ips[n++] = fp[1];
        const uint64_t *up = (const uint64_t *)(uintptr_t)fp[0];
        if (up <= fp)
            break;
        fp = up;
    }
    return n;
}

/* ---- 1. the deep chain ------------------------------------------------ */

static double chain_ns[NMETHODS];
static int chain_frames[NMETHODS];

static __attribute__((noinline)) int time_chain(void *arg)
{
    (void)arg;
    static uint64_t ips[MAX_FRAMES];
    double trial[NMETHODS][TRIALS];
    struct dwu_regs start;
    unw_context_t uc;
    dwu_capture(&start);
    unw_getcontext(&uc);
    for (int t = 0; t < TRIALS; t++) {
        for (int m = 0; m < NMETHODS; m++) {
            if (m == FP_WALK || m == UNW_STEP_NOCACHE)
                continue;
            double t0 = now_ns();
            int n = 0;
            for (int r = 0; r < REPS; r++) {
                switch (m) {
                case EH_ELF: n = walk_eh_elf(&start, ips, NULL); break;
                case UNW_STEP: n = walk_libunwind(&uc, 0, ips); break;
                case UNW_BACKTRACE: n = walk_unw_backtrace(ips); break;
                case LIBGCC: n = walk_libgcc(ips); break;
                }
            }
            trial[m][t] = (now_ns() - t0) / REPS / (n ? n : 1);
            chain_frames[m] = n;
        }
        /* Without libunwind's cache (the policy is global: set, run, reset). */
        unw_set_caching_policy(unw_local_addr_space, UNW_CACHE_NONE);
        double t0 = now_ns();
        int n = 0;
        for (int r = 0; r < REPS; r++)
            n = walk_libunwind(&uc, 0, ips);
        trial[UNW_STEP_NOCACHE][t] = (now_ns() - t0) / REPS / (n ? n : 1);
        chain_frames[UNW_STEP_NOCACHE] = n;
        unw_set_caching_policy(unw_local_addr_space, UNW_CACHE_GLOBAL);
    }
    for (int m = 0; m < NMETHODS; m++)
        if (m != FP_WALK)
            chain_ns[m] = median(trial[m], TRIALS);
    return 0;
}

static __attribute__((noinline)) int time_fp_chain(void *arg)
{
    (void)arg;
    static uint64_t ips[MAX_FRAMES];
    double trial[TRIALS];
    for (int t = 0; t < TRIALS; t++) {
        double t0 = now_ns();
        int n = 0;
        for (int r = 0; r < REPS * 10; r++)
            n = walk_frame_pointers(ips);
        trial[t] = (now_ns() - t0) / (REPS * 10) / (n ? n : 1);
        chain_frames[FP_WALK] = n;
    }
    chain_ns[FP_WALK] = median(trial, TRIALS);
    return 0;
}

/* ---- 2. captured stacks ----------------------------------------------- */

/* Per unwinder and sample, ns per frame: over all SAMPLE_REPS walks, over
 * the first walk alone (its own tables and code not yet in the cache), and
 * over the repeated walks; and the unwinder's time over eh_elf's on the
 * same sample (eh_elf's speed-up). */
enum walk_kind { ALL_WALKS, FIRST_WALK, REPEAT_WALKS, NKINDS };
static double *sample_ns[NMETHODS][NKINDS], *speedup[NMETHODS][NKINDS];
static size_t nsamples[NMETHODS], nspeedups[NMETHODS];
static long mismatches, disagreements, checked_samples, checked_frames;
static int pass_nocache;

/* Record one sample's walks by M (ns per frame in TICK_NS[M]); with eh_elf's
 * walks of the same sample, their ratio. */
static void add_sample(int m, double tick_ns[NMETHODS][NKINDS], const int *count)
{
    if (count[m] <= 0 || nsamples[m] >= MAX_SAMPLES)
        return;
    size_t i = nsamples[m]++;
    for (int k = 0; k < NKINDS; k++)
        sample_ns[m][k][i] = tick_ns[m][k];
    if (m == EH_ELF || count[EH_ELF] <= 0)
        return;
    i = nspeedups[m]++;
    for (int k = 0; k < NKINDS; k++)
        speedup[m][k][i] = tick_ns[m][k] / tick_ns[EH_ELF][k];
}

static long garbage_ends, inside_libgcc;
static const struct dwu_object *libgcc_object;

/* IP lists agree: B (from the signal context) is the tail of A from the
 * first frame of A equal to B's first, up to where one leaves loaded code.
 * Lists cut at MAX_FRAMES agree on what both hold. */
static int same_tail(const uint64_t *a, int na, const uint64_t *b, int nb)
{
    for (int k = 0; k < na; k++)
        if (a[k] == b[0])
            return ips_agree(a + k, na - k, na < MAX_FRAMES, b, nb, nb < MAX_FRAMES);
    return 0;
}

/* On stderr: where the sample was taken, and eh_elf's IPs beside WHO's. */
static void report_difference(const char *who, const struct dwu_regs *start, const uint64_t *mine, int n,
                              const uint64_t *other, int k, int status)
{
    const struct dwu_object *o = dwu_objects_at(start->r[DWU_RIP]);
    fprintf(stderr, "sample at 0x%llx (object offset 0x%llx): %s differs (eh_elf %d frames, %s; %s %d)\n",
            (unsigned long long)start->r[DWU_RIP], (unsigned long long)(start->r[DWU_RIP] - (o ? o->bias : 0)),
            who, n, dwu_strerror(status), who, k);
    for (int i = 0; i < n || i < k; i++)
        fprintf(stderr, "  %2d %16llx %16llx\n", i, i < n ? (unsigned long long)mine[i] : 0ull,
                i < k ? (unsigned long long)other[i] : 0ull);
}

static long registers_compared, register_mismatches;

/* Untimed: step eh_elf and libunwind together over the sample, and compare
 * the callee-saved registers eh_elf restores with libunwind's, frame by
 * frame, while both are in loaded code and agree on the IP. */
static void compare_registers(const struct dwu_regs *start, unw_context_t *uctx)
{
    struct dwu_regs regs = *start;
    unw_cursor_t cur;
    if (unw_init_local2(&cur, uctx, UNW_INIT_SIGNAL_FRAME) != 0)
        return;
    for (int frame = 0; frame < MAX_FRAMES; frame++) {
        unw_word_t ip, v;
        unw_get_reg(&cur, UNW_REG_IP, &ip);
        if (ip != regs.r[DWU_RIP] || !dwu_objects_at(ip - (frame > 0)))
            return;
        for (int k = 0; k < NCALLEE_SAVED; k++) {
            if (!(regs.valid & (1u << dwu_callee_saved[k])) || unw_get_reg(&cur, unw_callee_saved[k], &v) != 0)
                continue;
            registers_compared++;
            if (v != regs.r[dwu_callee_saved[k]] && register_mismatches++ < 5)
                fprintf(stderr, "sample at 0x%llx, frame %d (ip 0x%llx): register %d is 0x%llx, libunwind 0x%llx\n",
                        (unsigned long long)start->r[DWU_RIP], frame, (unsigned long long)ip,
                        dwu_callee_saved[k], (unsigned long long)regs.r[dwu_callee_saved[k]],
                        (unsigned long long)v);
        }
        if (unw_step(&cur) <= 0 || dwu_step(&regs, NULL) != DWU_OK)
            return;
    }
}

static void take_sample(void *ctx)
{
    static uint64_t ips[NMETHODS][MAX_FRAMES];
    static unsigned turn;
    const ucontext_t *uc = ctx;
    const greg_t *g = uc->uc_mcontext.gregs;
    /* Every register the kernel saved: a row may read any of them (GCC's
     * DRAP prologue keeps the CFA in r10 for two instructions). */
    static const int greg_of[DWU_NREGS] = {
        [DWU_RAX] = REG_RAX, [DWU_RDX] = REG_RDX, [DWU_RCX] = REG_RCX, [DWU_RBX] = REG_RBX,
        [DWU_RSI] = REG_RSI, [DWU_RDI] = REG_RDI, [DWU_RBP] = REG_RBP, [DWU_RSP] = REG_RSP,
        [DWU_R8] = REG_R8,   [DWU_R9] = REG_R9,   [DWU_R10] = REG_R10, [DWU_R11] = REG_R11,
        [DWU_R12] = REG_R12, [DWU_R13] = REG_R13, [DWU_R14] = REG_R14, [DWU_R15] = REG_R15,
        [DWU_RIP] = REG_RIP,
    };
    struct dwu_regs start = {.valid = (1u << DWU_NREGS) - 1, .flags = DWU_FLAG_EXACT_IP};
    for (int r = 0; r < DWU_NREGS; r++)
        start.r[r] = (uint64_t)g[greg_of[r]];
    unw_context_t *uctx = (unw_context_t *)ctx;
    /* Interrupted inside libgcc's unwinder (a C++ exception being
     * dispatched, its context half installed): the stack is not described
     * there, and libgcc crashes unwinding itself.  Not a sample. */
    if (dwu_objects_at(start.r[DWU_RIP]) == libgcc_object) {
        inside_libgcc++;
        return;
    }
    /* The unwinders of this pass take turns going first: the first walk of
     * a sample also brings the interrupted stack into the cache. */
    static const int first_pass[] = {EH_ELF, UNW_STEP, LIBGCC, UNW_BACKTRACE};
    static const int nocache_pass[] = {EH_ELF, UNW_STEP_NOCACHE};
    const int *methods = pass_nocache ? nocache_pass : first_pass;
    int nmethods = pass_nocache ? 2 : 4, count[NMETHODS] = {0}, status = DWU_OK;
    double tick_ns[NMETHODS][NKINDS];
    turn++;
    for (int j = 0; j < nmethods; j++) {
        int m = methods[(turn + (unsigned)j) % (unsigned)nmethods];
        double t0 = now_ns(), t1 = t0;
        for (int r = 0; r < SAMPLE_REPS; r++) {
            if (r == 1)
                t1 = now_ns();
            switch (m) {
            case EH_ELF: count[m] = walk_eh_elf(&start, ips[m], &status); break;
            case UNW_STEP: case UNW_STEP_NOCACHE: count[m] = walk_libunwind(uctx, 1, ips[m]); break;
            case LIBGCC: count[m] = walk_libgcc(ips[m]); break;
            default: count[m] = walk_unw_backtrace(ips[m]); break;
            }
        }
        double t2 = now_ns(), frames = count[m] > 0 ? count[m] : 1;
        tick_ns[m][ALL_WALKS] = (t2 - t0) / SAMPLE_REPS / frames;
        tick_ns[m][FIRST_WALK] = (t1 - t0) / frames;
        tick_ns[m][REPEAT_WALKS] = (t2 - t1) / (SAMPLE_REPS - 1) / frames;
    }
    for (int j = 0; j < nmethods; j++)
        add_sample(methods[j], tick_ns, count);
    if (pass_nocache)
        return;
    const uint64_t *mine = ips[EH_ELF];
    int n = count[EH_ELF];
    checked_samples++;
    checked_frames += n;
    garbage_ends += ips_in_code(mine, n) < n || ips_in_code(ips[UNW_STEP], count[UNW_STEP]) < count[UNW_STEP];
    /* From the handler: libgcc and dwu_backtrace see the handler and the
     * signal trampoline first, then the same frames. */
    int unw_differs = !same_tail(ips[UNW_STEP], count[UNW_STEP], mine, n);
    int gcc_differs = !same_tail(ips[LIBGCC], count[LIBGCC], mine, n);
    int references_disagree =
        unw_differs != gcc_differs && !same_tail(ips[LIBGCC], count[LIBGCC], ips[UNW_STEP], count[UNW_STEP]);
    /* Recorded as perf would record it, except where the references part
     * ways: there is no truth to check a copy's walk against. */
    if (!references_disagree)
        recorded_stacks_add(&start, ips[EH_ELF], count[EH_ELF]);
    if (references_disagree) {
        if (disagreements++ < 3)
            report_difference(unw_differs ? "libunwind (libgcc agrees with eh_elf)"
                                          : "libgcc (libunwind agrees with eh_elf)", &start, mine, n,
                              unw_differs ? ips[UNW_STEP] : ips[LIBGCC], unw_differs ? count[UNW_STEP] : count[LIBGCC],
                              status);
    } else {
        if (unw_differs && mismatches++ < 5)
            report_difference("libunwind", &start, mine, n, ips[UNW_STEP], count[UNW_STEP], status);
        if (gcc_differs && mismatches++ < 5)
            report_difference("libgcc", &start, mine, n, ips[LIBGCC], count[LIBGCC], status);
    }
    compare_registers(&start, uctx);
    void *bt[MAX_FRAMES];
    int nb = dwu_backtrace(bt, MAX_FRAMES);
    if (!same_tail((uint64_t *)bt, nb, mine, n) && mismatches++ < 5)
        report_difference("dwu_backtrace across the signal frame", &start, mine, n, (uint64_t *)bt, nb, status);
}

/* The profiling timer's handler.  A sample can cost more than the timer's
 * period (libunwind without its cache, 2-3 us a frame over 60 frames, four
 * walks): were every tick a sample, the next tick would be due when the
 * handler returns and the workload would never run again.  A tick less than
 * SAMPLE_SPACING_NS after the last sample ended is let go. */
#define SAMPLE_SPACING_NS 500e3
static void on_tick(int sig, siginfo_t *si, void *ctx)
{
    (void)sig;
    (void)si;
    static double last_end;
    if (now_ns() - last_end < SAMPLE_SPACING_NS)
        return;
    take_sample(ctx);
    last_end = now_ns();
}

int corpus_recursion(void);
int corpus_many_registers(void);
int corpus_large_frames(void);
int corpus_alloca_vla(void);
int corpus_switch_tables(void);
int corpus_varargs(void);
int corpus_aligned_locals(void);
int corpus_exceptions(void);
int z3_workload(void);

static void corpus_programs(void)
{
    corpus_recursion();
    corpus_many_registers();
    corpus_large_frames();
    corpus_alloca_vla();
    corpus_switch_tables();
    corpus_varargs();
    corpus_aligned_locals();
    corpus_exceptions();
}

static void z3_problems(void)
{
    z3_workload();
}

static void sample(void (*workload)(void), double seconds)
{
    struct sigaction sa = {.sa_sigaction = on_tick, .sa_flags = SA_SIGINFO | SA_RESTART};
    sigaction(SIGPROF, &sa, NULL);
    struct itimerval tick = {{0, 500}, {0, 500}};   /* every 0.5 ms of CPU time */
    setitimer(ITIMER_PROF, &tick, NULL);
    double end = now_ns() + seconds * 1e9;
    while (now_ns() < end)
        workload();
    struct itimerval off = {{0, 0}, {0, 0}};
    setitimer(ITIMER_PROF, &off, NULL);
}

/* Sample WORKLOAD (libunwind with its cache, then without) and print the
 * medians. */
static void captured_stacks(const char *title, void (*workload)(void), double seconds)
{
    memset(nsamples, 0, sizeof nsamples);
    memset(nspeedups, 0, sizeof nspeedups);
    checked_samples = checked_frames = garbage_ends = inside_libgcc = 0;
    pass_nocache = 0;
    sample(workload, seconds);
    size_t eh_first = nsamples[EH_ELF];
    pass_nocache = 1;
    unw_set_caching_policy(unw_local_addr_space, UNW_CACHE_NONE);
    sample(workload, seconds / 2);
    unw_set_caching_policy(unw_local_addr_space, UNW_CACHE_GLOBAL);
    /* eh_elf's ns/frame from the first pass, alongside those it is compared
     * with; the second pass's walks count only in the ratios. */
    nsamples[EH_ELF] = eh_first;
    printf("\ncaptured stacks: %s (profiling timer; %ld samples, %ld frames checked, %ld ending in a "
           "return address outside loaded code, %ld inside libgcc's unwinder skipped)\n", title,
           checked_samples, checked_frames, garbage_ends, inside_libgcc);
    printf("  %-40s %8s %9s %8s   %-18s   %s\n", "", "", "all walks", "", "first walk", "repeated walks");
    printf("  %-40s %8s %9s %8s %9s %8s %9s %8s\n", "unwinder", "samples", "ns/frame", "eh_elf x",
           "ns/frame", "eh_elf x", "ns/frame", "eh_elf x");
    for (int m = 0; m < NMETHODS; m++) {
        if (m == FP_WALK)
            continue;
        printf("  %-40s %8zu", method_name[m], nsamples[m]);
        for (int k = 0; k < NKINDS; k++)
            printf(" %9.2f %8.1f", median(sample_ns[m][k], nsamples[m]),
                   m == EH_ELF ? 1.0 : median(speedup[m][k], nspeedups[m]));
        printf("\n");
    }
    mismatches += recorded_stacks_report(title);
}

int main(int argc, char **argv)
{
    if (libgcc_walk_init() != 0 || recorded_stacks_init() != 0)
        return 2;
    double seconds = 2;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--seconds") == 0 && i + 1 < argc) {
            seconds = atof(argv[++i]);
        } else {
            fprintf(stderr, "usage: unwind_bench [--seconds S]\n");
            return 2;
        }
    }
    size_t with_eh_elf, objects = dwu_objects_count(&with_eh_elf);
    libgcc_object = dwu_objects_at(libgcc_address());
    printf("code segments: %zu, with an eh_elf: %zu\n", objects, with_eh_elf);
    for (int m = 0; m < NMETHODS; m++)
        for (int k = 0; k < NKINDS; k++)
            if (!(sample_ns[m][k] = calloc(MAX_SAMPLES, sizeof *sample_ns[m][k])) ||
                !(speedup[m][k] = calloc(MAX_SAMPLES, sizeof *speedup[m][k])))
                return 2;
    uint64_t probe;
    stack_hi = (uint64_t)(uintptr_t)&probe + (1u << 20);
    stack_lo = (uint64_t)(uintptr_t)&probe - (8u << 20);

    chain(DEPTH, time_chain, NULL);
    chain_without_libc(DEPTH, time_fp_chain, NULL);
    printf("\ndeep chain (%d calls, median of %d trials x %d walks)\n", DEPTH, TRIALS, REPS);
    printf("  %-40s %8s %9s %8s\n", "unwinder", "frames", "ns/frame", "eh_elf x");
    for (int m = 0; m < NMETHODS; m++)
        printf("  %-40s %8d %9.2f %8.1f\n", method_name[m], chain_frames[m], chain_ns[m],
               chain_ns[m] / chain_ns[EH_ELF]);

    captured_stacks("the corpus programs (C, and C++ exceptions)", corpus_programs, seconds);
    captured_stacks("small libz3 problems (cold caches: z3 zeroes fresh pages)", z3_problems, seconds);
    printf("IP sequences: %ld mismatches (eh_elf against libunwind, libgcc, and dwu_backtrace "
           "across the signal frame); %ld stacks on which libunwind and libgcc disagree, eh_elf "
           "agreeing with one\n", mismatches, disagreements);
    printf("callee-saved registers of the captured stacks: %ld compared with libunwind's, %ld mismatches\n",
           registers_compared, register_mismatches);
    return mismatches || register_mismatches ? 1 : 0;
}
/* SPDX-License-Identifier: Apache-2.0 */
