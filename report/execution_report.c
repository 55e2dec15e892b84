/* SPDX-License-Identifier: Apache-2.0 */
#include "execution_report.h"

#include <inttypes.h>
#include <stdlib.h>

#include "report/json_string.h"
#include "report/run_words.h"
#include "semantics/dwarf_expr.h"
#include "verify/audit/finding.h"

static void text_finding(FILE *out, const struct run_result *r, const struct run_address *a, const char *place)
{
    char msg[256], witness[256];
    run_words_message(a, msg, sizeof msg);
    run_words_witness(a, witness, sizeof witness);
    fprintf(out, "%s: %s: error: %s: %s (held %" PRIu64 " of %" PRIu64 " executions)\n", r->objects[a->object],
            place, finding_kind_name(run_words_kind(a->witness.column)), msg, a->held, a->executions);
    fprintf(out, "  witness: %s\n", witness);
    fprintf(out, "  static audit: %s\n", run_words_static_refuted(a->static_verdict));
}

static void json_finding(FILE *out, const struct run_result *r, const struct run_address *a, const char *place,
                         int first)
{
    char msg[256], rule[64];
    run_words_message(a, msg, sizeof msg);
    const struct run_witness *w = &a->witness;
    run_words_rule(w, rule, sizeof rule);
    enum finding_kind k = run_words_kind(w->column);
    fprintf(out, "%s{\"kind\":\"%s\",\"severity\":\"%s\",\"file\":", first ? "" : ",", finding_kind_name(k),
            finding_severity_name(finding_kind_severity(k)));
    json_string_print(out, r->objects[a->object]);
    fputs(",\"function\":", out);
    json_string_print(out, place);
    fprintf(out, ",\"address\":%" PRIu64 ",\"function_start\":%" PRIu64 ",\"dwarf\":", a->addr, a->function_start);
    json_string_print(out, rule);
    fprintf(out, ",\"column\":%d,\"message\":", w->column);
    json_string_print(out, msg);
    run_words_json_verdict(out, a);
    fputc('}', out);
}

/* An address that held where the static audit could not say so (undecided,
 * not judged: the run decides), or says a rule is wrong. */
static int held_undecided(const struct run_address *a)
{
    return !a->refuted && (a->static_verdict == RUN_STATIC_UNDECIDED || a->static_verdict == RUN_STATIC_NOT_JUDGED);
}
static int held_static_error(const struct run_address *a)
{
    return !a->refuted && a->static_verdict == RUN_STATIC_FAILS;
}

/* Text: one note per function for the addresses PICK takes, from ALL[i]
 * (sorted); returns the index past the function. */
static size_t text_function_notes(FILE *out, const struct run_result *r, const struct run_address *all, size_t n,
                                  size_t i, struct run_words_names *names)
{
    size_t end = i;
    size_t undecided = 0, errors = 0;
    uint64_t undecided_runs = 0, error_runs = 0;
    for (; end < n && all[end].object == all[i].object && all[end].function_start == all[i].function_start; end++) {
        if (held_undecided(&all[end]))
            undecided++, undecided_runs += all[end].executions;
        if (held_static_error(&all[end]))
            errors++, error_runs += all[end].executions;
    }
    if (!undecided && !errors)
        return end;
    char place[512];
    run_words_function(names, r, (int)all[i].object, all[i].function_start, place, sizeof place);
    if (undecided)
        fprintf(out, "%s: %s: note: %zu addresses the static audit left undecided ran and held (%" PRIu64
                     " executions)\n", r->objects[all[i].object], place, undecided, undecided_runs);
    if (errors)
        fprintf(out, "%s: %s: note: %zu addresses whose row the static audit finds wrong ran and held (%" PRIu64
                     " executions)\n", r->objects[all[i].object], place, errors, error_runs);
    return end;
}

/* JSON: the held addresses PICK takes, as an array member NAME. */
static void json_held(FILE *out, const struct run_result *r, const struct run_address *all, size_t n,
                      const char *name, int (*pick)(const struct run_address *), struct run_words_names *names)
{
    fprintf(out, ",\"%s\":[", name);
    int first = 1;
    for (size_t i = 0; i < n; i++) {
        if (!pick(&all[i]))
            continue;
        char place[512];
        run_words_where(names, r, (int)all[i].object, all[i].addr, all[i].function_start, place, sizeof place);
        fputs(first ? "{\"file\":" : ",{\"file\":", out);
        json_string_print(out, r->objects[all[i].object]);
        fputs(",\"function\":", out);
        json_string_print(out, place);
        fprintf(out, ",\"address\":%" PRIu64 ",\"function_start\":%" PRIu64 ",\"static\":\"%s\""
                     ",\"dynamic\":{\"verdict\":\"held\",\"executions\":%" PRIu64 "}}",
                all[i].addr, all[i].function_start, run_words_static_id(all[i].static_verdict), all[i].executions);
        first = 0;
    }
    fputc(']', out);
}

static void not_audited(FILE *out, const struct run_result *r, int json)
{
    if (json)
        fputs(",\"not_audited\":[", out);
    int first = 1;
    for (size_t o = 0; o < r->nobjects; o++) {
        if (!r->not_audited[o])
            continue;
        if (json) {
            fputs(first ? "{\"file\":" : ",{\"file\":", out);
            json_string_print(out, r->objects[o]);
            fputs(",\"reason\":", out);
            json_string_print(out, r->not_audited[o]);
            fputc('}', out);
        } else {
            fprintf(out, "%s: not audited: %s\n", r->objects[o], r->not_audited[o]);
        }
        first = 0;
    }
    if (r->join_out_of_memory) {
        if (json)
            fputs(first ? "{\"file\":null" : ",{\"file\":null", out);
        else
            fputs("dwcheck: objects not audited: their names lost (out of memory)\n", out);
        if (json)
            fputs(",\"reason\":\"out of memory: the objects' names lost\"}", out);
    }
    if (json)
        fputc(']', out);
}

/* Steps per second of stepping: over the wall time some thread was
 * stepped (all of it without --only). */
static double per_second(const struct run_result *r)
{
    return r->stepped_seconds > 0 ? (double)r->steps / r->stepped_seconds : 0;
}

/* The share of the run stepped: of its wall time, the part during which
 * some thread was single-stepped (instructions run at full speed are not
 * counted: nothing sees them). */
static double stepped_share(const struct run_result *r)
{
    return r->seconds > 0 ? r->stepped_seconds / r->seconds : 0;
}

static void text_figures(FILE *out, const struct run_result *r, char *const *argv, size_t naddresses,
                         uint64_t held, size_t refuted)
{
    fprintf(out, "%s: ", argv[0]);
    if (r->exit_signal)
        fprintf(out, "killed by signal %d", r->exit_signal);
    else
        fprintf(out, "exit status %d", r->exit_code);
    fprintf(out, "; %" PRIu64 " steps in %.2f s (%.0f steps/s)%s; %" PRIu64 " checked at %zu addresses, %" PRIu64
                 " held, %zu addresses refuted; not checked: %" PRIu64 " without a known frame, %" PRIu64
                 " without a table, %" PRIu64 " with a row not judged (no CFA, another context's, a rewritten return); %d threads, %d forks detached, %d execs; static audit of %zu files in %.2f s\n",
            r->steps, r->seconds, per_second(r), r->max_steps_reached ? " (--max-steps reached: the rest untraced)" : "",
            r->steps_checked, naddresses, held, refuted, r->steps_no_truth, r->steps_no_table,
            r->steps_rule_unchecked, r->threads, r->forks_detached, r->execs, r->objects_audited, r->join_seconds);
    if (r->audit_selected)
        fprintf(out, "%s: selected by the static audit: %zu functions it leaves in doubt (%zu FDEs in doubt not "
                     "selectable: they begin mid-frame), from %zu objects audited before the run and %zu during it "
                     "in %.2f s\n",
                argv[0], r->functions_selected, r->fdes_not_selectable, r->objects_audited_start,
                r->objects_audited_during, r->select_seconds);
    if (r->only)
        fprintf(out, "%s: %s: %" PRIu64 " breakpoint stops, stepping %.2f of %.2f s wall time (%.1f%%), %" PRIu64
                     " awaited returns never seen (frames cut by a longjmp or a throw)\n",
                argv[0], r->audit_selected ? "selected" : "--only", r->breakpoint_stops, r->stepped_seconds, r->seconds,
                100 * stepped_share(r),
                r->returns_missed);
}

static void json_head(FILE *out, const struct run_result *r, char *const *argv, size_t naddresses, uint64_t held)
{
    fputs("{\"run\":", out);
    json_string_print(out, argv[0]);
    fputs(",\"argv\":[", out);
    for (size_t i = 0; argv[i]; i++) {
        fputs(i ? "," : "", out);
        json_string_print(out, argv[i]);
    }
    fprintf(out, "],\"exit_status\":%d,\"signal\":%d,\"steps\":%" PRIu64 ",\"seconds\":%.3f,\"steps_per_second\":%.0f",
            r->exit_code, r->exit_signal, r->steps, r->seconds, per_second(r));
    fprintf(out, ",\"steps_checked\":%" PRIu64 ",\"steps_no_truth\":%" PRIu64 ",\"steps_no_table\":%" PRIu64
                 ",\"steps_rule_unchecked\":%" PRIu64 ",\"addresses_checked\":%zu,\"executions_held\":%" PRIu64,
            r->steps_checked, r->steps_no_truth, r->steps_no_table, r->steps_rule_unchecked, naddresses, held);
    fprintf(out, ",\"only\":%s,\"breakpoint_stops\":%" PRIu64 ",\"stepped_seconds\":%.3f,\"stepped_share\":%.4f"
                 ",\"returns_missed\":%" PRIu64,
            r->only && !r->audit_selected ? "true" : "false", r->breakpoint_stops, r->stepped_seconds,
            stepped_share(r), r->returns_missed);
    fprintf(out, ",\"selection\":\"%s\"", r->audit_selected ? "audit" : r->only ? "only" : "step-all");
    if (r->audit_selected)
        fprintf(out, ",\"functions_selected\":%zu,\"fdes_not_selectable\":%zu,\"objects_audited_before\":%zu"
                     ",\"objects_audited_during\":%zu,\"select_seconds\":%.3f",
                r->functions_selected, r->fdes_not_selectable, r->objects_audited_start, r->objects_audited_during,
                r->select_seconds);
    fprintf(out, ",\"threads\":%d,\"forks_detached\":%d,\"execs\":%d,\"max_steps_reached\":%s",
            r->threads, r->forks_detached, r->execs, r->max_steps_reached ? "true" : "false");
    fprintf(out, ",\"files_audited\":%zu,\"audit_seconds\":%.3f", r->objects_audited, r->join_seconds);
}

size_t execution_report(FILE *out, const struct run_result *r, char *const *argv, int json)
{
    size_t n;
    struct run_address *all = run_result_sorted(r, &n);
    uint64_t held = 0;
    for (size_t i = 0; i < n; i++)
        held += all[i].held;
    struct run_words_names names;
    run_words_names_init(&names);
    if (json) {
        json_head(out, r, argv, n, held);
        not_audited(out, r, 1);
        json_held(out, r, all, n, "decided_by_run", held_undecided, &names);
        json_held(out, r, all, n, "static_errors_held", held_static_error, &names);
        fputs(",\"findings\":[", out);
    }
    size_t refuted = 0;
    for (size_t i = 0; i < n; i++) {
        if (!all[i].refuted)
            continue;
        char place[512];
        run_words_where(&names, r, (int)all[i].object, all[i].addr, all[i].function_start, place, sizeof place);
        if (json)
            json_finding(out, r, &all[i], place, refuted == 0);
        else
            text_finding(out, r, &all[i], place);
        refuted++;
    }
    if (json) {
        fputs("]}\n", out);
    } else {
        for (size_t i = 0; i < n;)
            i = text_function_notes(out, r, all, n, i, &names);
        not_audited(out, r, 0);
        text_figures(out, r, argv, n, held, refuted);
    }
    run_words_names_release(&names);
    free(all);
    return refuted;
}
