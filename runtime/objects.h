/*
 * objects: the code objects loaded in this process, and their unwinders.
 *
 * Built from dl_iterate_phdr on first use and again when a lookup misses
 * after objects were loaded or unloaded.  Each executable segment records
 * its load bias, its eh_elf's entry point (found by eh_elf_find), and
 * otherwise where its .eh_frame_hdr is, for the DWARF fallback.  What the object's program headers point at is
 * read only inside its loaded segments.
 */
#ifndef DWUNWIND_OBJECTS_H
#define DWUNWIND_OBJECTS_H

#include <stddef.h>
#include <stdint.h>

#include "dwunwind.h"

struct dwu_object {
    uint64_t lo, hi;                 /* the executable segment, run-time addresses */
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
};

/* The object whose executable segment holds IP, or NULL. */
const struct dwu_object *dwu_object_at(uint64_t ip);

/* Which set of objects dwu_object_at answers from now: the value changes
 * whenever objects are found again (after a dlopen or dlclose), so that a
 * caller may keep objects it looked up for as long as it has not. */
const void *dwu_objects_version(void);

/* How many executable segments are known; *WITH_EH_ELF (may be NULL) of
 * them have an eh_elf.  For tests and diagnostics. */
size_t dwu_object_count(size_t *with_eh_elf);

/* For tests and benchmarks: 0 ignores eh_elfs (every object uses the DWARF
 * fallback), 1 uses them (the default).  Takes effect at the next rebuild,
 * which this call forces. */
void dwu_use_eh_elfs(int use);

#endif
