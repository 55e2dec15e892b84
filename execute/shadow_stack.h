/* SPDX-License-Identifier: Apache-2.0 */
/*
 * shadow_stack: the true frames of one thread, learnt by watching it run.
 *
 * A frame is pushed when the thread enters a function: after a `call`
 * (rip is the call's target, the return address just pushed), or at a
 * signal handler's first instruction.  There the truth is plain: the CFA is
 * rsp + 8, the return address is [rsp], and the callee-saved registers
 * (rbx, rbp, r12-r15) hold the values the function must give back (all
 * sixteen are kept: row_check tells arguments by them).  A
 * frame whose return-address slot (CFA - 8) lies below rsp is gone: a
 * `ret` popped it, or a longjmp or an exception cut the stack back; every
 * such frame is popped after each step.  A frame is also re-entered when
 * the thread jumps to the first instruction of another FDE with rsp at the
 * slot (a tail call, a PLT stub's jump): the function there runs in the
 * same frame, from the registers it was jumped to with.
 *
 * The stack knows only frames entered while traced; frames below them are
 * not known, and nothing is checked in them.
 */
#ifndef DWCHECK_SHADOW_STACK_H
#define DWCHECK_SHADOW_STACK_H

#include <stddef.h>
#include <stdint.h>

#include "semantics/abi.h"

struct shadow_frame {
    uint64_t cfa;                  /* the true CFA: rsp + 8 at entry */
    uint64_t ra;                   /* the true return address: [rsp] at entry */
    uint64_t entry;                /* the function's first instruction (load address) */
    const void *fde;               /* the FDE covering `entry`, or NULL: which rows apply */
    uint64_t entry_regs[ABI_R15 + 1];   /* the registers at entry, by DWARF number: the
                                           callee-saved ones' truth, the others to tell
                                           an argument still unchanged */
};

struct shadow_stack {
    struct shadow_frame *frames;
    size_t n, cap;
};

void shadow_stack_init(struct shadow_stack *s);
void shadow_stack_release(struct shadow_stack *s);

/* Push a frame entered with REGS (DWARF numbers 0-16) and the return
 * address RA read at rsp; FDE as in shadow_frame.  Returns 0, -1 when out
 * of memory (the frame is then not known). */
int shadow_stack_enter(struct shadow_stack *s, const uint64_t *regs, uint64_t ra, uint64_t entry,
                       const void *fde);

/* Pop every frame whose return-address slot lies below RSP.  Returns how many. */
size_t shadow_stack_pop_gone(struct shadow_stack *s, uint64_t rsp);

/* The innermost frame, or NULL. */
struct shadow_frame *shadow_stack_top(struct shadow_stack *s);

/* The innermost frame re-entered at ENTRY (FDE) with REGS: a tail call. */
void shadow_stack_reenter(struct shadow_frame *f, const uint64_t *regs, uint64_t entry, const void *fde);

#endif
