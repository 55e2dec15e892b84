/* SPDX-License-Identifier: Apache-2.0 */
/*
 * landing_pads: where exceptions land, and the state they land with.
 *
 * A function's entry in .gcc_except_table (its FDE's LSDA) lists call sites
 * [start, end) and the landing pad each continues at when a call there
 * throws.  The unwinder resumes a landing pad with the frame as the call
 * left it, so a pad starts in the join of the states after its calls (the
 * caller-saved registers lost, as after any call), less the arguments the
 * call had pushed: the unwinder pops DW_CFA_GNU_args_size bytes, in force
 * at the call in the FDE, before it jumps to the pad; a pad outside the
 * function (its .cold part) is another fragment's entry, and that state is
 * handed on as control leaving the function.  A pad's own calls may land in
 * another pad: rounds continue until the states settle (bounded).
 *
 * The call sites reach the blocks as data (struct pad_site, cfg.h: the
 * pads start blocks, and blocks with a call a pad catches are marked);
 * their states flow through the dataflow, of which this module is a
 * client.
 *
 * Invariants: site[k].insn is the index of the pad's instruction in the
 * function_code, or (size_t)-1 for a pad outside the function; a pad inside
 * the function that starts no instruction is dropped; state[k] is site[k]'s.
 * A missing or malformed LSDA only loses pads (the unreached-block guess
 * still applies).
 *
 * Ownership: struct landing_pads owns the site and state arrays
 * (landing_pads_release); the states flow into a struct dataflow the
 * caller owns.
 */
#ifndef DWCHECK_LANDING_PADS_H
#define DWCHECK_LANDING_PADS_H

#include <stddef.h>
#include <stdint.h>

#include "abstract_state.h"
#include "cfg.h"
#include "function_code.h"

struct dataflow;

/* What the calls of one call site hand its landing pad. */
struct pad_state {
    int have_state;
    int seeded;                  /* the surest way those calls were reached (see struct block) */
    struct abstract_state state;      /* join of the states after those calls reached so */
};

/* Code where the FDE says the calls' pushed arguments take SIZE bytes. */
struct args_size_range {
    uint64_t start, end;
    uint64_t size;
};

struct landing_pads {
    struct pad_site *site;       /* the call sites that have a pad (cfg.h), in the LSDA's order */
    struct pad_state *state;     /* per site */
    size_t n;
    struct args_size_range *args;   /* by address; only nonzero sizes */
    size_t nargs;
};

/* Read FC->func's landing pads from EF (none without an LSDA, or with EF
 * NULL) into LP (zeroed before).  Returns 0, or -1 when out of memory. */
int landing_pads_find(struct landing_pads *lp, struct elf_file *ef, const struct function_code *fc);

void landing_pads_release(struct landing_pads *lp);

/* Flow the states after DF's reached call sites into their landing pads,
 * running DF to its fixpoint after each round, until no pad's state
 * changes (at most PAD_ROUNDS_MAX rounds). */
void landing_pads_flow_until_stable(struct landing_pads *lp, struct dataflow *df);

#endif
