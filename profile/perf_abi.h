/* SPDX-License-Identifier: Apache-2.0 */
/*
 * perf_abi: the numbers of perf.data's records, for the reader's parts
 * (perf_data, perf_meta, perf_records; internal): the record types, the
 * PERF_SAMPLE_* and PERF_FORMAT_* bits (include/uapi/linux/perf_event.h for
 * the kernel's records, tools/lib/perf/include/perf/event.h for the records
 * perf adds), the header's misc bits, and little-endian loads.  Definitions
 * only: no state, nothing checked here (the callers check every length
 * before they load).
 */
#ifndef DWCHECK_PROFILE_PERF_ABI_H
#define DWCHECK_PROFILE_PERF_ABI_H

#include <stddef.h>
#include <stdint.h>

#include "profile/perf_event.h"

/* The room for why a record is refused (a sentence): WHY arguments hold
 * PERF_WHY_LEN bytes. */
#define PERF_WHY_LEN sizeof(((struct perf_data_stats *)0)->first_malformed)

/* Record types: the kernel's, then perf's own from 64. */
enum {
    REC_MMAP = 1,
    REC_LOST = 2,
    REC_COMM = 3,
    REC_EXIT = 4,
    REC_FORK = 7,
    REC_SAMPLE = 9,
    REC_MMAP2 = 10,
    REC_LOST_SAMPLES = 13,
    REC_USER_TYPE_START = 64,
    REC_HEADER_ATTR = 64,
    REC_HEADER_EVENT_TYPE = 65,
    REC_HEADER_TRACING_DATA = 66,
    REC_HEADER_BUILD_ID = 67,
    REC_FINISHED_ROUND = 68,
    REC_AUXTRACE = 71,
    REC_EVENT_UPDATE = 78,
    REC_HEADER_FEATURE = 80,
    REC_COMPRESSED = 81,
};

/* perf_event_attr.sample_type bits, in the order the fields appear. */
enum {
    SAMPLE_IP = 1u << 0,
    SAMPLE_TID = 1u << 1,
    SAMPLE_TIME = 1u << 2,
    SAMPLE_ADDR = 1u << 3,
    SAMPLE_READ = 1u << 4,
    SAMPLE_CALLCHAIN = 1u << 5,
    SAMPLE_ID = 1u << 6,
    SAMPLE_CPU = 1u << 7,
    SAMPLE_PERIOD = 1u << 8,
    SAMPLE_STREAM_ID = 1u << 9,
    SAMPLE_RAW = 1u << 10,
    SAMPLE_BRANCH_STACK = 1u << 11,
    SAMPLE_REGS_USER = 1u << 12,
    SAMPLE_STACK_USER = 1u << 13,
    SAMPLE_WEIGHT = 1u << 14,
    SAMPLE_DATA_SRC = 1u << 15,
    SAMPLE_IDENTIFIER = 1u << 16,
    SAMPLE_TRANSACTION = 1u << 17,
    SAMPLE_REGS_INTR = 1u << 18,
    SAMPLE_PHYS_ADDR = 1u << 19,
    SAMPLE_AUX = 1u << 20,
    SAMPLE_CGROUP = 1u << 21,
    SAMPLE_DATA_PAGE_SIZE = 1u << 22,
    SAMPLE_CODE_PAGE_SIZE = 1u << 23,
    SAMPLE_WEIGHT_STRUCT = 1u << 24,
};

/* The fields of the sample_id trailer that sample_id_all appends to every
 * other record (TID, TIME, ID, STREAM_ID, CPU, IDENTIFIER, in that order). */
#define SAMPLE_ID_TRAILER \
    (SAMPLE_TID | SAMPLE_TIME | SAMPLE_ID | SAMPLE_STREAM_ID | SAMPLE_CPU | SAMPLE_IDENTIFIER)

/* perf_event_attr.read_format bits (PERF_FORMAT_*). */
enum {
    READ_TOTAL_TIME_ENABLED = 1u << 0,
    READ_TOTAL_TIME_RUNNING = 1u << 1,
    READ_ID = 1u << 2,
    READ_GROUP = 1u << 3,
    READ_LOST = 1u << 4,
};

/* branch_sample_type bits that add words to a sample's branch stack. */
#define BRANCH_HW_INDEX (1ull << 17)
#define BRANCH_COUNTERS (1ull << 19)

/* perf_event_header.misc bits. */
#define MISC_CPUMODE_MASK 7u
#define MISC_KERNEL 1u
#define MISC_MMAP_DATA (1u << 13)    /* MMAP: not executable */
#define MISC_COMM_EXEC (1u << 13)
#define MISC_MMAP_BUILD_ID (1u << 14) /* MMAP2: a build-id instead of the inode */
#define MISC_BUILD_ID_SIZE (1u << 15) /* build_id_event: the size byte is valid */

#define PERF_HEADER_SIZE 8           /* struct perf_event_header */

static inline uint16_t get16(const uint8_t *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t get64(const uint8_t *p)
{
    return get32(p) | (uint64_t)get32(p + 4) << 32;
}

static inline uint32_t record_type(const uint8_t *rec)
{
    return get32(rec);
}

static inline uint16_t record_misc(const uint8_t *rec)
{
    return get16(rec + 4);
}

#endif
