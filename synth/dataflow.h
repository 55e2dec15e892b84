/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dataflow: the forward abstract interpretation of one function's blocks,
 * to a fixpoint.
 *
 * The bottom of synthesis's analysis: a worklist over the blocks and the
 * transfer function, blind to jump tables and landing pads.  It takes the
 * blocks' edges from the cfg alone (where the indirect jumps go is the
 * cfg's data); the modules that find those (synth/jump_tables) and that
 * flow states into landing pads (synth/landing_pads) are its clients, and
 * synthesize runs them in turn.
 *
 * The transfer function of an instruction applies its IR effects and, for a
 * call that returns, the call's effect (caller-saved registers lost but for
 * those the callee gives back, memory below rsp forgotten):
 * dataflow_transfer, the one place that knows both.  A block's out-state
 * flows along its edges: fall-through (not after a call that never
 * returns), direct and conditional jumps (on the edge where `cmp %a,%b`
 * found them equal, what is known of one is known of the other, and an edge
 * the state proves impossible is not taken), the targets of resolved jump
 * tables, and, for an indirect jump no table explains, every address-taken
 * label while the frame is in place.  Jumps out of the function (tail
 * calls, .cold parts), calls, and the cases of bounded tables that leave
 * it are control leaving the function: held with their state until the
 * flows are final (dataflow_hand_on_exits).
 *
 * Flows are ranked by how sure they are (cfg.h: 0 from the entry or a
 * landing pad, SEED_INNER from another fragment, SEED_GUESS from the
 * unreached-block rules): a flow never changes what a surer one
 * established, and a surer one replaces what it gave.  Join is the abstract
 * state's; the lattice has finite height, so the worklist empties.
 *
 * A block's state is then what holds on its surer paths: a jump back from
 * a .cold part that arrives with another frame does not make the body's
 * rows unknown, so the audit still judges them (a rule wrong on one path
 * is wrong).  But a rule that repairs a table, or a fix, must hold on
 * every path: the flows kept out are remembered (joined per block, only
 * those that would have changed the state), and dataflow_every_path
 * computes, once the flows are final, the state each block has on every
 * path (cfg's EVERY).
 *
 * Ownership: struct dataflow owns its worklist and the held exits
 * (dataflow_release); it borrows the cfg (whose block states it writes)
 * and the request's function.
 */
#ifndef DWCHECK_DATAFLOW_H
#define DWCHECK_DATAFLOW_H

#include <stddef.h>
#include <stdint.h>

#include "abstract_state.h"
#include "cfg.h"
#include "request.h"

/* Control leaving the function (see synth_exit_fn), held until the flows
 * are final: a pass the table search discards would hand on states from
 * a graph that was wrong. */
struct leaving {
    uint64_t from, target;
    int kind;                    /* 0, SYNTH_EXIT_CALL or SYNTH_EXIT_TABLE_CASE */
    struct abstract_state state;
};

struct dataflow {
    struct cfg *cfg;                              /* borrowed; block states written */
    const struct function_range *func;            /* borrowed */
    synth_exit_fn exits;                          /* may be NULL: nothing is held */
    void *exits_arg;
    size_t *worklist;            /* blocks to run again (each at most once) */
    size_t nwork;
    int seeding;                 /* the kind of flows now: 0, SEED_INNER or SEED_GUESS */
    int returns;                 /* some path returns or leaves by a tail call */
    uint32_t clobbered;          /* registers some return does not give back (all of them
                                    once the function leaves by a tail call) */
    struct leaving *leaving;     /* control leaving the function in these flows */
    size_t nleaving, leaving_cap;
    int every_path;              /* flows join whatever their kind (dataflow_every_path) */
    struct abstract_state **kept_out; /* per block: the join of the flows a surer one kept out
                                    of its state, or NULL; the array NULL until one is */
    int kept_out_lost;           /* out of memory while keeping one: no state is every path's */
};

/* Set DF up over G (its blocks unreached) and the function and exits
 * callback of RQ.  Returns 0, or -1 when out of memory. */
int dataflow_init(struct dataflow *df, struct cfg *g, const struct synth_request *rq);

void dataflow_release(struct dataflow *df);

/* The transfer function of instruction I of G: its effects, then, for a
 * call, the call's. */
void dataflow_transfer(const struct cfg *g, size_t i, struct abstract_state *st);

/* Run block B of G from its entry state: OBSERVE (may be NULL) sees each
 * instruction's state; the state after the block is left in *OUT, and, when
 * AFTER_CALL is not NULL and the block has a call, the state after its last
 * call in *AFTER_CALL (with *HAVE_CALL set). */
void dataflow_run_block(const struct cfg *g, size_t b, struct abstract_state *out, synth_insn_fn observe,
                        void *arg, struct abstract_state *after_call, int *have_call);

/* Flow into block B with state ST, as a flow of kind DF->seeding; queue B
 * when its entry state changed.  Returns whether it changed. */
int dataflow_flow_into(struct dataflow *df, size_t b, const struct abstract_state *st);

/* A flow ST into block B that a surer one keeps out of B's state (or that
 * a surer one replaced): remembered, joined with the others kept out of B,
 * when it would have changed B's state, for dataflow_every_path. */
void dataflow_keep_out(struct dataflow *df, size_t b, const struct abstract_state *st);

/* Run queued blocks until none is. */
void dataflow_fixpoint(struct dataflow *df);

/* Control leaves the function from FROM for TARGET (KIND: see synth_exit_fn)
 * with ST: held for the exits callback (when memory runs out, handed on at
 * once). */
void dataflow_leave(struct dataflow *df, uint64_t from, uint64_t target, int kind, const struct abstract_state *st);

/* Hand the held exits to the callback, in order. */
void dataflow_hand_on_exits(const struct dataflow *df);

/*
 * Blocks nothing reached: a jump-table target takes the state of the indirect
 * jumps of the function; a landing pad (reached by the unwinder from a call
 * site) takes the state after the nearest call before it; failing both, the
 * state at the end of the block before.  Flows of kind DF->seeding (the
 * caller sets SEED_GUESS).  Returns how many blocks were given a state.
 */
size_t dataflow_seed_unreached(struct dataflow *df);

/* Block B's edges to blocks of the function, as the fixpoint takes them
 * (fall-through, a direct jump's target, refined by a `cmp`'s equality;
 * not an edge the state rules out): FN(ARG, successor, state) for each,
 * from B's entry state.  Returns 0, or -1 when B ends with an indirect jump
 * (its successors are not listed). */
typedef void (*dataflow_edge_fn)(void *arg, size_t successor, const struct abstract_state *st);
int dataflow_direct_edges(const struct cfg *g, size_t b, dataflow_edge_fn fn, void *arg);

/* Flows into DF that the blocks' edges do not show (the landing pads'),
 * run by their owner: dataflow_every_path has them run again. */
typedef void (*dataflow_more_fn)(void *arg, struct dataflow *df);

/*
 * Once the flows are final: the state each block of the cfg has on every
 * path, into G->every (cfg.h), by joining into its state the flows kept out
 * of it and running the fixpoint (then MORE, with ARG, when not NULL) again
 * over those joined states, whatever the flows' kinds; the blocks' own
 * states are then put back as they were.  The exits callback is not
 * called.  Returns 1 when some block's state differs on every path, 0
 * when none does (G->every stays NULL), -1 when memory ran out (then
 * G->every_lost: nothing is known to hold on every path).
 */
int dataflow_every_path(struct dataflow *df, dataflow_more_fn more, void *arg);

/* The state before instruction I of G on every path (computed by
 * dataflow_every_path), into *OUT.  Returns 1 when it differs from the
 * state the fixpoint gave I (only then is *OUT written: the unknown state
 * when memory ran out), 0 when that one holds on every path. */
int dataflow_every_path_at(const struct cfg *g, size_t i, struct abstract_state *out);

/* Whether a reached block has a call. */
int dataflow_reaches_a_call(const struct dataflow *df);

#endif
