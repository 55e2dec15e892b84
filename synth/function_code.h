/* SPDX-License-Identifier: Apache-2.0 */
/*
 * function_code: one function's instructions, decoded once into IR.
 *
 * The bytes of [lo, hi) are swept linearly, but an instruction starts at
 * every address other code is known to enter (jumps from other fragments
 * of the frame) and at every target of the function's own direct jumps: a
 * sweep that ran out of step (data, or a jump into what it took for the
 * middle of an instruction) is cut there, the bytes before becoming a stop.
 *
 * Invariants: insns[0 .. n) are sorted by address, contiguous, and cover
 * [func->lo, func->hi); an instruction is found by its address with
 * function_code_insn_at.  Every other module of synthesis names an
 * instruction by its index in insns.
 *
 * Ownership: the instructions are the function_code's when it decoded them
 * (free them with free(insns)), or borrowed from the caller of
 * synthesize_function; the function range is borrowed.
 */
#ifndef DWCHECK_FUNCTION_CODE_H
#define DWCHECK_FUNCTION_CODE_H

#include <stddef.h>
#include <stdint.h>

#include "function_index.h"
#include "ir.h"
#include "request.h"
#include "x86_decode.h"

struct function_code {
    const struct function_range *func;   /* borrowed */
    struct ir_insn *insns;
    size_t n;
};

/*
 * Decode FC->func from EF's bytes with DEC, starting instructions at the
 * addresses of MORE[0 .. NMORE) inside it and at the function's jump
 * targets.  Returns 0 with FC->insns allocated (replacing any before), or
 * -1 with *REASON set (a static string): the bytes are outside the file's
 * sections or unreadable, or memory ran out.
 */
int function_code_decode(struct function_code *fc, struct elf_file *ef, struct x86_decoder *dec,
                         const struct synth_entry *more, size_t nmore, const char **reason);

/* Index of the instruction starting at ADDR, or (size_t)-1.  (Inline: the
 * block graph and the fixpoint look up every jump's target.) */
static inline size_t function_code_insn_at(const struct function_code *fc, uint64_t addr)
{
    size_t lo = 0, hi = fc->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (fc->insns[mid].addr < addr)
            lo = mid + 1;
        else if (fc->insns[mid].addr > addr)
            hi = mid;
        else
            return mid;
    }
    return (size_t)-1;
}

/* Is the conditional jump at index I of FC a switch's bound check: an
 * indirect jump within the next six instructions, nothing but
 * straight-line code between (cmp; ja DEFAULT; table load; jmp *)?  Its
 * target is the switch's default, which LLVM and GCC lay out anywhere when
 * they know it unreachable: in another function's middle, or among
 * another function's cold code: not a transfer the row there must
 * describe (verify/audit/check does not check it). */
int function_code_bounds_a_switch(const struct function_code *fc, size_t i);

/* Whether IN is a call (direct or indirect): control comes back after it. */
static inline int ir_is_call(const struct ir_insn *in)
{
    return in->flow == IR_FLOW_CALL || in->flow == IR_FLOW_CALL_INDIRECT;
}

/* Whether IN writes register R (a store writes none). */
static inline int ir_writes_reg(const struct ir_insn *in, uint8_t r)
{
    for (unsigned e = 0; e < in->neffects; e++)
        if (in->effects[e].kind != IR_STORE && in->effects[e].dst == r)
            return 1;
    return 0;
}

#endif
