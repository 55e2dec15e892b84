/* SPDX-License-Identifier: Apache-2.0 */
/*
 * perf_order: perf's ordered-events queue (see the header).
 */
#include "perf_order.h"

#include <stdlib.h>
#include <string.h>

int perf_order_push(struct perf_order *q, const struct perf_record *r, uint64_t time)
{
    if (q->n_waiting == q->cap_waiting) {
        size_t cap = q->cap_waiting ? 2 * q->cap_waiting : 256;
        struct perf_record *w = realloc(q->waiting, cap * sizeof *w);
        if (!w)
            return -1;
        q->waiting = w;
        q->cap_waiting = cap;
    }
    struct perf_record *to = &q->waiting[q->n_waiting++];
    *to = *r;
    to->time = time;
    to->seq = q->seq++;
    return 0;
}

static int before(const struct perf_record *a, const struct perf_record *b)
{
    return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

/* The end of the run in time order that starts at FROM in A[0, N). */
static size_t run_end(const struct perf_record *a, size_t from, size_t n)
{
    size_t i = from + 1;
    while (i < n && !before(&a[i], &a[i - 1]))
        i++;
    return i;
}

/* Sort A[0, N) by (time, seq), TMP the other buffer of N; returns the one
 * that holds the result.  Each pass merges pairs of adjacent runs. */
static struct perf_record *merge_sort(struct perf_record *a, struct perf_record *tmp, size_t n)
{
    for (;;) {
        size_t runs = 0;
        for (size_t lo = 0; lo < n; runs++) {
            size_t mid = run_end(a, lo, n), hi = mid < n ? run_end(a, mid, n) : n, i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                tmp[k++] = before(&a[j], &a[i]) ? a[j++] : a[i++];
            memcpy(&tmp[k], &a[i], (mid - i) * sizeof *a);
            k += mid - i;
            memcpy(&tmp[k], &a[j], (hi - j) * sizeof *a);
            lo = hi;
        }
        struct perf_record *t = a;
        a = tmp;
        tmp = t;
        if (runs <= 1)
            return a;
    }
}

int perf_order_release(struct perf_order *q, uint64_t limit)
{
    if (q->n_waiting > q->cap_ready) {
        struct perf_record *r = malloc(q->n_waiting * sizeof *r), *s = malloc(q->n_waiting * sizeof *s);
        if (!r || !s) {
            free(r);
            free(s);
            return -1;
        }
        free(q->ready);
        free(q->scratch);
        q->ready = r;
        q->scratch = s;
        q->cap_ready = q->n_waiting;
    }
    size_t kept = 0, n = 0;
    for (size_t i = 0; i < q->n_waiting; i++) {
        if (q->waiting[i].time <= limit)
            q->ready[n++] = q->waiting[i];
        else
            q->waiting[kept++] = q->waiting[i];
    }
    q->n_waiting = kept;
    struct perf_record *sorted = n ? merge_sort(q->ready, q->scratch, n) : q->ready;
    if (sorted != q->ready) {
        q->scratch = q->ready;
        q->ready = sorted;
    }
    q->n_ready = n;
    q->next_ready = 0;
    return 0;
}

int perf_order_next(struct perf_order *q, struct perf_record *out)
{
    if (q->next_ready >= q->n_ready)
        return 0;
    *out = q->ready[q->next_ready++];
    return 1;
}

void perf_order_free(struct perf_order *q)
{
    for (size_t i = 0; i < q->n_waiting; i++)
        free(q->waiting[i].owned);
    for (size_t i = q->next_ready; i < q->n_ready; i++)
        free(q->ready[i].owned);
    free(q->waiting);
    free(q->ready);
    free(q->scratch);
    memset(q, 0, sizeof *q);
}
