/* SPDX-License-Identifier: Apache-2.0 */
/*
 * frame_watch: one step of one thread, seen: its frames updated, its row
 * checked.
 *
 * Given a thread's registers before and after a single step, the shadow
 * stack learns what the step did (execute/shadow_stack: a call entered a
 * function, a signal handler was entered, frames were cut back), then the
 * row of the instruction about to run is checked (execute/row_check)
 * against the innermost frame, when that frame is the function's: its FDE
 * is the one that covers the address.  Elsewhere the truth is not known
 * and the step is counted, not checked.  Each check is recorded in the
 * run's result (execute/run_result), the first refutation of an address as
 * its witness.
 */
#ifndef DWCHECK_FRAME_WATCH_H
#define DWCHECK_FRAME_WATCH_H

#include <sys/types.h>

#include "live_objects.h"
#include "row_check.h"
#include "run_result.h"
#include "shadow_stack.h"

/* One traced thread's view: its shadow stack and its registers at its last step. */
struct watched_thread {
    pid_t tid;
    struct shadow_stack stack;
    struct live_machine now;       /* registers at the last step, memory of the process */
    int have_before;               /* `now` holds a previous step's registers */
    int signal_injected;           /* the last resume delivered a signal */
};

/* Reads 8 bytes at ADDR of the memory of PID (passed as the arg: a thread
 * of the process, whose first thread may have ended): 0, or -1. */
int frame_watch_read(void *pid, uint64_t addr, uint64_t *value);

/* The thread T has just stopped after a step with REGS (DWARF numbers,
 * 0-16): learn its frames and check its row (frame_watch_learn, then
 * frame_watch_check), the step counted. */
void frame_watch_step(struct watched_thread *t, const uint64_t *regs, struct live_objects *lo,
                      struct run_result *result);

/* The two halves of a step.  Learn: what the step from T's last registers
 * to REGS did to its frames; REGS become T's registers. */
void frame_watch_learn(struct watched_thread *t, const uint64_t *regs, struct live_objects *lo);
/* Check: the row of the instruction at REGS' rip against the innermost
 * frame, recorded in RESULT (a jump to a function's first instruction in
 * the frame re-enters it: a tail call). */
void frame_watch_check(struct watched_thread *t, const uint64_t *regs, struct live_objects *lo,
                       struct run_result *result);

/* T seen stopped with REGS after running untraced (--only: at a
 * breakpoint): REGS become its registers, nothing learnt from the gap. */
void frame_watch_resync(struct watched_thread *t, const uint64_t *regs, pid_t pid);
/* T stopped at a function's first instruction, REGS (a breakpoint there):
 * resync, frames cut back to rsp, and the function's frame entered (the
 * CFA rsp + 8, the return address at rsp), unless it is the frame already
 * on top.  0, or -1 when the return address cannot be read. */
int frame_watch_enter(struct watched_thread *t, const uint64_t *regs, struct live_objects *lo);

#endif
