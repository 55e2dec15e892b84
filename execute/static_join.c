/* SPDX-License-Identifier: Apache-2.0 */
#include "static_join.h"

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

static void at_address(void *arg, const struct check_at *at)
{
    struct join *j = arg;
    if (!at->insn)
        return;
    struct run_address *a = run_result_find(j->r, j->object, at->insn->addr);
    if (!a || !a->refuted)
        return;
    if (at->what != CHECK_AT_DECIDED) {
        a->static_verdict = RUN_STATIC_NOT_JUDGED;
        return;
    }
    switch (at->verdict[verdict_column(a->witness.column)]) {
    case RULE_FAILS:
        a->static_verdict = RUN_STATIC_FAILS;
        break;
    case RULE_HOLDS:
        a->static_verdict = RUN_STATIC_HOLDS;
        break;
    default:
        a->static_verdict = RUN_STATIC_UNDECIDED;
    }
}

size_t static_join(struct run_result *r)
{
    size_t contradictions = 0;
    for (uint32_t object = 0; object < r->nobjects; object++) {
        int refuted = 0;
        for (size_t i = 0; i < r->nslots && !refuted; i++)
            refuted = r->slots[i].object == object && r->slots[i].refuted;
        if (!refuted)
            continue;
        struct join j = {r, object};
        struct check_options opt = {CHECK_PROVE_EXPRESSIONS, CHECK_PROVE_TIMEOUT_MS, at_address, &j, 0};
        struct check_result audit;
        int not_elf;
        char err[512];
        if (check_file(r->objects[object], &opt, &audit, &not_elf, err, sizeof err) != 0)
            continue;
        check_result_release(&audit);
    }
    for (size_t i = 0; i < r->nslots; i++)
        if (r->slots[i].refuted && r->slots[i].static_verdict == RUN_STATIC_HOLDS)
            contradictions++;
    return contradictions;
}
