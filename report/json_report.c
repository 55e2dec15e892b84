/* SPDX-License-Identifier: Apache-2.0 */
/*
 * json_report: the JSON Lines rendering of an audit.
 */
#include "json_report.h"

#include <string.h>

#include "report/json_string.h"
#include "semantics/dwarf_expr.h"

static void json_hex(FILE *out, const char *key, uint64_t v)
{
    fprintf(out, "\"%s\":\"0x%llx\"", key, (unsigned long long)v);
}

static void json_counterexample(FILE *out, const struct counterexample *cx)
{
    fprintf(out, ",\"counterexample\":{\"what\":\"%s\",", counterexample_what(cx));
    json_hex(out, "cfa", cx->cfa);
    fputs(",\"registers\":{", out);
    for (unsigned i = 0; i < cx->nregs; i++) {
        const char *name = dwarf_reg_name(cx->reg[i]);
        fprintf(out, "%s", i ? "," : "");
        json_hex(out, name ? name : "?", cx->reg_value[i]);
    }
    fputs("},\"memory\":{", out);
    for (unsigned i = 0; i < cx->nwords; i++)
        fprintf(out, "%s\"0x%llx\":\"0x%llx\"", i ? "," : "", (unsigned long long)cx->word_addr[i],
                (unsigned long long)cx->word_value[i]);
    fputs("},", out);
    json_hex(out, "rule", cx->rule);
    if (cx->what == CX_ADDRESS && !cx->has_code) {
        fputs(",\"code\":null", out);
    } else {
        fputc(',', out);
        json_hex(out, "code", cx->code);
    }
    if (cx->what != CX_CFA) {
        const char *name = dwarf_reg_name(cx->column);
        fprintf(out, ",\"column\":\"%s\"", name ? name : "?");
    }
    fputc('}', out);
}

/* "func+0x1a" for ADDR in F's function. */
static void where_at(char *buf, size_t size, const struct finding *f, uint64_t addr)
{
    struct finding at = {.function_start = f->function_start, .address = addr};
    memcpy(at.function, f->function, sizeof at.function);
    finding_where(buf, size, &at);
}

/* PLACE's members: directives, address, where, [source,] [after]. */
static void json_place(FILE *out, const struct finding *f, const struct fix_place *place)
{
    char where[FINDING_WHERE_LEN];
    fputs("{\"directives\":[", out);
    int first = 1;
    for (const char *d = place->directives; *d;) {
        size_t n = strcspn(d, "\n");
        char one[sizeof place->directives];
        snprintf(one, sizeof one, "%.*s", (int)n, d);
        fputs(first ? "" : ",", out);
        json_string_print(out, one);
        first = 0;
        d += n + (d[n] == '\n');
    }
    where_at(where, sizeof where, f, place->address);
    fprintf(out, "],\"address\":%llu,\"where\":", (unsigned long long)place->address);
    json_string_print(out, where);
    if (place->source[0]) {
        fputs(",\"source\":", out);
        json_string_print(out, place->source);
    }
    if (place->has_after) {
        where_at(where, sizeof where, f, place->after_address);
        fputs(",\"after\":{\"insn\":", out);
        json_string_print(out, place->after);
        fprintf(out, ",\"address\":%llu,\"where\":", (unsigned long long)place->after_address);
        json_string_print(out, where);
        if (place->after_source[0]) {
            fputs(",\"source\":", out);
            json_string_print(out, place->after_source);
        }
        fputc('}', out);
    }
}

void json_report_fix(FILE *out, const struct finding *f)
{
    const struct finding_fix *fix = &f->fix;
    if (fix->state == FIX_UNKNOWN) {
        fputs(",\"fix\":{\"none\":", out);
        json_string_print(out, fix->why);
        fputc('}', out);
        return;
    }
    fputs(",\"fix\":", out);
    json_place(out, f, &fix->at);
    if (fix->has_then) {
        fputs(",\"then\":", out);
        json_place(out, f, &fix->then);
        fputc('}', out);
    }
    fputc('}', out);
}

void json_report_words(FILE *out, const struct finding *f)
{
    if (f->claim[0]) {
        fputs(",\"claim\":", out);
        json_string_print(out, f->claim);
    }
    if (f->code[0]) {
        fputs(",\"code\":", out);
        json_string_print(out, f->code);
    }
    if (f->fix.state != FIX_NONE)
        json_report_fix(out, f);
}

void json_report_file(FILE *out, const char *path, const struct check_result *r)
{
    json_report_file_begin(out, path, r);
    for (size_t i = 0; i < r->nfindings; i++)
        json_report_finding(out, &r->findings[i], i == 0);
    json_report_file_end(out, &path, 1);
}

void json_report_file_begin(FILE *out, const char *path, const struct check_result *r)
{
    fputs("{\"file\":", out);
    json_string_print(out, path);
    fprintf(out, ",\"fdes\":%zu,\"rows_checked\":%zu,\"addresses_checked\":%zu,\"unchecked\":%zu,"
                 "\"unchecked_reasons\":{",
            r->fdes, r->rows_checked, r->addresses_checked, r->unchecked_total);
    for (int u = 0; u < UNCHECKED_REASONS; u++) {
        fprintf(out, "%s", u ? "," : "");
        json_string_print(out, finding_unchecked_reason_id((enum unchecked_reason)u));
        fprintf(out, ":%zu", r->unchecked[u]);
    }
    fprintf(out, "},\"functions_unchecked\":%zu,\"addresses_outermost\":%zu,\"rets_checked\":%zu,"
                 "\"cross_fde_jumps_checked\":%zu,",
            r->functions_unchecked, r->addresses_outermost, r->rets_checked, r->cross_fde_checked);
    const struct check_sframe *sf = &r->sframe;
    if (sf->present)
        fprintf(out, "\"sframe\":{\"version\":%u,\"fdes\":%zu,\"rows_checked\":%zu,\"addresses_checked\":%zu,"
                     "\"unchecked\":%zu,\"addresses_outermost\":%zu,\"fdes_missing\":%zu},",
                sf->version, sf->fdes, sf->rows_checked, sf->addresses_checked, sf->unchecked,
                sf->addresses_outermost, sf->fdes_missing);
    fprintf(out, "\"prover\":{\"rules\":%lu,\"linear\":%lu,\"queries\":%lu,\"cache_hits\":%lu,\"timeouts\":%lu",
            r->prover_rules, r->prover_linear, r->prover_queries, r->prover_cache_hits, r->prover_timeouts);
    if (r->prove_all) {
        fprintf(out, ",\"disagreements\":%lu,\"first_disagreement\":", r->prover_disagreements);
        json_string_print(out, r->first_disagreement);
    }
    fputs(",\"expressions\":{", out);
    for (int k = 0; k < EXPRESSION_KINDS; k++) {
        const size_t *v = r->expression_verdicts[k];
        fprintf(out, "%s\"%s\":{\"proved\":%zu,\"refuted\":%zu,\"undecided\":%zu}", k ? "," : "",
                expression_kind_name((enum expression_kind)k), v[RULE_HOLDS], v[RULE_FAILS], v[RULE_UNDECIDED]);
    }
    fputs("}},\"findings\":[", out);
}

void json_report_finding(FILE *out, const struct finding *f, int first)
{
    fprintf(out, "%s{\"kind\":\"%s\",\"severity\":\"%s\",\"function\":", first ? "" : ",",
            finding_kind_name(f->kind), finding_severity_name(f->severity));
    json_string_print(out, f->function);
    if (f->source[0]) {
        fputs(",\"source\":", out);
        json_string_print(out, f->source);
    }
    fprintf(out, ",\"address\":%llu,\"addresses\":%zu,\"dwarf\":", (unsigned long long)f->address, f->count);
    json_string_print(out, f->dwarf);
    fputs(",\"synth\":", out);
    json_string_print(out, f->synth);
    fputs(",\"message\":", out);
    json_string_print(out, f->message);
    json_report_words(out, f);
    if (f->cx.present)
        json_counterexample(out, &f->cx);
    if (f->column >= 0)
        fprintf(out, ",\"column\":%d", f->column);
    if (f->insn_index >= 0)
        fprintf(out, ",\"insn_index\":%ld", (long)f->insn_index);
    fprintf(out, ",\"function_start\":%llu}", (unsigned long long)f->function_start);
}

void json_report_file_end(FILE *out, const char *const *names, size_t nnames)
{
    fputc(']', out);
    if (nnames > 1) {
        fputs(",\"names\":[", out);
        for (size_t i = 0; i < nnames; i++) {
            fputs(i ? "," : "", out);
            json_string_print(out, names[i]);
        }
        fputc(']', out);
    }
    fputs("}\n", out);
}

static void json_not_audited(FILE *out, const char *path, const char *key, const char *reason)
{
    fputs("{\"file\":", out);
    json_string_print(out, path);
    fprintf(out, ",\"%s\":", key);
    json_string_print(out, reason);
    fputs("}\n", out);
}

void json_report_error(FILE *out, const char *path, const char *reason)
{
    json_not_audited(out, path, "error", reason);
}

void json_report_skipped(FILE *out, const char *path, const char *reason)
{
    json_not_audited(out, path, "skipped", reason);
}
