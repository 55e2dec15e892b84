/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cfa_program: the executable semantics of DWARF call-frame instructions.
 *
 * A CFA program (a CIE's initial instructions, then an FDE's instructions) is
 * bytecode for a small machine whose state is one row of the unwind table.
 * cfa_program_run() decodes and evaluates every DW_CFA_* opcode and reports
 * each finished row through a callback, at the moment the location advances.
 *
 * This module is pure: bytes and a CIE description in, rows out; no libdwarf,
 * no allocation (the remember_state stack is the caller's array), so the
 * runtime's DWARF fallback can link it alone.  Every caller gives the stack
 * UNWIND_REMEMBER_DEPTH entries (unwind_limits.h): the analysis full states,
 * the runtime the smaller cfi_saved_row, so both accept the same programs.
 */
#ifndef DWCHECK_CFA_PROGRAM_H
#define DWCHECK_CFA_PROGRAM_H

#include <stddef.h>
#include <stdint.h>

#include "eh_frame_parse.h"
#include "unwind_limits.h"
#include "unwind_table.h"

/* What an FDE's program needs to know about its CIE. */
struct cfa_cie_params {
    uint64_t code_align;
    int64_t data_align;
    unsigned ra_column;
    unsigned addr_size;          /* size of DW_CFA_set_loc's operand if encoding is absptr */
    uint8_t fde_encoding;        /* DW_EH_PE_* of DW_CFA_set_loc operands */
    uint64_t insns_addr;         /* address of the instruction bytes (for pcrel set_loc) */
};

/* The parameters CIE gives the instructions that start at INSNS_ADDR. */
static inline struct cfa_cie_params cfa_cie_params_of(const struct eh_frame_cie *cie, uint64_t insns_addr)
{
    return (struct cfa_cie_params){
        .code_align = cie->code_align, .data_align = cie->data_align, .ra_column = cie->ra_column,
        .addr_size = cie->addr_size, .fde_encoding = cie->fde_encoding, .insns_addr = insns_addr,
    };
}

/* The machine state: one row, every column the evaluator tracks. */
struct cfi_state {
    uint64_t loc;                              /* address the row starts at */
    struct unwind_rule cfa;
    struct unwind_rule col[UNWIND_MAX_COLUMNS];
    uint64_t args_size;                        /* DW_CFA_GNU_args_size */
};

/* A remembered state reduced to what an unwinder restores: the CFA, the
 * UNWIND_COLUMNS columns and the args size.  With a stack of these,
 * DW_CFA_restore_state leaves the columns past UNWIND_COLUMNS as they are;
 * every other column, and the CFA, come back exactly as with full states. */
struct cfi_saved_row {
    struct unwind_rule cfa;
    struct unwind_rule col[UNWIND_COLUMNS];
    uint64_t args_size;
};

/*
 * Called with the finished row each time the location advances (the row is
 * [st->loc, new_loc)).  Return 0 to go on, non-zero to stop the program
 * (cfa_program_run then returns that value).
 */
typedef int (*cfa_row_fn)(void *arg, const struct cfi_state *st, uint64_t new_loc);

struct cfa_program {
    const uint8_t *insns;
    size_t len;
    const struct cfa_cie_params *cie;
    /* The state after the CIE's initial instructions, which DW_CFA_restore
     * returns to; NULL while running the CIE itself. */
    const struct cfi_state *cie_state;
    struct cfi_state *stack;     /* remember_state stack, caller-owned ... */
    struct cfi_saved_row *saved; /* ... or, when stack is NULL, this one */
    size_t stack_cap;            /* entries of the one given */
    cfa_row_fn on_row;           /* may be NULL */
    void *arg;
};

struct cfa_error {
    const char *reason;          /* static string */
    size_t offset;               /* byte offset of the failing instruction */
};

/*
 * Run PROG over ST (initialised by the caller: cfa_program_state_init for a CIE, a
 * copy of the CIE state for an FDE).  Returns 0 when every instruction ran,
 * -1 with ERR filled for malformed input (unknown opcode, truncated operand,
 * over-long LEB128, register number >= UNWIND_MAX_COLUMNS, restore_state with
 * nothing remembered, remember_state past the stack), or the callback's
 * non-zero value.  On -1, ST holds the state before the failing instruction.
 */
int cfa_program_run(const struct cfa_program *prog, struct cfi_state *st, struct cfa_error *err);

/* Empty state at LOC: CFA unset, every column unreferenced. */
void cfa_program_state_init(struct cfi_state *st, uint64_t loc);

/*
 * Mark in MASK (UNWIND_MAX_COLUMNS bits) every register column an
 * instruction of the program names, without evaluating it.  Returns 0, or -1
 * with ERR filled when the bytes do not decode.
 */
int cfa_program_columns(const uint8_t *insns, size_t len, const struct cfa_cie_params *cie,
                        uint64_t mask[UNWIND_MAX_COLUMNS / 64], struct cfa_error *err);

#endif
