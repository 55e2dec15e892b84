/* SPDX-License-Identifier: Apache-2.0 */
/*
 * walk: a program written against libunwind's local API, as its users
 * write them, which prints what each call answers, frame by frame: the
 * procedure's name and offset, ip, sp, every general register (or the
 * error), the procedure's range, handler and LSDA, unw_is_signal_frame
 * before and after unw_get_proc_info, and the save locations of the
 * callee-saved registers.  tests/libunwind/run.sh runs it with Debian's
 * libunwind and with the drop-in and compares the outputs line for line.
 * Built with -DUNW_LOCAL_ONLY (libunwind.so.8's names) and without
 * (libunwind-x86_64.so.8's).
 *
 * Stacks: tests/unwind/frames.c's chain (callee-saved pushes, alloca,
 * realignment, large frames, varargs, a detour through libc's qsort) and
 * recursions; a frame with a personality routine and an LSDA; a frame
 * whose row leaves rbp undefined (where libunwind ends the walk); a
 * thread's stack, to clone3; a frame
 * without unwind information (nocfi.S) and the same
 * code copied outside every object (a JIT's); a SIGSEGV handler's, walked
 * from its own context and from the signal's, left by unw_resume into a
 * frame above the fault; unw_resume into a frame up the stack (as
 * longjmp); unw_backtrace and backtrace; unw_reg_states_iterate and
 * unw_apply_reg_state; the API's answers to bad arguments.
 *
 * Addresses are printed as show.h prints them (OBJECT+OFFSET, the stack
 * relative to main's frame), so that the runs compare; run.sh runs them
 * without address randomisation (the realigned frames' offsets depend on
 * the stack's alignment).
 */
#include <libunwind.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <execinfo.h>

#include "tests/libunwind/show.h"
#include "tests/unwind/frames.h"

#define NOINLINE __attribute__((noinline, noclone))

/* Under AddressSanitizer, a jump up the stack (unw_resume) leaves the
 * frames it abandons poisoned unless the sanitizer is told; Debian's
 * libunwind does not tell it. */
#ifdef __SANITIZE_ADDRESS__
void __asan_handle_no_return(void);
#define BEFORE_RESUME() __asan_handle_no_return()
#else
#define BEFORE_RESUME() ((void)0)
#endif
#define MAX_FRAMES 128

/* ---- one frame, one walk -------------------------------------------------- */

/* The callee-saved registers are printed; the others (whose values at the
 * first frame are what the last calls left) as "k" when the frame keeps
 * the first frame's value (libunwind's rule for a register no row
 * mentions), else their value, or the error. */
static const int callee_saved[] = {UNW_X86_64_RBX, UNW_X86_64_RBP, UNW_X86_64_R12, UNW_X86_64_R13,
                                   UNW_X86_64_R14, UNW_X86_64_R15};
static const int scratch[] = {UNW_X86_64_RAX, UNW_X86_64_RDX, UNW_X86_64_RCX, UNW_X86_64_RSI, UNW_X86_64_RDI,
                              UNW_X86_64_R8,  UNW_X86_64_R9,  UNW_X86_64_R10, UNW_X86_64_R11};
static unw_word_t first_frame[16];

/* The procedure after whose frame the registers are not printed (0: none):
 * a thread's start in libc keeps values that depend on the static TLS of
 * the libraries loaded, which the two libunwinds change. */
static unw_word_t registers_until;
static int registers_hidden;

static void print_frame(unw_cursor_t *c, int n, int save_locs)
{
    char b1[96], b2[96], b3[96], name[256];
    unw_word_t ip = 0, sp = 0, cfa = 0, off = 0, v;
    int sig1 = unw_is_signal_frame(c);
    unw_get_reg(c, UNW_REG_IP, &ip);
    unw_get_reg(c, UNW_REG_SP, &sp);
    unw_get_reg(c, UNW_X86_64_CFA, &cfa);
    int rn = unw_get_proc_name(c, name, sizeof name, &off);
    if (rn != 0 && rn != -UNW_ENOMEM)
        off = 0;
    printf("  #%-2d %s+%#lx (%d) ip=%s sp=%s cfa=%s sig=%d", n, name, (unsigned long)off, rn, show(ip, b1),
           show(sp, b2), show(cfa, b3), sig1);
    unw_proc_info_t pi;
    memset(&pi, 0xa5, sizeof pi);
    int rp = unw_get_proc_info(c, &pi);
    printf(" proc(%d)=[%s,%s) lsda=%s handler=%s fmt=%d size=%d flags=%lu sig=%d\n", rp, show(pi.start_ip, b1),
           show(pi.end_ip, b2), show(pi.lsda, b3), show(pi.handler, name), pi.format, pi.unwind_info_size,
           (unsigned long)pi.flags, unw_is_signal_frame(c));
    if (registers_hidden)
        return;
    registers_hidden = registers_until && pi.start_ip == registers_until;
    printf("     ");
    for (size_t i = 0; i < sizeof callee_saved / sizeof callee_saved[0]; i++) {
        int r = unw_get_reg(c, callee_saved[i], &v);
        if (r == 0)
            printf(" %s=%s", unw_regname(callee_saved[i]), show(v, b1));
        else
            printf(" %s:%d", unw_regname(callee_saved[i]), r);
    }
    printf(" |");
    for (size_t i = 0; i < sizeof scratch / sizeof scratch[0]; i++) {
        int reg = scratch[i], r = unw_get_reg(c, reg, &v);
        if (n == 0)
            first_frame[reg] = v;
        if (r != 0)
            printf(" %s:%d", unw_regname(reg), r);
        else if (n == 0 || v == first_frame[reg])
            printf(" %s=k", unw_regname(reg));
        else
            printf(" %s=%s", unw_regname(reg), show(v, b1));
    }
    printf("\n");
    if (save_locs) {
        static const int saved[] = {UNW_X86_64_RBX, UNW_X86_64_RSP, UNW_X86_64_RBP, UNW_X86_64_R12,
                                    UNW_X86_64_R13, UNW_X86_64_R14, UNW_X86_64_R15, UNW_X86_64_RIP,
                                    UNW_X86_64_RAX};
        printf("      saved:");
        for (size_t i = 0; i < sizeof saved / sizeof saved[0]; i++) {
            unw_save_loc_t loc;
            int r = unw_get_save_loc(c, saved[i], &loc);
            printf(" %s(%d)=", unw_regname(saved[i]), r);
            if (loc.type == UNW_SLT_MEMORY)
                printf("m:%s", show(loc.u.addr, b1));
            else if (loc.type == UNW_SLT_REG)
                printf("r:%d", loc.u.regnum);
            else
                printf("none");
        }
        printf("\n");
    }
}

/* Every frame from the cursor's to the outermost, and the last answer. */
static void walk_cursor(unw_cursor_t *c, int save_locs)
{
    int n = 0, r;
    registers_hidden = 0;
    do {
        print_frame(c, n, save_locs);
        r = unw_step(c);
    } while (r > 0 && ++n < MAX_FRAMES);
    unw_word_t ip = 1;
    int rr = unw_get_reg(c, UNW_REG_IP, &ip);
    printf("  last step %d, then ip %d %#lx\n", r, rr, (unsigned long)ip);
}

static NOINLINE void walk_here(const char *what, int save_locs)
{
    unw_context_t uc;
    unw_cursor_t c;
    printf("== %s\n", what);
    if (unw_getcontext(&uc) != 0 || unw_init_local(&c, &uc) != 0) {
        printf("  init failed\n");
        return;
    }
    walk_cursor(&c, save_locs);
}

static NOINLINE int leaf_walk(void *arg)
{
    walk_here(arg, 0);
    return 1;
}

static NOINLINE int leaf_walk_save_locs(void *arg)
{
    walk_here(arg, 1);
    return 1;
}

/* A frame with a personality routine and an LSDA (walk.c is built with
 * -fexceptions: the cleanup is a landing pad). */
static volatile int cleaned;

static void cleanup_int(int *p)
{
    cleaned += *p;
}

static NOINLINE int with_cleanup(void *arg)
{
    int guard __attribute__((cleanup(cleanup_int))) = 1;
    walk_here(arg, 0);
    return guard;
}

/* ---- frames without unwind information ---------------------------------- */

int nocfi_call(leaf_fn fn, void *arg);   /* nocfi.S */
int undefined_rbp_call(leaf_fn fn, void *arg);
extern const char nocfi_call_end[];
static int (*jit_call)(leaf_fn, void *);

static NOINLINE int through_nocfi(void *arg)
{
    return nocfi_call(leaf_walk, arg) + 1;
}

static NOINLINE int through_undefined_rbp(void *arg)
{
    return undefined_rbp_call(leaf_walk, arg) + 1;
}

static NOINLINE int through_jit(void *arg)
{
    return jit_call(leaf_walk, arg) + 1;
}

/* The JIT's code, registered as libunwind's dynamic unwind information
 * lets a JIT register it: a name (no rows: libunwind 1.6 unwinds such a
 * procedure with its frame-chain guess). */
static unw_dyn_info_t jit_info;

static void register_jit(void)
{
    jit_info.start_ip = (unw_word_t)(uintptr_t)jit_call;
    jit_info.end_ip = jit_info.start_ip + (unw_word_t)(nocfi_call_end - (const char *)nocfi_call);
    jit_info.format = UNW_INFO_FORMAT_DYNAMIC;
    jit_info.u.pi.name_ptr = (unw_word_t)(uintptr_t)"jit_code";
    _U_dyn_register(&jit_info);
}

static void make_jit(void)
{
    size_t n = (size_t)(nocfi_call_end - (const char *)nocfi_call);
    void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED || n > 4096)
        abort();
    memcpy(p, (const void *)nocfi_call, n);
    mprotect(p, 4096, PROT_READ | PROT_EXEC);
    jit_call = (int (*)(leaf_fn, void *))p;
}

/* ---- a thread's stack --------------------------------------------------------- */

/* Its stack's addresses are printed relative to a local of its first
 * function: where the thread's stack starts in its mapping depends on the
 * static TLS of the libraries loaded (the two libunwinds' differ), and so
 * do the values libc's thread start keeps in callee-saved registers:
 * those are set here (saved, and shown only in libc's frame, where the
 * registers are not printed). */
__attribute__((optimize("omit-frame-pointer"))) static void *thread_main(void *arg)
{
    __asm__ volatile("xorl %%ebx, %%ebx; xorl %%ebp, %%ebp; xorl %%r12d, %%r12d; xorl %%r13d, %%r13d;"
                     "xorl %%r14d, %%r14d; xorl %%r15d, %%r15d"
                     ::: "rbx", "rbp", "r12", "r13", "r14", "r15");
    volatile char here = 0;
    uint64_t main_ref = stack_ref;
    stack_ref = (uint64_t)(uintptr_t)&here;
    read_maps();   /* its stack's mapping among them */
    registers_until = (unw_word_t)(uintptr_t)thread_main;
    chain(6, leaf_walk, arg);
    registers_until = 0;
    stack_ref = main_ref;
    return NULL;
}

__attribute__((unused)) static void walk_in_thread(void)
{
    pthread_t t;
    if (pthread_create(&t, NULL, thread_main, "a thread's stack (to clone3)") == 0)
        pthread_join(t, NULL);
}

/* ---- unw_backtrace --------------------------------------------------------- */

static NOINLINE int leaf_backtrace(void *arg)
{
    void *ips[MAX_FRAMES], *ips2[MAX_FRAMES];
    char b[96];
    int n = unw_backtrace(ips, MAX_FRAMES);
    int n2 = backtrace(ips2, MAX_FRAMES);
    int small = unw_backtrace(ips2 + 100, 3);
    /* (the first: the two calls' return addresses) */
    printf("== %s: %d frames (backtrace() %d, %s; with room for 3: %d)\n", (const char *)arg, n, n2,
           n2 == n && n > 0 && memcmp(ips + 1, ips2 + 1, sizeof ips[0] * (size_t)(n - 1)) == 0 ? "the same"
                                                                                              : "not the same",
           small);
    for (int i = 0; i < n; i++)
        printf("  %s\n", show((uint64_t)(uintptr_t)ips[i], b));
    return 1;
}

static NOINLINE int through_nocfi_backtrace(void *arg)
{
    return nocfi_call(leaf_backtrace, arg) + 1;
}

/* ---- unw_resume -------------------------------------------------------------- */

/* The frame of FN (its procedure's start) on C's stack: 0, or -1. */
static int step_to(unw_cursor_t *c, const void *fn)
{
    for (int n = 0; n < MAX_FRAMES; n++) {
        unw_proc_info_t pi;
        if (unw_get_proc_info(c, &pi) == 0 && pi.start_ip == (unw_word_t)(uintptr_t)fn)
            return 0;
        if (unw_step(c) <= 0)
            return -1;
    }
    return -1;
}

static NOINLINE int resume_target(int depth);

static NOINLINE int leaf_resume(void *arg)
{
    (void)arg;
    unw_context_t uc;
    unw_cursor_t c;
    unw_getcontext(&uc);
    unw_init_local(&c, &uc);
    if (step_to(&c, (const void *)resume_target) != 0) {
        printf("  resume: no frame of resume_target\n");
        return -1;
    }
    unw_set_reg(&c, UNW_X86_64_RAX, 4242);
    BEFORE_RESUME();
    int r = unw_resume(&c);
    printf("  resume: unw_resume returned %d\n", r);
    return -1;
}

/* Keeps values in callee-saved registers across the chain, which
 * unw_resume must give back. */
static NOINLINE int resume_target(int depth)
{
    volatile int in[6] = {depth, 3, 5, 7, 11, 13};
    int a = in[0], b = in[1], c = in[2], d = in[3], e = in[4], f = in[5];
    int r = chain(depth, leaf_resume, NULL);
    printf("== resume: chain returned %d into resume_target; kept %d\n", r, a * b + c * d + e * f + (a ^ f));
    return r;
}

/* ---- a signal's stack ------------------------------------------------------- */

static NOINLINE int fault_target(int depth);
/* Not null (the undefined-behaviour sanitizer stops at a null store):
 * the first page, never mapped. */
static volatile int *volatile bad_pointer = (volatile int *)16;

static NOINLINE int leaf_fault(void *arg)
{
    (void)arg;
    *bad_pointer = 1;   /* SIGSEGV */
    return 0;
}

static void on_segv(int sig, siginfo_t *info, void *context)
{
    (void)sig, (void)info;
    unw_context_t uc;
    unw_cursor_t c;
    walk_here("signal: the handler's stack, through the signal frame", 0);
    printf("== signal: from the signal's context (UNW_INIT_SIGNAL_FRAME)\n");
    unw_init_local2(&c, (unw_context_t *)context, UNW_INIT_SIGNAL_FRAME);
    walk_cursor(&c, 0);
    printf("== signal: from the signal's context (no flag)\n");
    unw_init_local2(&c, (unw_context_t *)context, 0);
    walk_cursor(&c, 0);
    /* Out of the handler, through the signal frame, into fault_target. */
    unw_getcontext(&uc);
    unw_init_local(&c, &uc);
    if (step_to(&c, (const void *)fault_target) != 0) {
        printf("  no frame of fault_target\n");
        exit(1);
    }
    unw_set_reg(&c, UNW_X86_64_RAX, 77);
    BEFORE_RESUME();
    unw_resume(&c);
    printf("  unw_resume returned\n");
    exit(1);
}

static NOINLINE int fault_target(int depth)
{
    volatile int in[6] = {depth, 2, 4, 6, 8, 10};
    int a = in[0], b = in[1], c = in[2], d = in[3], e = in[4], f = in[5];
    int r = chain(depth, leaf_fault, NULL);
    printf("== signal: chain returned %d into fault_target; kept %d\n", r, a * b + c * d + e * f + (a ^ f));
    return r;
}

/* ---- the rows of a frame ------------------------------------------------------ */

struct rows {
    int n;
    unw_word_t lo[64], hi[64];
    char data[64][512];
    size_t size;
};

static int keep_row(void *token, void *data, size_t size, unw_word_t lo, unw_word_t hi)
{
    struct rows *r = token;
    if (r->n < 64 && size <= sizeof r->data[0]) {
        r->lo[r->n] = lo, r->hi[r->n] = hi;
        memcpy(r->data[r->n], data, size);
        r->size = size;
        r->n++;
    }
    return 0;
}

static NOINLINE int leaf_rows(void *arg)
{
    (void)arg;
    unw_context_t uc;
    unw_cursor_t c, copy;
    char b1[96], b2[96];
    unw_getcontext(&uc);
    unw_init_local(&c, &uc);
    unw_step(&c);   /* a frame of frames.c */
    unw_step(&c);
    static struct rows rows;
    int r = unw_reg_states_iterate(&c, keep_row, &rows);
    printf("== rows: unw_reg_states_iterate %d, %d rows\n", r, rows.n);
    for (int i = 0; i < rows.n; i++)
        printf("  [%s,%s)\n", show(rows.lo[i], b1), show(rows.hi[i], b2));
    unw_word_t ip;
    unw_get_reg(&c, UNW_REG_IP, &ip);
    for (int i = 0; i < rows.n; i++)
        if (ip - 1 >= rows.lo[i] && ip - 1 < rows.hi[i]) {
            memcpy(&copy, &c, sizeof c);
            int a = unw_apply_reg_state(&copy, rows.data[i]);
            unw_word_t ip2, sp2;
            unw_get_reg(&copy, UNW_REG_IP, &ip2);
            unw_get_reg(&copy, UNW_REG_SP, &sp2);
            int s = unw_step(&c);
            unw_get_reg(&c, UNW_REG_IP, &ip);
            unw_word_t sp;
            unw_get_reg(&c, UNW_REG_SP, &sp);
            printf("  unw_apply_reg_state of row %d: %d, ip %s sp %s; unw_step %d: %s\n", i, a, show(ip2, b1),
                   show(sp2, b2), s, ip == ip2 && sp == sp2 ? "the same frame" : "another frame");
        }
    return 1;
}

/* ---- the API's answers ------------------------------------------------------- */

static NOINLINE void api(void)
{
    unw_context_t uc;
    unw_cursor_t c;
    unw_word_t v = 0;
    unw_fpreg_t fp;
    char b1[96], b2[96], name[3];
    int r;
    printf("== api\n");
    printf("  regname:");
    for (int r = 0; r <= 18; r++)
        printf(" %s", unw_regname(r));
    printf("\n  strerror:");
    for (int e = 0; e <= 11; e++)
        printf(" [%s]", unw_strerror(-e));
    unw_getcontext(&uc);
    printf("\n  init_local2(flag 2) %d, init_local2(0) %d", unw_init_local2(&c, &uc, 2), unw_init_local2(&c, &uc, 0));
    printf("\n  get_reg(18) %d, get_reg(-1) %d, get_reg(CFA) %d", unw_get_reg(&c, 18, &v), unw_get_reg(&c, -1, &v),
           unw_get_reg(&c, UNW_X86_64_CFA, &v));
    printf("\n  set_reg(RSP) %d, set_reg(CFA) %d, set_reg(18) %d, set_reg(RBX) %d",
           unw_set_reg(&c, UNW_X86_64_RSP, 0), unw_set_reg(&c, UNW_X86_64_CFA, 0), unw_set_reg(&c, 18, 0),
           unw_set_reg(&c, UNW_X86_64_RBX, 5));
    unw_get_reg(&c, UNW_X86_64_RBX, &v);
    printf(" -> %lu", (unsigned long)v);
    unw_set_reg(&c, UNW_X86_64_RDX, 9);
    unw_get_reg(&c, UNW_X86_64_RDX, &v);
    printf(", set_reg(RDX) -> %lu", (unsigned long)v);
    printf("\n  get_fpreg %d, set_fpreg %d, is_fpreg(0) %d", unw_get_fpreg(&c, 0, &fp),
           unw_set_fpreg(&c, 0, fp), unw_is_fpreg(0));
    r = unw_set_cache_size(unw_local_addr_space, 1024, 0);
    printf("\n  set_cache_size %d", r);
    r = unw_set_caching_policy(unw_local_addr_space, UNW_CACHE_GLOBAL);
    printf(", set_caching_policy %d, flush_cache ok", r);
    unw_flush_cache(unw_local_addr_space, 0, 0);
#ifdef UNW_LOCAL_ONLY
    printf("\n  init_remote %d", unw_init_remote(&c, unw_local_addr_space, NULL));
#endif
    unw_init_local(&c, &uc);
    unw_word_t off = 99;
    r = unw_get_proc_name(&c, name, sizeof name, &off);
    printf("\n  get_proc_name in 3 bytes: %d [%s] +%#lx", r, name, (unsigned long)off);
    r = unw_get_proc_name(&c, name, 1, &off);
    printf("; in 1 byte: %d [%s]", r, name);
    unw_proc_info_t pi;
    static const struct {
        const char *what;
        const void *at;
    } places[] = {{"main", (const void *)api}, {"puts", (const void *)puts}, {"no object", (const void *)16}};
    for (size_t i = 0; i < sizeof places / sizeof places[0]; i++) {
        memset(&pi, 0, sizeof pi);
        r = unw_get_proc_info_by_ip(unw_local_addr_space, (unw_word_t)(uintptr_t)places[i].at, &pi, NULL);
        printf("\n  get_proc_info_by_ip(%s) %d [%s,%s)", places[i].what, r, show(pi.start_ip, b1),
               show(pi.end_ip, b2));
    }
    printf("\n");
}

int main(void)
{
    volatile char here = 0;
    stack_ref = (uint64_t)(uintptr_t)&here;
    setvbuf(stdout, NULL, _IOLBF, 0);
    make_jit();
    read_maps();

    chain(24, leaf_walk, "chain of 24");
    chain(7, leaf_walk_save_locs, "chain of 7, save locations");
    chain_recursive(40, leaf_walk, "recursion of 40");
    chain(3, with_cleanup, "a frame with a personality routine and an LSDA");
    chain(5, through_nocfi, "a frame without unwind information");
    chain(5, through_jit, "a frame outside every object");
    register_jit();
    chain(4, through_jit, "a frame outside every object, registered by _U_dyn_register");
    unw_proc_info_t pi;
    memset(&pi, 0, sizeof pi);
    int r = unw_get_proc_info_by_ip(unw_local_addr_space, jit_info.start_ip + 3, &pi, NULL);
    char b1[96], b2[96];
    printf("  unw_get_proc_info_by_ip(jit_code+3) %d [%s,%s) format %d\n", r, show(pi.start_ip, b1), show(pi.end_ip, b2),
           pi.format);
    _U_dyn_cancel(&jit_info);
    chain(3, through_jit, "the same, cancelled by _U_dyn_cancel");
    chain(3, through_undefined_rbp, "a frame whose unwind row leaves rbp undefined");
#ifndef __SANITIZE_ADDRESS__
    /* (AddressSanitizer puts a thread's stack and TLS in its own large
     * mappings, at offsets that change with the libraries' TLS) */
    walk_in_thread();
#endif
    chain(20, leaf_backtrace, "unw_backtrace, chain of 20");
    chain_recursive(30, leaf_backtrace, "unw_backtrace, recursion of 30");
    chain(4, through_nocfi_backtrace, "unw_backtrace through a frame without unwind information");
    chain(6, leaf_rows, NULL);
    api();
    resume_target(9);

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_segv;
    sa.sa_flags = SA_SIGINFO;
    sigaction(SIGSEGV, &sa, NULL);
    /* libunwind's resume through the signal frame restores the signal
     * mask when it caches (the default), not without a cache. */
    sigset_t mask, segv;
    sigemptyset(&segv);
    sigaddset(&segv, SIGSEGV);
    for (int pass = 0; pass < 2; pass++) {
        fault_target(5 - 2 * pass);
        sigprocmask(SIG_UNBLOCK, &segv, &mask);
        printf("== signal: SIGSEGV %s after the resume\n", sigismember(&mask, SIGSEGV) ? "blocked" : "not blocked");
        int r = unw_set_caching_policy(unw_local_addr_space, UNW_CACHE_NONE);
        printf("  set_caching_policy(UNW_CACHE_NONE) %d\n", r);
    }
    printf("== done\n");
    /* The eh_elfs mapped (the runtime loads them through /proc/self/fd):
     * on stderr, which the comparison leaves out. */
    read_maps();
    for (int i = 0; i < nregions; i++)
        if (strstr(regions[i].name, ".eh_elf.so") && (i == 0 || strcmp(regions[i - 1].name, regions[i].name) != 0))
            fprintf(stderr, "mapped: %s\n", regions[i].name);
    return 0;
}
