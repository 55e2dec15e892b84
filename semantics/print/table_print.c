/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table_print: readelf -wF layout for rows of H.
 */
#include "table_print.h"

#include <string.h>

#include "semantics/dwarf_expr.h"

const char *table_print_column_label(unsigned col, char *buf, size_t size)
{
    const char *name = dwarf_reg_name(col);
    if (name)
        return name;
    snprintf(buf, size, "r%u", col);
    return buf;
}

/* Hand-rolled formatting: dwtable prints millions of cells, and printf was
 * most of its run time. */
static char *put_str(char *p, const char *s)
{
    while (*s)
        *p++ = *s++;
    return p;
}

static char *put_signed(char *p, long long v)
{
    char digits[24];
    int n = 0;
    unsigned long long u;
    if (v < 0) {
        *p++ = '-';
        u = 0ULL - (unsigned long long)v;
    } else {
        *p++ = '+';
        u = (unsigned long long)v;
    }
    do {
        digits[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    while (n)
        *p++ = digits[--n];
    return p;
}

static char *put_hex16(char *p, uint64_t v)
{
    static const char hex[] = "0123456789abcdef";
    for (int i = 15; i >= 0; i--)
        p[15 - i] = hex[(v >> (4 * i)) & 0xf];
    return p + 16;
}

/* Pad the cell that started at CELL to WIDTH characters, then one space. */
static char *pad_cell(char *p, const char *cell, int width)
{
    while (p - cell < width)
        *p++ = ' ';
    *p++ = ' ';
    return p;
}


void table_print_readelf_header(FILE *out, const struct column_set *cols, unsigned ra_column)
{
    fputs("   LOC           CFA      ", out);
    for (unsigned c = 0; c < UNWIND_MAX_COLUMNS; c++) {
        if (!column_set_has(cols, c))
            continue;
        char buf[16];
        if (c == ra_column)
            fputs("ra    ", out);
        else
            fprintf(out, "%-5s ", table_print_column_label(c, buf, sizeof buf));
    }
    fputc('\n', out);
}

/* Cell text of a CFA rule, at P; returns the end.  (int) casts: readelf's. */
static char *put_cfa_rule(char *p, const struct unwind_rule *cfa)
{
    char name[16];
    switch (cfa->kind) {
    case CFA_RULE_REG_OFFSET:
        p = put_str(p, table_print_column_label(cfa->reg, name, sizeof name));
        return put_signed(p, (int)cfa->offset);
    case CFA_RULE_EXPRESSION:
        return put_str(p, "exp");
    case CFA_RULE_UNKNOWN:
        return put_str(p, "?");
    default:
        /* No rule yet: readelf shows the register/offset pair it starts with. */
        return put_str(p, "rax+0");
    }
}

static char *put_reg_rule(char *p, const struct unwind_rule *rule)
{
    char name[16];
    switch (rule->kind) {
    case REG_RULE_UNREFERENCED: case REG_RULE_UNDEFINED: return put_str(p, "u");
    case REG_RULE_SAME_VALUE: return put_str(p, "s");
    case REG_RULE_OFFSET: *p++ = 'c'; return put_signed(p, (int)rule->offset);
    case REG_RULE_VAL_OFFSET: *p++ = 'v'; return put_signed(p, (int)rule->offset);
    case REG_RULE_REGISTER:
        /* readelf's long form: "r7 (rsp)", or "r200" without a name. */
        snprintf(name, sizeof name, "r%u", rule->reg);
        p = put_str(p, name);
        if (dwarf_reg_name(rule->reg)) {
            p = put_str(p, " (");
            p = put_str(p, dwarf_reg_name(rule->reg));
            *p++ = ')';
        }
        return p;
    case REG_RULE_EXPRESSION: return put_str(p, "exp");
    case REG_RULE_VAL_EXPRESSION: return put_str(p, "vexp");
    default: return put_str(p, "?");
    }
}

void table_print_cfa_rule(char *buf, size_t size, const struct unwind_rule *cfa)
{
    char tmp[64];
    *put_cfa_rule(tmp, cfa) = '\0';
    snprintf(buf, size, "%s", tmp);
}

void table_print_reg_rule(char *buf, size_t size, const struct unwind_rule *rule)
{
    char tmp[64];
    *put_reg_rule(tmp, rule) = '\0';
    snprintf(buf, size, "%s", tmp);
}

void table_print_reg_rule_plain(char *buf, size_t size, const struct unwind_rule *rule)
{
    if (rule->kind == REG_RULE_UNREFERENCED)
        snprintf(buf, size, "%s", RULE_TEXT_UNCHANGED);
    else if (rule->kind == REG_RULE_UNDEFINED)
        snprintf(buf, size, "%s", RULE_TEXT_UNDEFINED);
    else
        table_print_reg_rule(buf, size, rule);
}

void table_print_readelf_row(FILE *out, uint64_t loc, const struct unwind_rule *cfa,
                              const struct unwind_rule *rules, unsigned nrules,
                              const struct column_set *cols)
{
    static const struct unwind_rule undefined = {.kind = REG_RULE_UNDEFINED};
    /* 16 + 1 + CFA cell + at most UNWIND_MAX_COLUMNS cells of < 32 bytes. */
    char line[64 + UNWIND_MAX_COLUMNS * 32];
    char *p = put_hex16(line, loc);
    *p++ = ' ';
    char *cell = p;
    p = pad_cell(put_cfa_rule(p, cfa), cell, 8);
    for (unsigned w = 0; w < UNWIND_MAX_COLUMNS / 64; w++) {
        for (uint64_t bits = cols->bits[w]; bits; bits &= bits - 1) {
            unsigned c = w * 64 + (unsigned)__builtin_ctzll(bits);
            cell = p;
            p = pad_cell(put_reg_rule(p, c < nrules ? &rules[c] : &undefined), cell, 5);
        }
    }
    *p++ = '\n';
    fwrite(line, 1, (size_t)(p - line), out);
}
