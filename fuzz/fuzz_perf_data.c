/*
 * fuzz_perf_data: bytes as a perf.data recording (file mode or pipe mode)
 * through perf_data_open_memory and every event perf_data_next returns, with
 * everything an event points to read whole (callchain, stack copy, strings,
 * build-ids) so that the sanitizers see any read past the input; the
 * attributes' names and the build-id lookups too.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "profile/perf_data.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint64_t sink;

static uint64_t touch_event(struct perf_data *pd, const struct perf_event *ev)
{
    uint64_t sum = ev->time;
    size_t len;
    switch (ev->kind) {
    case PERF_EVENT_SAMPLE: {
        const struct perf_sample *s = &ev->u.sample;
        for (uint64_t i = 0; i < s->callchain_nr; i++)
            sum += s->callchain[i];
        for (uint64_t i = 0; i < s->stack_size; i++)
            sum += s->stack[i];
        for (int r = 0; r < PERF_X86_NREGS; r++)
            sum += s->regs[r];
        sum += strlen(s->attr->name);
        break;
    }
    case PERF_EVENT_MMAP: {
        const struct perf_mmap *m = &ev->u.mmap;
        sum += strlen(m->filename);
        for (size_t i = 0; m->build_id && i < m->build_id_len; i++)
            sum += m->build_id[i];
        const uint8_t *id = perf_data_build_id(pd, m->pid, m->filename, &len);
        for (size_t i = 0; id && i < len; i++)
            sum += id[i];
        break;
    }
    case PERF_EVENT_COMM:
        sum += strlen(ev->u.comm.comm);
        break;
    case PERF_EVENT_FORK:
    case PERF_EVENT_EXIT:
        sum += ev->u.task.pid + ev->u.task.ppid;
        break;
    }
    return sum;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[256];
    struct perf_data *pd = perf_data_open_memory(data, size, err, sizeof err);
    if (!pd)
        return 0;
    uint64_t sum = 0;
    struct perf_event ev;
    while (perf_data_next(pd, &ev) > 0)
        sum += touch_event(pd, &ev);
    size_t n;
    const struct perf_attr *attrs = perf_data_attrs(pd, &n);
    for (size_t i = 0; i < n; i++)
        sum += strlen(attrs[i].name);
    sum += strlen(perf_data_error(pd)) + perf_data_stats(pd)->records;
    sink = sum;
    perf_data_close(pd);
    return 0;
}
/* SPDX-License-Identifier: Apache-2.0 */
