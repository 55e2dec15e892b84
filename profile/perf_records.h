/* SPDX-License-Identifier: Apache-2.0 */
/*
 * perf_records: the decoding of one perf.data record, for perf_data
 * (internal): its time as perf's ordered-events queue sees it, and its
 * fields into a struct perf_event (the record layouts: perf_abi.h).
 *
 * A record here is its bytes and their length (the header's size, already
 * checked to be at least 8 and to lie inside the input).  Every field is
 * checked against that length before it is read; a record that does not
 * hold what its type and attribute say is refused with a sentence in WHY
 * (PERF_WHY_LEN bytes).  Decoded pointers point into the record.
 */
#ifndef DWCHECK_PROFILE_PERF_RECORDS_H
#define DWCHECK_PROFILE_PERF_RECORDS_H

#include <stddef.h>
#include <stdint.h>

#include "profile/perf_abi.h"
#include "profile/perf_event.h"

struct perf_meta;

/* The attribute REC belongs to (by its sample id when there are several
 * events), or NULL with WHY. */
const struct perf_attr *perf_record_attr(const struct perf_meta *m, const uint8_t *rec, size_t len,
                                         char *why);

/*
 * The time perf's ordered-events queue files REC (a kernel record) under:
 * 1 with *TIME; 0 when it has none (no TIME field, no sample_id_all, or 0
 * or ~0 as synthesized records carry: perf delivers those at once, ahead of
 * the queue); -1 with WHY when REC is malformed.
 */
int perf_record_time(const struct perf_meta *m, const uint8_t *rec, size_t len, uint64_t *time,
                     char *why);

/*
 * Decode the kernel record REC into *EV: 1; 0 for a record of a kind the
 * reader does not return (its LOST counts are added to *LOST); -1 with WHY
 * when malformed.
 */
int perf_record_decode(const struct perf_meta *m, const uint8_t *rec, size_t len, struct perf_event *ev,
                       uint64_t *lost, char *why);

#endif
