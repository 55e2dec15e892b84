/* SPDX-License-Identifier: Apache-2.0 */
/*
 * unw_api: the prototypes of the entry points the drop-in libraries
 * export (libunwind-common.h's, libunwind-x86_64.h's and
 * libunwind-dynamic.h's), with each of libunwind's two prefixes:
 * _ULx86_64_ (UNW_LOCAL_ONLY, libunwind.so.8) and _Ux86_64_
 * (libunwind-x86_64.so.8); and the names both libraries share.
 */
#ifndef DWUNWIND_COMPAT_UNW_API_H
#define DWUNWIND_COMPAT_UNW_API_H

#include <stddef.h>
#include <sys/types.h>

#include "compat/unw_abi.h"

#define LU_DECLARE_API(P)                                                                              \
    extern unw_addr_space_t P##local_addr_space;                                                       \
    unw_addr_space_t P##create_addr_space(unw_accessors_t *, int);                                     \
    void P##destroy_addr_space(unw_addr_space_t);                                                      \
    int P##init_local(unw_cursor_t *, unw_context_t *);                                                \
    int P##init_local2(unw_cursor_t *, unw_context_t *, int);                                          \
    int P##init_remote(unw_cursor_t *, unw_addr_space_t, void *);                                      \
    int P##step(unw_cursor_t *);                                                                       \
    int P##resume(unw_cursor_t *);                                                                     \
    int P##get_proc_info(unw_cursor_t *, unw_proc_info_t *);                                           \
    int P##get_proc_info_by_ip(unw_addr_space_t, unw_word_t, unw_proc_info_t *, void *);               \
    int P##reg_states_iterate(unw_cursor_t *, unw_reg_states_callback, void *);                        \
    int P##apply_reg_state(unw_cursor_t *, void *);                                                    \
    int P##get_reg(unw_cursor_t *, int, unw_word_t *);                                                 \
    int P##set_reg(unw_cursor_t *, int, unw_word_t);                                                   \
    int P##get_fpreg(unw_cursor_t *, int, unw_fpreg_t *);                                              \
    int P##set_fpreg(unw_cursor_t *, int, unw_fpreg_t);                                                \
    int P##get_save_loc(unw_cursor_t *, int, unw_save_loc_t *);                                        \
    int P##is_signal_frame(unw_cursor_t *);                                                            \
    int P##get_proc_name(unw_cursor_t *, char *, size_t, unw_word_t *);                                \
    int P##set_caching_policy(unw_addr_space_t, unw_caching_policy_t);                                 \
    int P##set_cache_size(unw_addr_space_t, size_t, int);

LU_DECLARE_API(_ULx86_64_)
LU_DECLARE_API(_Ux86_64_)

/* One name in both libraries. */
int _Ux86_64_getcontext(unw_context_t *);
int _Ux86_64_setcontext(const unw_context_t *);
int _Ux86_64_is_fpreg(int);
const char *_Ux86_64_regname(unw_regnum_t);
const char *_Ux86_64_strerror(int);
void _Ux86_64_flush_cache(unw_addr_space_t, unw_word_t, unw_word_t);
unw_accessors_t *_Ux86_64_get_accessors(unw_addr_space_t);

/* libunwind.so.8's alone. */
void _U_dyn_register(unw_dyn_info_t *);
void _U_dyn_cancel(unw_dyn_info_t *);
unw_word_t _U_dyn_info_list_addr(void);
unw_word_t _ReadULEB(unsigned char **);
unw_word_t _ReadSLEB(unsigned char **);
int unw_backtrace(void **, int);
extern struct unw_addr_space _dwunwind_lu_local_space;   /* unw_local_addr_space's */

/* libunwind-x86_64.so.8's alone: helpers of libunwind-ptrace and
 * libunwind-coredump, and what libunwind.so.8 asks of it. */
struct elf_image;
int _Ux86_64_get_elf_image(struct elf_image *, pid_t, unw_word_t, unsigned long *, unsigned long *, char *,
                           size_t);
void _Ux86_64_get_exe_image_path(char *);
int _Ux86_64_dwarf_find_unwind_table(unw_dyn_info_t *, unw_addr_space_t, char *, unw_word_t, unw_word_t,
                                     unw_word_t);
int _Ux86_64_dwarf_search_unwind_table(unw_addr_space_t, unw_word_t, unw_dyn_info_t *, unw_proc_info_t *, int,
                                       void *);
void _dwunwind_remote_flush_cache(unw_addr_space_t, unw_word_t, unw_word_t);
unw_accessors_t *_dwunwind_remote_get_accessors(unw_addr_space_t);

#endif
