// SPDX-License-Identifier: Apache-2.0
// C++ exceptions, rethrows, cleanups, backtraces and forced unwinds through
// whichever _Unwind_* the program binds to: libgcc_s's, or the drop-in
// libunwind.so.8's under LD_PRELOAD (tests/unwind_abi/run.sh compares the
// two outputs, line for line).  One case per argument:
//   throw      a throw caught 6 frames up, destructors in order
//   rethrow    `throw;` from a catch, caught by an outer try
//   nested     a try/catch inside a catch, then catch(...)
//   phases     throw and rethrow, each call of the personality logged:
//              search, cleanup, the handler's frame (_UA_HANDLER_FRAME)
//   cframes    through C frames built with -fexceptions (their cleanups run)
//   backtrace  _Unwind_Backtrace's frames, as object+offset and CFA offsets
//   forced     _Unwind_ForcedUnwind with a stop function, as glibc's: runs
//              destructors and C cleanups, stops at the frame of setjmp
//   accessors  _Unwind_FindEnclosingFunction, _Unwind_Find_FDE
//   thread     pthread_exit in a thread: destructors run (glibc's unwinder)
//   cancel     pthread_cancel of a thread waiting in pause(): its
//              destructors and pthread_cleanup_push's cleanups run
//   execinfo   glibc's backtrace() (libunwind's, which the drop-in
//              exports, when it is preloaded): the same frames
//   types      thrown by value (int, a struct, a class hierarchy caught by
//              its base, a pointer), each caught by its type
//   inhandler  a throw inside a catch handler, caught further up, the
//              first exception then destroyed (its destructor runs)
//   eptr       std::exception_ptr: current_exception, rethrow_exception
//   threads    8 threads throwing and catching at once, 2,000 times each
//   dlopen     a throw from a dlopen'ed library (libthrows.so beside
//              this program), caught here, destructors in it run
//   foreign    a foreign exception (another language's class) through
//              C++ frames: catch(...) takes it, destructors run
//   uncaught   an exception nobody catches: std::terminate
//   noexcept   a throw through a noexcept function: std::terminate
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <cstdlib>
#include <cstring>
#include <csetjmp>
#include <dlfcn.h>
#include <execinfo.h>
#include <pthread.h>
#include <semaphore.h>
#include <unistd.h>
#include <stdexcept>
#include <unwind.h>

extern "C" void c_through(void (*callback)(int), int n);
struct dwarf_eh_bases { void *tbase, *dbase, *func; };
extern "C" const void *_Unwind_Find_FDE(void *pc, struct dwarf_eh_bases *bases);

struct Noisy {
    int n;
    ~Noisy() { std::printf("~Noisy %d\n", n); }
};

__attribute__((noinline)) static void deep(int n)
{
    Noisy guard{n};
    if (n == 0)
        throw std::runtime_error("thrown at depth 0");
    deep(n - 1);
    asm volatile("");
}

static void case_throw()
{
    try {
        deep(5);
    } catch (const std::exception &e) {
        std::printf("caught: %s\n", e.what());
    }
}

static void case_rethrow()
{
    try {
        try {
            deep(2);
        } catch (const std::runtime_error &e) {
            std::printf("inner: %s, rethrown\n", e.what());
            throw;
        }
    } catch (const std::exception &e) {
        std::printf("outer: %s\n", e.what());
    }
}

static void case_nested()
{
    try {
        deep(1);
    } catch (const std::exception &e) {
        std::printf("first: %s\n", e.what());
        try {
            throw 42;
        } catch (int v) {
            std::printf("nested: %d\n", v);
        }
        try {
            deep(0);
        } catch (...) {
            std::printf("catch(...)\n");
        }
    }
}

extern "C" void throw_int(int n)
{
    Noisy guard{100 + n};
    throw n;
}

static void case_cframes()
{
    try {
        c_through(throw_int, 7);
    } catch (int v) {
        std::printf("caught through C: %d\n", v);
    }
}

// ---- the phases: the personality routine's calls -----------------------------
// The program's own __gxx_personality_v0 (its frames' CIEs name it) logs
// each call libstdc++'s gets: the actions, the answer, the frame's CFA
// from the first.
static bool log_personality;
static uintptr_t first_cfa;

extern "C" _Unwind_Reason_Code __gxx_personality_v0(int version, _Unwind_Action actions,
                                                    _Unwind_Exception_Class cls, struct _Unwind_Exception *exc,
                                                    struct _Unwind_Context *ctx)
{
    using personality_fn = _Unwind_Reason_Code (*)(int, _Unwind_Action, _Unwind_Exception_Class,
                                                   struct _Unwind_Exception *, struct _Unwind_Context *);
    static personality_fn real = reinterpret_cast<personality_fn>(dlsym(RTLD_NEXT, "__gxx_personality_v0"));
    _Unwind_Reason_Code rc = real(version, actions, cls, exc, ctx);
    if (log_personality) {
        uintptr_t cfa = _Unwind_GetCFA(ctx);
        if (!first_cfa)
            first_cfa = cfa;
        std::printf("personality: actions %d -> %d at cfa+%#lx\n", actions, rc, (unsigned long)(cfa - first_cfa));
    }
    return rc;
}

static void case_phases()
{
    log_personality = true;
    case_throw();
    first_cfa = 0;
    case_rethrow();
    log_personality = false;
}

// ---- _Unwind_Backtrace ----------------------------------------------------
struct Trace {
    int n;
    uintptr_t first_cfa;
};

static _Unwind_Reason_Code trace_frame(struct _Unwind_Context *ctx, void *arg)
{
    Trace *t = static_cast<Trace *>(arg);
    uintptr_t ip = _Unwind_GetIP(ctx), cfa = _Unwind_GetCFA(ctx);
    Dl_info info;
    if (t->n == 0)
        t->first_cfa = cfa;
    if (ip == 0) {
        std::printf("frame %d: end\n", t->n++);
        return _URC_NO_REASON;
    }
    const char *name = "?";
    uintptr_t base = 0;
    if (dladdr(reinterpret_cast<void *>(ip), &info) && info.dli_fname) {
        name = std::strrchr(info.dli_fname, '/') ? std::strrchr(info.dli_fname, '/') + 1 : info.dli_fname;
        base = reinterpret_cast<uintptr_t>(info.dli_fbase);
    }
    std::printf("frame %d: %s+%#lx cfa+%#lx start %s\n", t->n++, name, (unsigned long)(ip - base),
                (unsigned long)(cfa - t->first_cfa), _Unwind_GetRegionStart(ctx) ? "known" : "none");
    return _URC_NO_REASON;
}

__attribute__((noinline)) static void backtrace_at(int n)
{
    if (n > 0) {
        backtrace_at(n - 1);
        asm volatile("");
        return;
    }
    Trace t = {0, 0};
    _Unwind_Reason_Code rc = _Unwind_Backtrace(trace_frame, &t);
    std::printf("_Unwind_Backtrace: %d frames, code %d\n", t.n, (int)rc);
}

// ---- _Unwind_ForcedUnwind, with a stop function as glibc's ------------------
static std::jmp_buf stop_here;
static uintptr_t stop_cfa;
static int stops;

static _Unwind_Reason_Code stop_fn(int version, _Unwind_Action actions, _Unwind_Exception_Class cls,
                                   struct _Unwind_Exception *exc, struct _Unwind_Context *ctx, void *arg)
{
    (void)version, (void)cls, (void)exc;
    stops++;
    if (arg != &stop_here || !(actions & _UA_FORCE_UNWIND) || !(actions & _UA_CLEANUP_PHASE))
        std::abort();
    if ((actions & _UA_END_OF_STACK) || _Unwind_GetCFA(ctx) >= stop_cfa)
        std::longjmp(stop_here, 1);
    return _URC_NO_REASON;
}

static void exception_cleanup(_Unwind_Reason_Code, struct _Unwind_Exception *) {}

static void force(int)
{
    static struct _Unwind_Exception exc;
    std::memcpy(&exc.exception_class, "dwcheck\0", 8);
    exc.exception_cleanup = exception_cleanup;
    _Unwind_Reason_Code rc = _Unwind_ForcedUnwind(&exc, stop_fn, &stop_here);
    std::printf("_Unwind_ForcedUnwind returned %d\n", (int)rc);
}

__attribute__((noinline)) static void forced_deep(int n)
{
    Noisy guard{n};
    if (n == 0)
        c_through(force, 9);
    else
        forced_deep(n - 1);
    asm volatile("");
}

__attribute__((noinline)) static uintptr_t callers_sp()
{
    return reinterpret_cast<uintptr_t>(__builtin_dwarf_cfa());
}

__attribute__((noinline)) static void case_forced()
{
    stop_cfa = callers_sp();
    if (setjmp(stop_here) == 0)
        forced_deep(3);
    else
        std::printf("stopped after %d calls of the stop function\n", stops);
}

static void case_accessors()
{
    void *f = reinterpret_cast<void *>(&case_accessors);
    struct dwarf_eh_bases bases = {};
    const void *fde = _Unwind_Find_FDE(static_cast<char *>(f) + 1, &bases);
    std::printf("_Unwind_Find_FDE: %s, func %s, bases %p %p\n", fde ? "found" : "none",
                bases.func == f ? "this function" : "other", bases.tbase, bases.dbase);
    std::printf("_Unwind_FindEnclosingFunction: %s\n",
                _Unwind_FindEnclosingFunction(static_cast<char *>(f) + 2) == f ? "this function" : "other");
    std::printf("no FDE: %s\n", _Unwind_Find_FDE(nullptr, &bases) ? "found" : "none");
}

static void *thread_body(void *)
{
    Noisy guard{77};
    c_through([](int) { pthread_exit(nullptr); }, 8);
    return nullptr;
}

static void case_thread()
{
    pthread_t t;
    pthread_create(&t, nullptr, thread_body, nullptr);
    pthread_join(t, nullptr);
    std::printf("thread joined\n");
}

// ---- pthread_cancel: the cancelled thread's destructors and C cleanups -------
static void say_cleanup(void *what)
{
    std::printf("C cleanup: %s\n", static_cast<const char *>(what));
}

static void *cancelled_body(void *ready)
{
    Noisy guard{78};
    pthread_cleanup_push(say_cleanup, const_cast<char *>("pushed before the wait"));
    sem_post(static_cast<sem_t *>(ready));
    for (;;)
        pause();   // a cancellation point, where the cancel finds the thread
    pthread_cleanup_pop(0);
    return nullptr;
}

static void case_cancel()
{
    sem_t ready;
    sem_init(&ready, 0, 0);
    pthread_t t;
    pthread_create(&t, nullptr, cancelled_body, &ready);
    while (sem_wait(&ready) != 0) {
    }
    pthread_cancel(t);
    void *result = nullptr;
    pthread_join(t, &result);
    std::printf("thread %s\n", result == PTHREAD_CANCELED ? "cancelled" : "returned");
}

// ---- glibc's backtrace(): its frames, as object+offset -----------------------
__attribute__((noinline)) static void execinfo_at(int n)
{
    if (n > 0) {
        execinfo_at(n - 1);
        asm volatile("");
        return;
    }
    void *ips[64];
    int got = backtrace(ips, 64);
    for (int i = 0; i < got; i++) {
        Dl_info info;
        const char *name = "?";
        uintptr_t base = 0;
        if (dladdr(ips[i], &info) && info.dli_fname) {
            name = std::strrchr(info.dli_fname, '/') ? std::strrchr(info.dli_fname, '/') + 1 : info.dli_fname;
            base = reinterpret_cast<uintptr_t>(info.dli_fbase);
        }
        std::printf("backtrace %d: %s+%#lx\n", i, name, (unsigned long)(reinterpret_cast<uintptr_t>(ips[i]) - base));
    }
}

struct Base {
    virtual ~Base() = default;
    virtual const char *name() const { return "Base"; }
};
struct Derived : Base {
    const char *name() const override { return "Derived"; }
};
struct Value {
    int a, b;
};

static void case_types()
{
    try { throw 42; } catch (int v) { std::printf("int %d\n", v); }
    try { throw Value{1, 2}; } catch (Value v) { std::printf("Value %d %d\n", v.a, v.b); }
    try { throw Derived(); } catch (const Base &b) { std::printf("by base: %s\n", b.name()); }
    static int target = 7;
    try { throw &target; } catch (int *p) { std::printf("pointer to %d\n", *p); }
    try { throw 1.5; } catch (int) { std::printf("wrong\n"); } catch (double d) { std::printf("double %.1f\n", d); }
}

struct Loud : std::runtime_error {
    explicit Loud(const char *w) : std::runtime_error(w) {}
    ~Loud() override { std::printf("~Loud %s\n", what()); }
};

static void case_inhandler()
{
    try {
        try {
            Noisy guard{1};
            throw Loud("first");
        } catch (const Loud &e) {
            std::printf("handling %s\n", e.what());
            deep(2);
        }
    } catch (const std::exception &e) {
        std::printf("caught: %s\n", e.what());
    }
}

static void case_eptr()
{
    std::exception_ptr p;
    try {
        deep(1);
    } catch (...) {
        p = std::current_exception();
    }
    std::printf("kept: %s\n", p ? "yes" : "no");
    try {
        std::rethrow_exception(p);
    } catch (const std::exception &e) {
        std::printf("rethrown: %s\n", e.what());
    }
}

static std::atomic<long> caught_in_threads;

static void *throwing_thread(void *)
{
    for (int i = 0; i < 2000; i++) {
        try {
            if (i >= 0)
                throw i;
        } catch (int v) {
            if (v == i)
                caught_in_threads++;
        }
    }
    return nullptr;
}

static void case_threads()
{
    pthread_t t[8];
    for (auto &x : t)
        pthread_create(&x, nullptr, throwing_thread, nullptr);
    for (auto &x : t)
        pthread_join(x, nullptr);
    std::printf("caught in threads: %ld\n", caught_in_threads.load());
}

static void case_dlopen()
{
    char path[4096];
    ssize_t n = readlink("/proc/self/exe", path, sizeof path - 32);
    if (n <= 0)
        return;
    path[n] = 0;
    std::strcpy(std::strrchr(path, '/') + 1, "libthrows.so");
    void *h = dlopen(path, RTLD_NOW);
    auto thrower = h ? reinterpret_cast<void (*)(int)>(dlsym(h, "library_throw")) : nullptr;
    if (!thrower) {
        std::printf("no library: %s\n", dlerror());
        return;
    }
    try {
        thrower(3);
    } catch (const std::exception &e) {
        std::printf("caught from the library: %s\n", e.what());
    }
    dlclose(h);
}

static void foreign_cleanup(_Unwind_Reason_Code, struct _Unwind_Exception *) {}

__attribute__((noinline)) static void raise_foreign(int n)
{
    Noisy guard{n};
    if (n == 0) {
        static struct _Unwind_Exception e;
        std::memset(&e, 0, sizeof e);
        e.exception_class = 0x464f524e4c414e47ull;   /* "FORNLANG": not C++'s */
        e.exception_cleanup = foreign_cleanup;
        _Unwind_RaiseException(&e);
        std::printf("not raised\n");
        return;
    }
    raise_foreign(n - 1);
    asm volatile("");
}

static void case_foreign()
{
    try {
        raise_foreign(3);
    } catch (...) {
        std::printf("caught a foreign exception with catch(...)\n");
    }
}

__attribute__((noinline)) static void no_throw() noexcept
{
    Noisy guard{9};
    deep(1);
}

int main(int argc, char **argv)
{
    std::setvbuf(stdout, nullptr, _IONBF, 0);
    for (int i = 1; i < argc; i++) {
        const char *c = argv[i];
        std::printf("== %s\n", c);
        if (!std::strcmp(c, "throw")) case_throw();
        else if (!std::strcmp(c, "rethrow")) case_rethrow();
        else if (!std::strcmp(c, "phases")) case_phases();
        else if (!std::strcmp(c, "nested")) case_nested();
        else if (!std::strcmp(c, "cframes")) case_cframes();
        else if (!std::strcmp(c, "backtrace")) backtrace_at(4);
        else if (!std::strcmp(c, "forced")) case_forced();
        else if (!std::strcmp(c, "accessors")) case_accessors();
        else if (!std::strcmp(c, "thread")) case_thread();
        else if (!std::strcmp(c, "cancel")) case_cancel();
        else if (!std::strcmp(c, "execinfo")) execinfo_at(4);
        else if (!std::strcmp(c, "types")) case_types();
        else if (!std::strcmp(c, "inhandler")) case_inhandler();
        else if (!std::strcmp(c, "eptr")) case_eptr();
        else if (!std::strcmp(c, "threads")) case_threads();
        else if (!std::strcmp(c, "dlopen")) case_dlopen();
        else if (!std::strcmp(c, "foreign")) case_foreign();
        else if (!std::strcmp(c, "uncaught")) deep(2);
        else if (!std::strcmp(c, "noexcept")) no_throw();
        else return 2;
    }
    return 0;
}
