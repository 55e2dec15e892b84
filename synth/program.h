/* SPDX-License-Identifier: Apache-2.0 */
/*
 * program: synthesis of a whole binary, in two passes.
 *
 * Pass one runs the interpreter over every function without emitting rows,
 * to learn what crosses function boundaries:
 *   - the state at each jump into another function's range: a tail call (the
 *     target starts in the entry state) or a jump to a fragment of the same
 *     frame, such as GCC's `.cold` parts, whose FDE starts mid-frame;
 *   - which functions never return (no reachable ret and no tail call), so
 *     calls to them do not fall through; nor do calls through the PLT to
 *     such a function of the file itself (Perl_croak: a library calls its
 *     exported functions through its PLT);
 *   - which caller-saved registers a function gives back unchanged (every
 *     ret finds them as they were on entry: a stack probe keeps rax, which
 *     the caller then subtracts from rsp), so calls to it keep them.
 * A range that may be a fragment (no name, or a `.cold` one) was run from the
 * ABI's entry state, which is wrong for a fragment: its jumps are held back.
 * Once calls and jumps show which ranges are fragments, the held jumps of the
 * others count, and each fragment runs again from the states of the jumps
 * into it, so that its own jumps back into its function's body carry the
 * body's frame.
 * Pass two synthesises each function on demand with that knowledge.
 *
 * A synth_program owns the .eh_frame view, the function index, the decoder
 * and the per-function facts of pass one; one call frees them.
 */
#ifndef DWCHECK_SYNTH_PROGRAM_H
#define DWCHECK_SYNTH_PROGRAM_H

#include "object/elf_file.h"
#include "semantics/cfi_reader.h"
#include "function_code.h"
#include "synthesize.h"

struct synth_program {
    struct elf_file *ef;
    struct cfi_section eh;
    int have_eh;
    struct function_index index;
    struct x86_decoder *decoder;
    struct synth_session session;
    struct abstract_state **entry;   /* per function: the state jumps into it carry, or NULL */
    struct synth_entry **inner; /* per function: jumps into its middle */
    size_t *ninner;
    uint8_t *called;            /* per function: some direct call targets it */
    uint8_t *noreturn;          /* per function: found never to return */
    uint32_t *preserved;        /* per function: caller-saved registers it gives back */
    uint8_t *by_defaults_only;  /* per function: only switches' defaults jump to its start */
    uint8_t *padded_start;      /* per function: the bytes of padding its code starts with when
                                 * more follows (0: none; at most 255) */
    struct ir_insn **insns;     /* per function: its IR from pass one, or NULL (decoded again
                                 * when needed: kept within SYNTH_IR_BUDGET bytes a file) */
    size_t *ninsns;
    size_t ir_bytes;            /* the IR kept */
};

/*
 * Index EF's functions (FDEs from .eh_frame when readable, symbols, PLT
 * stubs) and run pass one.  An unreadable .eh_frame is not fatal: *EH_ERROR
 * (if not NULL) receives its reason and functions come from symbols alone.
 * Returns 0, or -1 with a reason in ERR.
 */
int synth_program_open(struct synth_program *p, struct elf_file *ef, char *eh_error,
                       size_t eh_errlen, char *err, size_t errlen);
void synth_program_close(struct synth_program *p);

/* Synthesise function I of p->index (see synthesize_function). */
int synth_program_function(struct synth_program *p, size_t i, struct unwind_table *t,
                           synth_insn_fn observe, void *arg, struct synth_outcome *out);

/* Is function I entered the ordinary way (named, and no .cold part; or the
 * target of a direct call)?  No jump-table case leads into such a function:
 * a case that seems to is the data past a table bounded too loosely. */
int synth_program_entered_ordinarily(const struct synth_program *p, size_t i);

/* Function I's instructions as pass one decoded them, into *CODE: kept,
 * or decoded again.  0, or -1 when its bytes cannot be read or memory ran
 * out (*CODE empty).  Give them back with synth_program_code_release. */
int synth_program_code(const struct synth_program *p, size_t i, struct function_code *code);
void synth_program_code_release(const struct synth_program *p, size_t i, struct function_code *code);

/* Run function I and show OBSERVE every instruction's state, and EXITS
 * (may be NULL) every way out of it with the state there, without building
 * its table (what a checker needs).  ARG goes to both. */
int synth_program_observe(struct synth_program *p, size_t i, synth_insn_fn observe, synth_exit_fn exits,
                          void *arg, struct synth_outcome *out);

#endif
