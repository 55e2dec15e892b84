/* SPDX-License-Identifier: Apache-2.0 */
/*
 * counterexample: texts of a counterexample (see the header).
 */
#include "counterexample.h"

#include <stdio.h>

#include "semantics/dwarf_expr.h"

const char *counterexample_what(const struct counterexample *cx)
{
    return cx->what == CX_CFA ? "cfa" : cx->what == CX_VALUE ? "value" : "address";
}

void counterexample_format(char *buf, size_t size, const struct counterexample *cx)
{
    size_t n = 0;
#define OUT(...) do { int k_ = snprintf(buf + n, size > n ? size - n : 0, __VA_ARGS__); \
                      if (k_ > 0) n += (size_t)k_; } while (0)
    if (size)
        buf[0] = '\0';
    for (unsigned i = 0; i < cx->nregs; i++) {
        const char *name = dwarf_reg_name(cx->reg[i]);
        OUT("%s%s=0x%llx", i ? ", " : "", name ? name : "?", (unsigned long long)cx->reg_value[i]);
    }
    for (unsigned i = 0; i < cx->nwords; i++)
        OUT("%s[0x%llx]=0x%llx", i || cx->nregs ? ", " : "", (unsigned long long)cx->word_addr[i],
            (unsigned long long)cx->word_value[i]);
    if (cx->nregs + cx->nwords == 0)
        OUT("CFA=0x%llx", (unsigned long long)cx->cfa);
    const char *col = dwarf_reg_name(cx->column);
    col = col ? col : "?";
    switch (cx->what) {
    case CX_CFA:
        OUT(": the rule gives CFA=0x%llx, the code 0x%llx", (unsigned long long)cx->rule,
            (unsigned long long)cx->code);
        break;
    case CX_VALUE:
        OUT(": the rule gives %s=0x%llx, its value on entry is 0x%llx", col, (unsigned long long)cx->rule,
            (unsigned long long)cx->code);
        break;
    default:
        if (cx->has_code)
            OUT(": the rule reads %s from 0x%llx, the code saved it at 0x%llx", col,
                (unsigned long long)cx->rule, (unsigned long long)cx->code);
        else
            OUT(": the rule reads %s from 0x%llx, where the code did not save it", col,
                (unsigned long long)cx->rule);
        break;
    }
#undef OUT
}
