/* SPDX-License-Identifier: Apache-2.0 */
#include "selective.h"

int selective_init(struct selective *s, char *const *names, size_t n, struct audit_select *audit,
                   struct live_objects *lo, struct run_result *result)
{
    breakpoints_init(&s->bps);
    s->lo = lo;
    s->result = result;
    s->tid = lo->pid;
    result->only = 1;
    result->audit_selected = n == 0;
    return function_select_init(&s->select, names, n, audit);
}

void selective_release(struct selective *s)
{
    s->result->returns_missed += breakpoints_waits(&s->bps);
    breakpoints_release(&s->bps);
    function_select_release(&s->select);
}

static void found(void *arg, uint64_t addr, int loader)
{
    struct selective *s = arg;
    breakpoints_add(&s->bps, s->tid, addr, loader);
}

void selective_image(struct selective *s, pid_t tid, int exec)
{
    if (exec) {
        s->result->returns_missed += breakpoints_waits(&s->bps);
        breakpoints_forget(&s->bps);
        function_select_forget(&s->select);
    }
    s->tid = tid;
    function_select_scan(&s->select, s->lo, found, s);
}

/* Step T on when its innermost frame is a selected function's and runs its
 * own code: it awaits no return of a call it made (a wait with an rsp
 * between T's rsp and the frame's return slot). */
static enum selective_mode mode_of(struct selective *s, struct watched_thread *t, const uint64_t *regs)
{
    struct shadow_frame *top = shadow_stack_top(&t->stack);
    if (!top)
        return SELECTIVE_RUN;
    struct breakpoint *bp = breakpoints_at(&s->bps, top->entry);
    if (!bp || !bp->entry ||
        breakpoints_awaiting(&s->bps, t->tid, regs[ABI_RSP], top->cfa + ABI_ENTRY_RA_OFFSET))
        return SELECTIVE_RUN;
    return SELECTIVE_STEP;
}

static void at_loader(struct selective *s, uint64_t rip)
{
    struct breakpoint *bp = breakpoints_at(&s->bps, rip);
    if (bp && bp->loader)
        function_select_scan(&s->select, s->lo, found, s);
}

int selective_hit(struct selective *s, struct watched_thread *t, uint64_t *regs, enum selective_mode *mode,
                  int *over)
{
    s->tid = t->tid;
    uint64_t addr = regs[ABI_RA] - 1, rsp = regs[ABI_RSP];
    struct breakpoint *bp = breakpoints_at(&s->bps, addr);
    if (!bp)
        return 0;
    regs[ABI_RA] = addr;
    s->result->breakpoint_stops++;
    int entry = bp->entry;
    at_loader(s, addr);
    /* bp may be gone from here on: its last wait taken. */
    int returned = breakpoints_take(&s->bps, t->tid, addr, t->tid, rsp);
    s->result->returns_missed += breakpoints_drop_gone(&s->bps, t->tid, t->tid, rsp);
    if (returned) {
        /* A call the selected function made came back: step it on. */
        frame_watch_resync(t, regs, t->tid);
        shadow_stack_pop_gone(&t->stack, rsp);
        frame_watch_check(t, regs, s->lo, s->result);
        *mode = mode_of(s, t, regs);
    } else if (entry) {
        frame_watch_enter(t, regs, s->lo);
        frame_watch_check(t, regs, s->lo, s->result);
        *mode = mode_of(s, t, regs);
    } else {
        /* The loader's hook, or a return awaited by another thread or
         * another frame (a recursion's): run on. */
        *mode = SELECTIVE_RUN;
    }
    *over = breakpoints_at(&s->bps, addr) != NULL;
    return 1;
}

enum selective_mode selective_step(struct selective *s, struct watched_thread *t, const uint64_t *regs, int *over)
{
    s->tid = t->tid;
    s->result->steps++;
    size_t depth = t->stack.n;
    frame_watch_learn(t, regs, s->lo);
    uint64_t rip = regs[ABI_RA];
    at_loader(s, rip);
    /* A return awaited may come by a step: a PLT stub's jump to a selected
     * function, stepped from its entry, returns to the caller stepped. */
    if (breakpoints_at(&s->bps, rip))
        breakpoints_take(&s->bps, t->tid, rip, t->tid, regs[ABI_RSP]);
    struct shadow_frame *top = shadow_stack_top(&t->stack);
    struct breakpoint *bp = breakpoints_at(&s->bps, rip);
    if (t->stack.n > depth && top->entry == rip && !(bp && bp->entry) &&
        breakpoints_await(&s->bps, t->tid, top->ra, t->tid, top->cfa) == 0) {
        /* A call (or a signal's handler) into a function not selected: it
         * runs at full speed, its return awaited. */
        t->stack.n--;
        *over = breakpoints_at(&s->bps, rip) != NULL;
        return SELECTIVE_RUN;
    }
    frame_watch_check(t, regs, s->lo, s->result);
    enum selective_mode mode = mode_of(s, t, regs);
    if (mode == SELECTIVE_RUN)
        s->result->returns_missed += breakpoints_drop_gone(&s->bps, t->tid, t->tid, regs[ABI_RSP]);
    *over = breakpoints_at(&s->bps, rip) != NULL;
    return mode;
}

void selective_unlay(struct selective *s, pid_t tid)
{
    breakpoints_unlay(&s->bps, tid);
}
