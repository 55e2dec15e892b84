/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libunwind_generic: the drop-in libunwind-x86_64.so.8, the library a
 * program built without UNW_LOCAL_ONLY links (-lunwind-generic or
 * -lunwind-x86_64): the _Ux86_64_* names of unw_abi.h.
 *
 * The local API is the drop-in's: unw_init_local and unw_init_local2 make
 * a cursor of libunwind.so.8's (compat/libunwind.c, which this library
 * needs), and every call on such a cursor, or on unw_local_addr_space,
 * is that library's.  The remote API stays Debian's: unw_create_addr_space,
 * unw_init_remote, the DWARF table helpers libunwind-ptrace and
 * libunwind-coredump call, and every call on a cursor or address space
 * they made go to Debian's own libunwind-x86_64.so.8, loaded from
 * LU_REMOTE_LIBRARY when first needed (a cursor of the drop-in starts
 * with a word no pointer can be, so the two are told apart).  Without
 * that file the remote API fails (-UNW_EINVAL, no address space).  Debian's
 * library binds its own calls of these names (unw_step, unw_get_reg ...)
 * to this library's, which hand its cursors back to it.
 *
 * Signal-safety: the local calls are libunwind.so.8's; the remote ones
 * load a library on first use (not async-signal-safe, nor are Debian's).
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <sys/types.h>

#include "compat/unw_abi.h"
#include "compat/unw_api.h"
#include "compat/unw_cursor.h"
#include "compat/unw_names.h"

#ifndef LU_REMOTE_LIBRARY
#define LU_REMOTE_LIBRARY "/usr/lib/x86_64-linux-gnu/libunwind-x86_64.so.8"
#endif

#define GU(name) _Ux86_64_##name
#define LU(name) _ULx86_64_##name
#define EXPORT __attribute__((visibility("default")))

/* ---- libunwind.so.8's (the drop-in's) ----------------------------------- */

EXPORT unw_addr_space_t GU(local_addr_space) = &_dwunwind_lu_local_space;

static int local_space(unw_addr_space_t as)
{
    return as == &_dwunwind_lu_local_space;
}

/* ---- Debian's ------------------------------------------------------------ */

static void *remote_library;
static pthread_once_t remote_once = PTHREAD_ONCE_INIT;

static void load_remote(void)
{
    remote_library = dlopen(LU_REMOTE_LIBRARY, RTLD_NOW | RTLD_LOCAL);
}

/* Debian's definition of NAME, or NULL. */
static void *remote(const char *name)
{
    pthread_once(&remote_once, load_remote);
    return remote_library ? dlsym(remote_library, name) : NULL;
}

/* Calls Debian's NAME, of type TYPE, with ARGS; FAIL when it is missing. */
#define FORWARD(name, type, fail, ...)                                      \
    do {                                                                    \
        __typeof__(type) f_ = (__typeof__(type))remote(#name);              \
        return f_ ? f_(__VA_ARGS__) : fail;                                 \
    } while (0)

/* ---- cursors: the drop-in's, or Debian's ---------------------------------- */

EXPORT int GU(init_local)(unw_cursor_t *c, unw_context_t *uc)
{
    return LU(init_local)(c, uc);
}

EXPORT int GU(init_local2)(unw_cursor_t *c, unw_context_t *uc, int flag)
{
    return LU(init_local2)(c, uc, flag);
}

EXPORT int GU(init_remote)(unw_cursor_t *c, unw_addr_space_t as, void *arg)
{
    if (local_space(as))
        return -UNW_EINVAL;
    FORWARD(_Ux86_64_init_remote, int (*)(unw_cursor_t *, unw_addr_space_t, void *), -UNW_EINVAL, c, as, arg);
}

#define CURSOR_CALL(name, type, fail, c, ...)                               \
    do {                                                                    \
        if (lu_cursor_is_ours(c))                                           \
            return LU(name)(c, ##__VA_ARGS__);                              \
        FORWARD(_Ux86_64_##name, type, fail, c, ##__VA_ARGS__);             \
    } while (0)

EXPORT int GU(step)(unw_cursor_t *c)
{
    CURSOR_CALL(step, int (*)(unw_cursor_t *), -UNW_EINVAL, c);
}

EXPORT int GU(resume)(unw_cursor_t *c)
{
    CURSOR_CALL(resume, int (*)(unw_cursor_t *), -UNW_EINVAL, c);
}

EXPORT int GU(get_proc_info)(unw_cursor_t *c, unw_proc_info_t *pi)
{
    CURSOR_CALL(get_proc_info, int (*)(unw_cursor_t *, unw_proc_info_t *), -UNW_EINVAL, c, pi);
}

EXPORT int GU(reg_states_iterate)(unw_cursor_t *c, unw_reg_states_callback cb, void *token)
{
    CURSOR_CALL(reg_states_iterate, int (*)(unw_cursor_t *, unw_reg_states_callback, void *), -UNW_EINVAL, c, cb,
                token);
}

EXPORT int GU(apply_reg_state)(unw_cursor_t *c, void *data)
{
    CURSOR_CALL(apply_reg_state, int (*)(unw_cursor_t *, void *), -UNW_EINVAL, c, data);
}

EXPORT int GU(get_reg)(unw_cursor_t *c, int reg, unw_word_t *value)
{
    CURSOR_CALL(get_reg, int (*)(unw_cursor_t *, int, unw_word_t *), -UNW_EINVAL, c, reg, value);
}

EXPORT int GU(set_reg)(unw_cursor_t *c, int reg, unw_word_t value)
{
    CURSOR_CALL(set_reg, int (*)(unw_cursor_t *, int, unw_word_t), -UNW_EINVAL, c, reg, value);
}

EXPORT int GU(get_fpreg)(unw_cursor_t *c, int reg, unw_fpreg_t *value)
{
    CURSOR_CALL(get_fpreg, int (*)(unw_cursor_t *, int, unw_fpreg_t *), -UNW_EINVAL, c, reg, value);
}

EXPORT int GU(set_fpreg)(unw_cursor_t *c, int reg, unw_fpreg_t value)
{
    CURSOR_CALL(set_fpreg, int (*)(unw_cursor_t *, int, unw_fpreg_t), -UNW_EINVAL, c, reg, value);
}

/* Without UNW_LOCAL_ONLY libunwind names the starting context's registers
 * as registers, not as the context's memory. */
EXPORT int GU(get_save_loc)(unw_cursor_t *c, int reg, unw_save_loc_t *loc)
{
    if (lu_cursor_is_ours(c)) {
        int rc = LU(get_save_loc)(c, reg, loc);
        const struct lu_cursor *lc = lu_cursor_of(c);
        uint64_t gregs = (uint64_t)(uintptr_t)(lc->uc ? lc->uc->uc_mcontext.gregs : NULL);
        if (rc == 0 && loc->type == UNW_SLT_MEMORY && gregs && loc->u.addr >= gregs &&
            loc->u.addr < gregs + 8 * NGREG) {
            for (unsigned r = 0; r < DWU_NREGS; r++)
                if (gregs + 8 * lu_greg_of(r) == loc->u.addr) {
                    loc->type = UNW_SLT_REG;
                    loc->u.regnum = (unw_regnum_t)r;
                }
        }
        return rc;
    }
    FORWARD(_Ux86_64_get_save_loc, int (*)(unw_cursor_t *, int, unw_save_loc_t *), -UNW_EINVAL, c, reg, loc);
}

EXPORT int GU(is_signal_frame)(unw_cursor_t *c)
{
    CURSOR_CALL(is_signal_frame, int (*)(unw_cursor_t *), -UNW_EINVAL, c);
}

EXPORT int GU(get_proc_name)(unw_cursor_t *c, char *buf, size_t len, unw_word_t *off)
{
    CURSOR_CALL(get_proc_name, int (*)(unw_cursor_t *, char *, size_t, unw_word_t *), -UNW_EINVAL, c, buf, len,
                off);
}

/* ---- address spaces: the local one, or Debian's ---------------------------- */

EXPORT unw_addr_space_t GU(create_addr_space)(unw_accessors_t *a, int byte_order)
{
    FORWARD(_Ux86_64_create_addr_space, unw_addr_space_t (*)(unw_accessors_t *, int), NULL, a, byte_order);
}

EXPORT void GU(destroy_addr_space)(unw_addr_space_t as)
{
    if (!as || local_space(as))
        return;
    void (*f)(unw_addr_space_t) = (void (*)(unw_addr_space_t))remote("_Ux86_64_destroy_addr_space");
    if (f)
        f(as);
}

EXPORT int GU(get_proc_info_by_ip)(unw_addr_space_t as, unw_word_t ip, unw_proc_info_t *pi, void *arg)
{
    if (local_space(as))
        return LU(get_proc_info_by_ip)(as, ip, pi, arg);
    FORWARD(_Ux86_64_get_proc_info_by_ip, int (*)(unw_addr_space_t, unw_word_t, unw_proc_info_t *, void *),
            -UNW_EINVAL, as, ip, pi, arg);
}

EXPORT int GU(set_caching_policy)(unw_addr_space_t as, unw_caching_policy_t policy)
{
    if (local_space(as))
        return LU(set_caching_policy)(as, policy);
    FORWARD(_Ux86_64_set_caching_policy, int (*)(unw_addr_space_t, unw_caching_policy_t), -UNW_EINVAL, as, policy);
}

EXPORT int GU(set_cache_size)(unw_addr_space_t as, size_t size, int flag)
{
    if (local_space(as))
        return LU(set_cache_size)(as, size, flag);
    FORWARD(_Ux86_64_set_cache_size, int (*)(unw_addr_space_t, size_t, int), -UNW_EINVAL, as, size, flag);
}

/* Also libunwind.so.8's names: reached here or there, they agree. */
EXPORT void _dwunwind_remote_flush_cache(unw_addr_space_t as, unw_word_t lo, unw_word_t hi)
{
    void (*f)(unw_addr_space_t, unw_word_t, unw_word_t) =
        (void (*)(unw_addr_space_t, unw_word_t, unw_word_t))remote("_Ux86_64_flush_cache");
    if (f)
        f(as, lo, hi);
}

EXPORT void GU(flush_cache)(unw_addr_space_t as, unw_word_t lo, unw_word_t hi)
{
    if (as && !local_space(as))
        _dwunwind_remote_flush_cache(as, lo, hi);
}

EXPORT unw_accessors_t *_dwunwind_remote_get_accessors(unw_addr_space_t as)
{
    FORWARD(_Ux86_64_get_accessors, unw_accessors_t * (*)(unw_addr_space_t), NULL, as);
}

EXPORT unw_accessors_t *GU(get_accessors)(unw_addr_space_t as)
{
    if (local_space(as))
        return &as->acc;
    return as ? _dwunwind_remote_get_accessors(as) : NULL;
}

EXPORT int GU(is_fpreg)(int reg)
{
    (void)reg;
    return 0;
}

EXPORT const char *GU(regname)(unw_regnum_t reg)
{
    return lu_regname(reg);
}

EXPORT const char *GU(strerror)(int code)
{
    return lu_strerror(code);
}

/* ---- the helpers libunwind-ptrace and libunwind-coredump call ------------ */

struct elf_image;   /* libunwind's: a mapped file and its size */

EXPORT int GU(get_elf_image)(struct elf_image *ei, pid_t pid, unw_word_t ip, unsigned long *segbase,
                             unsigned long *mapoff, char *path, size_t pathlen)
{
    FORWARD(_Ux86_64_get_elf_image,
            int (*)(struct elf_image *, pid_t, unw_word_t, unsigned long *, unsigned long *, char *, size_t), -1, ei,
            pid, ip, segbase, mapoff, path, pathlen);
}

EXPORT void GU(get_exe_image_path)(char *path)
{
    void (*f)(char *) = (void (*)(char *))remote("_Ux86_64_get_exe_image_path");
    if (f)
        f(path);
}

EXPORT int GU(dwarf_find_unwind_table)(unw_dyn_info_t *edi, unw_addr_space_t as, char *path, unw_word_t segbase,
                                       unw_word_t mapoff, unw_word_t ip)
{
    FORWARD(_Ux86_64_dwarf_find_unwind_table,
            int (*)(unw_dyn_info_t *, unw_addr_space_t, char *, unw_word_t, unw_word_t, unw_word_t), -UNW_ENOINFO,
            edi, as, path, segbase, mapoff, ip);
}

EXPORT int GU(dwarf_search_unwind_table)(unw_addr_space_t as, unw_word_t ip, unw_dyn_info_t *di,
                                         unw_proc_info_t *pi, int need_unwind_info, void *arg)
{
    FORWARD(_Ux86_64_dwarf_search_unwind_table,
            int (*)(unw_addr_space_t, unw_word_t, unw_dyn_info_t *, unw_proc_info_t *, int, void *), -UNW_ENOINFO,
            as, ip, di, pi, need_unwind_info, arg);
}
