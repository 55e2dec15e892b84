/* SPDX-License-Identifier: Apache-2.0 */
/*
 * text_report: text and JSON Lines renderings of an audit.
 */
#include "text_report.h"

#include <string.h>

#include "report/json_string.h"
#include "semantics/dwarf_expr.h"

void report_text_file(FILE *out, const char *path, const struct check_result *r)
{
    report_text_file_names(out, &path, 1, r);
}

void report_text_file_names(FILE *out, const char *const *names, size_t nnames, const struct check_result *r)
{
    const char *path = names[0];
    for (size_t i = 0; i < r->nfindings; i++) {
        const struct finding *f = &r->findings[i];
        char where[FINDING_WHERE_LEN];
        finding_where(where, sizeof where, f);
        fprintf(out, "%s: %s%s%s%s: %s: %s: %s", path, where, f->source[0] ? " (" : "", f->source,
                f->source[0] ? ")" : "", severity_name(f->severity), finding_kind_name(f->kind), f->message);
        if (f->count > 1)
            fprintf(out, " (and %zu more addresses)", f->count - 1);
        fputc('\n', out);
        if (f->cx.present) {
            char cx[512];
            counterexample_format(cx, sizeof cx, &f->cx);
            fprintf(out, "  counterexample: %s\n", cx);
        }
    }
    fprintf(out, "%s: %zu FDEs, %zu addresses checked in %zu rows, %zu unchecked", path, r->fdes,
            r->addresses_checked, r->rows_checked, r->unchecked_total);
    if (r->unchecked[UNCHECKED_PADDING])
        fprintf(out, " (%zu of them padding or traps)", r->unchecked[UNCHECKED_PADDING]);
    const struct check_sframe *sf = &r->sframe;
    if (sf->present && !sf->version)
        fputs("; SFrame: its header does not decode, nothing checked", out);
    else if (sf->present)
        fprintf(out, "; SFrame V%u: %zu FDEs, %zu addresses checked in %zu rows, %zu unchecked", sf->version,
                sf->fdes, sf->addresses_checked, sf->rows_checked, sf->unchecked);
    fprintf(out, "; %zu errors, %zu warnings, %zu notes\n",
            check_count(r, SEVERITY_ERROR), check_count(r, SEVERITY_WARNING) - check_count(r, SEVERITY_ERROR),
            r->nfindings - check_count(r, SEVERITY_WARNING));
    if (r->prover_disagreements)
        fprintf(out, "%s: z3 and the fast path disagree on %lu rules; the first at %s\n", path,
                r->prover_disagreements, r->first_disagreement);
    if (nnames > 1) {
        fprintf(out, "%s: also named:", path);
        for (size_t i = 1; i < nnames; i++)
            fprintf(out, "%s %s", i > 1 ? "," : "", names[i]);
        fputc('\n', out);
    }
}

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

void report_json_file(FILE *out, const char *path, const struct check_result *r)
{
    report_json_file_names(out, &path, 1, r);
}

void report_json_file_names(FILE *out, const char *const *names, size_t nnames, const struct check_result *r)
{
    const char *path = names[0];
    fputs("{\"file\":", out);
    print_json_string(out, path);
    fprintf(out, ",\"fdes\":%zu,\"rows_checked\":%zu,\"addresses_checked\":%zu,\"unchecked\":%zu,"
                 "\"unchecked_reasons\":{",
            r->fdes, r->rows_checked, r->addresses_checked, r->unchecked_total);
    for (int u = 0; u < UNCHECKED_REASONS; u++) {
        fprintf(out, "%s", u ? "," : "");
        print_json_string(out, unchecked_reason_id((enum unchecked_reason)u));
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
        print_json_string(out, r->first_disagreement);
    }
    fputs(",\"expressions\":{", out);
    for (int k = 0; k < EXPRESSION_KINDS; k++) {
        const size_t *v = r->expression_verdicts[k];
        fprintf(out, "%s\"%s\":{\"proved\":%zu,\"refuted\":%zu,\"undecided\":%zu}", k ? "," : "",
                expression_kind_name((enum expression_kind)k), v[RULE_HOLDS], v[RULE_FAILS], v[RULE_UNDECIDED]);
    }
    fputs("}},\"findings\":[", out);
    for (size_t i = 0; i < r->nfindings; i++) {
        const struct finding *f = &r->findings[i];
        fprintf(out, "%s{\"kind\":\"%s\",\"severity\":\"%s\",\"function\":", i ? "," : "",
                finding_kind_name(f->kind), severity_name(f->severity));
        print_json_string(out, f->function);
        if (f->source[0]) {
            fputs(",\"source\":", out);
            print_json_string(out, f->source);
        }
        fprintf(out, ",\"address\":%llu,\"addresses\":%zu,\"dwarf\":", (unsigned long long)f->address,
                f->count);
        print_json_string(out, f->dwarf);
        fputs(",\"synth\":", out);
        print_json_string(out, f->synth);
        fputs(",\"message\":", out);
        print_json_string(out, f->message);
        if (f->cx.present)
            json_counterexample(out, &f->cx);
        if (f->column >= 0)
            fprintf(out, ",\"column\":%d", f->column);
        if (f->insn_index >= 0)
            fprintf(out, ",\"insn_index\":%ld", (long)f->insn_index);
        fprintf(out, ",\"function_start\":%llu}", (unsigned long long)f->function_start);
    }
    fputc(']', out);
    if (nnames > 1) {
        fputs(",\"names\":[", out);
        for (size_t i = 0; i < nnames; i++) {
            fputs(i ? "," : "", out);
            print_json_string(out, names[i]);
        }
        fputc(']', out);
    }
    fputs("}\n", out);
}

static void json_not_audited(FILE *out, const char *path, const char *key, const char *reason)
{
    fputs("{\"file\":", out);
    print_json_string(out, path);
    fprintf(out, ",\"%s\":", key);
    print_json_string(out, reason);
    fputs("}\n", out);
}

void report_json_error(FILE *out, const char *path, const char *reason)
{
    json_not_audited(out, path, "error", reason);
}

void report_json_skipped(FILE *out, const char *path, const char *reason)
{
    json_not_audited(out, path, "skipped", reason);
}

void report_totals_add(struct report_totals *t, const struct check_result *r)
{
    t->files++;
    t->addresses_checked += r->addresses_checked;
    if (r->sframe.present) {
        t->sframe_files++;
        t->sframe_rows_checked += r->sframe.rows_checked;
        t->sframe_addresses_checked += r->sframe.addresses_checked;
        t->sframe_unchecked += r->sframe.unchecked;
    }
    t->unchecked += r->unchecked_total;
    for (int u = 0; u < UNCHECKED_REASONS; u++)
        t->unchecked_by_reason[u] += r->unchecked[u];
    for (int k = 0; k < EXPRESSION_KINDS; k++)
        for (int v = 0; v < 3; v++)
            t->expression_verdicts[k][v] += r->expression_verdicts[k][v];
    t->prover_rules += r->prover_rules;
    t->prover_linear += r->prover_linear;
    t->prover_queries += r->prover_queries;
    t->prover_cache_hits += r->prover_cache_hits;
    t->prover_timeouts += r->prover_timeouts;
    t->prove_all |= r->prove_all;
    t->prover_disagreements += r->prover_disagreements;
    for (size_t i = 0; i < r->nfindings; i++) {
        t->by_severity[r->findings[i].severity]++;
        t->by_kind[r->findings[i].kind]++;
    }
}

void report_text_summary(FILE *out, const struct report_totals *t)
{
    fprintf(out, "\nsummary: %zu files audited", t->files);
    if (t->files_skipped)
        fprintf(out, ", %zu skipped (not ELF)", t->files_skipped);
    if (t->files_failed)
        fprintf(out, ", %zu could not be read", t->files_failed);
    fprintf(out, "; %zu addresses checked, %zu unchecked\n", t->addresses_checked, t->unchecked);
    if (t->sframe_files)
        fprintf(out, "SFrame: %zu files with a .sframe section; %zu addresses checked in %zu rows, %zu unchecked\n",
                t->sframe_files, t->sframe_addresses_checked, t->sframe_rows_checked, t->sframe_unchecked);
    /* Why, by reason: addresses, then register rules (counted per rule, at
     * addresses otherwise checked). */
    for (int per_rule = 0; per_rule < 2; per_rule++) {
        int header = 0;
        for (int u = 0; u < UNCHECKED_REASONS; u++) {
            if (unchecked_reason_counts_rules((enum unchecked_reason)u) != per_rule ||
                !t->unchecked_by_reason[u])
                continue;
            if (!header++)
                fputs(per_rule ? "undecided register rules, at addresses checked:\n" : "unchecked addresses:\n",
                      out);
            fprintf(out, "  %10zu  %s\n", t->unchecked_by_reason[u], unchecked_reason_text((enum unchecked_reason)u));
        }
    }
    fprintf(out, "prover: %lu rules, %lu decided by exact linear evaluation, %lu answered from the cache; "
                 "%lu z3 queries, %lu out of time\n",
            t->prover_rules, t->prover_linear, t->prover_cache_hits, t->prover_queries, t->prover_timeouts);
    if (t->prove_all)
        fprintf(out, "  z3 and the fast path disagree on %lu rules\n", t->prover_disagreements);
    for (int k = 0; k < EXPRESSION_KINDS; k++) {
        const size_t *v = t->expression_verdicts[k];
        if (v[RULE_HOLDS] + v[RULE_FAILS] + v[RULE_UNDECIDED])
            fprintf(out, "  %-8s expression rules: %zu proved, %zu refuted, %zu undecided\n",
                    expression_kind_name((enum expression_kind)k), v[RULE_HOLDS], v[RULE_FAILS],
                    v[RULE_UNDECIDED]);
    }
    fprintf(out, "findings: %zu errors, %zu warnings, %zu notes\n", t->by_severity[SEVERITY_ERROR],
            t->by_severity[SEVERITY_WARNING], t->by_severity[SEVERITY_INFO]);
    for (int k = 0; k < FINDING_KINDS; k++)
        if (t->by_kind[k])
            fprintf(out, "  %-24s %zu\n", finding_kind_name((enum finding_kind)k), t->by_kind[k]);
}
