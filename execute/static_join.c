/* SPDX-License-Identifier: Apache-2.0 */
#include "static_join.h"

#include <time.h>

#include "verify/audit/check.h"

/* The records of one object, in the audit's callback. */
struct join {
    struct run_result *r;
    uint32_t object;
};

/* The audit's verdict column for a witness's column. */
static unsigned verdict_column(int column)
{
    return column == RUN_COLUMN_CFA || column == ABI_RSP ? CHECK_COLUMN_CFA : (unsigned)column;
}

static enum run_static of_verdict(uint8_t v)
{
    return v == RULE_FAILS ? RUN_STATIC_FAILS : v == RULE_HOLDS ? RUN_STATIC_HOLDS : RUN_STATIC_UNDECIDED;
}

/* The row's verdict: FAILS when a rule fails, else UNDECIDED when one is, else HOLDS. */
static enum run_static row_verdict(const struct check_at *at)
{
    enum run_static v = RUN_STATIC_HOLDS;
    for (unsigned c = 0; c <= CHECK_COLUMN_CFA; c++) {
        if (at->verdict[c] == RULE_FAILS)
            return RUN_STATIC_FAILS;
        if (at->verdict[c] == RULE_UNDECIDED)
            v = RUN_STATIC_UNDECIDED;
    }
    return v;
}

static void at_address(void *arg, const struct check_at *at)
{
    struct join *j = arg;
    if (!at->insn)
        return;
    struct run_address *a = run_result_find(j->r, j->object, at->insn->addr);
    if (!a || !a->executions)
        return;
    if (at->what != CHECK_AT_DECIDED)
        a->static_verdict = RUN_STATIC_NOT_JUDGED;
    else if (a->refuted)
        a->static_verdict = of_verdict(at->verdict[verdict_column(a->witness.column)]);
    else
        a->static_verdict = row_verdict(at);
}

size_t static_join(struct run_result *r)
{
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (uint32_t object = 0; object < r->nobjects; object++) {
        int checked = 0;
        for (size_t i = 0; i < r->nslots && !checked; i++)
            checked = r->slots[i].object == object && r->slots[i].executions;
        if (!checked)
            continue;
        struct join j = {r, object};
        struct check_options opt = {CHECK_PROVE_EXPRESSIONS, CHECK_PROVE_TIMEOUT_MS, at_address, &j, 0};
        struct check_result audit;
        int not_elf;
        char err[512];
        r->objects_audited++;
        if (check_file(r->objects[object], &opt, &audit, &not_elf, err, sizeof err) != 0) {
            r->objects_audited--;
            if (run_result_not_audited(r, object, err) != 0)
                r->join_out_of_memory = 1;
            continue;
        }
        check_result_release(&audit);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    r->join_seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    size_t contradictions = 0;
    for (size_t i = 0; i < r->nslots; i++)
        if (r->slots[i].refuted && r->slots[i].static_verdict == RUN_STATIC_HOLDS)
            contradictions++;
    return contradictions;
}
