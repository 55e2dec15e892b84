/* SPDX-License-Identifier: Apache-2.0 */
/*
 * unw_abi: the ABI of libunwind 1.6 on x86_64, as Debian 12's
 * libunwind-dev headers declare it (libunwind-common.h,
 * libunwind-x86_64.h, libunwind-dynamic.h) and its libunwind.so.8 and
 * libunwind-x86_64.so.8 export it: the types' sizes and layouts, the
 * error and register numbers, and the two sets of names programs link
 * against.  Facts only; the drop-in (compat/libunwind.c) implements them.
 *
 * The project builds without libunwind-dev: these declarations are its
 * own, and tests/libunwind/abi_layout.c checks every size and offset
 * against Debian's headers.
 *
 * Names: a program built with UNW_LOCAL_ONLY calls _ULx86_64_NAME (in
 * libunwind.so.8), one built without it _Ux86_64_NAME (in
 * libunwind-x86_64.so.8, which also holds the remote API); a few names
 * are _Ux86_64_ in both builds (getcontext, regname, strerror,
 * flush_cache, is_fpreg) and live in libunwind.so.8.  No symbol is
 * versioned.
 */
#ifndef DWUNWIND_COMPAT_UNW_ABI_H
#define DWUNWIND_COMPAT_UNW_ABI_H

#include <stddef.h>
#include <stdint.h>
#include <ucontext.h>

typedef uint64_t unw_word_t;
typedef int64_t unw_sword_t;
typedef long double unw_fpreg_t;
typedef int unw_regnum_t;

/* The cursor: opaque words the caller owns (on its stack), copied freely. */
#define UNW_TDEP_CURSOR_LEN 127
typedef struct unw_cursor {
    unw_word_t opaque[UNW_TDEP_CURSOR_LEN];
} unw_cursor_t;

/* The context: glibc's ucontext_t, filled by unw_getcontext. */
typedef ucontext_t unw_context_t;

/* Errors: functions return the negated value. */
enum {
    UNW_ESUCCESS = 0,
    UNW_EUNSPEC,
    UNW_ENOMEM,
    UNW_EBADREG,
    UNW_EREADONLYREG,
    UNW_ESTOPUNWIND,
    UNW_EINVALIDIP,
    UNW_EBADFRAME,
    UNW_EINVAL,
    UNW_EBADVERSION,
    UNW_ENOINFO
};

/* Registers: DWARF's numbering (dwunwind.h's), then the CFA. */
enum {
    UNW_X86_64_RAX = 0, UNW_X86_64_RDX, UNW_X86_64_RCX, UNW_X86_64_RBX, UNW_X86_64_RSI, UNW_X86_64_RDI,
    UNW_X86_64_RBP, UNW_X86_64_RSP, UNW_X86_64_R8, UNW_X86_64_R9, UNW_X86_64_R10, UNW_X86_64_R11,
    UNW_X86_64_R12, UNW_X86_64_R13, UNW_X86_64_R14, UNW_X86_64_R15, UNW_X86_64_RIP,
    UNW_X86_64_CFA = 17,
    UNW_REG_IP = UNW_X86_64_RIP,
    UNW_REG_SP = UNW_X86_64_RSP,
    UNW_REG_LAST = UNW_X86_64_RIP
};

typedef enum { UNW_CACHE_NONE, UNW_CACHE_GLOBAL, UNW_CACHE_PER_THREAD } unw_caching_policy_t;

/* unw_init_local2's flag: the context was interrupted (a signal's), its
 * IP is exact. */
#define UNW_INIT_SIGNAL_FRAME 1

/* unw_proc_info_t.format */
enum {
    UNW_INFO_FORMAT_DYNAMIC,
    UNW_INFO_FORMAT_TABLE,
    UNW_INFO_FORMAT_REMOTE_TABLE,
    UNW_INFO_FORMAT_ARM_EXIDX,
    UNW_INFO_FORMAT_IP_OFFSET
};

typedef struct unw_proc_info {
    unw_word_t start_ip;        /* the FDE's range */
    unw_word_t end_ip;
    unw_word_t lsda;
    unw_word_t handler;         /* the personality routine */
    unw_word_t gp;              /* the object's DT_PLTGOT */
    unw_word_t flags;
    int format;
    int unwind_info_size;
    void *unwind_info;
    struct { char unused; } extra;
} unw_proc_info_t;

/* What libunwind 1.6 leaves in unwind_info_size for an .eh_frame FDE (the
 * size of its private CIE record; unwind_info itself is NULL by then). */
#define UNW_LIBUNWIND_CIE_INFO_SIZE 72

typedef enum { UNW_SLT_NONE, UNW_SLT_MEMORY, UNW_SLT_REG } unw_save_loc_type_t;

typedef struct unw_save_loc {
    unw_save_loc_type_t type;
    union {
        unw_word_t addr;
        unw_regnum_t regnum;
    } u;
    struct { char unused; } extra;
} unw_save_loc_t;

typedef struct unw_addr_space *unw_addr_space_t;

typedef struct unw_accessors {
    int (*find_proc_info)(unw_addr_space_t, unw_word_t, unw_proc_info_t *, int, void *);
    void (*put_unwind_info)(unw_addr_space_t, unw_proc_info_t *, void *);
    int (*get_dyn_info_list_addr)(unw_addr_space_t, unw_word_t *, void *);
    int (*access_mem)(unw_addr_space_t, unw_word_t, unw_word_t *, int, void *);
    int (*access_reg)(unw_addr_space_t, unw_regnum_t, unw_word_t *, int, void *);
    int (*access_fpreg)(unw_addr_space_t, unw_regnum_t, unw_fpreg_t *, int, void *);
    int (*resume)(unw_addr_space_t, unw_cursor_t *, void *);
    int (*get_proc_name)(unw_addr_space_t, unw_word_t, char *, size_t, unw_word_t *, void *);
} unw_accessors_t;

/* The drop-in's unw_local_addr_space (the type is opaque to programs):
 * the accessors of this process. */
struct unw_addr_space {
    uint64_t magic;
    unw_accessors_t acc;
};

typedef int (*unw_reg_states_callback)(void *token, void *reg_states_data, size_t reg_states_data_size,
                                       unw_word_t start_ip, unw_word_t end_ip);

/* Dynamic unwind information (libunwind-dynamic.h): what a JIT registers. */
typedef struct unw_dyn_proc_info {
    unw_word_t name_ptr;
    unw_word_t handler;
    uint32_t flags;
    int32_t pad0;
    void *regions;
} unw_dyn_proc_info_t;

typedef struct unw_dyn_table_info {
    unw_word_t name_ptr, segbase, table_len;
    unw_word_t *table_data;
} unw_dyn_table_info_t;

typedef struct unw_dyn_info {
    struct unw_dyn_info *next, *prev;
    unw_word_t start_ip, end_ip, gp;
    int32_t format;
    int32_t pad;
    unw_word_t load_offset;
    union {
        unw_dyn_proc_info_t pi;
        unw_dyn_table_info_t ti;
    } u;
} unw_dyn_info_t;

typedef struct unw_dyn_info_list {
    uint32_t version;
    uint32_t generation;
    unw_dyn_info_t *first;
} unw_dyn_info_list_t;

#endif
