/* SPDX-License-Identifier: Apache-2.0 */
/*
 * unwind_abi: libgcc's _Unwind_* interface (the Itanium C++ ABI's "Base
 * ABI", as gcc's <unwind.h> declares it and libgcc_s.so.1 exports it,
 * versions GCC_3.0, GCC_3.3 and GCC_4.2.0) in the drop-in libunwind.so.8,
 * over its cursor (unw_cursor.h): so that a program run with the library
 * preloaded throws, catches, cleans up and backtraces through the runtime
 * (eh_elfs, --repair's validated tables, the .eh_frame interpreted).
 *
 * The context: struct _Unwind_Context, opaque to callers, is ours: the
 * frame's cursor and its procedure (FDE: personality, LSDA, start) looked
 * up once.  A context lives on the stack of the _Unwind_* call that made
 * it and is valid during the callbacks it is passed to (personality
 * routines, stop and trace functions); nothing is allocated but, at a
 * thread's first throw, the memo its throws keep their procedures in
 * (compat/throw_memo).
 *
 * The walks end where libgcc's do: at a frame no unwind table covers
 * (no frame-chain guess, unlike unw_step) and after the outermost frame
 * (return address undefined: a last frame of IP 0, which _Unwind_Backtrace
 * passes to its trace function, as libgcc does).  A frame is identified by
 * its stack pointer at the call (the CFA of its callee: _Unwind_GetCFA).
 * Every walk is bounded (UNWIND_ABI_FRAMES_MAX frames).
 *
 * Not async-signal-safe more than libgcc's: an exception's walk calls
 * personality routines; the steps themselves are the cursor's.
 */
#ifndef DWUNWIND_COMPAT_UNWIND_ABI_H
#define DWUNWIND_COMPAT_UNWIND_ABI_H

#include <unwind.h>

#include "compat/unw_abi.h"

#define UNWIND_ABI_FRAMES_MAX (1u << 22)

struct lu_throw_memo;   /* compat/throw_memo.h */

struct _Unwind_Context {
    unw_cursor_t cursor;   /* the frame: a struct lu_cursor */
    unw_proc_info_t pi;    /* its procedure, when pi_state is 1 */
    int pi_state;          /* 0: not looked up; 1: found; -1: no FDE covers the frame */
    struct lu_throw_memo *memo;   /* the throw's procedures by address, or NULL */
};

/* What _Unwind_Find_FDE says of an FDE's object and procedure (libgcc's
 * unwind-dw2-fde.h; the text and data bases are 0 on x86_64). */
struct dwarf_eh_bases {
    void *tbase;
    void *dbase;
    void *func;
};

/* The bodies of the raising entries, which take their caller's registers
 * REGS at the entry (compat/unw_context.S): _Unwind_RaiseException,
 * _Unwind_ForcedUnwind, _Unwind_Resume, _Unwind_Resume_or_Rethrow. */
struct dwu_regs;
__attribute__((visibility("hidden"))) _Unwind_Reason_Code lu_unwind_raise(struct _Unwind_Exception *exc,
                                                                           const struct dwu_regs *regs);
__attribute__((visibility("hidden"))) _Unwind_Reason_Code lu_unwind_forced(struct _Unwind_Exception *exc,
                                                                            _Unwind_Stop_Fn stop, void *argument,
                                                                            const struct dwu_regs *regs);
__attribute__((visibility("hidden"), noreturn)) void lu_unwind_resume(struct _Unwind_Exception *exc,
                                                                      const struct dwu_regs *regs);
__attribute__((visibility("hidden"))) _Unwind_Reason_Code
lu_unwind_resume_or_rethrow(struct _Unwind_Exception *exc, const struct dwu_regs *regs);

/* libgcc's, not in <unwind.h>: the FDE covering PC, or NULL. */
const void *_Unwind_Find_FDE(void *pc, struct dwarf_eh_bases *bases);

#endif
