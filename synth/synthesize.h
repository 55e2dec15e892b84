/* SPDX-License-Identifier: Apache-2.0 */
/*
 * synthesize: one function's unwind table, from its machine code.
 *
 * Decode [lo, hi) once into IR, split it into basic blocks, run the abstract
 * interpreter to a fixpoint over the CFG (direct and conditional jumps, calls
 * that return, calls to functions that never do, jumps out of the function
 * as tail calls, jump tables read from the file), give blocks that nothing
 * reaches the state of the indirect jumps that can reach them (unresolved
 * jump tables) or of the call they follow (exception landing pads), and emit
 * H in the compiler's conventions.
 *
 * A jump table is found from the instructions before its jump (the leas of
 * the table and of the base its entries are relative to: the table, or a
 * label for a computed goto) or, failing that, from the values the
 * interpreter finds in those registers there (constants, or an entry loaded
 * from a table of addresses in another block); the blocks are then cut
 * again at its targets and the fixpoint run again (up to three times: a
 * switch inside a case).  Where the code bounds the index (cmp $N,%i; ja)
 * exactly N + 1 entries are read, and those that leave the function hand
 * the frame to where they lead (its .cold part); otherwise entries are read
 * while they name instructions of the function other than padding, up to
 * the next of its tables.  A position-independent file's tables of
 * addresses are read through its R_X86_64_RELATIVE relocations.  A lazy PLT
 * stub's indirect jump also continues to its push: its GOT entry points
 * there until the symbol is bound.
 *
 * Each of those jobs is a module of its own, run in this order by
 * synthesize.c: function_code (decoding), landing_pads, jump_tables (and
 * computed gotos), cfg (the blocks), dataflow (the fixpoint), emit_table
 * (the rows, each built by emit_row, which also serves verify/).  None
 * reads a module above it: request.h (the types they share), then
 * function_code, cfg (given the landing pads' call sites and the jump
 * tables' targets as data), dataflow (blind to both), then its clients
 * landing_pads, jump_tables, loop_entry and emit_table; synthesize.c alone
 * reads them all, and hands each what the others found.
 *
 * A synth_session (request.h) holds what is shared by every function of
 * one file: the decoder and the function index.  Memory per function is
 * bounded by its size (one IR instruction and at most one state per basic
 * block).
 */
#ifndef DWCHECK_SYNTHESIZE_H
#define DWCHECK_SYNTHESIZE_H

#include "abstract_state.h"
#include "emit_row.h"
#include "function_index.h"
#include "request.h"
#include "semantics/unwind_table.h"
#include "x86_decode.h"

struct synth_outcome {
    const char *reason;        /* why the function is unknown, or NULL */
    int returns;               /* some path returns or leaves by a tail call */
    uint32_t preserved;        /* caller-saved registers (bit R) that every return gives
                                  back unchanged; 0 unless the function is a leaf that
                                  leaves only by returns, none reached by a guess;
                                  computed only when RQ->emit is 0 */
    size_t insns;
    size_t unreached;          /* instructions left without a state */
    size_t seeded_blocks;      /* blocks given a state by the jump-table / landing-pad rule */
    struct ir_insn *kept_insns;   /* with keep_insns: the caller frees them */
    size_t nkept_insns;
};

/*
 * Synthesise RQ->func.  With RQ->emit, T receives H (initialised here;
 * release with unwind_table_release) and RQ->observe sees every instruction
 * in address order.  Returns 0; or -1 with OUT->reason set (a static string)
 * when the function cannot be synthesised (its bytes are outside any section,
 * or an invalid instruction is reachable) — T then holds one unknown row.
 */
int synthesize_function(struct synth_session *ss, const struct synth_request *rq,
                        struct unwind_table *t, struct synth_outcome *out);

/*
 * While an observer is shown instruction IN: when IN starts a loop's head
 * whose turns disagree on a register, the state the loop is entered with
 * (synth/loop_entry): a rule the observed state leaves undecided there may
 * fail on the loop's first turn.  Returns 1 with *OUT set, else 0.
 */
int synthesize_loop_entry(const struct synth_session *ss, const struct ir_insn *in, struct abstract_state *out);

/*
 * While an observer is shown instruction IN: the state before IN on every
 * path into it.  The state the observer is shown is what the surer paths
 * give (synth/dataflow: a jump back from another fragment, a landing pad
 * of a call only a guess reaches, a guess's flow, never change what the
 * function's own paths established), right for judging a rule — one wrong
 * on a path is wrong — but a rule that repairs a table or fixes a source
 * must hold on every path.  Returns 1 with *OUT set when that state
 * differs from the observed one, else 0 (the observed state holds on
 * every path).
 */
int synthesize_every_path(const struct synth_session *ss, const struct ir_insn *in, struct abstract_state *out);

/* While an observer is shown instruction IN: the instruction before it,
 * when that one is IN's only way in (it falls through into IN, and no jump
 * lands on IN); else NULL. */
const struct ir_insn *synthesize_previous_insn(const struct synth_session *ss, const struct ir_insn *in);

#endif
