/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cfg: one function's basic blocks, and the state each is entered with.
 *
 * A block starts at the function's entry, at a target of a direct jump, of
 * a resolved jump table or of a computed goto (an address-taken label), at
 * a landing pad, where another fragment of the frame jumps in, and after
 * every instruction that ends one: a jump, a return, a stop, an invalid
 * instruction, or a call to a function that never returns (a known name, or
 * what the session's callee_at says).  Other calls fall through and stay
 * inside their block; what each direct call's callee is known to do is
 * kept per instruction (call_facts).
 *
 * What the code's own jumps do not show comes in as data (struct
 * cfg_links): the landing pads' call sites (synth/landing_pads reads them),
 * the indirect jumps' targets and the labels a computed goto may reach
 * (synth/jump_tables resolves them).  The cfg keeps them, so that the
 * dataflow follows every edge from the cfg alone; both those modules are
 * clients of the cfg and the dataflow, and synthesize hands their data
 * here.
 *
 * Invariants: blocks[0 .. nblocks) partition the instructions in address
 * order (block b is instructions first .. last, inclusive); block_of[i] is
 * the block of instruction i.  A block's `in` is meaningful only once
 * `reached` is set (the dataflow writes it).
 *
 * Ownership: struct cfg owns blocks, block_of and call_facts (cfg_release)
 * and borrows the function_code and the links' arrays; it is built again
 * for each pass of the jump-table search.
 */
#ifndef DWCHECK_CFG_H
#define DWCHECK_CFG_H

#include <stddef.h>
#include <stdint.h>

#include "abstract_state.h"
#include "function_code.h"
#include "request.h"

/* How a block got its state (flows of a later kind never change an earlier one's). */
#define SEED_INNER 1    /* a jump from another fragment of the frame */
#define SEED_GUESS 2    /* the unreached-block rules of dataflow_seed_unreached */

struct block {
    size_t first, last;          /* instruction indices, inclusive */
    int reached;                 /* (IN is meaningful only once it is set) */
    int seeded;                  /* how it was first reached: 0 from the entry or a landing pad,
                                    SEED_INNER from another fragment, SEED_GUESS by a guess */
    int queued;                  /* on the dataflow's worklist (at most once) */
    int pad_calls;               /* has a call that a landing pad catches */
    struct abstract_state in;
};

/* Call sites whose exceptions land at a pad (the function's LSDA): a call
 * in [start, end) throws to TARGET, which is the function's instruction
 * INSN, or outside it (INSN (size_t)-1: its .cold part). */
struct pad_site {
    uint64_t start, end;
    size_t insn;
    uint64_t target;
};

/* A case of a bounded jump table that leaves the function (for its .cold
 * part): the frame continues there. */
struct table_exit {
    size_t jump;
    uint64_t target;
};

/*
 * The ways on that the code's direct jumps do not show (borrowed while the
 * cfg is used).  PADS are the call sites that have a landing pad: each pad
 * inside the function starts a block, and a block with a call one catches
 * is marked (pad_calls).  The indirect jump at instruction index J goes to
 * the instructions targets[first[J] .. first[J] + count[J]) (COUNT NULL:
 * none resolved) and, out of the function, to the EXITS whose .jump is J
 * (grouped by jump); one that none of them explains, to the LABELS (the
 * instructions whose address the function takes).
 */
struct cfg_links {
    const struct pad_site *pads;
    size_t npads;
    const size_t *targets;
    const size_t *first;
    const uint32_t *count;
    size_t ntargets;
    const struct table_exit *exits;
    size_t nexits;
    const size_t *labels;
    size_t nlabels;
};

struct cfg {
    const struct function_code *code;   /* borrowed */
    struct cfg_links links;             /* what cfg_build was given */
    struct block *blocks;
    size_t nblocks;
    /* Per block, once the flows are final (dataflow_every_path): the state
     * it is entered with on every path, flows of every kind joined, where a
     * surer flow kept a less sure one out of `in` (which then holds on the
     * surer paths only); NULL when `in` holds on every path everywhere. */
    struct abstract_state *every;
    uint8_t *every_differs;      /* with EVERY: per block, EVERY[b] is not IN */
    int every_lost;              /* memory ran out computing EVERY: nothing is known to hold
                                    on every path */
    size_t *block_of;            /* instruction index -> block index */
    uint16_t *call_facts;        /* per instruction: for a direct call, the registers the
                                    callee gives back, and SYNTH_NEVER_RETURNS */
};

/*
 * Cut FC into blocks (G zeroed before).  The leaders besides jump targets
 * and ends of blocks: LINKS's pads, targets and labels, and the addresses
 * of MORE[0 .. NMORE).  SS answers what a direct call's callee does (its
 * index must be set; callee_at may be NULL).  Returns 0, or -1 with
 * *REASON set when out of memory.
 */
int cfg_build(struct cfg *g, const struct function_code *fc, const struct synth_session *ss,
              const struct cfg_links *links, const struct synth_entry *more, size_t nmore,
              const char **reason);

void cfg_release(struct cfg *g);

/* The caller-saved registers that the call at instruction I leaves alone. */
static inline uint32_t cfg_registers_given_back(const struct cfg *g, size_t i)
{
    return g->call_facts[i] & ~SYNTH_NEVER_RETURNS;
}

/* The number of resolved targets of the indirect jump at index J. */
static inline uint32_t cfg_jump_count(const struct cfg *g, size_t j)
{
    return g->links.count ? g->links.count[j] : 0;
}

/* Whether instruction I is a call that never returns. */
static inline int cfg_never_returns(const struct cfg *g, size_t i)
{
    return (g->call_facts[i] & SYNTH_NEVER_RETURNS) != 0;
}

/* Whether block B is alignment padding only (nop, int3). */
int cfg_is_padding_block(const struct cfg *g, size_t b);

/* Whether block B is traps only (ud2, hlt, padding) right after a call:
 * what compilers put after a call that does not return. */
int cfg_is_trap_after_call(const struct cfg *g, size_t b);

#endif
