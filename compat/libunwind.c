/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libunwind: the drop-in libunwind.so.8 — libunwind 1.6's local API on
 * x86_64 (the names a program built with UNW_LOCAL_ONLY and -lunwind
 * links to, unw_abi.h), backed by the dwunwind runtime.
 *
 * What each entry point gives is libunwind's on the same stack: frames,
 * names, offsets, registers, return values; compat/unw_cursor.h,
 * unw_proc_info.h and unw_symbols.h say how.  Where they differ by design:
 * unw_set_reg changes the cursor's frame, not the stack slot a register
 * was saved in; unw_resume restores no FP state outside a signal frame;
 * the dynamic unwind information a JIT registers (_U_dyn_register) is
 * kept and names its procedures, but is not unwound with (its procedures
 * take the frame-chain guess).  The remote API is not here: a program of
 * the local API gets -UNW_EINVAL from unw_init_remote and no address space
 * from unw_create_addr_space, as from Debian's libunwind.so.8 (the
 * remote API lives in libunwind-x86_64.so.8: compat/libunwind_generic.c).
 *
 * Async-signal-safe, as libunwind's are or more: unw_getcontext,
 * unw_init_local, unw_init_local2, unw_step, unw_get_reg, unw_set_reg,
 * unw_get_fpreg, unw_set_fpreg, unw_is_signal_frame, unw_get_proc_info,
 * unw_get_proc_info_by_ip, unw_get_save_loc, unw_reg_states_iterate,
 * unw_apply_reg_state, unw_resume, unw_backtrace, unw_regname,
 * unw_strerror, unw_is_fpreg, and the caching calls on
 * unw_local_addr_space.  Not: unw_get_proc_name (it maps files),
 * _U_dyn_register and _U_dyn_cancel (a lock, as libunwind's), the caching
 * calls on another address space (handed to libunwind-x86_64.so.8).
 * Trust: the eh_elfs used are the runtime's, loaded from trusted files
 * only (dwunwind.h).
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <string.h>

#include "compat/ucontext_offsets.h"
#include "compat/unw_abi.h"
#include "compat/unw_api.h"
#include "compat/unw_cursor.h"
#include "compat/unw_names.h"
#include "compat/unw_proc_info.h"
#include "compat/unw_reg_states.h"
#include "compat/unw_symbols.h"

#define LU(name) _ULx86_64_##name
#define LU_ARCH(name) _Ux86_64_##name
#define EXPORT __attribute__((visibility("default")))

_Static_assert(offsetof(ucontext_t, uc_mcontext.gregs) == UC_GREGS && REG_R8 == 0 && REG_RIP == 16 &&
                   REG_RAX == 13 && REG_RSP == 15 && offsetof(ucontext_t, uc_mcontext.fpregs) == UC_FPREGS_PTR &&
                   offsetof(ucontext_t, __fpregs_mem) == UC_FPREGS_MEM &&
                   offsetof(struct _libc_fpstate, mxcsr) == FPSTATE_MXCSR,
               "compat/ucontext_offsets.h is glibc's x86_64 ucontext_t");

/* ---- the local address space ------------------------------------------- */

static int local_find_proc_info(unw_addr_space_t, unw_word_t, unw_proc_info_t *, int, void *);
static void local_put_unwind_info(unw_addr_space_t, unw_proc_info_t *, void *);
static int local_get_dyn_info_list_addr(unw_addr_space_t, unw_word_t *, void *);
static int local_access_mem(unw_addr_space_t, unw_word_t, unw_word_t *, int, void *);
static int local_access_reg(unw_addr_space_t, unw_regnum_t, unw_word_t *, int, void *);
static int local_access_fpreg(unw_addr_space_t, unw_regnum_t, unw_fpreg_t *, int, void *);
static int local_resume(unw_addr_space_t, unw_cursor_t *, void *);
static int local_get_proc_name(unw_addr_space_t, unw_word_t, char *, size_t, unw_word_t *, void *);

#define LU_SPACE_MAGIC 0xd0e5dfa15bace000ull
EXPORT struct unw_addr_space _dwunwind_lu_local_space = {
    LU_SPACE_MAGIC,
    {local_find_proc_info, local_put_unwind_info, local_get_dyn_info_list_addr, local_access_mem, local_access_reg,
     local_access_fpreg, local_resume, local_get_proc_name},
};
EXPORT unw_addr_space_t LU(local_addr_space) = &_dwunwind_lu_local_space;

/* ---- dynamic unwind information (_U_dyn_*) ------------------------------ */

static unw_dyn_info_list_t dyn_list;
static pthread_mutex_t dyn_lock = PTHREAD_MUTEX_INITIALIZER;

EXPORT void _U_dyn_register(unw_dyn_info_t *di)
{
    if (!di)
        return;
    pthread_mutex_lock(&dyn_lock);
    dyn_list.generation++;
    di->next = dyn_list.first;
    di->prev = NULL;
    if (di->next)
        di->next->prev = di;
    __atomic_store_n(&dyn_list.first, di, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&dyn_lock);
}

EXPORT void _U_dyn_cancel(unw_dyn_info_t *di)
{
    if (!di)
        return;
    pthread_mutex_lock(&dyn_lock);
    dyn_list.generation++;
    if (di->prev)
        di->prev->next = di->next;
    else if (dyn_list.first == di)
        dyn_list.first = di->next;
    if (di->next)
        di->next->prev = di->prev;
    pthread_mutex_unlock(&dyn_lock);
    di->next = di->prev = NULL;
}

EXPORT unw_word_t _U_dyn_info_list_addr(void)
{
    return (unw_word_t)(uintptr_t)&dyn_list;
}

/* The registered procedure that covers IP, or NULL (the walk reads the
 * list without the lock, as libunwind's does). */
static const unw_dyn_info_t *dynamic_info_at(uint64_t ip)
{
    const unw_dyn_info_t *di = __atomic_load_n(&dyn_list.first, __ATOMIC_ACQUIRE);
    for (unsigned n = 0; di && n < 1000000; di = di->next, n++)
        if (ip >= di->start_ip && ip < di->end_ip)
            return di;
    return NULL;
}

/* libunwind's name of a registered procedure: its name_ptr's string for
 * the DYNAMIC format, none for a table. */
static int dynamic_name(const unw_dyn_info_t *di, uint64_t ip, char *buf, size_t len, unw_word_t *off)
{
    if (off)
        *off = ip - di->start_ip;
    if (di->format != UNW_INFO_FORMAT_DYNAMIC)
        return di->format == UNW_INFO_FORMAT_TABLE || di->format == UNW_INFO_FORMAT_REMOTE_TABLE ? -UNW_ENOINFO
                                                                                                 : -UNW_EINVAL;
    const char *name = (const char *)(uintptr_t)di->u.pi.name_ptr;
    if (!name)
        return -UNW_ENOINFO;
    size_t i = 0;
    for (; i < len; i++)
        if ((buf[i] = name[i]) == '\0')
            return 0;
    buf[len - 1] = '\0';
    return -UNW_ENOMEM;
}

/* ---- cursors ------------------------------------------------------------ */

static struct lu_cursor *ours(unw_cursor_t *c)
{
    return lu_cursor_is_ours(c) ? lu_cursor_of(c) : NULL;
}

EXPORT int LU(init_local)(unw_cursor_t *cursor, unw_context_t *uc)
{
    return cursor ? lu_cursor_init(lu_cursor_of(cursor), uc, 0) : -UNW_EINVAL;
}

EXPORT int LU(init_local2)(unw_cursor_t *cursor, unw_context_t *uc, int flag)
{
    if (!cursor || (flag != 0 && flag != UNW_INIT_SIGNAL_FRAME))
        return -UNW_EINVAL;
    return lu_cursor_init(lu_cursor_of(cursor), uc, flag == UNW_INIT_SIGNAL_FRAME);
}

EXPORT int LU(init_remote)(unw_cursor_t *cursor, unw_addr_space_t as, void *arg)
{
    (void)cursor, (void)as, (void)arg;
    return -UNW_EINVAL;
}

EXPORT int LU(step)(unw_cursor_t *cursor)
{
    struct lu_cursor *c = ours(cursor);
    return c ? lu_cursor_step(c) : -UNW_EINVAL;
}

EXPORT int LU(get_reg)(unw_cursor_t *cursor, int reg, unw_word_t *value)
{
    struct lu_cursor *c = ours(cursor);
    if (!c || !value)
        return -UNW_EINVAL;
    return lu_cursor_get_reg(c, reg, value);
}

EXPORT int LU(set_reg)(unw_cursor_t *cursor, int reg, unw_word_t value)
{
    struct lu_cursor *c = ours(cursor);
    return c ? lu_cursor_set_reg(c, reg, value) : -UNW_EINVAL;
}

/* libunwind 1.6 knows no floating-point register on x86_64. */
EXPORT int LU(get_fpreg)(unw_cursor_t *cursor, int reg, unw_fpreg_t *value)
{
    (void)cursor, (void)reg, (void)value;
    return -UNW_EBADREG;
}

EXPORT int LU(set_fpreg)(unw_cursor_t *cursor, int reg, unw_fpreg_t value)
{
    (void)cursor, (void)reg, (void)value;
    return -UNW_EBADREG;
}

EXPORT int LU_ARCH(is_fpreg)(int reg)
{
    (void)reg;
    return 0;
}

EXPORT int LU(is_signal_frame)(unw_cursor_t *cursor)
{
    struct lu_cursor *c = ours(cursor);
    return c ? c->signal_frame : -UNW_EINVAL;
}

EXPORT int LU(get_save_loc)(unw_cursor_t *cursor, int reg, unw_save_loc_t *loc)
{
    struct lu_cursor *c = ours(cursor);
    if (!c || !loc)
        return -UNW_EINVAL;
    return lu_reg_save_loc(c, reg, loc, 0);
}

EXPORT int LU(resume)(unw_cursor_t *cursor)
{
    struct lu_cursor *c = ours(cursor);
    if (!c)
        return -UNW_EINVAL;
    lu_cursor_resume(c);
}

/* The procedure of the cursor's frame, as libunwind's unw_get_proc_info
 * gives it: its FDE; without one, a one-byte procedure at the IP (which
 * libunwind reports, success, for the frames without unwind information).
 * Finding the FDE also says whether the frame is a signal frame, which
 * unw_is_signal_frame then tells (libunwind's order of things). */
EXPORT int LU(get_proc_info)(unw_cursor_t *cursor, unw_proc_info_t *pi)
{
    struct lu_cursor *c = ours(cursor);
    if (!c || !pi)
        return -UNW_EINVAL;
    uint64_t ip = lu_regs(c)->r[DWU_RIP];
    int signal = 0;
    memset(pi, 0, sizeof *pi);
    /* (a procedure a JIT registered has no rows libunwind 1.6 reads: its
     * answer is the one-byte procedure) */
    if (dynamic_info_at(lu_cursor_lookup_pc(c)) || lu_proc_info(lu_cursor_lookup_pc(c), pi, &signal) != 0) {
        pi->start_ip = ip;
        pi->end_ip = ip + 1;
        return 0;
    }
    pi->format = UNW_INFO_FORMAT_TABLE;
    pi->unwind_info_size = UNW_LIBUNWIND_CIE_INFO_SIZE;
    c->signal_frame = signal;
    return 0;
}

EXPORT int LU(get_proc_info_by_ip)(unw_addr_space_t as, unw_word_t ip, unw_proc_info_t *pi, void *arg)
{
    (void)as, (void)arg;
    if (!pi)
        return -UNW_EINVAL;
    /* A procedure a JIT registered, as libunwind extracts it (its table
     * formats, which it would search, are not read here). */
    const unw_dyn_info_t *di = dynamic_info_at(ip);
    if (di) {
        if (di->format != UNW_INFO_FORMAT_DYNAMIC)
            return -UNW_ENOINFO;
        pi->start_ip = di->start_ip;
        pi->end_ip = di->end_ip;
        pi->gp = di->gp;
        pi->format = di->format;
        pi->handler = di->u.pi.handler;
        pi->lsda = 0;
        pi->flags = di->u.pi.flags;
        pi->unwind_info_size = 0;
        pi->unwind_info = NULL;
        return 0;
    }
    return lu_proc_info(ip, pi, NULL);
}

EXPORT int LU(get_proc_name)(unw_cursor_t *cursor, char *buf, size_t len, unw_word_t *off)
{
    struct lu_cursor *c = ours(cursor);
    if (!c || !buf || len == 0)
        return -UNW_EINVAL;
    /* The name of the call's address, not the return address's (which
     * may be the next function's first), as libunwind names it. */
    uint64_t pc = lu_cursor_lookup_pc(c), offset = 0;
    const unw_dyn_info_t *di = dynamic_info_at(pc);
    buf[0] = '\0';
    int rc = di ? dynamic_name(di, pc, buf, len, &offset) : lu_symbols_name(pc, buf, len, &offset);
    if (off && (rc == 0 || rc == -UNW_ENOMEM))
        *off = offset + (rc == 0 ? lu_regs(c)->r[DWU_RIP] - pc : 0);
    return rc;
}

EXPORT int LU(reg_states_iterate)(unw_cursor_t *cursor, unw_reg_states_callback cb, void *token)
{
    struct lu_cursor *c = ours(cursor);
    if (!c || !cb)
        return -UNW_EINVAL;
    return lu_reg_states_iterate(c, cb, token);
}

EXPORT int LU(apply_reg_state)(unw_cursor_t *cursor, void *reg_states_data)
{
    struct lu_cursor *c = ours(cursor);
    if (!c || !reg_states_data)
        return -UNW_EINVAL;
    return lu_reg_states_apply(c, reg_states_data);
}

/* ---- address spaces and caches ------------------------------------------- */

EXPORT unw_addr_space_t LU(create_addr_space)(unw_accessors_t *a, int byte_order)
{
    (void)a, (void)byte_order;
    return NULL;
}

EXPORT void LU(destroy_addr_space)(unw_addr_space_t as)
{
    (void)as;
}

/* _Ux86_64_get_accessors and _Ux86_64_flush_cache have one name in both
 * libraries: a program may reach these for an address space of the
 * remote API, which libunwind-x86_64.so.8 (compat/libunwind_generic.c)
 * hands on to Debian's. */
static void *remote_entry(const char *name)
{
    return dlsym(RTLD_DEFAULT, name);
}

EXPORT unw_accessors_t *LU_ARCH(get_accessors)(unw_addr_space_t as)
{
    if (as == &_dwunwind_lu_local_space)
        return &as->acc;
    unw_accessors_t *(*remote)(unw_addr_space_t) = (unw_accessors_t * (*)(unw_addr_space_t))
        remote_entry("_dwunwind_remote_get_accessors");
    return as && remote ? remote(as) : NULL;
}

/* The runtime keeps what it found (eh_elfs, rows) as objects are loaded
 * and unloaded: nothing to flush, no cache to size (libunwind accepts a
 * size with flag 0, refuses any other flag).  The policy matters for one
 * thing: without a cache libunwind forgets the context of a signal frame
 * unw_resume could return through. */
EXPORT int LU(set_caching_policy)(unw_addr_space_t as, unw_caching_policy_t policy)
{
    if (as == &_dwunwind_lu_local_space)
        lu_cursor_set_caching(policy != UNW_CACHE_NONE);
    return 0;
}

EXPORT int LU(set_cache_size)(unw_addr_space_t as, size_t size, int flag)
{
    (void)as, (void)size;
    return flag != 0 ? -1 : 0;
}

EXPORT void LU_ARCH(flush_cache)(unw_addr_space_t as, unw_word_t lo, unw_word_t hi)
{
    if (!as || as == &_dwunwind_lu_local_space)
        return;
    void (*remote)(unw_addr_space_t, unw_word_t, unw_word_t) =
        (void (*)(unw_addr_space_t, unw_word_t, unw_word_t))remote_entry("_dwunwind_remote_flush_cache");
    if (remote)
        remote(as, lo, hi);
}

/* ---- names ---------------------------------------------------------------- */

EXPORT const char *LU_ARCH(regname)(unw_regnum_t reg)
{
    return lu_regname(reg);
}

EXPORT const char *LU_ARCH(strerror)(int code)
{
    return lu_strerror(code);
}

/* libunwind.so.8 exports its LEB128 readers (for Intel C++ 8.0 objects). */
EXPORT unw_word_t _ReadULEB(unsigned char **p)
{
    unw_word_t v = 0;
    unsigned shift = 0;
    unsigned char b;
    do {
        b = *(*p)++;
        if (shift < 64)
            v |= (unw_word_t)(b & 0x7f) << shift;
        shift += 7;
    } while (b & 0x80);
    return v;
}

EXPORT unw_word_t _ReadSLEB(unsigned char **p)
{
    unw_word_t v = 0;
    unsigned shift = 0;
    unsigned char b;
    do {
        b = *(*p)++;
        if (shift < 64)
            v |= (unw_word_t)(b & 0x7f) << shift;
        shift += 7;
    } while (b & 0x80);
    if (shift < 64 && (b & 0x40))
        v |= ~(unw_word_t)0 << shift;
    return v;
}

/* ---- unw_backtrace -------------------------------------------------------- */

__attribute__((visibility("hidden"))) int lu_backtrace_from(void **ips, int max, struct dwu_regs *regs);
__attribute__((visibility("hidden"))) int dwu_backtrace_walk(void **ips, int max, struct dwu_regs *regs,
                                                             int *no_info);

/* unw_backtrace's walk from its caller's registers (unw_context.S): the
 * runtime's backtrace, which ends where no unwind information covers an
 * IP; libunwind goes on there with its frame-chain guess, and so does the
 * cursor (from the start, to have every register). */
int lu_backtrace_from(void **ips, int max, struct dwu_regs *regs)
{
    struct dwu_regs start = *regs;
    int no_info = 0;
    int n = dwu_backtrace_walk(ips, max, regs, &no_info);
    if (!no_info || n <= 0 || n >= max)
        return n;
    struct lu_cursor c;
    lu_cursor_init_regs(&c, &start);
    n = 0;
    ips[n++] = (void *)(uintptr_t)lu_regs(&c)->r[DWU_RIP];
    while (n < max && lu_cursor_step(&c) > 0)
        ips[n++] = (void *)(uintptr_t)lu_regs(&c)->r[DWU_RIP];
    return n;
}

/* ---- the local address space's accessors ---------------------------------- */

static int local_find_proc_info(unw_addr_space_t as, unw_word_t ip, unw_proc_info_t *pi, int need_unwind_info,
                                void *arg)
{
    (void)as, (void)arg;
    if (!pi)
        return -UNW_EINVAL;
    int rc = lu_proc_info(ip, pi, NULL);
    if (rc == 0 && need_unwind_info) {
        pi->format = UNW_INFO_FORMAT_TABLE;
        pi->unwind_info_size = UNW_LIBUNWIND_CIE_INFO_SIZE;
        pi->unwind_info = NULL;
    }
    return rc;
}

static void local_put_unwind_info(unw_addr_space_t as, unw_proc_info_t *pi, void *arg)
{
    (void)as, (void)pi, (void)arg;
}

static int local_get_dyn_info_list_addr(unw_addr_space_t as, unw_word_t *addr, void *arg)
{
    (void)as, (void)arg;
    *addr = _U_dyn_info_list_addr();
    return 0;
}

static int local_access_mem(unw_addr_space_t as, unw_word_t addr, unw_word_t *value, int write, void *arg)
{
    (void)as, (void)arg;
    if (write)
        memcpy((void *)(uintptr_t)addr, value, 8);
    else
        memcpy(value, (const void *)(uintptr_t)addr, 8);
    return 0;
}

/* ARG: the context (libunwind tags its low bit). */
static int local_access_reg(unw_addr_space_t as, unw_regnum_t reg, unw_word_t *value, int write, void *arg)
{
    static const unsigned char greg[] = {REG_RAX, REG_RDX, REG_RCX, REG_RBX, REG_RSI, REG_RDI,
                                         REG_RBP, REG_RSP, REG_R8,  REG_R9,  REG_R10, REG_R11,
                                         REG_R12, REG_R13, REG_R14, REG_R15, REG_RIP};
    (void)as;
    ucontext_t *uc = (ucontext_t *)((uintptr_t)arg & ~(uintptr_t)1);
    if (!uc || reg < 0 || reg > UNW_X86_64_RIP)
        return -UNW_EBADREG;
    greg_t *slot = &uc->uc_mcontext.gregs[greg[reg]];
    if (write)
        *slot = (greg_t)*value;
    else
        *value = (unw_word_t)*slot;
    return 0;
}

static int local_access_fpreg(unw_addr_space_t as, unw_regnum_t reg, unw_fpreg_t *value, int write, void *arg)
{
    (void)as, (void)reg, (void)value, (void)write, (void)arg;
    return -UNW_EBADREG;
}

static int local_resume(unw_addr_space_t as, unw_cursor_t *cursor, void *arg)
{
    (void)as, (void)arg;
    return LU(resume)(cursor);
}

static int local_get_proc_name(unw_addr_space_t as, unw_word_t ip, char *buf, size_t len, unw_word_t *off,
                               void *arg)
{
    (void)as, (void)arg;
    return lu_symbols_name(ip, buf, len, off);
}
