/* SPDX-License-Identifier: Apache-2.0 */
/*
 * script_output: unwound samples printed as `perf script --no-inline`
 * prints them (its default fields for a recording with call graphs), or as
 * folded stacks for flame graph tools.
 *
 * script: a header line per sample — the thread's command, its tid, the
 * CPU when recorded, the time in seconds with microseconds, the period and
 * the event's name — then a line per frame, innermost first: the address
 * as perf prints it, `symbol+0xoffset` (or `[unknown]`) and the object in
 * parentheses; then an empty line.  A caller's address is its return
 * address minus one, as perf prints it (the call instruction's last byte).
 *
 * folded: one line per distinct stack, `comm;outermost;...;innermost N`,
 * N the number of samples, lines in the order the stacks were first seen;
 * a frame is its symbol's name, or `[object]` when it has none.
 *
 * Symbol tables are opened once per object and kept until the output is
 * freed; the kernel's is kept in the cache between runs.
 */
#ifndef DWCHECK_PROFILE_SCRIPT_OUTPUT_H
#define DWCHECK_PROFILE_SCRIPT_OUTPUT_H

#include <stdio.h>

#include "profile/perf_data.h"
#include "profile/sample_unwind.h"
#include "runtime/dwunwind.h"

enum output_format { OUTPUT_SCRIPT, OUTPUT_FOLDED };

struct script_output;

/* Output to OUT in FORMAT; the kernel's symbols are kept in CACHE_DIR
 * between runs (symbol_store; NULL: not kept).  NULL when out of memory. */
struct script_output *script_output_new(FILE *out, enum output_format format, const char *cache_dir);

/* One sample: its thread's COMM, its FRAMES (N of them) in SPACE. */
void script_output_sample(struct script_output *o, const struct perf_sample *s, const char *comm,
                          struct dwu_space *space, const struct sample_frame *frames, int n);

/* Write what is pending (the folded stacks) and free. */
void script_output_finish(struct script_output *o);

#endif
