/* SPDX-License-Identifier: Apache-2.0 */
/*
 * perf_data: a reader of the perf.data format that `perf record` writes
 * (tools/perf/Documentation/perf.data-file-format.txt in the Linux sources),
 * file mode and pipe mode, for x86_64 recordings.
 *
 * It yields the records dwperf needs, in the order `perf script` shows them,
 * decoded into plain structs: SAMPLE (with its callchain, REGS_USER and
 * STACK_USER), MMAP and MMAP2, COMM, FORK and EXIT.  Other record types are
 * counted and skipped.  The attributes (one per event) come from the file
 * header's attribute section or, in pipe mode, from HEADER_ATTR records;
 * event names from the EVENT_DESC feature (a HEADER_FEATURE record in pipe
 * mode), EVENT_UPDATE records or HEADER_EVENT_TYPE records; build-ids from
 * the BUILD_ID feature and from HEADER_BUILD_ID records.
 *
 * The order is that of perf's ordered-events queue (perf_data.c says it
 * exactly): records with a time are queued, and each FINISHED_ROUND
 * releases, in time order (records of equal time in the order read), those
 * no later than the largest time queued before the previous round; the end
 * of the input releases the rest.  Records without a time (the COMM and
 * MMAP records perf synthesizes at the start carry 0) are returned as they
 * are read, ahead of the queue.  Across rounds the order is not sorted: a
 * record that comes after its round was released is returned late, as perf
 * script prints it.
 *
 * Bad input never crashes or hangs the reader: every size read from the
 * input is checked against what holds it before it is used.  A record that
 * is malformed inside a well-formed header (a sample shorter than its
 * sample_type says, a string without its terminator) is skipped and counted
 * (perf_data_stats.malformed) with the first reason kept.  A bad file
 * header fails perf_data_open; a broken record header (a size of 0, one
 * running past the data, a stream that ends inside a record) ends the
 * input: perf_data_next returns what was queued before it, then -1
 * (perf_data_error says why).  Compressed recordings (perf record -z) end
 * with such an error.
 *
 * Memory: a file (file or pipe mode) is mapped read-only and records point
 * into the mapping; records read from a stream, and records that are not
 * 8-aligned (pipe-mode files have them), are copied.  Memory is bounded by
 * the input's size.  The queue holds the records of the last two rounds; a
 * recording without FINISHED_ROUNDs is queued whole.
 *
 * Pointers in an event (strings, callchain, registers, stack bytes, the
 * attribute) stay valid until the next call of perf_data_next on the same
 * reader.
 */
#ifndef DWCHECK_PROFILE_PERF_DATA_H
#define DWCHECK_PROFILE_PERF_DATA_H

#include <stddef.h>
#include <stdint.h>

struct perf_data;

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

/*
 * Open PATH ("-" reads standard input: pipe mode, or a file piped in).
 * Returns the reader, or NULL with a sentence in ERR (ERRLEN bytes) naming
 * what is wrong ("not a perf.data file", "truncated header", ...).  The
 * caller frees it with perf_data_close.
 */
struct perf_data *perf_data_open(const char *path, char *err, size_t errlen);

/* The same over SIZE bytes at DATA (a file-mode or pipe-mode recording),
 * which the caller keeps unchanged until perf_data_close. */
struct perf_data *perf_data_open_memory(const void *data, size_t size, char *err, size_t errlen);

/* The next event in perf's order into *EV: 1, or 0 at the end, or -1 when
 * the input is broken from here on (perf_data_error says why). */
int perf_data_next(struct perf_data *pd, struct perf_event *ev);

/* Why perf_data_next returned -1 (or ""). */
const char *perf_data_error(const struct perf_data *pd);

const struct perf_data_stats *perf_data_stats(const struct perf_data *pd);

/* The attributes: *N of them (in pipe mode, those read so far; the array
 * may move when perf_data_next reads another HEADER_ATTR). */
const struct perf_attr *perf_data_attrs(const struct perf_data *pd, size_t *n);

/* The build-id recorded for FILENAME in process PID (the BUILD_ID feature
 * and HEADER_BUILD_ID records; perf records kernel and user objects with
 * pid -1 for "any"), or NULL.  *LEN receives its length. */
const uint8_t *perf_data_build_id(const struct perf_data *pd, uint32_t pid, const char *filename,
                                  size_t *len);

void perf_data_close(struct perf_data *pd);

#endif
