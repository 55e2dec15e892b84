/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sample_unwind: a sample's call stack — the kernel frames of its recorded
 * callchain, as recorded, then its user stack unwound from the registers
 * and the stack copy perf took (REGS_USER, STACK_USER) in the process's
 * address space.
 *
 * The user walk is dwu_space_step frame by frame: the first frame is
 * interrupted (its IP exact), each caller's is the return address; memory
 * is read from the stack copy only.  Each frame records where its caller's
 * row came from (DWU_FLAG_SYNTHESISED, DWU_FLAG_UNCHECKED; or the DWARF
 * fallback), and the walk records why it stopped.
 */
#ifndef DWCHECK_PROFILE_SAMPLE_UNWIND_H
#define DWCHECK_PROFILE_SAMPLE_UNWIND_H

#include <stdint.h>

#include "profile/perf_data.h"
#include "runtime/dwunwind.h"

/* perf's default bound on a call stack (kernel.perf_event_max_stack). */
#define SAMPLE_MAX_FRAMES 127

/* How a frame's caller was found. */
enum frame_source {
    FRAME_KERNEL,           /* a kernel frame, as recorded */
    FRAME_EH_ELF,           /* the object's eh_elf: DWARF proved right, or compiled from DWARF */
    FRAME_UNCHECKED,        /* the eh_elf's row: DWARF the audit could not check */
    FRAME_SYNTHESISED,      /* the eh_elf's row: synthesised from the code */
    FRAME_DWARF,            /* the DWARF fallback interpreted the object's .eh_frame */
    FRAME_LAST,             /* the outermost frame found: no step from it */
    FRAME_SOURCES
};

struct sample_frame {
    uint64_t ip;            /* the sample's IP, or a return address */
    int exact;              /* IP is where the frame was interrupted (the first user frame, or
                               below a signal frame): its own row is at IP, not IP - 1 */
    enum frame_source source;
};

/* Why the user walk stopped. */
enum stop_reason {
    STOP_END,               /* the outermost frame: the return address is undefined */
    STOP_NO_USER,           /* no user registers or stack (a kernel thread) */
    STOP_NO_OBJECT,         /* an IP in no mapping */
    STOP_NO_TABLE,          /* an IP in a mapping without unwind information */
    STOP_NO_ROW,            /* no row covers the IP */
    STOP_MEMORY,            /* a read outside the stack copy */
    STOP_BAD_RULE,          /* a rule that cannot be evaluated, or a register not known */
    STOP_LOOP,              /* the stack pointer did not move towards the caller */
    STOP_MAX,               /* SAMPLE_MAX_FRAMES reached */
    STOP_REASONS
};

/* A sentence for a stop_reason. */
const char *sample_stop_reason_text(enum stop_reason r);

/* The frames of sample S in SPACE into FRAMES (at most SAMPLE_MAX_FRAMES);
 * returns how many, and *STOP. */
int sample_unwind(struct dwu_space *space, const struct perf_sample *s, struct sample_frame *frames,
                  enum stop_reason *stop);

/* Ask for the memory sample_unwind(SPACE, S) reads first, without waiting
 * for it (dwu_space_prefetch): called as soon as S is read, before the
 * work left on the previous sample, it lets that work overlap S's cache
 * misses.  SPACE may be NULL (then nothing is asked for). */
void sample_prefetch(const struct dwu_space *space, const struct perf_sample *s);

#endif
