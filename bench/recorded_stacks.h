/*
 * recorded_stacks: stacks recorded as perf records them, unwound afterwards.
 *
 * `perf record --call-graph dwarf` stores, per sample, the interrupted
 * registers and a copy of the stack above the stack pointer (at most 65528
 * bytes); `perf report` unwinds each copy later, in another process, with
 * libunwind's remote API: its reads of the stack go through an accessor
 * into the copy, and it finds each object's .eh_frame_hdr itself.
 *
 * The benchmark's signal handler records each sample here: its registers,
 * a copy of its stack for each unwinder (each meets its copies cold, as a
 * report meets the recording), and the IPs eh_elf walked on the live
 * stack.  After the run, one unwinder after the other walks every recorded
 * stack, as a report does: a first walk, timed alone, then three more:
 *   - eh_elf: dwu_unwind reading the copy through dwu_read_stack_copy;
 *   - libunwind's remote unw_step, as perf drives it (find_proc_info from
 *     .eh_frame_hdr with dwarf_search_unwind_table; the copy through
 *     access_mem), with its default cache and with UNW_CACHE_NONE.
 * eh_elf's walk of a copy must repeat its walk of the live stack (up to
 * where the copy ends), and libunwind's must give the same IPs.
 */
#ifndef BENCH_RECORDED_STACKS_H
#define BENCH_RECORDED_STACKS_H

#include <stdint.h>

#include "runtime/dwunwind.h"

/* Where stacks are recorded (a fixed arena: recording stops when it is
 * full), the stack's bounds, the objects libunwind's accessors serve.
 * Returns 0, or -1 with a message on stderr. */
int recorded_stacks_init(void);

/* From the signal handler (async-signal-safe: no allocation): the
 * interrupted registers START, and the NLIVE IPs eh_elf walked from them
 * on the live stack. */
void recorded_stacks_add(const struct dwu_regs *start, const uint64_t *live_ips, int nlive);

/* Unwind every stack recorded since the last call with each unwinder,
 * print ns/frame and eh_elf's speed-ups under TITLE, and forget them.
 * Returns how many stacks' IP sequences disagreed. */
long recorded_stacks_report(const char *title);

#endif
/* SPDX-License-Identifier: Apache-2.0 */
