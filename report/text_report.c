/*
 * text_report: text and JSON Lines renderings of an audit.
 */
#include "text_report.h"

#include <string.h>

#include "report/json_string.h"

void report_text_file(FILE *out, const char *path, const struct check_result *r)
{
    for (size_t i = 0; i < r->nfindings; i++) {
        const struct finding *f = &r->findings[i];
        char where[FINDING_WHERE_LEN];
        finding_where(where, sizeof where, f);
        fprintf(out, "%s: %s: %s: %s: %s", path, where, severity_name(f->severity),
                finding_kind_name(f->kind), f->message);
        if (f->count > 1)
            fprintf(out, " (and %zu more addresses)", f->count - 1);
        fputc('\n', out);
    }
    fprintf(out, "%s: %zu FDEs, %zu addresses checked in %zu rows, %zu unchecked", path, r->fdes,
            r->addresses_checked, r->rows_checked, r->unchecked_total);
    if (r->unchecked[UNCHECKED_PADDING])
        fprintf(out, " (%zu of them padding or traps)", r->unchecked[UNCHECKED_PADDING]);
    fprintf(out, "; %zu errors, %zu warnings, %zu notes\n",
            check_count(r, SEVERITY_ERROR), check_count(r, SEVERITY_WARNING) - check_count(r, SEVERITY_ERROR),
            r->nfindings - check_count(r, SEVERITY_WARNING));
}

void report_json_file(FILE *out, const char *path, const struct check_result *r)
{
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
    fprintf(out, "},\"functions_unchecked\":%zu,\"addresses_outermost\":%zu,\"findings\":[",
            r->functions_unchecked, r->addresses_outermost);
    for (size_t i = 0; i < r->nfindings; i++) {
        const struct finding *f = &r->findings[i];
        fprintf(out, "%s{\"kind\":\"%s\",\"severity\":\"%s\",\"function\":", i ? "," : "",
                finding_kind_name(f->kind), severity_name(f->severity));
        print_json_string(out, f->function);
        fprintf(out, ",\"address\":%llu,\"addresses\":%zu,\"dwarf\":", (unsigned long long)f->address,
                f->count);
        print_json_string(out, f->dwarf);
        fputs(",\"synth\":", out);
        print_json_string(out, f->synth);
        fputs(",\"message\":", out);
        print_json_string(out, f->message);
        fputc('}', out);
    }
    fputs("]}\n", out);
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
    t->unchecked += r->unchecked_total;
    for (int u = 0; u < UNCHECKED_REASONS; u++)
        t->unchecked_by_reason[u] += r->unchecked[u];
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
    fprintf(out, "findings: %zu errors, %zu warnings, %zu notes\n", t->by_severity[SEVERITY_ERROR],
            t->by_severity[SEVERITY_WARNING], t->by_severity[SEVERITY_INFO]);
    for (int k = 0; k < FINDING_KINDS; k++)
        if (t->by_kind[k])
            fprintf(out, "  %-24s %zu\n", finding_kind_name((enum finding_kind)k), t->by_kind[k]);
}
