/* SPDX-License-Identifier: Apache-2.0 */
/*
 * text_report: the text rendering of an audit.
 */
#include "text_report.h"

#include <string.h>

void text_report_file(FILE *out, const char *path, const struct check_result *r)
{
    size_t by_severity[3] = {0};
    for (size_t i = 0; i < r->nfindings; i++) {
        text_report_finding(out, path, &r->findings[i]);
        by_severity[r->findings[i].severity]++;
    }
    text_report_file_end(out, &path, 1, r, by_severity);
}

/* The line part of SOURCE ("file:123"): its offset past the colon, or 0
 * when it has no line. */
static size_t line_part(const char *source)
{
    const char *colon = strrchr(source, ':');
    if (!colon || colon == source || !colon[1] || strspn(colon + 1, "0123456789") != strlen(colon + 1))
        return 0;
    return (size_t)(colon + 1 - source);
}

/* SOURCE as the fix's lines name it: "line 26" when it is in the file of
 * the finding's SAME, else "file:26". */
static void line_words(char *buf, size_t size, const char *source, const char *same)
{
    size_t at = line_part(source);
    if (at && same && line_part(same) == at && strncmp(source, same, at) == 0)
        snprintf(buf, size, "line %s", source + at);
    else
        snprintf(buf, size, "%s", source);
}

void text_report_fix_place(char *buf, size_t size, const struct fix_place *place, uint64_t function_start,
                           const char *source)
{
    char before[220] = "", after[300] = "", line[200];
    if (place->source[0]) {
        line_words(line, sizeof line, place->source, source);
        snprintf(before, sizeof before, ", before %s", line);
    }
    if (place->has_after) {
        line[0] = '\0';
        if (place->after_source[0])
            line_words(line, sizeof line, place->after_source, source);
        snprintf(after, sizeof after, "after `%s` (+0x%llx%s%s)", place->after,
                 (unsigned long long)(place->after_address - function_start), line[0] ? ", " : "", line);
    } else {
        snprintf(after, sizeof after, "at +0x%llx (%s)", (unsigned long long)(place->address - function_start),
                 place->address == function_start ? "the function's entry" : "where jumps arrive");
    }
    snprintf(buf, size, "%s%s", after, before);
}

/* PLACE's directives, one a line, after INDENT and the fix's margin. */
static void directive_lines(FILE *out, const char *indent, const struct fix_place *place)
{
    for (const char *d = place->directives; *d;) {
        size_t n = strcspn(d, "\n");
        fprintf(out, "%s         %.*s\n", indent, (int)n, d);
        d += n + (d[n] == '\n');
    }
}

void text_report_fix_lines(FILE *out, const char *indent, const struct finding_fix *fix, uint64_t function_start,
                           const char *source)
{
    if (fix->state == FIX_UNKNOWN) {
        fprintf(out, "%sfix:   none: %s\n", indent, fix->why);
        return;
    }
    if (fix->state != FIX_KNOWN)
        return;
    char place[600];
    text_report_fix_place(place, sizeof place, &fix->at, function_start, source);
    fprintf(out, "%sfix:   write %s:\n", indent, place);
    directive_lines(out, indent, &fix->at);
    if (!fix->has_then)
        return;
    text_report_fix_place(place, sizeof place, &fix->then, function_start, source);
    fprintf(out, "%s       then %s, as the table had it:\n", indent, place);
    directive_lines(out, indent, &fix->then);
}

void text_report_finding(FILE *out, const char *path, const struct finding *f)
{
    char where[FINDING_WHERE_LEN];
    finding_where(where, sizeof where, f);
    /* As compilers print: the source line first where the line table
     * gives one, the object and the place in it at the end. */
    if (line_part(f->source))
        fprintf(out, "%s: %s: %s: %s [%s: %s", f->source, finding_severity_name(f->severity),
                finding_kind_name(f->kind), f->message, path, where);
    else
        fprintf(out, "%s: %s: %s: %s: %s", path, where, finding_severity_name(f->severity), finding_kind_name(f->kind),
                f->message);
    if (f->count > 1)
        fprintf(out, line_part(f->source) ? ", and %zu more addresses" : " (and %zu more addresses)", f->count - 1);
    fputs(line_part(f->source) ? "]\n" : "\n", out);
    if (f->claim[0])
        fprintf(out, "  table: %s\n", f->claim);
    if (f->code[0])
        fprintf(out, "  code:  %s\n", f->code);
    if (f->cx.present) {
        char cx[512];
        counterexample_format(cx, sizeof cx, &f->cx);
        fprintf(out, "  counterexample: %s\n", cx);
    }
    text_report_fix_lines(out, "  ", &f->fix, f->function_start, f->source);
}

void text_report_file_end(FILE *out, const char *const *names, size_t nnames, const struct check_result *r,
                          const size_t by_severity[3])
{
    const char *path = names[0];
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
    fprintf(out, "; %zu errors, %zu warnings, %zu notes\n", by_severity[SEVERITY_ERROR],
            by_severity[SEVERITY_WARNING], by_severity[SEVERITY_INFO]);
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

void text_report_totals_add_file(struct text_report_totals *t, const struct check_result *r)
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
}

void text_report_totals_add_finding(struct text_report_totals *t, const struct finding *f)
{
    t->by_severity[f->severity]++;
    t->by_kind[f->kind]++;
}

void text_report_summary(FILE *out, const struct text_report_totals *t)
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
            if (finding_unchecked_reason_counts_rules((enum unchecked_reason)u) != per_rule ||
                !t->unchecked_by_reason[u])
                continue;
            if (!header++)
                fputs(per_rule ? "undecided register rules, at addresses checked:\n" : "unchecked addresses:\n",
                      out);
            fprintf(out, "  %10zu  %s\n", t->unchecked_by_reason[u],
                    finding_unchecked_reason_text((enum unchecked_reason)u));
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
