/* SPDX-License-Identifier: Apache-2.0 */
#include "static_join.h"

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
static enum run_static row_verdict(const uint8_t *verdict)
{
    enum run_static v = RUN_STATIC_HOLDS;
    for (unsigned c = 0; c <= CHECK_COLUMN_CFA; c++) {
        if (verdict[c] == RULE_FAILS)
            return RUN_STATIC_FAILS;
        if (verdict[c] == RULE_UNDECIDED)
            v = RUN_STATIC_UNDECIDED;
    }
    return v;
}

/* The static verdict of record A from what the audit decided there. */
static void join_at(struct run_address *a, const struct audit_select_at *at)
{
    if (at->what != CHECK_AT_DECIDED)
        a->static_verdict = RUN_STATIC_NOT_JUDGED;
    else if (a->refuted)
        a->static_verdict = of_verdict(at->verdict[verdict_column(a->witness.column)]);
    else
        a->static_verdict = row_verdict(at->verdict);
}

size_t static_join(struct run_result *r, struct audit_select *as)
{
    for (uint32_t object = 0; object < r->nobjects; object++) {
        int checked = 0;
        for (size_t i = 0; i < r->nslots && !checked; i++)
            checked = r->slots[i].object == object && r->slots[i].executions;
        if (!checked)
            continue;
        const struct audit_select_object *o = audit_select_object(as, object);
        if (!o)
            continue;
        r->objects_audited++;
        for (size_t i = 0; i < r->nslots; i++) {
            struct run_address *a = &r->slots[i];
            const struct audit_select_at *at;
            if (a->object == object && a->executions && (at = audit_select_at(o, a->addr)))
                join_at(a, at);
        }
    }
    r->join_seconds = as->seconds;
    size_t contradictions = 0;
    for (size_t i = 0; i < r->nslots; i++)
        if (r->slots[i].refuted && r->slots[i].static_verdict == RUN_STATIC_HOLDS)
            contradictions++;
    return contradictions;
}
