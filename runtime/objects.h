/* SPDX-License-Identifier: Apache-2.0 */
/*
 * objects: the code objects loaded in this process, and their unwinders.
 *
 * Two halves, so that a walk is async-signal-safe:
 *
 *   - Finding the object of an address (dwu_objects_at) allocates nothing,
 *     takes no lock and loads nothing: glibc's _dl_find_object (lock-free,
 *     async-signal-safe) says which loaded object holds the address, and a
 *     fixed table of records, filled lock-free and never freed, keeps what
 *     the walk needs of it (its load bias, its .eh_frame_hdr and the
 *     segment that holds it, read from its program headers).  A record is
 *     the object as it is loaded now: keyed by _dl_find_object's answer
 *     (link map, extent, .eh_frame_hdr) and the object's build-id bytes,
 *     so that an object unloaded and another loaded in its place (which
 *     reuses the link map's memory, often the same addresses) gets a
 *     record of its own and never the first one's table or eh_elf.  When
 *     the table is full, the record of an object no longer loaded is
 *     reused.
 *
 *   - Loading eh_elfs (dwu_objects_load_eh_elfs) is not async-signal-safe
 *     (dlopen, files, a lock): it runs when the library is loaded (a
 *     constructor), at dwu_init, and when a test asks.  It publishes the
 *     eh_elfs found by the identity of the object they were compiled from;
 *     records take theirs from there, when made or at the next load.  An
 *     object loaded since is unwound from its .eh_frame until then.
 *
 * What the object's program headers point at is read only inside its
 * loaded segments.
 */
#ifndef DWUNWIND_OBJECTS_H
#define DWUNWIND_OBJECTS_H

#include <stddef.h>
#include <stdint.h>

#include "dwunwind.h"

struct dwu_object {
    uint64_t lo, hi;                 /* the object's addresses (in process: its whole extent) */
    uint64_t bias;                   /* run-time address minus the object's own */
    dwu_eh_elf_step_fn step;         /* the eh_elf, or NULL */
    dwu_eh_elf_trace_fn trace;       /* its simple rows applied to rip, rsp, rbp (dwu_backtrace), or NULL */
    dwu_eh_elf_frame_fn frame;       /* its rows' descriptors (dwu_backtrace's row cache), or NULL */
    /* For the DWARF fallback: where the table is in this process's memory
     * (the loaded object; or, for an address space, its file mapped). */
    const uint8_t *eh_frame_hdr;     /* or NULL */
    const uint8_t *readable_start;   /* the segment that holds it: what the */
    const uint8_t *readable_end;     /* fallback may read (.eh_frame, after it) */
    uint64_t table_bias;             /* where the table's addresses are minus the object's own
                                        (BIAS for a loaded object) */
    struct dwu_row_memo *memo;       /* an address space's: its file's interpreted rows
                                        (row_memo.h), or NULL */
};

/* The object that holds IP as it is loaded now, or NULL.  Async-signal-
 * safe.  The same object loaded the same way gives the same pointer, which
 * stays valid (records are never freed) while the object is loaded; a
 * caller that kept one may ask again to learn whether it still holds IP,
 * and compare generations (below) to know it is still the same object. */
const struct dwu_object *dwu_objects_at(uint64_t ip);

/* Which object O (from dwu_objects_at) describes: a record is reused, for
 * another object, once its own is unloaded and the table is full; what
 * was kept of it before then has another generation.  Async-signal-safe. */
unsigned long dwu_objects_generation(const struct dwu_object *o);

/* Whether O (from dwu_objects_at) can never be unloaded: an object loaded
 * with the program (startup_objects.h).  Its rows need no second look. */
int dwu_objects_permanent(const struct dwu_object *o);

/* Changes whenever what an object unwinds with may have changed (eh_elfs
 * loaded, or turned on or off): rows kept from an older value are dropped.
 * Async-signal-safe. */
unsigned long dwu_objects_version(void);

/* Find and load the eh_elfs of the objects loaded now (see above).  Not
 * async-signal-safe. */
void dwu_objects_load_eh_elfs(void);

/* How many objects are loaded; *WITH_EH_ELF (may be NULL) of them have an
 * eh_elf.  For tests and diagnostics; not async-signal-safe. */
size_t dwu_objects_count(size_t *with_eh_elf);

/* For tests and benchmarks: 0 ignores eh_elfs (every object uses the DWARF
 * fallback), 1 uses them (the default, loading them now).  Not
 * async-signal-safe. */
void dwu_objects_use_eh_elfs(int use);

#endif
