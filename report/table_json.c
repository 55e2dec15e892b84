/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table_json: rules of H as JSON objects.
 */
#include "table_json.h"

#include <stdlib.h>

#include "report/json_string.h"
#include "semantics/dwarf_expr.h"
#include "semantics/print/table_print.h"

static void print_json_expr(FILE *out, const uint8_t *expr, uint32_t len)
{
    fputs(",\"bytes\":\"", out);
    for (uint32_t i = 0; i < len; i++)
        fprintf(out, "%02x", expr[i]);
    fputs("\",\"ops\":", out);
    struct dwarf_op ops[256];
    const char *error = NULL;
    int n = len <= 256 ? dwarf_expr_decode(expr, len, 8, ops, 256, &error) : -1;
    if (n < 0) {
        fputs("null,\"decode_error\":", out);
        json_string_print(out, error ? error : "expression too long");
        return;
    }
    char *text = NULL;
    size_t text_len = 0;
    FILE *mem = open_memstream(&text, &text_len);
    if (!mem) {
        fputs("null", out);
        return;
    }
    dwarf_expr_print(mem, ops, (size_t)n);
    fclose(mem);
    json_string_print(out, text ? text : "");
    free(text);
}

void table_json_rule(FILE *out, const struct unwind_rule *rule, int is_cfa)
{
    char name[16];
    if (is_cfa) {
        switch (rule->kind) {
        case CFA_RULE_REG_OFFSET:
            fprintf(out, "{\"rule\":\"reg_offset\",\"reg\":\"%s\",\"offset\":%lld}",
                    table_print_column_label(rule->reg, name, sizeof name), (long long)rule->offset);
            return;
        case CFA_RULE_EXPRESSION:
            fputs("{\"rule\":\"expression\"", out);
            print_json_expr(out, rule->expr, rule->expr_len);
            fputc('}', out);
            return;
        case CFA_RULE_UNKNOWN:
            fputs("{\"rule\":\"unknown\"}", out);
            return;
        default:
            fputs("{\"rule\":\"unset\"}", out);
            return;
        }
    }
    static const char *const kinds[] = {
        [REG_RULE_UNREFERENCED] = "unreferenced", [REG_RULE_UNDEFINED] = "undefined",
        [REG_RULE_SAME_VALUE] = "same_value", [REG_RULE_OFFSET] = "offset",
        [REG_RULE_VAL_OFFSET] = "val_offset", [REG_RULE_REGISTER] = "register",
        [REG_RULE_EXPRESSION] = "expression", [REG_RULE_VAL_EXPRESSION] = "val_expression",
        [REG_RULE_UNKNOWN] = "unknown",
    };
    fprintf(out, "{\"rule\":\"%s\"", rule->kind <= REG_RULE_UNKNOWN ? kinds[rule->kind] : "invalid");
    switch (rule->kind) {
    case REG_RULE_OFFSET: case REG_RULE_VAL_OFFSET:
        fprintf(out, ",\"offset\":%lld", (long long)rule->offset);
        break;
    case REG_RULE_REGISTER:
        fprintf(out, ",\"reg\":\"%s\"", table_print_column_label(rule->reg, name, sizeof name));
        break;
    case REG_RULE_EXPRESSION: case REG_RULE_VAL_EXPRESSION:
        print_json_expr(out, rule->expr, rule->expr_len);
        break;
    default:
        break;
    }
    fputc('}', out);
}
