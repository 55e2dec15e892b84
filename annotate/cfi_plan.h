/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cfi_plan: which CFI directives go after which source line of a function.
 *
 * The source gives the places a directive may go — after a line — and the
 * assembler tells where each place is: a copy of the source with a marker
 * label after every such line, assembled, gives each place its address (a
 * directive takes effect at the location counter where it stands, which is
 * exactly the marker's address).  Synthesis gives the row of H that must
 * hold at every instruction.  Between two consecutive places lie the bytes
 * of the lines in between; the directives at the first place must establish
 * the row of the first reached instruction there, and every other reached
 * instruction there must have that same row, or the CFI is not exact (a
 * macro or a `a; b` line that changes the frame in its middle: directives
 * can only follow the whole line).  Unreached code and alignment padding
 * take whatever row is in force.
 *
 * Transitions are written as an author would: after the instruction that
 * changes the frame when it falls through to the next line; right before
 * the code (after its labels) when the line before ends in a jump or a
 * return.  An epilogue that leaves the function early is wrapped in
 * `.cfi_remember_state` / `.cfi_restore_state` when the row before it is
 * needed again after its exit.
 *
 * A row at a call that reads a caller-saved register (the CFA in r10, say)
 * is right before the call but useless to an unwinder, which evaluates it
 * with the callee's registers: such a call is reported like an inexact line.
 *
 * Invariant: applying the planned directives in address order gives, at
 * each reached instruction not reported as inexact, exactly its synthesised
 * row (rules GAS cannot state aside: the plan is refused for an unknown CFA
 * or return address; an unknown callee-saved register is stated as
 * `.cfi_undefined`, with a note).
 */
#ifndef DWCHECK_CFI_PLAN_H
#define DWCHECK_CFI_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "semantics/print/cfi_text.h"
#include "synth/ir.h"

/* A place a directive may go: after source line LINE, at address ADDR. */
struct plan_point {
    size_t line;
    uint64_t addr;
    enum cfi_reg_style style;   /* how registers are spelt there */
    const char *eol;            /* the line terminator to write ("\n", "\r\n") */
};

/* One synthesised instruction. */
struct plan_insn {
    uint64_t addr;
    uint8_t len;
    uint8_t flow;               /* enum ir_flow */
    uint8_t reached;            /* as synth_insn_fn's REACHED */
};

enum plan_verdict {
    PLAN_EXACT,                 /* every reached instruction gets its row */
    PLAN_INEXACT,               /* annotated, but some lines change the frame inside */
    PLAN_REFUSED,               /* not annotated: a row GAS cannot state */
};

/* Text to insert after a line (one or more whole lines). */
struct plan_text {
    size_t after_line;
    char *text;
};

struct cfi_plan {
    enum plan_verdict verdict;
    struct plan_text *texts;    /* in source order; empty when refused */
    size_t ntexts;
    char **notes;               /* "line 12: ..." messages, in source order */
    size_t nnotes;
    size_t changes;             /* row changes planned (statistics) */
    size_t remembered;          /* .cfi_remember_state pairs */
};

/*
 * Plan one function.  POINTS (NPOINTS >= 2, in source order, addresses not
 * decreasing) are the places in the function's section from its
 * .cfi_startproc (the first) to its .cfi_endproc (the last); INSNS are its
 * instructions in address order; TABLE its synthesised rows.  Returns 0
 * (P initialised; release with cfi_plan_release), or -1 when out of memory.
 */
int cfi_plan_build(struct cfi_plan *p, const struct plan_point *points, size_t npoints,
                   const struct plan_insn *insns, size_t ninsns, const struct unwind_table *table);
void cfi_plan_release(struct cfi_plan *p);

#endif
