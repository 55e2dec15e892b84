/* SPDX-License-Identifier: Apache-2.0 */
#include "frame_watch.h"

#include <string.h>
#include <sys/uio.h>

int frame_watch_read(void *pid, uint64_t addr, uint64_t *value)
{
    struct iovec local = {value, 8}, remote = {(void *)(uintptr_t)addr, 8};
    return process_vm_readv((pid_t)(intptr_t)pid, &local, 1, &remote, 1, 0) == 8 ? 0 : -1;
}

/* Whether the instruction in BYTES is a call (E8 rel32, or FF /2), after
 * its legacy and REX prefixes (bnd, notrack, operand size ...). */
static int is_call(const uint8_t *bytes, size_t n)
{
    size_t i = 0;
    while (i < n && (bytes[i] == 0x66 || bytes[i] == 0x67 || bytes[i] == 0xf2 || bytes[i] == 0xf3 ||
                     bytes[i] == 0x2e || bytes[i] == 0x3e || bytes[i] == 0x26 || bytes[i] == 0x36 ||
                     bytes[i] == 0x64 || bytes[i] == 0x65 || (bytes[i] & 0xf0) == 0x40))
        i++;
    if (i < n && bytes[i] == 0xe8)
        return 1;
    return i + 1 < n && bytes[i] == 0xff && (bytes[i + 1] >> 3 & 7) == 2;
}

/* A signal frame is far larger than any one instruction's push: the red
 * zone, the ucontext and the FPU state lie between it and the old rsp. */
#define SIGNAL_FRAME_MIN 512

static const void *fde_at(struct live_objects *lo, uint64_t pc)
{
    struct live_object *o;
    uint64_t bias;
    const struct eh_frame_fde *fde = live_objects_fde(lo, pc, &o, &bias);
    if (fde && (pc - bias < fde->pc_begin || pc - bias - fde->pc_begin >= fde->pc_range))
        return NULL;
    return fde;
}

/* What the step from T->now to REGS did to the frames. */
static void learn_frames(struct watched_thread *t, const uint64_t *regs, struct live_objects *lo)
{
    const uint64_t *before = t->now.regs;
    uint64_t rsp = regs[ABI_RSP], rip = regs[ABI_RA];
    pid_t pid = t->tid;   /* the thread: its process's first may have ended (pthread_exit) */
    if (t->have_before && t->signal_injected && rsp + SIGNAL_FRAME_MIN < before[ABI_RSP]) {
        uint64_t ra;
        if (frame_watch_read((void *)(intptr_t)pid, rsp, &ra) == 0)
            shadow_stack_enter(&t->stack, regs, ra, rip, fde_at(lo, rip));
    } else if (t->have_before && rsp == before[ABI_RSP] - 8) {
        /* One read for both: the instruction just run, and the word it pushed. */
        uint8_t insn[16];
        uint64_t ra;
        struct iovec local[2] = {{insn, sizeof insn}, {&ra, 8}};
        struct iovec remote[2] = {{(void *)(uintptr_t)before[ABI_RA], sizeof insn}, {(void *)(uintptr_t)rsp, 8}};
        if (process_vm_readv(pid, local, 2, remote, 2, 0) == (ssize_t)(sizeof insn + 8) &&
            ra > before[ABI_RA] && ra - before[ABI_RA] < 16 && is_call(insn, (size_t)(ra - before[ABI_RA])))
            shadow_stack_enter(&t->stack, regs, ra, rip, fde_at(lo, rip));
    }
    shadow_stack_pop_gone(&t->stack, rsp);
}

static void record(struct run_result *result, const struct live_object *o, uint64_t addr,
                   const struct eh_frame_fde *fde, enum row_verdict v, struct run_witness *w,
                   const struct watched_thread *t)
{
    struct run_address *a = run_result_address(result, (uint32_t)o->index, addr);
    if (!a)
        return;
    a->function_start = fde->pc_begin;
    a->executions++;
    if (v == ROW_HELD) {
        a->held++;
        return;
    }
    a->columns_refuted |= 1u << (w->column + 1);
    if (a->refuted++ == 0) {
        w->tid = (int)t->tid;
        w->rip = t->now.regs[ABI_RA];
        w->execution = a->executions;
        a->witness = *w;
    }
}

void frame_watch_resync(struct watched_thread *t, const uint64_t *regs, pid_t pid)
{
    memcpy(t->now.regs, regs, sizeof t->now.regs);
    t->now.read_mem = frame_watch_read;
    t->now.arg = (void *)(intptr_t)pid;
    t->have_before = 1;
    t->signal_injected = 0;
}

void frame_watch_learn(struct watched_thread *t, const uint64_t *regs, struct live_objects *lo)
{
    learn_frames(t, regs, lo);
    frame_watch_resync(t, regs, t->tid);
}

int frame_watch_enter(struct watched_thread *t, const uint64_t *regs, struct live_objects *lo)
{
    frame_watch_resync(t, regs, t->tid);
    shadow_stack_pop_gone(&t->stack, regs[ABI_RSP]);
    struct shadow_frame *top = shadow_stack_top(&t->stack);
    uint64_t cfa = regs[ABI_RSP] + ABI_ENTRY_CFA_OFFSET, ra;
    if (top && top->cfa == cfa && top->entry == regs[ABI_RA])
        return 0;   /* entered again (the entry's int3 met twice, a signal between) */
    if (frame_watch_read((void *)(intptr_t)t->tid, regs[ABI_RSP], &ra) != 0)
        return -1;
    return shadow_stack_enter(&t->stack, regs, ra, regs[ABI_RA], fde_at(lo, regs[ABI_RA]));
}

void frame_watch_check(struct watched_thread *t, const uint64_t *regs, struct live_objects *lo,
                       struct run_result *result)
{
    struct live_object *o;
    uint64_t addr;
    const struct unwind_row *row;
    const struct eh_frame_fde *fde;
    if (!live_objects_row(lo, regs[ABI_RA], &o, &addr, &row, &fde)) {
        result->steps_no_table++;
        return;
    }
    struct shadow_frame *top = shadow_stack_top(&t->stack);
    if (top && top->fde != fde) {
        /* A jump to a function's first instruction with rsp at the frame's
         * return-address slot: a tail call, or a PLT stub's jump. */
        if (addr == fde->pc_begin && regs[ABI_RSP] == top->cfa + ABI_ENTRY_RA_OFFSET)
            shadow_stack_reenter(top, regs, regs[ABI_RA], fde);
        else
            top = NULL;
    }
    if (!top) {
        result->steps_no_truth++;
        return;
    }
    struct run_witness w;
    enum row_verdict v = row_check(row, top, &t->now, &w);
    if (v == ROW_UNCHECKABLE || v == ROW_OTHER_FRAME) {
        result->steps_rule_unchecked++;
        return;
    }
    result->steps_checked++;
    record(result, o, addr, fde, v, &w, t);
}

void frame_watch_step(struct watched_thread *t, const uint64_t *regs, struct live_objects *lo,
                      struct run_result *result)
{
    result->steps++;
    frame_watch_learn(t, regs, lo);
    frame_watch_check(t, regs, lo, result);
}
