/* SPDX-License-Identifier: Apache-2.0 */
/*
 * perf_data: a reader of the perf.data format that `perf record` writes
 * (tools/perf/Documentation/perf.data-file-format.txt in the Linux sources),
 * file mode and pipe mode, for x86_64 recordings.
 *
 * It yields the records dwperf needs, in the order `perf script` shows them,
 * decoded into plain structs (profile/perf_event.h): SAMPLE (with its callchain, REGS_USER and
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

#include "profile/perf_event.h"

struct perf_data;

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
