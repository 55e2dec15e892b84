/* SPDX-License-Identifier: Apache-2.0 */
/*
 * compile_queue: compiling the eh_elfs a recording needs, on demand, into
 * a cache keyed by build-id (BUILDID.eh_elf.so, where dwu_space looks).
 *
 * When to compile is a rent-or-buy choice per object: each step the DWARF
 * fallback takes through it costs about FALLBACK_STEP_NS; its eh_elf costs
 * a compilation, estimated from the file's size, once for this run and
 * every later one.  Under COMPILE_AUTO an object is compiled when the
 * fallback has spent what the compilation would (so never worse than twice
 * the best choice made in hindsight); COMPILE_ALWAYS compiles every object
 * at its first fallback step; COMPILE_NEVER never does.
 *
 * Compilations run in the background, one at a time (`dwcompile --repair`:
 * the object's validated table), while the unwinding goes on with the
 * fallback; compile_queue_poll says when an eh_elf is ready, and the
 * caller then refreshes its spaces.  Only objects with a build-id are
 * compiled.  A failed compilation is not retried in the same run.  Each
 * compiles into a directory of its own in the cache (a temporary of
 * runtime/trusted_path.h, locked while it runs; a killed run's is removed
 * by the next), whose eh_elf is then renamed into the cache: a link in the
 * cache is replaced, never written through.
 */
#ifndef DWCHECK_PROFILE_COMPILE_QUEUE_H
#define DWCHECK_PROFILE_COMPILE_QUEUE_H

#include <stdint.h>

#include "runtime/dwunwind.h"

enum compile_policy { COMPILE_AUTO, COMPILE_ALWAYS, COMPILE_NEVER };

struct compile_queue;

/* A queue that compiles into CACHE_DIR (profile/cache_dir: created if
 * missing) with the dwcompile program DWCOMPILE.  NULL when out of memory
 * or when CACHE_DIR is not trusted (then nothing is compiled). */
struct compile_queue *compile_queue_new(const char *cache_dir, const char *dwcompile, enum compile_policy policy);

/* The DWARF fallback took a step at PC in SPACE. */
void compile_queue_note_fallback(struct compile_queue *q, struct dwu_space *space, uint64_t pc);

/* Reap finished compilations and start the next; returns how many eh_elfs
 * became ready since the last call. */
int compile_queue_poll(struct compile_queue *q);

/* Wait for every compilation started or queued; returns how many eh_elfs
 * became ready. */
int compile_queue_wait(struct compile_queue *q);

struct compile_stats {
    unsigned compiled, failed, pending;
};
void compile_queue_stats(const struct compile_queue *q, struct compile_stats *st);

void compile_queue_free(struct compile_queue *q);

#endif
