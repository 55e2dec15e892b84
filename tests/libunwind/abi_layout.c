/* SPDX-License-Identifier: Apache-2.0 */
/*
 * abi_layout: the sizes, member offsets and constants of libunwind 1.6's
 * x86_64 ABI, printed from Debian's <libunwind.h> (built as is) and from
 * the drop-in's own declarations (built with -DDROPIN: compat/unw_abi.h);
 * tests/libunwind/run.sh compares the two outputs.
 */
#include <stddef.h>
#include <stdio.h>

#ifdef DROPIN
#include "compat/unw_abi.h"
#else
#include <libunwind.h>
#endif

#define SIZE(t) printf("sizeof(%s) %zu, align %zu\n", #t, sizeof(t), _Alignof(t))
#define AT(t, m) printf("  %s.%s at %zu, size %zu\n", #t, #m, offsetof(t, m), sizeof(((t *)0)->m))
#define VALUE(c) printf("%s = %ld\n", #c, (long)(c))

int main(void)
{
    SIZE(unw_word_t);
    SIZE(unw_sword_t);
    SIZE(unw_fpreg_t);
    SIZE(unw_regnum_t);
    SIZE(unw_cursor_t);
    SIZE(unw_context_t);
    SIZE(unw_proc_info_t);
    AT(unw_proc_info_t, start_ip);
    AT(unw_proc_info_t, end_ip);
    AT(unw_proc_info_t, lsda);
    AT(unw_proc_info_t, handler);
    AT(unw_proc_info_t, gp);
    AT(unw_proc_info_t, flags);
    AT(unw_proc_info_t, format);
    AT(unw_proc_info_t, unwind_info_size);
    AT(unw_proc_info_t, unwind_info);
    AT(unw_proc_info_t, extra);
    SIZE(unw_save_loc_t);
    AT(unw_save_loc_t, type);
    AT(unw_save_loc_t, u.addr);
    AT(unw_save_loc_t, u.regnum);
    AT(unw_save_loc_t, extra);
    SIZE(unw_accessors_t);
    AT(unw_accessors_t, find_proc_info);
    AT(unw_accessors_t, put_unwind_info);
    AT(unw_accessors_t, get_dyn_info_list_addr);
    AT(unw_accessors_t, access_mem);
    AT(unw_accessors_t, access_reg);
    AT(unw_accessors_t, access_fpreg);
    AT(unw_accessors_t, resume);
    AT(unw_accessors_t, get_proc_name);
    SIZE(unw_dyn_info_t);
    AT(unw_dyn_info_t, next);
    AT(unw_dyn_info_t, prev);
    AT(unw_dyn_info_t, start_ip);
    AT(unw_dyn_info_t, end_ip);
    AT(unw_dyn_info_t, gp);
    AT(unw_dyn_info_t, format);
    AT(unw_dyn_info_t, load_offset);
    AT(unw_dyn_info_t, u.pi.name_ptr);
    AT(unw_dyn_info_t, u.pi.handler);
    AT(unw_dyn_info_t, u.pi.flags);
    AT(unw_dyn_info_t, u.pi.regions);
    AT(unw_dyn_info_t, u.ti.name_ptr);
    AT(unw_dyn_info_t, u.ti.segbase);
    AT(unw_dyn_info_t, u.ti.table_len);
    AT(unw_dyn_info_t, u.ti.table_data);
    SIZE(unw_dyn_info_list_t);
    AT(unw_dyn_info_list_t, version);
    AT(unw_dyn_info_list_t, generation);
    AT(unw_dyn_info_list_t, first);
    SIZE(unw_caching_policy_t);
    SIZE(unw_save_loc_type_t);
    VALUE(UNW_TDEP_CURSOR_LEN);
    VALUE(UNW_ESUCCESS);
    VALUE(UNW_EUNSPEC);
    VALUE(UNW_ENOMEM);
    VALUE(UNW_EBADREG);
    VALUE(UNW_EREADONLYREG);
    VALUE(UNW_ESTOPUNWIND);
    VALUE(UNW_EINVALIDIP);
    VALUE(UNW_EBADFRAME);
    VALUE(UNW_EINVAL);
    VALUE(UNW_EBADVERSION);
    VALUE(UNW_ENOINFO);
    VALUE(UNW_X86_64_RAX);
    VALUE(UNW_X86_64_RDX);
    VALUE(UNW_X86_64_RCX);
    VALUE(UNW_X86_64_RBX);
    VALUE(UNW_X86_64_RSI);
    VALUE(UNW_X86_64_RDI);
    VALUE(UNW_X86_64_RBP);
    VALUE(UNW_X86_64_RSP);
    VALUE(UNW_X86_64_R8);
    VALUE(UNW_X86_64_R15);
    VALUE(UNW_X86_64_RIP);
    VALUE(UNW_X86_64_CFA);
    VALUE(UNW_REG_IP);
    VALUE(UNW_REG_SP);
    VALUE(UNW_REG_LAST);
    VALUE(UNW_CACHE_NONE);
    VALUE(UNW_CACHE_GLOBAL);
    VALUE(UNW_CACHE_PER_THREAD);
    VALUE(UNW_INIT_SIGNAL_FRAME);
    VALUE(UNW_INFO_FORMAT_DYNAMIC);
    VALUE(UNW_INFO_FORMAT_TABLE);
    VALUE(UNW_INFO_FORMAT_REMOTE_TABLE);
    VALUE(UNW_INFO_FORMAT_IP_OFFSET);
    VALUE(UNW_SLT_NONE);
    VALUE(UNW_SLT_MEMORY);
    VALUE(UNW_SLT_REG);
    return 0;
}
