/* SPDX-License-Identifier: Apache-2.0 */
/*
 * request: what is asked of synthesis and how it answers, as types only:
 * the session a file's functions share, one function's request, the
 * callbacks that are told each instruction's state and each way out of the
 * function, and the places other code jumps into.  Every room of synthesis
 * (function_code, cfg, dataflow, emit_table ...) reads these; none of them
 * reads synthesize.h, the driver above them all, which sequences them.
 *
 * Ownership: a session and a request borrow everything they point to (the
 * file, the index, the decoder, the function range, the entries, the
 * instructions handed in); callbacks' arguments are the caller's.
 */
#ifndef DWCHECK_SYNTH_REQUEST_H
#define DWCHECK_SYNTH_REQUEST_H

#include <stddef.h>
#include <stdint.h>

#include "abstract_state.h"

struct cfg;
struct elf_file;
struct function_code;
struct function_index;
struct function_range;
struct x86_decoder;

struct synth_session {
    struct elf_file *ef;
    const struct function_index *index;
    struct x86_decoder *decoder;
    /* Optional: what is known of the function a direct call reaches at
     * TARGET, which synth_program answers from its first pass: the
     * caller-saved registers it gives back unchanged (bit R: every return
     * leaves R as it was entered; a stack probe's rax), and SYNTH_NEVER_RETURNS
     * when it never returns (beyond the known names). */
    uint32_t (*callee_at)(void *arg, uint64_t target);
    void *callee_arg;
    /* The code of the function whose instructions an observer is being
     * shown, while it is (an observer may look at the instructions around
     * the one it is given); NULL otherwise. */
    const struct function_code *observed;
    const struct cfg *observed_cfg;   /* its blocks, for synthesize_loop_entry */
};

/* In callee_at's answer (bit 15 is r15's, which a callee must restore anyway). */
#define SYNTH_NEVER_RETURNS (1u << 15)

/* Per-instruction observer: the state before IN executes.  REACHED is 1 for
 * instructions a path reaches, 0 for those none does (the state is then
 * meaningless), SYNTH_PADDING for unreached alignment padding and traps
 * (the ud2 after a call that does not return), which carry the state of the
 * code around them, as compilers' tables do, SYNTH_GUESSED for
 * code only a guess reaches (the join of unresolved indirect jumps, the call
 * before an unlisted landing pad). */
#define SYNTH_PADDING 2
#define SYNTH_GUESSED 3
typedef void (*synth_insn_fn)(void *arg, const struct ir_insn *in, const struct abstract_state *st,
                              int reached);

/* Control leaving the function, from the instruction at FROM (0 when no
 * one instruction: a landing pad's flow) for TARGET outside it, with the
 * state at that point (for a jump: the frame the target continues).  KIND: a jump
 * (0), a call (SYNTH_EXIT_CALL), or a case of a jump table that the code
 * bounds (SYNTH_EXIT_TABLE_CASE: into the function's .cold part, if the
 * bound is the table's; a compare that bounds something else, which LLVM's
 * known value ranges allow, makes it the next function's data), or a
 * switch's bound check (SYNTH_EXIT_SWITCH_DEFAULT: its default, which
 * compilers place anywhere when they know it unreachable). */
#define SYNTH_EXIT_CALL 1
#define SYNTH_EXIT_TABLE_CASE 2
#define SYNTH_EXIT_SWITCH_DEFAULT 3
typedef void (*synth_exit_fn)(void *arg, uint64_t from, uint64_t target, int kind, const struct abstract_state *st);

/* A place other code jumps into, with the state the jumps carry. */
struct synth_entry {
    uint64_t addr;
    int table_cases_only;            /* only cases of jump tables lead there */
    struct abstract_state state;
};

struct synth_request {
    const struct function_range *func;
    const struct abstract_state *entry;   /* NULL: the state of a normal call */
    const struct synth_entry *more_entries;   /* jumps into the middle of the function */
    size_t nmore_entries;
    int entry_is_guess;              /* nothing is known to enter at func->lo (an unnamed,
                                        uncalled fragment): more_entries take precedence */
    int emit;                        /* build the table (and call observe) */
    int no_table;                    /* with emit: call observe only, T may be NULL */
    synth_insn_fn observe;           /* may be NULL */
    void *observe_arg;
    synth_exit_fn exits;             /* may be NULL */
    void *exits_arg;
    /* The function's instructions, decoded before (borrowed), or NULL to
     * decode them now; with keep_insns the decoded ones are handed back. */
    struct ir_insn *insns;
    size_t ninsns;
    int keep_insns;
};

#endif
