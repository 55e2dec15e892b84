/* SPDX-License-Identifier: Apache-2.0 */
/*
 * perf_order: perf's ordered-events queue, the order in which `perf script`
 * sees a recording's timed records.
 *
 * perf queues each timed record and, at each FINISHED_ROUND, hands on those
 * no later than the round before ended, by time, and in arrival order among
 * equal times; at the end of the input, all.  (When to release is
 * perf_data's: it follows perf's rounds.)  Records wait here in arrival
 * order; a release takes those due, sorts them once — they come as a few
 * runs already in time order, one per CPU's buffer, so a natural merge sort
 * does it in a pass or two over memory read in order — and hands them out
 * one by one.
 *
 * Ownership: the queue owns the records' OWNED copies while it holds them
 * and hands them to the caller with the record; perf_order_free frees what
 * is left.
 */
#ifndef DWPERF_PERF_ORDER_H
#define DWPERF_PERF_ORDER_H

#include <stddef.h>
#include <stdint.h>

/* One record of the input: LEN bytes at REC, which OWNED (or NULL) holds
 * when it is a copy. */
struct perf_record {
    const uint8_t *rec;
    size_t len;
    uint8_t *owned;
    uint64_t time, seq;            /* set by perf_order_push */
};

struct perf_order {
    struct perf_record *waiting;   /* in arrival order */
    size_t n_waiting, cap_waiting;
    struct perf_record *ready;     /* released, sorted: READY[NEXT_READY, N_READY) to hand out */
    struct perf_record *scratch;   /* the sort's other buffer */
    size_t n_ready, next_ready, cap_ready;
    uint64_t seq;
};

/* Queue R, whose time is TIME.  Returns 0, or -1 when out of memory (R is
 * then not queued; its copy is still the caller's). */
int perf_order_push(struct perf_order *q, const struct perf_record *r, uint64_t time);

/* Release the waiting records whose time is at most LIMIT: they are handed
 * out next, in order.  Call when none released before is left.  Returns 0,
 * or -1 when out of memory (nothing is released). */
int perf_order_release(struct perf_order *q, uint64_t limit);

/* The next released record in *OUT: 1, or 0 when none is left. */
int perf_order_next(struct perf_order *q, struct perf_record *out);

/* How many records wait, not yet released. */
static inline size_t perf_order_waiting(const struct perf_order *q)
{
    return q->n_waiting;
}

/* Free the queue and the copies of the records it still holds. */
void perf_order_free(struct perf_order *q);

#endif
