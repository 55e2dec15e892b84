/* SPDX-License-Identifier: Apache-2.0 */
#include "execution_report.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report/json_string.h"
#include "object/elf_file.h"
#include "semantics/dwarf_expr.h"
#include "semantics/print/table_print.h"
#include "verify/audit/finding.h"

/* An object's symbols, opened again for names. */
struct names {
    int object;                    /* the object they are of, or -1 */
    struct elf_file ef;
    int ok;
};

static void names_for(struct names *n, const struct run_result *r, int object)
{
    if (n->object == object)
        return;
    if (n->ok)
        elf_file_close(&n->ef);
    n->object = object;
    char err[ELF_FILE_ERRLEN];
    n->ok = elf_file_open(&n->ef, r->objects[object], err, sizeof err) == 0;
    if (n->ok && elf_file_load_symbols(&n->ef, err, sizeof err) != 0) {
        elf_file_close(&n->ef);
        n->ok = 0;
    }
}

/* "func+0xoff" for ADDR, the function found among the symbols, else the FDE's start. */
static void where(const struct names *n, uint64_t addr, uint64_t function_start, char *buf, size_t size)
{
    const struct elf_symbol *best = NULL;
    for (size_t i = 0; n->ok && i < n->ef.nsymbols; i++) {
        const struct elf_symbol *s = &n->ef.symbols[i];
        /* A symbol of no size (hand-written assembly without .size) names the FDE it starts. */
        uint64_t extent = s->size ? s->size : s->value == function_start ? addr - s->value + 1 : 1;
        if (s->type == STT_FUNC && s->name[0] && addr >= s->value && addr - s->value < extent &&
            (!best || s->value > best->value))
            best = s;
    }
    if (best)
        snprintf(buf, size, "%s+0x%" PRIx64, best->name, addr - best->value);
    else
        snprintf(buf, size, "0x%" PRIx64 "+0x%" PRIx64, function_start, addr - function_start);
}

static enum finding_kind kind_of(int column)
{
    return column == RUN_COLUMN_CFA || column == ABI_RSP ? FINDING_CFA_MISMATCH
                                    : column == ABI_RA ? FINDING_RA_MISMATCH : FINDING_REG_MISMATCH;
}

/* The static audit's verdict at a refuted address: its JSON id and its words. */
static const char *const static_ids[] = {
    [RUN_STATIC_NOT_AUDITED] = "not-audited", [RUN_STATIC_FAILS] = "fails",
    [RUN_STATIC_UNDECIDED] = "undecided",     [RUN_STATIC_NOT_JUDGED] = "not-judged",
    [RUN_STATIC_HOLDS] = "holds",
};
static const char *const static_words[] = {
    [RUN_STATIC_NOT_AUDITED] = "not audited",
    [RUN_STATIC_FAILS] = "finds this rule wrong too: confirmed by execution",
    [RUN_STATIC_UNDECIDED] = "left this rule undecided: decided by execution",
    [RUN_STATIC_NOT_JUDGED] = "did not judge this row: decided by execution",
    [RUN_STATIC_HOLDS] = "PROVED this rule: the run refutes a proof, an internal error of dwcheck",
};

static void rule_text(const struct run_witness *w, char *buf, size_t size)
{
    if (w->column == RUN_COLUMN_CFA)
        table_print_cfa_rule(buf, size, &w->rule);
    else
        table_print_reg_rule_plain(buf, size, &w->rule);
}

static const char *column_text(int column)
{
    return column == RUN_COLUMN_CFA ? "CFA" : column == ABI_RA ? "return address" : dwarf_reg_name((unsigned)column);
}

static void message(const struct run_address *a, char *buf, size_t size)
{
    const struct run_witness *w = &a->witness;
    char rule[64];
    rule_text(w, rule, sizeof rule);
    const char *truth = w->column == RUN_COLUMN_CFA ? "the true CFA" : w->column == ABI_RA ? "the true return address"
                                                                                           : "the value at entry";
    if (w->gave_ok)
        snprintf(buf, size, "at run time the %s rule %s gave 0x%" PRIx64 ", %s is 0x%" PRIx64,
                 column_text(w->column), rule, w->gave, truth, w->truth);
    else
        snprintf(buf, size, "at run time the %s rule %s read unreadable memory, %s is 0x%" PRIx64,
                 column_text(w->column), rule, truth, w->truth);
}

static void text_finding(FILE *out, const struct run_result *r, const struct run_address *a, const char *place)
{
    char msg[256];
    message(a, msg, sizeof msg);
    const struct run_witness *w = &a->witness;
    fprintf(out, "%s: %s: error: %s: %s (held %" PRIu64 " of %" PRIu64 " executions)\n", r->objects[a->object],
            place, finding_kind_name(kind_of(w->column)), msg, a->held, a->executions);
    fprintf(out, "  witness: thread %d, rip 0x%" PRIx64, w->tid, w->rip);
    for (unsigned i = 0; i < w->nregs; i++)
        fprintf(out, "%s%s=0x%" PRIx64, i ? ", " : ", read ", dwarf_reg_name(w->reg[i]), w->reg_value[i]);
    fprintf(out, "; execution %" PRIu64 " of %" PRIu64 "\n", w->execution, a->executions);
    fprintf(out, "  static audit: %s\n", static_words[a->static_verdict]);
}

static void json_finding(FILE *out, const struct run_result *r, const struct run_address *a, const char *place,
                         int first)
{
    char msg[256], rule[64];
    message(a, msg, sizeof msg);
    const struct run_witness *w = &a->witness;
    rule_text(w, rule, sizeof rule);
    enum finding_kind k = kind_of(w->column);
    fprintf(out, "%s{\"kind\":\"%s\",\"severity\":\"%s\",\"file\":", first ? "" : ",", finding_kind_name(k),
            finding_severity_name(finding_kind_severity(k)));
    json_string_print(out, r->objects[a->object]);
    fputs(",\"function\":", out);
    json_string_print(out, place);
    fprintf(out, ",\"address\":%" PRIu64 ",\"function_start\":%" PRIu64 ",\"dwarf\":", a->addr, a->function_start);
    json_string_print(out, rule);
    fprintf(out, ",\"column\":%d,\"message\":", w->column);
    json_string_print(out, msg);
    fprintf(out, ",\"executions\":%" PRIu64 ",\"held\":%" PRIu64 ",\"refuted\":%" PRIu64, a->executions, a->held,
            a->refuted);
    fprintf(out, ",\"static\":\"%s\",\"confirmed\":%s", static_ids[a->static_verdict],
            a->static_verdict == RUN_STATIC_FAILS ? "true" : "false");
    fprintf(out, ",\"witness\":{\"thread\":%d,\"rip\":%" PRIu64 ",\"registers\":{", w->tid, w->rip);
    for (unsigned i = 0; i < w->nregs; i++)
        fprintf(out, "%s\"%s\":%" PRIu64, i ? "," : "", dwarf_reg_name(w->reg[i]), w->reg_value[i]);
    fputc('}', out);
    if (w->gave_ok)
        fprintf(out, ",\"gave\":%" PRIu64, w->gave);
    fprintf(out, ",\"truth\":%" PRIu64 ",\"execution\":%" PRIu64 "}}", w->truth, w->execution);
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
                 " without a table, %" PRIu64 " with a row not judged (no CFA, another context's, a rewritten return); %d threads, %d forks detached, %d execs\n",
            r->steps, r->seconds, per_second(r), r->max_steps_reached ? " (--max-steps reached: the rest untraced)" : "",
            r->steps_checked, naddresses, held, refuted, r->steps_no_truth, r->steps_no_table,
            r->steps_rule_unchecked, r->threads, r->forks_detached, r->execs);
    if (r->only)
        fprintf(out, "%s: --only: %" PRIu64 " breakpoint stops, stepping %.2f of %.2f s wall time (%.1f%%), %" PRIu64
                     " awaited returns never seen (frames cut by a longjmp or a throw)\n",
                argv[0], r->breakpoint_stops, r->stepped_seconds, r->seconds, 100 * stepped_share(r),
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
            r->only ? "true" : "false", r->breakpoint_stops, r->stepped_seconds, stepped_share(r), r->returns_missed);
    fprintf(out, ",\"threads\":%d,\"forks_detached\":%d,\"execs\":%d,\"max_steps_reached\":%s,\"findings\":[",
            r->threads, r->forks_detached, r->execs, r->max_steps_reached ? "true" : "false");
}

size_t execution_report(FILE *out, const struct run_result *r, char *const *argv, int json)
{
    size_t n;
    struct run_address *all = run_result_sorted(r, &n);
    uint64_t held = 0;
    for (size_t i = 0; i < n; i++)
        held += all[i].held;
    if (json)
        json_head(out, r, argv, n, held);
    struct names names = {.object = -1};
    size_t refuted = 0;
    for (size_t i = 0; i < n; i++) {
        if (!all[i].refuted)
            continue;
        char place[512];
        names_for(&names, r, (int)all[i].object);
        where(&names, all[i].addr, all[i].function_start, place, sizeof place);
        if (json)
            json_finding(out, r, &all[i], place, refuted == 0);
        else
            text_finding(out, r, &all[i], place);
        refuted++;
    }
    if (names.ok)
        elf_file_close(&names.ef);
    if (json)
        fputs("]}\n", out);
    else
        text_figures(out, r, argv, n, held, refuted);
    free(all);
    return refuted;
}
