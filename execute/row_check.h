/* SPDX-License-Identifier: Apache-2.0 */
/*
 * row_check: one DWARF row judged against the live machine and the truth.
 *
 * At an instruction about to run, the row's rules are evaluated on the
 * thread's registers and memory, as an unwinder would evaluate them there,
 * and compared with the shadow stack's frame (execute/shadow_stack): the
 * CFA rule must give the true CFA; the return address's rule the true
 * return address; each callee-saved register's rule (rbx, rbp, r12-r15)
 * the value the register held at the function's entry.  An unmentioned or
 * same-value callee-saved register must still hold it; `undefined` always
 * holds (imprecise, never wrong).  Expressions run on the project's
 * concrete evaluator (semantics/dwarf_expr).  The CFA is checked first:
 * when it fails, the others, which an unwinder computes from it, are not.
 * A row that gives rsp a rule of its own is judged by it: the caller's rsp
 * (the true CFA) is what that rule must give, whatever the CFA it computes
 * from.  A CFA read from an argument register that still holds its entry
 * value (rdi in __longjmp, setcontext) describes another frame on purpose,
 * the context switched to, as the static audit says (other-frame): such a
 * row is not judged.  Nor is a frame whose return-address slot no longer
 * holds the return address it was entered with: the program redirected its
 * own return (__builtin_eh_return in _Unwind_RaiseException rewrites the
 * slot, and the callee-saved registers' slots, to land in a handler), so
 * the entry values are no longer what the rules must give.  That slot is
 * read only when a rule fails.
 */
#ifndef DWCHECK_ROW_CHECK_H
#define DWCHECK_ROW_CHECK_H

#include <stdint.h>

#include "run_result.h"
#include "shadow_stack.h"
#include "semantics/unwind_table.h"

/* The thread's state: registers by DWARF number (0-16, 16 the rip), memory
 * through a callback (8 bytes at ADDR; 0, or -1 when unreadable). */
struct live_machine {
    uint64_t regs[ABI_RA + 1];
    int (*read_mem)(void *arg, uint64_t addr, uint64_t *value);
    void *arg;
};

enum row_verdict {
    ROW_HELD,                      /* every rule checked gave the truth */
    ROW_REFUTED,                   /* one did not: the witness says which */
    ROW_UNCHECKABLE,               /* the CFA rule is unset, unknown or cannot be evaluated */
    ROW_OTHER_FRAME,               /* the row describes another context on purpose, or the
                                      program rewrote the frame's return address */
};

/* Judge ROW at the machine M in frame TRUTH.  On ROW_REFUTED, fills W's
 * column, rule, registers read, gave and truth (not the thread, rip or
 * execution, which the caller knows). */
enum row_verdict row_check(const struct unwind_row *row, const struct shadow_frame *truth,
                           const struct live_machine *m, struct run_witness *w);

#endif
