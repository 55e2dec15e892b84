/* SPDX-License-Identifier: Apache-2.0 */
/*
 * perf_event: a perf.data recording's events and records as plain structs:
 * an event's attributes, and the records the reader returns (a SAMPLE with
 * its callchain, registers and stack copy, MMAP and MMAP2, COMM, FORK and
 * EXIT), and its counts of what it read.  Types only: profile/perf_data
 * returns them, and its parts beneath it (perf_meta, perf_records) fill
 * them in without reading perf_data.h.
 *
 * Ownership: pointers in an event (strings, callchain, registers, stack
 * bytes, the attribute) point into the reader's input or buffers and stay
 * valid as perf_data.h says.
 */
#ifndef DWCHECK_PROFILE_PERF_EVENT_H
#define DWCHECK_PROFILE_PERF_EVENT_H

#include <stddef.h>
#include <stdint.h>

/* perf's register numbers on x86_64 (arch/x86/include/uapi/asm/perf_regs.h):
 * bit N of sample_regs_user selects register N; a sample's values come in
 * ascending bit order. */
enum perf_reg_x86 {
    PERF_X86_AX = 0, PERF_X86_BX, PERF_X86_CX, PERF_X86_DX, PERF_X86_SI, PERF_X86_DI,
    PERF_X86_BP, PERF_X86_SP, PERF_X86_IP, PERF_X86_FLAGS, PERF_X86_CS, PERF_X86_SS,
    PERF_X86_DS, PERF_X86_ES, PERF_X86_FS, PERF_X86_GS,
    PERF_X86_R8, PERF_X86_R9, PERF_X86_R10, PERF_X86_R11, PERF_X86_R12, PERF_X86_R13,
    PERF_X86_R14, PERF_X86_R15, PERF_X86_NREGS
};

/* One event of the recording (perf_event_attr, the fields used). */
struct perf_attr {
    uint32_t type;
    uint64_t config;
    uint64_t sample_type;          /* PERF_SAMPLE_* */
    uint64_t read_format;
    uint64_t sample_regs_user;
    uint32_t sample_stack_user;
    int sample_id_all;
    const char *name;              /* "cpu-clock", from the event description, else made from type
                                      and config; never NULL */
    uint64_t sample_period;        /* the period, or the frequency when FREQ */
    int freq;
    uint64_t sample_regs_intr;     /* the registers a REGS_INTR sample holds */
    uint64_t branch_sample_type;   /* what a BRANCH_STACK sample holds */
};

/* Which record perf_data_next returned. */
enum perf_event_kind {
    PERF_EVENT_SAMPLE,
    PERF_EVENT_MMAP,               /* MMAP and MMAP2 */
    PERF_EVENT_COMM,
    PERF_EVENT_FORK,
    PERF_EVENT_EXIT,
};

struct perf_sample {
    const struct perf_attr *attr;  /* the event it belongs to */
    uint16_t misc;                 /* the record's misc: PERF_RECORD_MISC_CPUMODE_MASK bits */
    uint64_t ip;
    uint32_t pid, tid;             /* UINT32_MAX when not recorded */
    uint64_t time;                 /* ns; 0 when not recorded */
    uint32_t cpu;                  /* UINT32_MAX when not recorded */
    uint64_t period;               /* the attribute's sample_period when not recorded */
    /* PERF_SAMPLE_CALLCHAIN: as recorded, context markers (PERF_CONTEXT_*) included;
     * 8-aligned.  perf record --call-graph dwarf sets exclude_callchain_user: a
     * kernel-mode sample's chain is PERF_CONTEXT_KERNEL then kernel addresses only,
     * a user-mode sample's chain is empty (nr 0); the user frames are left to the
     * unwinder (REGS_USER, STACK_USER). */
    uint64_t callchain_nr;
    const uint64_t *callchain;
    /* PERF_SAMPLE_REGS_USER: abi 0 means none were taken (a kernel thread). */
    uint64_t regs_abi;
    uint64_t regs_mask;            /* the attribute's sample_regs_user; 0 when abi is 0 */
    uint64_t regs[PERF_X86_NREGS]; /* by perf_reg_x86 number; set where regs_mask has the bit */
    /* PERF_SAMPLE_STACK_USER: the copy of the stack from regs[SP] upwards. */
    const uint8_t *stack;
    uint64_t stack_size;           /* bytes valid in STACK: the record's dyn_size, at most the
                                      size it copied (the kernel copies sample_stack_user bytes,
                                      or fewer near the stack's top, and says in dyn_size how
                                      many it could read); 0 when nothing was copied */
};

struct perf_mmap {
    uint32_t pid, tid;
    uint64_t start, len, pgoff;    /* run-time addresses, file offset mapped at START */
    int mmap2;                     /* an MMAP2 record */
    uint16_t misc;                 /* the record's misc: cpumode (kernel maps), MMAP_DATA ... */
    uint32_t prot, flags;          /* MMAP2 only: PROT_*, MAP_*; 0 for MMAP */
    int executable;                /* MMAP2: prot has PROT_EXEC, or a kernel map (perf synthesizes
                                      the kernel's with prot 0 under --buildid-mmap);
                                      MMAP: !(misc & PERF_RECORD_MISC_MMAP_DATA) */
    const char *filename;
    const uint8_t *build_id;       /* MMAP2 with PERF_RECORD_MISC_MMAP_BUILD_ID, else the BUILD_ID
                                      feature's entry for (pid, filename) if any, else NULL.  In
                                      pipe mode HEADER_BUILD_ID records (perf inject -b) may come
                                      after the MMAP: ask perf_data_build_id when needed */
    size_t build_id_len;
};

struct perf_comm {
    uint32_t pid, tid;
    const char *comm;
    int exec;                      /* PERF_RECORD_MISC_COMM_EXEC: the process exec'd */
};

struct perf_task {                 /* FORK and EXIT */
    uint32_t pid, ppid, tid, ptid;
};

struct perf_event {
    enum perf_event_kind kind;
    uint64_t time;                 /* the sample's time, or the record's sample_id_all time; 0 if none */
    union {
        struct perf_sample sample;
        struct perf_mmap mmap;
        struct perf_comm comm;
        struct perf_task task;
    } u;
};

/* Counts over the records read so far. */
struct perf_data_stats {
    uint64_t records;              /* every record header read */
    uint64_t samples;              /* SAMPLE records returned */
    uint64_t malformed;            /* records skipped as malformed */
    uint64_t unknown;              /* records of types the reader skips */
    uint64_t lost_samples;         /* samples the kernel lost (LOST and LOST_SAMPLES records) */
    char first_malformed[160];     /* why the first malformed record was skipped, or "" */
};

#endif
