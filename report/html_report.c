/* SPDX-License-Identifier: Apache-2.0 */
/*
 * html_report: the offline HTML rendering of an audit (see the header).
 */
#include "html_report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kit/grow.h"
#include "sys/error.h"
#include "sys/output_file.h"
#include "report/html_text.h"
#include "report/html_window.h"
#include "report/text_report.h"
#include "semantics/unwind_table.h"

/* A file of the report: audited, or not (failed, or skipped), for REASON. */
enum html_file_status { HTML_AUDITED, HTML_FAILED, HTML_SKIPPED };

/* A finding as the page shows it, its excerpt apart and only when it has
 * one: a finding read back from JSON (dwcheck --merge) has none, and is
 * kept in a fifth of a struct finding's memory. */
struct html_finding {
    uint8_t kind, severity;
    int column;
    uint64_t address;
    size_t count;
    char where[FINDING_WHERE_LEN];
    char source[sizeof ((struct finding *)0)->source];
    char dwarf[sizeof ((struct finding *)0)->dwarf];
    char synth[sizeof ((struct finding *)0)->synth];
    char message[sizeof ((struct finding *)0)->message];
    char claim[sizeof ((struct finding *)0)->claim];
    char code[sizeof ((struct finding *)0)->code];
    struct counterexample cx;
    char *fix;                    /* owned: its fix as the text prints it (text_report_fix_lines); NULL: none */
    struct excerpt *excerpt;      /* owned; NULL: none */
};

struct html_file {
    char *path;                   /* the name it is shown and explained under */
    char *also;                   /* its other names, ", "-separated, or NULL */
    enum html_file_status status;
    char *reason;                 /* why not audited, or NULL */
    struct check_result result;   /* its counts (no findings: FINDINGS); zero if not audited */
    struct html_finding *findings;   /* [result.nfindings], room for CAP */
    size_t cap;
    size_t by_severity[3];
};

struct html_report {
    struct html_file *files;
    size_t n, cap;
    int merged;                   /* results read back from JSON: no windows */
    int open;                     /* the last file takes findings (html_report_file_begin) */
};

struct html_report *html_report_new(void)
{
    return calloc(1, sizeof(struct html_report));
}

void html_report_merged(struct html_report *h)
{
    h->merged = 1;
}

static void file_release(struct html_file *f)
{
    free(f->path);
    free(f->also);
    free(f->reason);
    for (size_t j = 0; j < f->result.nfindings; j++) {
        free(f->findings[j].excerpt);
        free(f->findings[j].fix);
    }
    free(f->findings);
}

void html_report_free(struct html_report *h)
{
    if (!h)
        return;
    for (size_t i = 0; i < h->n; i++)
        file_release(&h->files[i]);
    free(h->files);
    free(h);
}

/* A new file, zeroed, at the end.  Returns it, or NULL when out of memory. */
static struct html_file *grow(struct html_report *h)
{
    struct html_file *files = grow_array(h->files, &h->cap, h->n + 1, sizeof *files);
    if (!files)
        return NULL;
    h->files = files;
    memset(&h->files[h->n], 0, sizeof h->files[h->n]);
    return &h->files[h->n];
}

static int add_not_audited(struct html_report *h, const char *path, enum html_file_status status,
                           const char *reason)
{
    struct html_file *f = grow(h);
    if (!f)
        return -1;
    f->status = status;
    f->path = strdup(path);
    f->reason = strdup(reason);
    if (!f->path || !f->reason) {
        file_release(f);
        return -1;
    }
    h->n++;
    return 0;
}

int html_report_add_error(struct html_report *h, const char *path, const char *reason)
{
    return add_not_audited(h, path, HTML_FAILED, reason);
}

int html_report_add_skipped(struct html_report *h, const char *path, const char *reason)
{
    return add_not_audited(h, path, HTML_SKIPPED, reason);
}

/* NAMES[1..NNAMES), ", "-separated, or NULL for none (or out of memory: *OOM). */
static char *other_names(const char *const *names, size_t nnames, int *oom)
{
    size_t len = 0;
    for (size_t i = 1; i < nnames; i++)
        len += strlen(names[i]) + 2;
    if (!len)
        return NULL;
    char *s = malloc(len + 1);
    if (!s) {
        *oom = 1;
        return NULL;
    }
    s[0] = '\0';
    for (size_t i = 1; i < nnames; i++) {
        if (i > 1)
            strcat(s, ", ");
        strcat(s, names[i]);
    }
    return s;
}

static void take_finding(struct html_finding *to, const struct finding *from)
{
    to->kind = from->kind;
    to->severity = from->severity;
    to->column = from->column;
    to->address = from->address;
    to->count = from->count;
    finding_where(to->where, sizeof to->where, from);
    memcpy(to->source, from->source, sizeof to->source);
    memcpy(to->dwarf, from->dwarf, sizeof to->dwarf);
    memcpy(to->synth, from->synth, sizeof to->synth);
    memcpy(to->message, from->message, sizeof to->message);
    memcpy(to->claim, from->claim, sizeof to->claim);
    memcpy(to->code, from->code, sizeof to->code);
    to->cx = from->cx;
}

/* F's fix as the text report writes it, into *TEXT (allocated; NULL when F
 * has none).  0, or -1 when out of memory. */
static int take_fix(char **text, const struct finding *f)
{
    *text = NULL;
    if (f->fix.state == FIX_NONE)
        return 0;
    size_t len = 0;
    FILE *m = open_memstream(text, &len);
    if (!m)
        return -1;
    text_report_fix_lines(m, "", &f->fix, f->function_start, f->source);
    if (fclose(m) != 0) {
        free(*text);
        *text = NULL;
        return -1;
    }
    return 0;
}

int html_report_file_begin(struct html_report *h, const char *const *names, size_t nnames,
                           const struct check_result *r)
{
    h->open = 0;
    struct html_file *f = grow(h);
    if (!f)
        return -1;
    f->status = HTML_AUDITED;
    f->result = *r;
    f->result.findings = NULL;
    f->result.nfindings = f->result.cap = 0;
    int oom = 0;
    f->path = strdup(names[0]);
    f->also = other_names(names, nnames, &oom);
    if (oom || !f->path) {
        file_release(f);
        return -1;
    }
    h->n++;
    h->open = 1;
    return 0;
}

int html_report_finding(struct html_report *h, const struct finding *from)
{
    if (!h->open)
        return -1;
    struct html_file *f = &h->files[h->n - 1];
    struct html_finding *more = grow_array(f->findings, &f->cap, f->result.nfindings + 1, sizeof *more);
    if (!more) {
        h->open = 0;
        return -1;
    }
    f->findings = more;
    struct html_finding *to = &f->findings[f->result.nfindings];
    take_finding(to, from);
    to->excerpt = NULL;
    if ((from->excerpt.nrows && !(to->excerpt = malloc(sizeof *to->excerpt))) || take_fix(&to->fix, from) != 0) {
        free(to->excerpt);
        h->open = 0;   /* the file keeps the findings before this one */
        return -1;
    }
    if (to->excerpt)
        *to->excerpt = from->excerpt;
    f->result.nfindings++;
    f->by_severity[from->severity]++;
    return 0;
}

void html_report_file_end(struct html_report *h)
{
    if (!h->n || h->files[h->n - 1].status != HTML_AUDITED)
        return;
    struct html_file *f = &h->files[h->n - 1];
    h->open = 0;
    /* The room left by doubling, given back (or kept, if realloc will not). */
    if (f->result.nfindings && f->cap > f->result.nfindings) {
        struct html_finding *fit = realloc(f->findings, f->result.nfindings * sizeof *fit);
        if (fit) {
            f->findings = fit;
            f->cap = f->result.nfindings;
        }
    }
}

const char html_report_style[] =
    "body{font-family:sans-serif;margin:2em;color:#222}"
    "h1{font-size:1.6em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ccc}h3{font-size:1.05em}"
    "table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ddd;padding:2px 6px;"
    "font-size:.85em;vertical-align:top}th{background:#f3f3f3}td.num{text-align:right}"
    "code,.where,table.window td,table.verdict td{font-family:monospace,monospace}"
    ".finding{margin:1em 0;padding:.5em;border-left:4px solid #c33;background:#fafafa}"
    ".finding.warning{border-color:#d90}.finding.info{border-color:#39c}"
    ".sev{padding:0 4px;border-radius:3px;color:#fff;background:#c33;font-size:.85em}"
    ".sev.warning{background:#d90}.sev.info{background:#39c}"
    ".where{font-weight:bold}.msg,.note{margin:.3em 0}.note{color:#555}"
    "table.window td{white-space:pre}table.window tr:first-child th:nth-child(5),"
    "table.window tr+tr th:nth-child(12),table.window td:nth-child(12){border-left:2px solid #999}"
    "tr.here td{background:#fff3c4}td.d{color:#b00;font-weight:bold}"
    "tr.failed td{color:#b00}tr.skipped td{color:#777}"
    "dl.kind dt,dl.legend dt{font-weight:bold;margin-top:.4em}dl.kind dd,dl.legend dd{margin-left:1.5em}"
    ".summary{font-size:1.1em}section:target,.finding:target{outline:3px solid #fb0;background:#fffbea}"
    "svg a:hover rect{opacity:.7}";

static const char *const severity_colour[3] = {"#39c", "#d90", "#c33"};   /* info, warning, error */

/* The legend: what the page's words, colours, cells and marks mean. */
static const char legend[] =
    "<h2 id=\"legend\">Legend</h2>\n<dl class=\"legend\">\n"
    "<dt>Severities</dt><dd><span class=\"sev error\">error</span> the machine code proves a rule of the "
    "table wrong, or the table is malformed: unwinding through that code goes wrong (dwcheck fails on "
    "errors unless told otherwise, <code>--fail-on</code>). <span class=\"sev warning\">warning</span> "
    "nothing proved wrong, but unwinding there is at risk or impossible (code no FDE covers, a rule that "
    "reads what a callee may change, no table at all). <span class=\"sev info\">info</span> (counted as "
    "notes) nothing wrong: a rule that says less than it could, a construct worth knowing.</dd>\n"
    "<dt>The chart</dt><dd>A bar for each kind of finding in the report: its length the number of "
    "findings, its colour the kind's severity (red errors, amber warnings, blue info).  A finding stands "
    "for the addresses of one function where the same column's rule makes the same kind of finding: it "
    "shows the first, and says how many there are.  A bar leads to its kind's explanation; a name in the "
    "table of files to the file's findings.</dd>\n"
    "<dt>Rules</dt><dd>As <code>readelf -wF</code> and dwtable print them (<code>man dwcheck</code>, RULE "
    "NOTATION).  The CFA (canonical frame address) is the caller's rsp before the call, so the return "
    "address is at CFA-8.  CFA rules: <code>rsp+8</code> (register plus offset: rsp+8 at a function's "
    "entry, rbp+16 with a frame pointer), <code>exp</code> (a DWARF expression).  Register rules: "
    "<code>u</code> undefined, or not described (a callee-saved register is then unchanged); <code>s</code> "
    "same value; <code>c-16</code> saved at CFA-16; <code>v+16</code> the value is CFA+16; <code>r0 "
    "(rax)</code> held in register 0; <code>exp</code> saved at the address an expression computes; "
    "<code>vexp</code> the value an expression computes.  On synthesis's side, <code>?</code>: what "
    "synthesis could not determine.  SFrame rules: <code>sp+8</code>, <code>fp+16</code>.</dd>\n"
    "<dt>Findings</dt><dd>Each with the rule of the table it names (its column, CFA or a register), "
    "synthesis's rule there and the verdict; the counterexample of a rule z3 refutes; its window; and the "
    "<code>dwcheck --explain</code> command that shows every rule of the row there with its verdict and "
    "why.</dd>\n"
    "<dt>Windows</dt><dd>The instructions around a finding, each with the row of the table (DWARF) and the "
    "row synthesis derives from the code there, as <code>dwcheck --explain</code> prints them: "
    "<code>&gt;</code> marks the finding's instruction; <code>*</code> a cell where the two rows differ, "
    "which is where to look, not a verdict (<code>u</code> where synthesis knows a slot differs, and "
    "holds); <code>-</code> alone on the DWARF side: no FDE covers the instruction; <code>?</code> alone "
    "on synthesis's side: no path reaches it.</dd>\n</dl>\n";

/* A finding's anchor: "f-N-M", file I and finding J counted from 1. */
static void finding_id(char *buf, size_t size, size_t i, size_t j)
{
    snprintf(buf, size, "f-%zu-%zu", i + 1, j + 1);
}

static void chart(FILE *out, const size_t *by_kind)
{
    size_t max = 1;
    int shown = 0;
    for (int k = 0; k < FINDING_KINDS; k++) {
        if (by_kind[k] > max)
            max = by_kind[k];
        shown += by_kind[k] > 0;
    }
    int height = 24 * (shown ? shown : 1) + 10;
    fprintf(out, "<svg id=\"chart\" width=\"680\" height=\"%d\" role=\"img\" "
                 "aria-label=\"findings by kind\" xmlns=\"http://www.w3.org/2000/svg\">\n", height);
    int y = 5;
    for (int k = 0; k < FINDING_KINDS; k++) {
        if (!by_kind[k])
            continue;
        enum finding_kind kind = (enum finding_kind)k;
        int w = (int)(400.0 * (double)by_kind[k] / (double)max) + 1;
        fprintf(out, "<a href=\"#kind-%s\"><title>", finding_kind_name(kind));
        html_text(out, finding_kind_title(kind));
        fprintf(out, " (%s): %zu</title><text x=\"0\" y=\"%d\" font-size=\"13\">%s</text>"
                     "<rect x=\"210\" y=\"%d\" width=\"%d\" height=\"16\" fill=\"%s\"/>"
                     "<text x=\"%d\" y=\"%d\" font-size=\"13\">%zu</text></a>\n",
                finding_severity_name(finding_kind_severity(kind)), by_kind[k], y + 13, finding_kind_name(kind), y, w,
                severity_colour[finding_kind_severity(kind)], 216 + w, y + 13, by_kind[k]);
        y += 24;
    }
    if (!shown)
        fprintf(out, "<text x=\"0\" y=\"18\" font-size=\"13\">no findings</text>\n");
    fputs("</svg>\n", out);
}

static void file_name(FILE *out, const struct html_file *f)
{
    html_text(out, f->path);
    if (f->also) {
        fputs(" (also named: ", out);
        html_text(out, f->also);
        fputc(')', out);
    }
}

static void files_table(FILE *out, const struct html_report *h)
{
    fputs("<table id=\"files\"><tr><th>file</th><th>FDEs</th><th>rows checked</th>"
          "<th>addresses checked</th><th>unchecked</th><th>errors</th><th>warnings</th>"
          "<th>notes</th></tr>\n", out);
    for (size_t i = 0; i < h->n; i++) {
        const struct html_file *f = &h->files[i];
        const struct check_result *r = &f->result;
        if (f->status != HTML_AUDITED) {
            int failed = f->status == HTML_FAILED;
            fprintf(out, "<tr class=\"%s\"><td>", failed ? "failed" : "skipped");
            html_text(out, f->path);
            fprintf(out, "</td><td colspan=\"7\">%s: ", failed ? "could not be audited" : "skipped");
            html_text(out, f->reason);
            fputs("</td></tr>\n", out);
            continue;
        }
        size_t e = f->by_severity[SEVERITY_ERROR], w = f->by_severity[SEVERITY_WARNING];
        fputs("<tr><td>", out);
        if (r->nfindings)
            fprintf(out, "<a href=\"#file-%zu\">", i + 1);
        file_name(out, f);
        fputs(r->nfindings ? "</a></td>" : "</td>", out);
        fprintf(out, "<td class=\"num\">%zu</td><td class=\"num\">%zu</td><td class=\"num\">%zu</td>"
                     "<td class=\"num\">%zu</td><td class=\"num\">%zu</td><td class=\"num\">%zu</td>"
                     "<td class=\"num\">%zu</td></tr>\n",
                r->fdes, r->rows_checked, r->addresses_checked, r->unchecked_total, e, w,
                r->nfindings - e - w);
    }
    fputs("</table>\n", out);
}

/* Each kind of finding present, explained once, with links to its findings. */
static void kinds_explained(FILE *out, const struct html_report *h, const size_t *by_kind)
{
    fputs("<h2 id=\"kinds\">Kinds of finding</h2>\n", out);
    for (int k = 0; k < FINDING_KINDS; k++) {
        if (!by_kind[k])
            continue;
        enum finding_kind kind = (enum finding_kind)k;
        const char *sev = finding_severity_name(finding_kind_severity(kind));
        fprintf(out, "<section id=\"kind-%s\"><h3>%s: ", finding_kind_name(kind), finding_kind_name(kind));
        html_text(out, finding_kind_title(kind));
        fprintf(out, " <span class=\"sev %s\">%s</span></h3>\n<dl class=\"kind\"><dt>What it means</dt><dd>",
                sev, sev);
        html_text_code(out, finding_kind_help(kind));
        fputs("</dd>\n<dt>Why it matters</dt><dd>", out);
        html_text_code(out, finding_kind_impact(kind));
        fputs("</dd>\n<dt>How to fix it</dt><dd>", out);
        html_text_code(out, finding_kind_remedy(kind));
        fprintf(out, "</dd>\n<dt>Findings (%zu)</dt><dd>", by_kind[k]);
        size_t listed = 0;
        for (size_t i = 0; i < h->n; i++) {
            const char *slash = strrchr(h->files[i].path, '/');
            for (size_t j = 0; j < h->files[i].result.nfindings; j++) {
                const struct html_finding *f = &h->files[i].findings[j];
                if (f->kind != k)
                    continue;
                char id[48];
                finding_id(id, sizeof id, i, j);
                fprintf(out, "%s<a href=\"#%s\">", listed++ ? ", " : "", id);
                html_text(out, slash ? slash + 1 : h->files[i].path);
                fputs(": ", out);
                html_text(out, f->where);
                fputs("</a>", out);
            }
        }
        fputs("</dd></dl></section>\n", out);
    }
}

/* What the table claims and what the code does, in words; then the fix:
 * the .cfi_* directives to add and where (as the text report has them). */
static void finding_fix(FILE *out, const struct html_finding *f)
{
    if (f->claim[0] || f->code[0]) {
        fputs("<div class=\"msg\">", out);
        if (f->claim[0]) {
            fputs("table: ", out);
            html_text(out, f->claim);
        }
        if (f->code[0]) {
            fputs(f->claim[0] ? "<br>code: " : "code: ", out);
            html_text(out, f->code);
        }
        fputs("</div>\n", out);
    }
    if (f->fix) {
        fputs("<pre class=\"fix\">", out);
        html_text(out, f->fix);
        fputs("</pre>\n", out);
    }
}

/* Whose rule a finding of KIND names: SFrame's for the .sframe kinds (their
 * `dwarf` text is then the SFrame rule, verify/audit/finding.h), else DWARF's. */
static const char *rule_table(enum finding_kind kind)
{
    return kind == FINDING_SFRAME_CFA_MISMATCH || kind == FINDING_SFRAME_FP_MISMATCH ||
                   kind == FINDING_SFRAME_RA_MISMATCH || kind == FINDING_SFRAME_DIFFERS
               ? "SFrame" : "DWARF";
}

/* The table's rule F names, synthesis's there, and what F says of it. */
static void finding_verdict(FILE *out, const struct html_finding *f)
{
    if (!f->dwarf[0] && !f->synth[0])
        return;
    const char *column = unwind_column_name(f->column);
    const char *verdict = finding_kind_verdict((enum finding_kind)f->kind);
    fprintf(out, "<table class=\"verdict\"><tr><th>column</th><th>%s rule</th><th>verdict</th>"
                 "<th>synthesis</th></tr>\n<tr><td>%s</td><td>", rule_table((enum finding_kind)f->kind),
            column ? column : "?");
    html_text(out, f->dwarf[0] ? f->dwarf : "-");
    fprintf(out, "</td><td>%s</td><td>", verdict[0] ? verdict : "-");
    html_text(out, f->synth[0] ? f->synth : "-");
    fputs("</td></tr></table>\n", out);
}

/* Finding J of file I, whole: the --explain view of its address. */
static void finding_detail(FILE *out, const struct html_report *h, size_t i, size_t j)
{
    const struct html_file *file = &h->files[i];
    const struct html_finding *f = &file->findings[j];
    const char *kind = finding_kind_name((enum finding_kind)f->kind), *sev = finding_severity_name(f->severity);
    char id[48];
    finding_id(id, sizeof id, i, j);
    fprintf(out, "<div class=\"finding %s\" id=\"%s\"><div class=\"where\"><a href=\"#%s\">", sev, id, id);
    html_text(out, f->where);
    fprintf(out, "</a> at 0x%llx", (unsigned long long)f->address);
    if (f->source[0]) {
        fputs(" (", out);
        html_text(out, f->source);
        fputc(')', out);
    }
    fprintf(out, " in <a href=\"#file-%zu\">", i + 1);
    html_text(out, file->path);
    fprintf(out, "</a></div>\n<div class=\"msg\"><span class=\"sev %s\">%s</span> <a href=\"#kind-%s\">%s</a>: ",
            sev, sev, kind, kind);
    html_text(out, f->message);
    if (f->count > 1)
        fprintf(out, " (%zu addresses)", f->count);
    fputs("</div>\n", out);
    finding_verdict(out, f);
    if (f->cx.present) {
        char cx[512];
        counterexample_format(cx, sizeof cx, &f->cx);
        fputs("<div class=\"msg\">counterexample: ", out);
        html_text(out, cx);
        fputs("</div>\n", out);
    }
    finding_fix(out, f);
    if (f->excerpt)
        html_window(out, f->excerpt);
    else
        fprintf(out, "<div class=\"note\">No window: %s</div>\n",
                h->merged ? "findings read back from JSON (dwcheck --merge) carry no code."
                          : "the audit gathers the code around a file's first findings only, in the "
                            "functions it decodes.");
    /* The same view, whole, with every rule's verdict and why (but in a file
     * without .eh_frame, where --explain has nothing to explain). */
    if (f->kind != FINDING_NO_UNWIND_TABLE) {
        fprintf(out, "<div class=\"msg\">explained by: <code>dwcheck --explain=0x%llx '",
                (unsigned long long)f->address);
        html_text_shell_quoted(out, file->path);
        fputs("'</code></div>", out);
    }
    fputs("</div>\n", out);
}

/* File I's section: its findings listed, then each one's detail. */
static void file_section(FILE *out, const struct html_report *h, size_t i)
{
    const struct html_file *file = &h->files[i];
    const struct check_result *r = &file->result;
    fprintf(out, "<section id=\"file-%zu\"><h3>", i + 1);
    file_name(out, file);
    fprintf(out, "</h3>\n<p>%zu errors, %zu warnings, %zu notes:</p>\n"
                 "<table class=\"list\"><tr><th>severity</th><th>kind</th><th>where</th><th>message</th></tr>\n",
            file->by_severity[SEVERITY_ERROR], file->by_severity[SEVERITY_WARNING],
            file->by_severity[SEVERITY_INFO]);
    for (size_t j = 0; j < r->nfindings; j++) {
        const struct html_finding *f = &file->findings[j];
        const char *kind = finding_kind_name((enum finding_kind)f->kind), *sev = finding_severity_name(f->severity);
        char id[48];
        finding_id(id, sizeof id, i, j);
        fprintf(out, "<tr><td><span class=\"sev %s\">%s</span></td><td><a href=\"#kind-%s\">%s</a></td>"
                     "<td class=\"where\"><a href=\"#%s\">", sev, sev, kind, kind, id);
        html_text(out, f->where);
        fputs("</a></td><td>", out);
        html_text(out, f->message);
        fputs("</td></tr>\n", out);
    }
    fputs("</table>\n", out);
    for (size_t j = 0; j < r->nfindings; j++)
        finding_detail(out, h, i, j);
    fputs("</section>\n", out);
}

static int write_page(FILE *out, const struct html_report *h)
{
    size_t by_kind[FINDING_KINDS] = {0}, sev[3] = {0}, checked = 0, unchecked = 0, padding = 0;
    size_t audited = 0, failed = 0, skipped = 0, nfindings = 0;
    for (size_t i = 0; i < h->n; i++) {
        const struct check_result *r = &h->files[i].result;
        audited += h->files[i].status == HTML_AUDITED;
        failed += h->files[i].status == HTML_FAILED;
        skipped += h->files[i].status == HTML_SKIPPED;
        checked += r->addresses_checked;
        unchecked += r->unchecked_total;
        padding += r->unchecked[UNCHECKED_PADDING];
        nfindings += r->nfindings;
        for (size_t j = 0; j < r->nfindings; j++) {
            by_kind[h->files[i].findings[j].kind]++;
            sev[h->files[i].findings[j].severity]++;
        }
    }
    fprintf(out, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                 "<title>dwcheck audit</title><style>%s</style></head><body>\n"
                 "<h1>dwcheck audit of unwind tables</h1>\n"
                 "<p class=\"summary\" id=\"summary\">%zu files audited",
            html_report_style, audited);
    if (failed)
        fprintf(out, ", <b>%zu could not be audited</b>", failed);
    if (skipped)
        fprintf(out, ", %zu skipped (not ELF)", skipped);
    fprintf(out, "; %zu addresses checked, %zu unchecked "
                 "(%zu of them padding or traps); <b>%zu errors</b>, %zu warnings, %zu notes.</p>\n"
                 "<p>Every rule of every row of each file's <code>.eh_frame</code> is evaluated in "
                 "the state derived from the machine code at that address.</p>\n"
                 "<p>Contents: <a href=\"#legend\">legend</a>, <a href=\"#chart\">findings by kind</a>, "
                 "<a href=\"#files\">files</a>%s</p>\n",
            checked, unchecked, padding, sev[SEVERITY_ERROR], sev[SEVERITY_WARNING], sev[SEVERITY_INFO],
            nfindings ? ", <a href=\"#kinds\">kinds of finding</a>, <a href=\"#findings\">findings by file</a>."
                      : ".");
    fputs(legend, out);
    fputs("<h2>Findings by kind</h2>\n", out);
    chart(out, by_kind);
    fputs("<h2>Files</h2>\n", out);
    files_table(out, h);
    if (nfindings) {
        kinds_explained(out, h, by_kind);
        fputs("<h2 id=\"findings\">Findings by file</h2>\n", out);
        for (size_t i = 0; i < h->n; i++)
            if (h->files[i].result.nfindings)
                file_section(out, h, i);
    }
    fputs("</body></html>\n", out);
    return ferror(out) ? -1 : 0;
}

static int write_page_stream(FILE *out, const void *h)
{
    return write_page(out, h);
}

int html_report_write(const struct html_report *h, const char *dir, char *err, size_t errlen)
{
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return error_set(err, errlen, "cannot create %s: %s", dir, strerror(errno));
    char final[4096], why[512];
    snprintf(final, sizeof final, "%s/index.html", dir);
    /* Through a temporary file beside it, renamed into place (sys/output_file). */
    if (output_write_stream(final, write_page_stream, h, why, sizeof why) != 0)
        return error_set(err, errlen, "%s: %s", final, why);
    return 0;
}
