/* SPDX-License-Identifier: Apache-2.0 */
/*
 * expression_kind: families of expression rules (see the header).
 */
#include "expression_kind.h"

#include "semantics/abi.h"
#include "semantics/dwarf_constants.h"
#include "semantics/dwarf_expr.h"
#include "semantics/unwind_limits.h"

enum expression_kind expression_kind_of(const struct unwind_rule *rule, int is_cfa, int signal_frame)
{
    if (signal_frame)
        return EXPR_SIGNAL;
    struct dwarf_op ops[UNWIND_EXPR_MAX_OPS];
    const char *error;
    int n = dwarf_expr_decode(rule->expr, rule->expr_len, 8, ops, UNWIND_EXPR_MAX_OPS, &error);
    if (n <= 0)
        return EXPR_OTHER;
    int reads_rip = 0, derefs_rsp = 0, rounds = 0;
    for (int i = 0; i < n; i++) {
        uint8_t o = ops[i].opcode;
        reads_rip |= o == DW_OP_breg0 + ABI_RA;
        derefs_rsp |= o == DW_OP_breg0 + ABI_RSP && i + 1 < n && ops[i + 1].opcode == DW_OP_deref;
        rounds |= o == DW_OP_and;
    }
    if (is_cfa && reads_rip)
        return EXPR_PLT;
    if (ops[0].opcode == DW_OP_breg0 + ABI_RBP)
        return EXPR_DRAP;
    if (derefs_rsp)
        return EXPR_PERLASM;
    return rounds ? EXPR_REALIGN : EXPR_OTHER;
}

const char *expression_kind_name(enum expression_kind kind)
{
    static const char *const names[EXPRESSION_KINDS] = {"signal", "plt", "drap", "perlasm", "realign", "other"};
    return kind < EXPRESSION_KINDS ? names[kind] : "?";
}
