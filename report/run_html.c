/* SPDX-License-Identifier: Apache-2.0 */
#include "run_html.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "report/html_report.h"
#include "report/html_text.h"
#include "report/run_words.h"
#include "sys/error.h"
#include "sys/output_file.h"

struct page {
    const struct run_result *r;
    char *const *argv;
    struct run_address *all;
    size_t n;
};

static void summary(FILE *out, const struct page *p)
{
    const struct run_result *r = p->r;
    uint64_t held = 0;
    size_t refuted = 0;
    for (size_t i = 0; i < p->n; i++) {
        held += p->all[i].held;
        refuted += p->all[i].refuted != 0;
    }
    fputs("<h1>dwcheck run: unwind tables checked as the program ran</h1>\n<p class=\"summary\" id=\"summary\"><code>",
          out);
    for (size_t i = 0; p->argv[i]; i++) {
        fputs(i ? " " : "", out);
        html_text(out, p->argv[i]);
    }
    fputs("</code>: ", out);
    if (r->exit_signal)
        fprintf(out, "killed by signal %d", r->exit_signal);
    else
        fprintf(out, "exit status %d", r->exit_code);
    fprintf(out, "; %" PRIu64 " steps in %.2f s%s; %" PRIu64 " checked at %zu addresses, %" PRIu64
                 " held; <b>%zu addresses refuted</b>; static audit of %zu files in %.2f s</p>\n",
            r->steps, r->seconds, r->max_steps_reached ? " (--max-steps reached: the rest untraced)" : "",
            r->steps_checked, p->n, held, refuted, r->objects_audited, r->join_seconds);
    for (size_t o = 0; o < r->nobjects; o++) {
        if (!r->not_audited[o])
            continue;
        fputs("<p class=\"note\">", out);
        html_text(out, r->objects[o]);
        fputs(": not audited: ", out);
        html_text(out, r->not_audited[o]);
        fputs("</p>\n", out);
    }
    if (r->join_out_of_memory)
        fputs("<p class=\"note\">objects not audited: their names lost (out of memory)</p>\n", out);
}

static void refutation(FILE *out, const struct page *p, const struct run_address *a, size_t id,
                       struct run_words_names *names)
{
    char place[512], msg[256], witness[256];
    run_words_where(names, p->r, (int)a->object, a->addr, a->function_start, place, sizeof place);
    run_words_message(a, msg, sizeof msg);
    run_words_witness(a, witness, sizeof witness);
    fprintf(out, "<div class=\"finding\" id=\"r-%zu\"><span class=\"sev\">error</span> <span class=\"where\">", id);
    html_text(out, p->r->objects[a->object]);
    fputs(": ", out);
    html_text(out, place);
    fprintf(out, "</span>: %s<p class=\"msg\">", finding_kind_name(run_words_kind(a->witness.column)));
    html_text(out, msg);
    fprintf(out, " (held %" PRIu64 " of %" PRIu64 " executions)</p><p class=\"note\">witness: ", a->held,
            a->executions);
    html_text(out, witness);
    fprintf(out, "</p><p class=\"note\">static audit: %s%s</p></div>\n",
            a->static_verdict == RUN_STATIC_HOLDS ? "<b>INTERNAL ERROR</b>: " : "",
            run_words_static_refuted(a->static_verdict));
}

/* A table row per function with held addresses of static verdict V (or V2). */
static void held_table(FILE *out, const struct page *p, const char *title, unsigned v, unsigned v2,
                       struct run_words_names *names)
{
    int open = 0;
    for (size_t i = 0; i < p->n;) {
        size_t count = 0, end = i;
        uint64_t runs = 0;
        for (; end < p->n && p->all[end].object == p->all[i].object &&
               p->all[end].function_start == p->all[i].function_start;
             end++)
            if (!p->all[end].refuted && (p->all[end].static_verdict == v || p->all[end].static_verdict == v2))
                count++, runs += p->all[end].executions;
        if (count) {
            if (!open)
                fprintf(out, "<h2>%s</h2>\n<table><tr><th>file</th><th>function</th><th>addresses</th>"
                             "<th>executions, all held</th></tr>\n", title);
            open = 1;
            char place[512];
            run_words_function(names, p->r, (int)p->all[i].object, p->all[i].function_start, place, sizeof place);
            fputs("<tr><td>", out);
            html_text(out, p->r->objects[p->all[i].object]);
            fputs("</td><td class=\"where\">", out);
            html_text(out, place);
            fprintf(out, "</td><td class=\"num\">%zu</td><td class=\"num\">%" PRIu64 "</td></tr>\n", count, runs);
        }
        i = end;
    }
    if (open)
        fputs("</table>\n", out);
}

static int write_page(FILE *out, const void *arg)
{
    const struct page *p = arg;
    fprintf(out, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                 "<title>dwcheck run</title><style>%s</style></head><body>\n", html_report_style);
    summary(out, p);
    struct run_words_names names;
    run_words_names_init(&names);
    fputs("<h2 id=\"refuted\">Refuted at run time</h2>\n", out);
    size_t id = 0;
    for (size_t i = 0; i < p->n; i++)
        if (p->all[i].refuted)
            refutation(out, p, &p->all[i], ++id, &names);
    if (!id)
        fputs("<p>None: every rule checked held.</p>\n", out);
    held_table(out, p, "Left undecided by the static audit, held at run time", RUN_STATIC_UNDECIDED,
               RUN_STATIC_NOT_JUDGED, &names);
    held_table(out, p, "Found wrong by the static audit, held at run time", RUN_STATIC_FAILS, RUN_STATIC_FAILS,
               &names);
    run_words_names_release(&names);
    fputs("</body></html>\n", out);
    return ferror(out) ? -1 : 0;
}

int run_html_write(const struct run_result *r, char *const *argv, const char *dir, char *err, size_t errlen)
{
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return error_set(err, errlen, "cannot create %s: %s", dir, strerror(errno));
    struct page p = {r, argv, NULL, 0};
    p.all = run_result_sorted(r, &p.n);
    if (!p.all && r->used)
        return error_set(err, errlen, "out of memory");
    char final[4096], why[512];
    snprintf(final, sizeof final, "%s/index.html", dir);
    int rc = output_write_stream(final, write_page, &p, why, sizeof why);
    free(p.all);
    if (rc != 0)
        return error_set(err, errlen, "%s: %s", final, why);
    return 0;
}
