/* SPDX-License-Identifier: Apache-2.0 */
/*
 * unwind_abi: libgcc's _Unwind_* interface over the drop-in's cursor (see
 * the header).  Written from the Itanium C++ ABI's Base ABI:
 *
 *   _Unwind_RaiseException: phase 1 (search) calls each frame's
 *   personality with _UA_SEARCH_PHASE from the thrower up, until one says
 *   _URC_HANDLER_FOUND (its frame kept in private_2); phase 2 (cleanup)
 *   walks again from the thrower with _UA_CLEANUP_PHASE (and
 *   _UA_HANDLER_FRAME at that frame) until one says _URC_INSTALL_CONTEXT:
 *   the frame then becomes the machine's (unw_resume's jump: its
 *   callee-saved registers as the rules restored them, rax and rdx as the
 *   personality set them, rip its landing pad, rsp the frame's).
 *   _Unwind_Resume goes on with phase 2 from a landing pad's frame.
 *
 *   _Unwind_ForcedUnwind: a walk that calls the stop function with
 *   _UA_FORCE_UNWIND | _UA_CLEANUP_PHASE at every frame (and
 *   _UA_END_OF_STACK at the last), then the frame's personality, which
 *   runs its cleanups; private_1 holds the stop function (0 for a thrown
 *   exception), private_2 its argument.
 *
 * The raising entries take their caller's registers at their entry
 * (unw_context.S) and hand them to their bodies here (lu_unwind_*): a
 * walk starts at the caller.  _Unwind_Backtrace captures its own
 * registers (unw_getcontext, in its frame) and steps once.
 */
#include "compat/unwind_abi.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "compat/unw_api.h"
#include "compat/unw_cursor.h"
#include "compat/throw_memo.h"
#include "compat/unw_proc_info.h"

#define EXPORT __attribute__((visibility("default")))

/* ---- libgcc's own walks ------------------------------------------------------
 * glibc starts some walks in libgcc_s.so.1 whatever is preloaded (its
 * handle's dlsym: pthread_exit's and pthread_cancel's forced unwind), and
 * the personality routines they call reach these accessors (libstdc++'s
 * bind here under LD_PRELOAD, libgcc_s's too, through its PLT).  Their
 * contexts are libgcc's, and so is a forced unwind the landing pads of such
 * a walk resume: handed back to libgcc_s's functions. */

enum libgcc_fn {
    GCC_GET_GR, GCC_SET_GR, GCC_GET_IP, GCC_GET_IP_INFO, GCC_SET_IP, GCC_GET_CFA, GCC_GET_LSDA,
    GCC_GET_REGION_START, GCC_RESUME, GCC_RESUME_OR_RETHROW, GCC_FNS
};

static const char *const libgcc_names[GCC_FNS][2] = {
    [GCC_GET_GR] = {"_Unwind_GetGR", "GCC_3.0"},
    [GCC_SET_GR] = {"_Unwind_SetGR", "GCC_3.0"},
    [GCC_GET_IP] = {"_Unwind_GetIP", "GCC_3.0"},
    [GCC_GET_IP_INFO] = {"_Unwind_GetIPInfo", "GCC_4.2.0"},
    [GCC_SET_IP] = {"_Unwind_SetIP", "GCC_3.0"},
    [GCC_GET_CFA] = {"_Unwind_GetCFA", "GCC_3.3"},
    [GCC_GET_LSDA] = {"_Unwind_GetLanguageSpecificData", "GCC_3.0"},
    [GCC_GET_REGION_START] = {"_Unwind_GetRegionStart", "GCC_3.0"},
    [GCC_RESUME] = {"_Unwind_Resume", "GCC_3.0"},
    [GCC_RESUME_OR_RETHROW] = {"_Unwind_Resume_or_Rethrow", "GCC_3.3"},
};

/* libgcc_s.so.1's FN (loaded: its context came from there). */
static void *libgcc(enum libgcc_fn fn)
{
    static void *cache[GCC_FNS];
    void *f = __atomic_load_n(&cache[fn], __ATOMIC_ACQUIRE);
    if (!f) {
        void *h = dlopen("libgcc_s.so.1", RTLD_LAZY | RTLD_NOLOAD);
        f = h ? dlvsym(h, libgcc_names[fn][0], libgcc_names[fn][1]) : NULL;
        if (!f)
            abort();
        __atomic_store_n(&cache[fn], f, __ATOMIC_RELEASE);
    }
    return f;
}

/* Whether CTX is one of ours (a cursor's magic first: never the address
 * libgcc's context holds there). */
static int foreign(const struct _Unwind_Context *ctx)
{
    return !lu_cursor_is_ours(&ctx->cursor);
}

/* The forced unwind this thread runs (_Unwind_ForcedUnwind): another one
 * is libgcc's.  (initial-exec: no __tls_get_addr, libc alone needed.) */
static __thread __attribute__((tls_model("initial-exec"))) struct forcing {
    const struct _Unwind_Exception *exc;
    _Unwind_Word stop, argument;
} forcing;

static int forced_by_libgcc(const struct _Unwind_Exception *exc)
{
    return exc->private_1 &&
           (exc != forcing.exc || exc->private_1 != forcing.stop || exc->private_2 != forcing.argument);
}

/* libgcc_s's _Unwind_Resume or _Unwind_Resume_or_Rethrow (FN) goes on with
 * its forced unwind: neither returns (called as such, so that the
 * sanitizers forget the frames left behind). */
typedef void (*libgcc_resume_fn)(struct _Unwind_Exception *) __attribute__((noreturn));

static void libgcc_resume(enum libgcc_fn fn, struct _Unwind_Exception *exc) __attribute__((noreturn));
static void libgcc_resume(enum libgcc_fn fn, struct _Unwind_Exception *exc)
{
    ((libgcc_resume_fn)libgcc(fn))(exc);
}

static struct lu_cursor *cursor(struct _Unwind_Context *ctx)
{
    return lu_cursor_of(&ctx->cursor);
}

static uint64_t ip_of(struct _Unwind_Context *ctx)
{
    return lu_regs(cursor(ctx))->r[DWU_RIP];
}

/* The frame's identity: its stack pointer (the CFA of its callee). */
static uint64_t frame_id(struct _Unwind_Context *ctx)
{
    return lu_regs(cursor(ctx))->r[DWU_RSP];
}

/* CTX at the caller of the exported function whose frame holds UC
 * (inlined there, so that the registers are that frame's).  0, or -1 when
 * that function's frame cannot be stepped through. */
static inline __attribute__((always_inline)) int begin(struct _Unwind_Context *ctx, unw_context_t *uc)
{
    _Ux86_64_getcontext(uc);
    lu_cursor_init(cursor(ctx), uc, 0);
    ctx->pi_state = 0;
    ctx->memo = NULL;
    return lu_cursor_step_rows(cursor(ctx)) > 0 ? 0 : -1;
}

/* CTX at the caller whose registers REGS are (taken at an entry). */
static void begin_at(struct _Unwind_Context *ctx, const struct dwu_regs *regs)
{
    lu_cursor_init_regs(cursor(ctx), regs);
    ctx->pi_state = 0;
    ctx->memo = NULL;
}

/* CTX, a walk of EXC's throw started anew (a cleanup's _Unwind_Resume),
 * reads the throw's memo, when the thread's is that throw's, and starts
 * with the objects the last walk found. */
static void memo_resume(struct _Unwind_Context *ctx, const struct _Unwind_Exception *exc)
{
    struct lu_throw_memo *m = lu_throw_memo_of(exc);
    if (m) {
        ctx->memo = m;
        lu_cursor_seed_objects(cursor(ctx), m->objects);
    }
}

/* The frame's procedure (its FDE), looked up once per frame (once per
 * throw and address: the memo); NULL when no FDE covers it (a frame an
 * eh_elf alone describes has no personality).  Of the procedure,
 * start_ip, end_ip, lsda and handler are set. */
static const unw_proc_info_t *look_up_procedure(struct _Unwind_Context *ctx);

static inline const unw_proc_info_t *procedure(struct _Unwind_Context *ctx)
{
    if (__builtin_expect(ctx->pi_state != 0, 1))   /* the personality's accessors ask again */
        return ctx->pi_state > 0 ? &ctx->pi : NULL;
    return look_up_procedure(ctx);
}

static const unw_proc_info_t *look_up_procedure(struct _Unwind_Context *ctx)
{
    uint64_t pc = lu_cursor_lookup_pc(cursor(ctx));
    struct lu_throw_memo *m = ctx->memo;
    struct lu_throw_memo_entry *e = m ? lu_throw_memo_slot(m, pc) : NULL;
    if (e && lu_throw_memo_holds(m, e, pc)) {
        ctx->pi.start_ip = e->start_ip;
        ctx->pi.end_ip = e->end_ip;
        ctx->pi.lsda = e->lsda;
        ctx->pi.handler = e->handler;
        ctx->pi_state = e->state;
    } else {
        memset(&ctx->pi, 0, sizeof ctx->pi);
        ctx->pi_state = ip_of(ctx) && lu_proc_info_eh(pc, &ctx->pi) == 0 ? 1 : -1;
        if (e)
            *e = (struct lu_throw_memo_entry){m->serial, pc, ctx->pi.start_ip, ctx->pi.end_ip, ctx->pi.lsda,
                                              ctx->pi.handler, ctx->pi_state};
    }
    return ctx->pi_state > 0 ? &ctx->pi : NULL;
}

/* The step to the caller, by table only: 1, 0 after the outermost frame
 * (IP 0), -UNW_ENOINFO where no table covers the frame, or an error. */
static int step(struct _Unwind_Context *ctx)
{
    ctx->pi_state = 0;
    return lu_cursor_step_rows(cursor(ctx));
}

static _Unwind_Personality_Fn personality(struct _Unwind_Context *ctx)
{
    const unw_proc_info_t *pi = procedure(ctx);
    return pi && pi->handler ? (_Unwind_Personality_Fn)(uintptr_t)pi->handler : NULL;
}

/* The frame becomes the machine's: does not return. */
static void install(struct _Unwind_Context *ctx) __attribute__((noreturn));
static void install(struct _Unwind_Context *ctx)
{
    lu_cursor_resume_landing_pad(cursor(ctx));
}

/* ---- the phases ------------------------------------------------------------ */

/* Phase 1 from CTX: _URC_HANDLER_FOUND (the frame in private_2),
 * _URC_END_OF_STACK, or _URC_FATAL_PHASE1_ERROR. */
static _Unwind_Reason_Code search(struct _Unwind_Exception *exc, struct _Unwind_Context *ctx)
{
    for (unsigned n = 0; n < UNWIND_ABI_FRAMES_MAX; n++) {
        if (ip_of(ctx) == 0)
            return _URC_END_OF_STACK;
        _Unwind_Personality_Fn pers = personality(ctx);
        if (pers) {
            _Unwind_Reason_Code rc = pers(1, _UA_SEARCH_PHASE, exc->exception_class, exc, ctx);
            if (rc == _URC_HANDLER_FOUND) {
                exc->private_2 = frame_id(ctx);
                return rc;
            }
            if (rc != _URC_CONTINUE_UNWIND)
                return _URC_FATAL_PHASE1_ERROR;
        }
        int s = step(ctx);
        if (s == 0 || s == -UNW_ENOINFO)
            return _URC_END_OF_STACK;
        if (s < 0)
            return _URC_FATAL_PHASE1_ERROR;
    }
    return _URC_FATAL_PHASE1_ERROR;
}

/* Phase 2 from CTX up to the handler's frame (private_2): installs a
 * landing pad, or returns _URC_FATAL_PHASE2_ERROR. */
static _Unwind_Reason_Code cleanup(struct _Unwind_Exception *exc, struct _Unwind_Context *ctx)
{
    for (unsigned n = 0; n < UNWIND_ABI_FRAMES_MAX && ip_of(ctx) != 0; n++) {
        int handler = frame_id(ctx) == exc->private_2;
        _Unwind_Personality_Fn pers = personality(ctx);
        if (pers) {
            _Unwind_Action action = _UA_CLEANUP_PHASE | (handler ? _UA_HANDLER_FRAME : 0);
            _Unwind_Reason_Code rc = pers(1, action, exc->exception_class, exc, ctx);
            if (rc == _URC_INSTALL_CONTEXT) {
                if (ctx->memo) {
                    if (handler)
                        lu_throw_memo_end(ctx->memo);
                    else
                        lu_cursor_objects(cursor(ctx), ctx->memo->objects);
                }
                install(ctx);
            }
            if (rc != _URC_CONTINUE_UNWIND)
                break;
        }
        if (handler || step(ctx) <= 0)
            break;
    }
    return _URC_FATAL_PHASE2_ERROR;
}

/* A forced unwind from CTX (the stop function and its argument in
 * private_1 and private_2): installs a landing pad, or returns
 * _URC_END_OF_STACK after the stop function saw the last frame, or
 * _URC_FATAL_PHASE2_ERROR. */
static _Unwind_Reason_Code forced(struct _Unwind_Exception *exc, struct _Unwind_Context *ctx)
{
    _Unwind_Stop_Fn stop = (_Unwind_Stop_Fn)(uintptr_t)exc->private_1;
    void *argument = (void *)(uintptr_t)exc->private_2;
    struct _Unwind_Context next;
    for (unsigned n = 0; n < UNWIND_ABI_FRAMES_MAX; n++) {
        /* whether this frame is the last: the stop function is told so */
        next = *ctx;
        int s = ip_of(ctx) == 0 ? -UNW_ENOINFO : step(&next);
        if (s < 0 && s != -UNW_ENOINFO)
            return _URC_FATAL_PHASE2_ERROR;
        int end = s == -UNW_ENOINFO;
        _Unwind_Action action = _UA_FORCE_UNWIND | _UA_CLEANUP_PHASE | (end ? _UA_END_OF_STACK : 0);
        if (stop(1, action, exc->exception_class, exc, ctx, argument) != _URC_NO_REASON)
            return _URC_FATAL_PHASE2_ERROR;
        if (end)
            return _URC_END_OF_STACK;
        _Unwind_Personality_Fn pers = personality(ctx);
        if (pers) {
            _Unwind_Reason_Code rc = pers(1, _UA_FORCE_UNWIND | _UA_CLEANUP_PHASE, exc->exception_class, exc, ctx);
            if (rc == _URC_INSTALL_CONTEXT)
                install(ctx);
            if (rc != _URC_CONTINUE_UNWIND)
                return _URC_FATAL_PHASE2_ERROR;
        }
        *ctx = next;
    }
    return _URC_FATAL_PHASE2_ERROR;
}

/* Both phases from START: returns only when no handler is installed. */
static _Unwind_Reason_Code throw_from(struct _Unwind_Exception *exc, const struct _Unwind_Context *start)
{
    struct lu_throw_memo *memo = lu_throw_memo_begin(exc);
    struct _Unwind_Context ctx = *start;
    ctx.memo = memo;
    _Unwind_Reason_Code rc = search(exc, &ctx);
    if (rc != _URC_HANDLER_FOUND)
        return rc;
    exc->private_1 = 0;
    ctx = *start;
    ctx.memo = memo;
    return cleanup(exc, &ctx);
}

/* ---- raising ------------------------------------------------------------------ */

/* The bodies of _Unwind_RaiseException, _Unwind_ForcedUnwind, _Unwind_Resume
 * and _Unwind_Resume_or_Rethrow (unw_context.S), REGS their caller's. */
_Unwind_Reason_Code lu_unwind_raise(struct _Unwind_Exception *exc, const struct dwu_regs *regs)
{
    struct _Unwind_Context ctx;
    begin_at(&ctx, regs);
    return throw_from(exc, &ctx);
}

_Unwind_Reason_Code lu_unwind_forced(struct _Unwind_Exception *exc, _Unwind_Stop_Fn stop, void *argument,
                                     const struct dwu_regs *regs)
{
    struct _Unwind_Context ctx;
    begin_at(&ctx, regs);
    exc->private_1 = (_Unwind_Word)(uintptr_t)stop;
    exc->private_2 = (_Unwind_Word)(uintptr_t)argument;
    forcing = (struct forcing){exc, exc->private_1, exc->private_2};
    return forced(exc, &ctx);
}

/* From a landing pad that ran cleanups: phase 2 goes on (or the forced
 * unwind).  Never returns: a failure here is the stack's corruption. */
void lu_unwind_resume(struct _Unwind_Exception *exc, const struct dwu_regs *regs)
{
    if (forced_by_libgcc(exc))
        libgcc_resume(GCC_RESUME, exc);
    struct _Unwind_Context ctx;
    begin_at(&ctx, regs);
    if (exc->private_1) {
        forced(exc, &ctx);
    } else {
        memo_resume(&ctx, exc);
        cleanup(exc, &ctx);
    }
    abort();
}

/* A rethrow (`throw;`) raises anew; a forced unwind goes on. */
_Unwind_Reason_Code lu_unwind_resume_or_rethrow(struct _Unwind_Exception *exc, const struct dwu_regs *regs)
{
    if (forced_by_libgcc(exc))
        libgcc_resume(GCC_RESUME_OR_RETHROW, exc);
    struct _Unwind_Context ctx;
    begin_at(&ctx, regs);
    if (!exc->private_1)
        return throw_from(exc, &ctx);
    forced(exc, &ctx);
    abort();
}

EXPORT void _Unwind_DeleteException(struct _Unwind_Exception *exc)
{
    if (exc->exception_cleanup)
        exc->exception_cleanup(_URC_FOREIGN_EXCEPTION_CAUGHT, exc);
}

/* TRACE at every frame from the caller up, the last of IP 0 included
 * when the stack ends there (as libgcc's). */
EXPORT _Unwind_Reason_Code _Unwind_Backtrace(_Unwind_Trace_Fn trace, void *argument)
{
    unw_context_t uc;
    struct _Unwind_Context ctx;
    if (begin(&ctx, &uc) != 0)
        return _URC_END_OF_STACK;
    for (unsigned n = 0; n < UNWIND_ABI_FRAMES_MAX; n++) {
        if (trace(&ctx, argument) != _URC_NO_REASON)
            return _URC_FATAL_PHASE1_ERROR;
        if (ip_of(&ctx) == 0)
            return _URC_END_OF_STACK;
        int s = step(&ctx);
        if (s == -UNW_ENOINFO)
            return _URC_END_OF_STACK;
        if (s < 0)
            return _URC_FATAL_PHASE1_ERROR;
    }
    return _URC_FATAL_PHASE1_ERROR;
}

/* ---- the context's accessors ---------------------------------------------- */

EXPORT _Unwind_Word _Unwind_GetGR(struct _Unwind_Context *ctx, int reg)
{
    if (foreign(ctx))
        return ((_Unwind_Word(*)(struct _Unwind_Context *, int))libgcc(GCC_GET_GR))(ctx, reg);
    unw_word_t v = 0;
    return lu_cursor_get_reg(cursor(ctx), reg, &v) == 0 ? v : 0;
}

EXPORT void _Unwind_SetGR(struct _Unwind_Context *ctx, int reg, _Unwind_Word value)
{
    if (foreign(ctx)) {
        ((void (*)(struct _Unwind_Context *, int, _Unwind_Word))libgcc(GCC_SET_GR))(ctx, reg, value);
        return;
    }
    lu_cursor_set_reg(cursor(ctx), reg, value);
}

EXPORT _Unwind_Ptr _Unwind_GetIP(struct _Unwind_Context *ctx)
{
    if (foreign(ctx))
        return ((_Unwind_Ptr(*)(struct _Unwind_Context *))libgcc(GCC_GET_IP))(ctx);
    return ip_of(ctx);
}

/* *BEFORE: whether the IP is exact (a signal frame's), not a return
 * address. */
EXPORT _Unwind_Ptr _Unwind_GetIPInfo(struct _Unwind_Context *ctx, int *before)
{
    if (foreign(ctx))
        return ((_Unwind_Ptr(*)(struct _Unwind_Context *, int *))libgcc(GCC_GET_IP_INFO))(ctx, before);
    *before = (lu_regs(cursor(ctx))->flags & DWU_FLAG_EXACT_IP) != 0;
    return ip_of(ctx);
}

EXPORT void _Unwind_SetIP(struct _Unwind_Context *ctx, _Unwind_Ptr ip)
{
    if (foreign(ctx)) {
        ((void (*)(struct _Unwind_Context *, _Unwind_Ptr))libgcc(GCC_SET_IP))(ctx, ip);
        return;
    }
    lu_cursor_set_reg(cursor(ctx), UNW_X86_64_RIP, ip);
    ctx->pi_state = 0;
}

EXPORT _Unwind_Word _Unwind_GetCFA(struct _Unwind_Context *ctx)
{
    if (foreign(ctx))
        return ((_Unwind_Word(*)(struct _Unwind_Context *))libgcc(GCC_GET_CFA))(ctx);
    return frame_id(ctx);
}

EXPORT void *_Unwind_GetLanguageSpecificData(struct _Unwind_Context *ctx)
{
    if (foreign(ctx))
        return ((void *(*)(struct _Unwind_Context *))libgcc(GCC_GET_LSDA))(ctx);
    const unw_proc_info_t *pi = procedure(ctx);
    return pi ? (void *)(uintptr_t)pi->lsda : NULL;
}

EXPORT _Unwind_Ptr _Unwind_GetRegionStart(struct _Unwind_Context *ctx)
{
    if (foreign(ctx))
        return ((_Unwind_Ptr(*)(struct _Unwind_Context *))libgcc(GCC_GET_REGION_START))(ctx);
    const unw_proc_info_t *pi = procedure(ctx);
    return pi ? pi->start_ip : 0;
}

/* No data- or text-relative base on x86_64 (libgcc's are 0 too). */
EXPORT _Unwind_Ptr _Unwind_GetDataRelBase(struct _Unwind_Context *ctx)
{
    (void)ctx;
    return 0;
}

EXPORT _Unwind_Ptr _Unwind_GetTextRelBase(struct _Unwind_Context *ctx)
{
    (void)ctx;
    return 0;
}

static const void *find_fde(void *pc, struct dwarf_eh_bases *bases)
{
    uint64_t func = 0, fde = lu_proc_fde_address((uint64_t)(uintptr_t)pc, &func);
    if (fde && bases) {
        bases->tbase = bases->dbase = NULL;
        bases->func = (void *)(uintptr_t)func;
    }
    return (const void *)(uintptr_t)fde;
}

EXPORT const void *_Unwind_Find_FDE(void *pc, struct dwarf_eh_bases *bases)
{
    return find_fde(pc, bases);
}

EXPORT void *_Unwind_FindEnclosingFunction(void *pc)
{
    struct dwarf_eh_bases bases;
    return find_fde((char *)pc - 1, &bases) ? bases.func : NULL;
}
