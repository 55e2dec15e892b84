/* SPDX-License-Identifier: Apache-2.0 */
/*
 * selective: `dwcheck --run --only=FUNC`, the selected functions stepped and
 * the rest of the program run at full speed.
 *
 * The selected functions are found in each object the process maps
 * (execute/function_select), at the start, after an exec, and each time the
 * dynamic loader stops at its r_brk (dlopen), and an int3 is laid at each
 * one's first instruction (execute/breakpoints).  A thread runs at full
 * speed (PTRACE_CONT) until it meets one.  There the truth is plain: the
 * function's frame is entered (CFA rsp + 8, the return address at rsp, the
 * registers at entry; execute/frame_watch) and the thread is single-stepped,
 * each row checked as in full stepping.  A call out of the selected
 * function (to a function not selected) is let run at full speed: its
 * return address gets an int3 awaited by this thread at the rsp the return
 * gives, so that a recursive call's return, or another thread's, is not
 * taken for it; when the return comes, stepping goes on (it may come by a
 * step too: a PLT stub's jump to a selected function, stepped from its
 * entry, returns to the caller that awaits it).  A selected
 * function called by a selected one is stepped in its frame.  When the
 * selected frame is popped (a ret, a tail call to a function not selected,
 * a longjmp or a throw out of it), the thread runs at full speed again; a
 * return awaited whose frame is cut (the stack above it) is dropped and
 * counted (returns_missed), and so is one still awaited at the end (a
 * longjmp or a throw back into the selected frame went unseen: the thread
 * ran on at full speed in it).
 *
 * This module decides; execute/tracer resumes the threads, and steps them
 * over the int3s (the original byte written back for one step while the
 * other threads are stopped).
 */
#ifndef DWCHECK_SELECTIVE_H
#define DWCHECK_SELECTIVE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "breakpoints.h"
#include "frame_watch.h"
#include "function_select.h"
#include "live_objects.h"
#include "run_result.h"

struct selective {
    struct breakpoints bps;
    struct function_select select;
    struct live_objects *lo;       /* borrowed */
    struct run_result *result;     /* borrowed */
    pid_t tid;                     /* the stopped thread bytes are written through */
};

enum selective_mode { SELECTIVE_RUN, SELECTIVE_STEP };

/* Select NAMES[0..N-1] (borrowed) in the process LO traces, or with N 0
 * the functions AUDIT (borrowed) leaves in doubt (execute/function_select).
 * 0, or -1 when out of memory. */
int selective_init(struct selective *s, char *const *names, size_t n, struct audit_select *audit,
                   struct live_objects *lo, struct run_result *result);
void selective_release(struct selective *s);

/* A new image began (the program's first, or an exec: EXEC 1, the old
 * breakpoints gone with it), thread TID stopped: lay the breakpoints. */
void selective_image(struct selective *s, pid_t tid, int exec);

/* Thread T stopped at an int3, REGS its registers (rip past the int3).  0:
 * no breakpoint of ours there (the program's own int3).  1: REGS' rip set
 * back to the breakpoint (for the caller to write), *MODE how T goes on,
 * *OVER 1 when an int3 stays at rip (T must step over it). */
int selective_hit(struct selective *s, struct watched_thread *t, uint64_t *regs, enum selective_mode *mode,
                  int *over);

/* Thread T single-stepped to REGS: the step learnt and checked; how T goes
 * on, and in *OVER whether an int3 lies at its rip. */
enum selective_mode selective_step(struct selective *s, struct watched_thread *t, const uint64_t *regs, int *over);

/* Every int3 written back through TID (of this process or a forked copy). */
void selective_unlay(struct selective *s, pid_t tid);

#endif
