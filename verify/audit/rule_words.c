/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rule_words: unwind rules in plain words (see the header).
 */
#include "rule_words.h"

#include <stdio.h>
#include <stdlib.h>

#include "semantics/abi.h"
#include "semantics/dwarf_expr.h"
#include "semantics/print/table_print.h"

/* RULE's expression as readelf prints it ("DW_OP_breg7 (rsp): 16") into
 * BUF, when it decodes and is short enough to read in a line; else
 * "a DWARF expression" (NAME, its notation, after it in parentheses). */
static void expression_words(char *buf, size_t size, const struct unwind_rule *rule, const char *name)
{
    struct dwarf_op ops[8];
    const char *error = NULL;
    int n = rule->expr ? dwarf_expr_decode(rule->expr, rule->expr_len, 8, ops, 8, &error) : -1;
    char *text = NULL;
    size_t len = 0;
    FILE *out = n > 0 ? open_memstream(&text, &len) : NULL;
    if (out) {
        dwarf_expr_print(out, ops, (size_t)n);
        if (fclose(out) != 0)
            len = 0;
    }
    if (text && len && len <= 48)
        snprintf(buf, size, "%s", text);
    else
        snprintf(buf, size, "a DWARF expression (%s)", name);
    free(text);
}

static const char *reg_name(unsigned reg)
{
    const char *name = dwarf_reg_name(reg);
    return name ? name : "?";
}

/* The CFA rule's words: "the CFA is rsp+8". */
static void cfa_words(char *buf, size_t size, const struct unwind_rule *rule, int code)
{
    char text[48];
    switch (rule->kind) {
    case CFA_RULE_REG_OFFSET:
        table_print_cfa_rule(text, sizeof text, rule);
        snprintf(buf, size, "the CFA is %s", text);
        return;
    case CFA_RULE_EXPRESSION:
        expression_words(text, sizeof text, rule, "exp");
        snprintf(buf, size, "the CFA is what %s computes", text);
        return;
    case CFA_RULE_UNSET:
        snprintf(buf, size, "no CFA rule yet");
        return;
    default:
        snprintf(buf, size, code ? "synthesis does not know the CFA here" : "the CFA is unknown");
        return;
    }
}

/* A saved value's words, the subject being "rbx's entry value" or "the
 * return address": "... is saved at CFA-16". */
static int saved_words(char *buf, size_t size, const char *subject, const struct unwind_rule *rule)
{
    char expr[64];
    switch (rule->kind) {
    case REG_RULE_OFFSET:
        snprintf(buf, size, "%s is saved at CFA%+lld", subject, (long long)rule->offset);
        return 1;
    case REG_RULE_VAL_OFFSET:
        snprintf(buf, size, "%s is CFA%+lld", subject, (long long)rule->offset);
        return 1;
    case REG_RULE_REGISTER:
        snprintf(buf, size, "%s is in %s", subject, reg_name(rule->reg));
        return 1;
    case REG_RULE_EXPRESSION:
        expression_words(expr, sizeof expr, rule, "exp");
        snprintf(buf, size, "%s is saved where %s points", subject, expr);
        return 1;
    case REG_RULE_VAL_EXPRESSION:
        expression_words(expr, sizeof expr, rule, "vexp");
        snprintf(buf, size, "%s is what %s computes", subject, expr);
        return 1;
    default:
        return 0;
    }
}

/* The words every rule of COLUMN starts from: the CFA's (CODE: what the
 * code does) or a saved value's into BUF, returning 1; else 0 with the
 * column's NAME ("rbx", "the return address") for the caller's words. */
static int column_words(char *buf, size_t size, int column, const struct unwind_rule *rule, int code,
                        const char **name)
{
    if (column < 0) {
        cfa_words(buf, size, rule, code);
        return 1;
    }
    int ra = column == ABI_RA;
    *name = ra ? "the return address" : reg_name((unsigned)column);
    char subject[48];
    snprintf(subject, sizeof subject, ra ? "%s" : "%s's entry value", *name);
    return saved_words(buf, size, subject, rule);
}

void rule_words_table(char *buf, size_t size, int column, const struct unwind_rule *rule)
{
    const char *name;
    if (column_words(buf, size, column, rule, 0, &name))
        return;
    int ra = column == ABI_RA;
    switch (rule->kind) {
    case REG_RULE_UNREFERENCED:
        snprintf(buf, size, "%s is not described: unwinders take it as unchanged", name);
        return;
    case REG_RULE_SAME_VALUE:
        snprintf(buf, size, "%s keeps its value (same value)", name);
        return;
    case REG_RULE_UNDEFINED:
        snprintf(buf, size, ra ? "the return address is undefined: the stack ends here"
                               : "%s is undefined: unwinders cannot restore it", name);
        return;
    default:
        snprintf(buf, size, "%s: no rule known", name);
        return;
    }
}

void rule_words_code(char *buf, size_t size, int column, const struct unwind_rule *rule, const char *value)
{
    const char *name;
    if (column_words(buf, size, column, rule, 1, &name))
        return;
    int ra = column == ABI_RA;
    switch (rule->kind) {
    case REG_RULE_UNREFERENCED:
    case REG_RULE_SAME_VALUE:
        snprintf(buf, size, "%s still holds its entry value", name);
        return;
    case REG_RULE_UNDEFINED:
        snprintf(buf, size, ra ? "no caller: the stack ends here" : "%s's entry value is lost", name);
        return;
    default:
        if (value && value[0])
            snprintf(buf, size, "%s holds %s; its own entry value is saved nowhere synthesis knows", name, value);
        else
            snprintf(buf, size, ra ? "synthesis does not know where %s is here"
                                   : "synthesis does not know where %s's entry value is here", name);
        return;
    }
}

void rule_words_change(char *buf, size_t size, int column, const struct unwind_rule *before,
                       const struct unwind_rule *after)
{
    buf[0] = '\0';
    if (column < 0) {
        if (before->kind != CFA_RULE_REG_OFFSET || after->kind != CFA_RULE_REG_OFFSET)
            return;
        if (before->reg == after->reg && after->reg == ABI_RSP && after->offset != before->offset) {
            long long d = (long long)(after->offset - before->offset);
            snprintf(buf, size, "moved rsp %s %lld", d > 0 ? "down" : "up", d > 0 ? d : -d);
        } else if (before->reg != after->reg) {
            snprintf(buf, size, "made %s the CFA's register", reg_name(after->reg));
        }
        return;
    }
    const char *name = column == ABI_RA ? "the return address" : reg_name((unsigned)column);
    int was_in_place = before->kind == REG_RULE_UNREFERENCED || before->kind == REG_RULE_SAME_VALUE;
    int now_in_place = after->kind == REG_RULE_UNREFERENCED || after->kind == REG_RULE_SAME_VALUE;
    if (after->kind == REG_RULE_OFFSET && (was_in_place || before->kind != REG_RULE_OFFSET))
        snprintf(buf, size, "saved %s at CFA%+lld", name, (long long)after->offset);
    else if (now_in_place && !was_in_place)
        snprintf(buf, size, "restored %s", name);
}
