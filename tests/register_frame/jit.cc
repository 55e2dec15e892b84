// SPDX-License-Identifier: Apache-2.0
// tests/register_frame/jit.cc: code made at run time, as a JIT makes it
// (jit_code.h), and its .eh_frame registered with libgcc's __register_frame
// family; the same output with libgcc_s and with the drop-in preloaded.
//   jit CASE...   cases: backtrace throw find deregister exit info table single
//                 personality personality-indirect replaced
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <pthread.h>
#include <stdexcept>
#include <string>
#include <unwind.h>
#include <vector>

#include "jit_code.h"

extern "C" {
struct object;
void __register_frame(void *begin);
void __deregister_frame(void *begin);
void __register_frame_info(const void *begin, struct object *ob);
void *__deregister_frame_info(const void *begin);
void __register_frame_info_table(void *begin, struct object *ob);
struct dwarf_eh_bases {
    void *tbase, *dbase, *func;
};
const void *_Unwind_Find_FDE(void *pc, struct dwarf_eh_bases *bases);
}

typedef jit_callback_fn callback_fn;

static jit_code the_jit;

static bool in_jit(uintptr_t ip)
{
    return ip > (uintptr_t)the_jit.page && ip <= (uintptr_t)the_jit.page + JIT_CODE_SIZE;
}

// ---- backtrace --------------------------------------------------------------------

__attribute__((noinline)) void through_jit(callback_fn cb, void *arg);
__attribute__((noinline)) void print_backtrace(const char *what);

struct trace {
    std::vector<std::string> frames;
};

static void *enclosing(uintptr_t ip)
{
    return _Unwind_FindEnclosingFunction((void *)ip);
}

static _Unwind_Reason_Code trace_frame(struct _Unwind_Context *ctx, void *arg)
{
    trace *t = (trace *)arg;
    uintptr_t ip = _Unwind_GetIP(ctx);
    if (in_jit(ip))
        t->frames.push_back("jit");
    else if (ip && enclosing(ip) == (void *)&through_jit)
        t->frames.push_back("through_jit");
    else if (ip && enclosing(ip) == (void *)&print_backtrace)
        t->frames.push_back("print_backtrace");
    return _URC_NO_REASON;
}

static void backtrace_callback(void *arg)
{
    _Unwind_Backtrace(trace_frame, arg);
}

__attribute__((noinline)) void through_jit(callback_fn cb, void *arg)
{
    the_jit.fn(cb, arg);
    __asm__ volatile("" ::: "memory");   // not a tail call
}

__attribute__((noinline)) void print_backtrace(const char *what)
{
    trace t;
    through_jit(backtrace_callback, &t);
    printf("%s:", what);
    for (auto &f : t.frames)
        printf(" %s", f.c_str());
    printf("\n");
    __asm__ volatile("" ::: "memory");   // not a tail call
}

// ---- throw --------------------------------------------------------------------------

struct noisy {
    const char *name;
    ~noisy() { printf("destructor of %s\n", name); }
};

static void throwing_callback(void *arg)
{
    throw std::runtime_error((const char *)arg);
}

__attribute__((noinline)) static void cleanup_then_jit()
{
    noisy n{"the frame below the JIT frame"};
    through_jit(throwing_callback, (void *)"thrown above the JIT frame");
}

static void catch_across()
{
    try {
        cleanup_then_jit();
        printf("not thrown\n");
    } catch (const std::runtime_error &e) {
        printf("caught: %s\n", e.what());
    }
}

// ---- _Unwind_Find_FDE --------------------------------------------------------------

static void print_find(const char *what)
{
    dwarf_eh_bases bases = {};
    const void *fde = _Unwind_Find_FDE(the_jit.page + 11, &bases);
    if (!fde)
        printf("%s: _Unwind_Find_FDE: none\n", what);
    else
        printf("%s: _Unwind_Find_FDE: %s, function %s\n", what, fde == the_jit.fde ? "the FDE" : "another FDE",
               bases.func == the_jit.page ? "at the code" : "elsewhere");
}

// ---- the JIT frame's personality routine ----------------------------------------------

static const char jit_lsda[] = "the JIT frame's LSDA";

// Says what the unwinder gives it, and lets the exception pass.
static _Unwind_Reason_Code jit_personality(int version, _Unwind_Action actions, uint64_t, struct _Unwind_Exception *,
                                           struct _Unwind_Context *ctx)
{
    printf("JIT frame's personality: version %d, %s phase, LSDA %s, region start %s\n", version,
           (actions & _UA_SEARCH_PHASE) ? "search" : "cleanup",
           _Unwind_GetLanguageSpecificData(ctx) == (void *)jit_lsda ? "the FDE's" : "another",
           _Unwind_GetRegionStart(ctx) == (uintptr_t)the_jit.page ? "the code" : "elsewhere");
    return _URC_CONTINUE_UNWIND;
}

// A throw across the JIT code with SECTION registered, then deregistered.
static void catch_across_registered(void *section)
{
    __register_frame(section);
    catch_across();
    __deregister_frame(section);
}

// ---- pthread_exit across the JIT frame ----------------------------------------------

static void exit_callback(void *)
{
    pthread_exit(nullptr);
}

static void *exiting_thread(void *)
{
    noisy n{"the exiting thread's frame below the JIT frame"};
    through_jit(exit_callback, nullptr);
    return nullptr;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, nullptr, _IONBF, 0);
    the_jit = jit_code_make();
    static long object_storage[8];   // libgcc's struct object: the caller's storage
    struct object *ob = (struct object *)object_storage;
    for (int i = 1; i < argc; i++) {
        std::string c = argv[i];
        if (c == "backtrace") {
            print_backtrace("unregistered");
            __register_frame(the_jit.section);
            print_backtrace("registered");
            __deregister_frame(the_jit.section);
        } else if (c == "throw") {
            __register_frame(the_jit.section);
            catch_across();
            __deregister_frame(the_jit.section);
        } else if (c == "find") {
            print_find("unregistered");
            __register_frame(the_jit.section);
            print_find("registered");
            __deregister_frame(the_jit.section);
        } else if (c == "deregister") {
            __register_frame(the_jit.section);
            __deregister_frame(the_jit.section);
            print_find("deregistered");
            print_backtrace("deregistered");
        } else if (c == "exit") {
            __register_frame(the_jit.section);
            pthread_t t;
            pthread_create(&t, nullptr, exiting_thread, nullptr);
            pthread_join(t, nullptr);
            printf("thread joined\n");
            __deregister_frame(the_jit.section);
        } else if (c == "info") {
            __register_frame_info(the_jit.section, ob);
            print_find("__register_frame_info");
            print_backtrace("__register_frame_info");
            void *back = __deregister_frame_info(the_jit.section);
            printf("__deregister_frame_info: %s\n", back == ob ? "the object" : "another pointer");
            print_find("__deregister_frame_info");
        } else if (c == "table") {
            void *table[] = {the_jit.section, nullptr};
            __register_frame_info_table(table, ob);
            print_find("__register_frame_info_table");
            void *back = __deregister_frame_info(table);
            printf("__deregister_frame_info: %s\n", back == ob ? "the object" : "another pointer");
            print_find("table deregistered");
        } else if (c == "single") {
            // The FDE alone, as LLVM's JITs register each FDE with LLVM's
            // libunwind (libgcc reads from it to the terminator: the same).
            __register_frame(the_jit.fde);
            print_find("one FDE registered");
            catch_across();
            __deregister_frame(the_jit.fde);
            print_find("one FDE deregistered");
        } else if (c == "personality" || c == "personality-indirect") {
            // A JIT frame with a personality routine and an LSDA: called in
            // both phases, with the FDE's LSDA and the code's start.
            jit_code plain = the_jit;
            the_jit = jit_code_make_with((void *)&jit_personality, c == "personality-indirect", jit_lsda);
            __register_frame(the_jit.section);
            catch_across();
            __deregister_frame(the_jit.section);
            the_jit = plain;
        } else if (c == "replaced") {
            // The same code described anew between two throws, as a JIT
            // that reuses its memory: first without a personality, then
            // with one.  The second throw must see the new FDE (the
            // drop-in's throws keep procedures by address, for one throw).
            catch_across_registered(the_jit.section);
            jit_code described = jit_code_make_with((void *)&jit_personality, 0, jit_lsda);
            jit_code_retarget(&described, the_jit.page);
            catch_across_registered(described.section);
        } else {
            fprintf(stderr, "unknown case %s\n", c.c_str());
            return 2;
        }
    }
    return 0;
}
