/* SPDX-License-Identifier: Apache-2.0 */
/*
 * unw_cursor: libunwind's local cursor (unw_cursor_t) over the dwunwind
 * runtime — its state, and the operations that make it walk: init, step,
 * register access, the signal-frame state — each giving what libunwind 1.6
 * gives on the same stack.
 *
 * State: a struct lu_cursor laid over the caller's unw_cursor_t (127
 * words, checked at compile time), plain data (a caller may copy it).  It
 * holds the frame's registers as values (struct dwu_regs), the stack
 * bounds the walk may read (stack_bounds.h), the objects of its last
 * frames, and what libunwind's cursor says besides: whether the frame
 * stepped through last was a signal frame, the ucontext a resume into a
 * frame above a signal frame returns through, the exception-argument
 * registers unw_set_reg gave.
 *
 * Stepping: the runtime's step (walk.h: the object's eh_elf, else its
 * .eh_frame interpreted, the rows kept by address: unw_rows.h), every
 * callee-saved register restored; where no
 * unwind information covers the IP, libunwind's own frame-chain guess
 * (a PLT entry, else rbp), so that both stop and go on at the same frames.
 * Registers libunwind keeps from frame to frame when a row does not
 * mention them (its "same value": rax, rcx, ... keep the context's) are
 * kept too, aside (kept[]: frames that know them are rare, signal frames);
 * a callee-saved register a row leaves undefined is unknown
 * (-UNW_EBADREG).
 *
 * Registers are values, not locations: unw_set_reg changes the cursor's
 * frame (what unw_step and unw_resume use), not the stack slot the
 * register was saved in, which libunwind writes; unw_get_save_loc finds
 * the locations by walking again (unw_reg_states.h).
 *
 * Signal-safety: every function here is async-signal-safe as the
 * runtime's walk is (no allocation, no lock, nothing loaded; every stack
 * word checked against the stack's mapping first).  A cursor is used by
 * one thread at a time.
 */
#ifndef DWUNWIND_COMPAT_UNW_CURSOR_H
#define DWUNWIND_COMPAT_UNW_CURSOR_H

#include <stdint.h>

#include "compat/unw_abi.h"
#include "runtime/dwunwind.h"
#include "runtime/objects.h"
#include "runtime/stack_bounds.h"

/* Marks a cursor of this library: not a pointer (non-canonical), so never
 * the first word of Debian's remote cursors (their address-space arg). */
#define LU_CURSOR_MAGIC 0xd0e5dfa1c0c0a5e1ull

struct lu_cursor {
    uint64_t magic;
    struct dwu_regs frame[2];           /* the frame's (frame[cur]; rip and rsp always known),
                                           and where a step writes its caller's */
    uint32_t cur;
    uint32_t kept_valid;                /* libunwind's "same value": the caller-saved registers */
    uint64_t kept[DWU_NREGS];           /* of the last frame that knew them (see lu_cursor_take) */
    struct dwu_stack_bounds bounds;     /* the stack memory the walk may read */
    const struct dwu_object *recent[2]; /* the objects of its last frames */
    const unw_context_t *uc;            /* the context it started from */
    uint32_t start_flags;               /* DWU_FLAG_EXACT_IP for init_local2's signal frame */
    uint32_t steps;                     /* frames stepped since then */
    uint64_t sigcontext;                /* the ucontext of the last signal frame stepped through, or 0 */
    uint64_t eh_args[2];                /* unw_set_reg's rax and rdx */
    uint32_t eh_valid;                  /* bit N: eh_args[N] set */
    int32_t signal_frame;               /* unw_is_signal_frame */
    uint32_t last_step;                 /* how the last step went: enum lu_step_kind */
};

/* How a step found the caller: by the unwind table, or by one of the
 * guesses libunwind makes where there is none. */
enum lu_step_kind {
    LU_STEP_TABLE,       /* the object's eh_elf or .eh_frame */
    LU_STEP_PLT,         /* a PLT entry: the return address at rsp */
    LU_STEP_FRAME_CHAIN, /* rbp a frame pointer: [rbp] and [rbp + 8] */
    LU_STEP_BAD_IP,      /* an IP that cannot be read: the return address at rsp */
    LU_STEP_NONE         /* no step taken */
};

_Static_assert(sizeof(struct lu_cursor) <= sizeof(unw_cursor_t), "the cursor's state fits in unw_cursor_t");

/* The index in ucontext_t's gregs of DWARF register REG (< DWU_NREGS). */
static inline unsigned lu_greg_of(unsigned reg)
{
    static const unsigned char greg[DWU_NREGS] = {
        REG_RAX, REG_RDX, REG_RCX, REG_RBX, REG_RSI, REG_RDI, REG_RBP, REG_RSP, REG_R8,
        REG_R9,  REG_R10, REG_R11, REG_R12, REG_R13, REG_R14, REG_R15, REG_RIP,
    };
    return greg[reg];
}

/* The caller-saved registers (libunwind's same-value rule keeps them). */
#define LU_CALLER_SAVED                                                                                       \
    ((1u << DWU_RAX) | (1u << DWU_RDX) | (1u << DWU_RCX) | (1u << DWU_RSI) | (1u << DWU_RDI) | (1u << DWU_R8) | \
     (1u << DWU_R9) | (1u << DWU_R10) | (1u << DWU_R11))

/* The registers of C's frame. */
static inline struct dwu_regs *lu_regs(struct lu_cursor *c)
{
    return &c->frame[c->cur];
}

static inline const struct dwu_regs *lu_regs_of(const struct lu_cursor *c)
{
    return &c->frame[c->cur];
}

/* Where a step writes the caller's registers (lu_cursor_take makes them
 * the frame's: no copy). */
static inline struct dwu_regs *lu_next_regs(struct lu_cursor *c)
{
    return &c->frame[c->cur ^ 1];
}

static inline struct lu_cursor *lu_cursor_of(unw_cursor_t *c)
{
    return (struct lu_cursor *)(void *)c;
}

/* Whether C is one of this library's (set up by lu_cursor_init). */
static inline int lu_cursor_is_ours(const unw_cursor_t *c)
{
    return c && c->opaque[0] == LU_CURSOR_MAGIC;
}

/* Start C at the frame UC describes (all 17 registers taken from it);
 * EXACT when UC was interrupted (its IP is looked up as is, not minus
 * one).  0, or -UNW_EINVAL for a NULL argument. */
int lu_cursor_init(struct lu_cursor *c, const unw_context_t *uc, int exact);

/* Start C at REGS (a capture: rip, rsp, the callee-saved registers). */
void lu_cursor_init_regs(struct lu_cursor *c, const struct dwu_regs *regs);

/* unw_step: 1 after a step, 0 at the outermost frame (rip then 0), or a
 * negated UNW_E* code. */
int lu_cursor_step(struct lu_cursor *c);

/* The step by unwind table alone (eh_elf or .eh_frame), without the
 * guesses where none covers the IP (the _Unwind ABI's walks end there, as
 * libgcc's): as lu_cursor_step, or -UNW_ENOINFO when no table covers the
 * IP (the cursor then unchanged). */
int lu_cursor_step_rows(struct lu_cursor *c);

/* C's frame becomes lu_next_regs(C), the registers a step (or a row
 * unw_apply_reg_state applies) wrote there: what unw_step does after the
 * step.  1, or -UNW_EBADFRAME when neither rip nor rsp changed (the cursor
 * moved all the same, as libunwind's). */
int lu_cursor_take(struct lu_cursor *c);

/* unw_get_reg and unw_set_reg: 0 or a negated UNW_E* code. */
int lu_cursor_get_reg(const struct lu_cursor *c, int reg, unw_word_t *value);
int lu_cursor_set_reg(struct lu_cursor *c, int reg, unw_word_t value);

/* Register REG of C's frame, known or kept: 0, or -1 when neither. */
static inline int lu_cursor_value(const struct lu_cursor *c, unsigned reg, uint64_t *value)
{
    const struct dwu_regs *r = lu_regs_of(c);
    if (r->valid & (1u << reg))
        *value = r->r[reg];
    else if (c->kept_valid & (1u << reg))
        *value = c->kept[reg];
    else
        return -1;
    return 0;
}

/* The address at which the frame's unwind row is looked up: rip, less one
 * after a call. */
static inline uint64_t lu_cursor_lookup_pc(const struct lu_cursor *c)
{
    const struct dwu_regs *r = lu_regs_of(c);
    return r->r[DWU_RIP] - (r->flags & DWU_FLAG_EXACT_IP ? 0 : 1);
}

/* The objects C's last frames were found in (OUT[2]), and the same given
 * to a new walk of the same stack (an exception's walk started anew after
 * a cleanup), so that its first steps need not look them up: each is
 * used only for the addresses it holds now (unw_cursor.c's
 * cursor_object_at). */
static inline void lu_cursor_objects(const struct lu_cursor *c, const struct dwu_object *out[2])
{
    out[0] = c->recent[0];
    out[1] = c->recent[1];
}

static inline void lu_cursor_seed_objects(struct lu_cursor *c, const struct dwu_object *const in[2])
{
    c->recent[0] = in[0];
    c->recent[1] = in[1];
}

/* unw_resume: C's frame becomes the machine's, and runs on.  Its known
 * registers, the others as the starting context had them (rax and rdx as
 * unw_set_reg gave them); through the context of the last signal frame
 * stepped through when there was one (rt_sigreturn: its signal mask and
 * FP state too), else by a jump (no FP state, no signal mask changed: as
 * longjmp, for a frame up this thread's stack).  Does not return. */
void lu_cursor_resume(const struct lu_cursor *c) __attribute__((noreturn));

/* An exception's landing pad in C's frame installed (_Unwind's install):
 * as lu_cursor_resume, but at a call site only rax, rdx (as
 * unw_set_reg gave them) and the callee-saved registers are live, so only
 * they are set, and rip is jumped to.  A frame with an exact IP (a signal
 * frame's caller) or above a signal frame is resumed by
 * lu_cursor_resume.  Does not return. */
void lu_cursor_resume_landing_pad(const struct lu_cursor *c) __attribute__((noreturn));

/* libunwind keeps a signal frame's context for unw_resume in its cache:
 * with UNW_CACHE_NONE (ON 0) a resume above one is a jump too. */
void lu_cursor_set_caching(int on);

#endif
