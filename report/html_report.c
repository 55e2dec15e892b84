/* SPDX-License-Identifier: Apache-2.0 */
/*
 * html_report: the offline HTML rendering of an audit.
 */
#include "html_report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "object/error.h"
#include "object/output_file.h"
#include "report/json_string.h"

/* A file of the report: audited (REASON NULL), or not, for REASON. */
enum html_file_status { HTML_AUDITED, HTML_FAILED, HTML_SKIPPED };

/* A finding as the page shows it, its excerpt apart and only when it has
 * one: a finding read back from JSON (dwcheck --merge) has none, and is
 * kept in a fifth of a struct finding's memory. */
struct html_finding {
    uint8_t kind, severity;
    uint64_t address;
    size_t count;
    char where[FINDING_WHERE_LEN];
    char source[sizeof ((struct finding *)0)->source];
    char message[sizeof ((struct finding *)0)->message];
    struct counterexample cx;
    struct excerpt *excerpt;      /* owned; NULL: none */
};

struct html_file {
    char *path;
    enum html_file_status status;
    char *reason;                 /* why not audited, or NULL */
    struct check_result result;   /* its counts (no findings: FINDINGS); zero if not audited */
    struct html_finding *findings;
    size_t by_severity[3];
};

struct html_report {
    struct html_file *files;
    size_t n, cap;
};

struct html_report *html_report_new(void)
{
    return calloc(1, sizeof(struct html_report));
}

void html_report_free(struct html_report *h)
{
    if (!h)
        return;
    for (size_t i = 0; i < h->n; i++) {
        free(h->files[i].path);
        free(h->files[i].reason);
        for (size_t j = 0; j < h->files[i].result.nfindings; j++)
            free(h->files[i].findings[j].excerpt);
        free(h->files[i].findings);
    }
    free(h->files);
    free(h);
}

/* Room for one more file.  Returns 0, or -1 when out of memory. */
static int grow(struct html_report *h)
{
    if (h->n == h->cap) {
        size_t ncap = h->cap ? h->cap * 2 : 16;
        struct html_file *f = realloc(h->files, ncap * sizeof *f);
        if (!f)
            return -1;
        h->files = f;
        h->cap = ncap;
    }
    return 0;
}

static int add_not_audited(struct html_report *h, const char *path, enum html_file_status status,
                           const char *reason)
{
    if (grow(h) != 0)
        return -1;
    struct html_file *f = &h->files[h->n];
    memset(f, 0, sizeof *f);
    f->status = status;
    f->path = strdup(path);
    f->reason = strdup(reason);
    if (!f->path || !f->reason) {
        free(f->path);
        free(f->reason);
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

int html_report_add(struct html_report *h, const char *path, const struct check_result *r)
{
    if (grow(h) != 0)
        return -1;
    struct html_file *f = &h->files[h->n];
    memset(f, 0, sizeof *f);
    f->status = HTML_AUDITED;
    f->result = *r;
    f->result.findings = NULL;
    f->result.nfindings = f->result.cap = 0;
    f->path = strdup(path);
    f->findings = r->nfindings ? calloc(r->nfindings, sizeof *f->findings) : NULL;
    int oom = !f->path || (r->nfindings && !f->findings);
    for (size_t j = 0; !oom && j < r->nfindings; j++) {
        const struct finding *from = &r->findings[j];
        struct html_finding *to = &f->findings[j];
        f->result.nfindings++;
        f->by_severity[from->severity]++;
        to->kind = from->kind;
        to->severity = from->severity;
        to->address = from->address;
        to->count = from->count;
        finding_where(to->where, sizeof to->where, from);
        memcpy(to->source, from->source, sizeof to->source);
        memcpy(to->message, from->message, sizeof to->message);
        to->cx = from->cx;
        if (from->excerpt.nrows && (to->excerpt = malloc(sizeof *to->excerpt)))
            *to->excerpt = from->excerpt;
        oom = from->excerpt.nrows && !to->excerpt;
    }
    if (oom) {
        for (size_t j = 0; j < f->result.nfindings; j++)
            free(f->findings[j].excerpt);
        free(f->findings);
        free(f->path);
        return -1;
    }
    h->n++;
    return 0;
}

/* S as HTML text, always valid UTF-8: file and symbol names come from
 * binaries, so bytes that are not well-formed UTF-8 become U+FFFD, as in
 * the JSON outputs (report/json_string), and so do the control characters
 * HTML does not allow; markup characters are escaped.  With SHELL_QUOTED,
 * ' is written '\'' (S goes between a shell's single quotes). */
static void esc_text(FILE *out, const char *s, int shell_quoted)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        int valid = 1;
        size_t len = *p < 0x80 ? 1 : utf8_sequence(p, &valid);
        if (!valid || (*p < 0x20 && *p != '\t' && *p != '\n' && *p != '\r') || *p == 0x7f)
            fputs("\xef\xbf\xbd", out);   /* U+FFFD */
        else if (*p == '&')
            fputs("&amp;", out);
        else if (*p == '<')
            fputs("&lt;", out);
        else if (*p == '>')
            fputs("&gt;", out);
        else if (*p == '"')
            fputs("&quot;", out);
        else if (*p == '\'' && shell_quoted)
            fputs("'\\''", out);
        else
            fwrite(p, 1, len, out);
        p += len;
    }
}

static void esc(FILE *out, const char *s)
{
    esc_text(out, s, 0);
}

static const char style[] =
    "body{font-family:sans-serif;margin:2em;color:#222}"
    "h1{font-size:1.6em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ccc}"
    "table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ddd;padding:2px 6px;"
    "font-size:.85em}th{background:#f3f3f3}td.num{text-align:right}"
    ".finding{margin:1em 0;padding:.5em;border-left:4px solid #c33;background:#fafafa}"
    ".finding.warning{border-color:#d90}.finding.info{border-color:#39c}"
    ".where{font-family:monospace;font-weight:bold}.msg{margin:.3em 0}"
    "table.excerpt td{font-family:monospace;white-space:pre}"
    "tr.here td{background:#fff3c4}td.diff{color:#b00;font-weight:bold}"
    "tr.failed td{color:#b00}tr.skipped td{color:#777}"
    ".summary{font-size:1.1em}";

/* The cells of one side of ROW (DWARF's or synthesis's), as text: the
 * rules of EXCERPT_COLUMNS, or one cell NONE when the side has no row
 * there.  Returns the number of cells. */
static size_t row_cells(char cells[EXCERPT_NCOLUMNS][48], const struct excerpt_rule *rules, int have,
                        const char *none)
{
    if (!have) {
        snprintf(cells[0], sizeof cells[0], "%s", none);
        return 1;
    }
    for (unsigned k = 0; k < EXCERPT_NCOLUMNS; k++)
        excerpt_rule_text(cells[k], sizeof cells[k], &rules[k], k);
    return EXCERPT_NCOLUMNS;
}

static void excerpt_table(FILE *out, const struct excerpt *x)
{
    if (!x || !x->nrows)
        return;
    fputs("<table class=\"excerpt\"><tr><th>address</th><th>instruction</th>"
          "<th colspan=\"8\">DWARF: " EXCERPT_COLUMNS "</th>"
          "<th colspan=\"8\">synthesis: " EXCERPT_COLUMNS "</th></tr>\n", out);
    for (size_t l = 0; l < x->nrows && l < EXCERPT_ROWS; l++) {
        const struct excerpt_row *row = &x->rows[l];
        char dw[EXCERPT_NCOLUMNS][48], sy[EXCERPT_NCOLUMNS][48];
        size_t nd = row_cells(dw, row->dwarf, row->has_dwarf, "-");
        size_t ns = row_cells(sy, row->synth, row->has_synth, "?");
        fprintf(out, "<tr%s><td>0x%llx</td><td>", row->here ? " class=\"here\"" : "",
                (unsigned long long)row->address);
        esc(out, row->insn);
        fputs("</td>", out);
        for (int side = 0; side < 2; side++) {
            for (size_t k = 0; k < EXCERPT_NCOLUMNS; k++) {
                int differs = k < nd && k < ns && strcmp(dw[k], sy[k]) != 0;
                fprintf(out, "<td%s>", differs ? " class=\"diff\"" : "");
                if (k < (side ? ns : nd))
                    esc(out, side ? sy[k] : dw[k]);
                fputs("</td>", out);
            }
        }
        fputs("</tr>\n", out);
    }
    fputs("</table>\n", out);
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
    fprintf(out, "<svg id=\"chart\" width=\"640\" height=\"%d\" role=\"img\" "
                 "aria-label=\"findings by kind\" xmlns=\"http://www.w3.org/2000/svg\">\n", height);
    int y = 5;
    for (int k = 0; k < FINDING_KINDS; k++) {
        if (!by_kind[k])
            continue;
        int w = (int)(400.0 * (double)by_kind[k] / (double)max) + 1;
        fprintf(out, "<text x=\"0\" y=\"%d\" font-size=\"13\">%s</text>"
                     "<rect x=\"190\" y=\"%d\" width=\"%d\" height=\"16\" fill=\"#c33\"/>"
                     "<text x=\"%d\" y=\"%d\" font-size=\"13\">%zu</text>\n",
                y + 13, finding_kind_name((enum finding_kind)k), y, w, 196 + w, y + 13, by_kind[k]);
        y += 24;
    }
    if (!shown)
        fprintf(out, "<text x=\"0\" y=\"18\" font-size=\"13\">no findings</text>\n");
    fputs("</svg>\n", out);
}

static int write_page(FILE *out, const struct html_report *h)
{
    size_t by_kind[FINDING_KINDS] = {0}, sev[3] = {0}, checked = 0, unchecked = 0, padding = 0;
    size_t audited = 0, failed = 0, skipped = 0;
    for (size_t i = 0; i < h->n; i++) {
        const struct check_result *r = &h->files[i].result;
        audited += h->files[i].status == HTML_AUDITED;
        failed += h->files[i].status == HTML_FAILED;
        skipped += h->files[i].status == HTML_SKIPPED;
        checked += r->addresses_checked;
        unchecked += r->unchecked_total;
        padding += r->unchecked[UNCHECKED_PADDING];
        for (size_t j = 0; j < r->nfindings; j++) {
            by_kind[h->files[i].findings[j].kind]++;
            sev[h->files[i].findings[j].severity]++;
        }
    }
    fprintf(out, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                 "<title>dwcheck audit</title><style>%s</style></head><body>\n"
                 "<h1>dwcheck audit of unwind tables</h1>\n"
                 "<p class=\"summary\" id=\"summary\">%zu files audited",
            style, audited);
    if (failed)
        fprintf(out, ", <b>%zu could not be audited</b>", failed);
    if (skipped)
        fprintf(out, ", %zu skipped (not ELF)", skipped);
    fprintf(out, "; %zu addresses checked, %zu unchecked "
                 "(%zu of them padding or traps); <b>%zu errors</b>, %zu warnings, %zu notes.</p>\n"
                 "<p>Every rule of every row of each file's <code>.eh_frame</code> is evaluated in "
                 "the state derived from the machine code at that address.</p>\n"
                 "<h2>Findings by kind</h2>\n",
            checked, unchecked, padding, sev[SEVERITY_ERROR], sev[SEVERITY_WARNING], sev[SEVERITY_INFO]);
    chart(out, by_kind);
    fputs("<h2>Files</h2>\n<table id=\"files\"><tr><th>file</th><th>FDEs</th><th>rows checked</th>"
          "<th>addresses checked</th><th>unchecked</th><th>errors</th><th>warnings</th>"
          "<th>notes</th></tr>\n", out);
    for (size_t i = 0; i < h->n; i++) {
        const struct check_result *r = &h->files[i].result;
        if (h->files[i].status != HTML_AUDITED) {
            int failed_here = h->files[i].status == HTML_FAILED;
            fprintf(out, "<tr class=\"%s\"><td>", failed_here ? "failed" : "skipped");
            esc(out, h->files[i].path);
            fprintf(out, "</td><td colspan=\"7\">%s: ", failed_here ? "could not be audited" : "skipped");
            esc(out, h->files[i].reason);
            fputs("</td></tr>\n", out);
            continue;
        }
        size_t e = h->files[i].by_severity[SEVERITY_ERROR], w = h->files[i].by_severity[SEVERITY_WARNING];
        fputs("<tr><td>", out);
        esc(out, h->files[i].path);
        fprintf(out, "</td><td class=\"num\">%zu</td><td class=\"num\">%zu</td><td class=\"num\">%zu</td>"
                     "<td class=\"num\">%zu</td><td class=\"num\">%zu</td><td class=\"num\">%zu</td>"
                     "<td class=\"num\">%zu</td></tr>\n",
                r->fdes, r->rows_checked, r->addresses_checked, r->unchecked_total, e, w,
                r->nfindings - e - w);
    }
    fputs("</table>\n", out);
    for (int k = 0; k < FINDING_KINDS; k++) {
        if (!by_kind[k])
            continue;
        fprintf(out, "<h2 id=\"kind-%s\">%s (%zu)</h2>\n", finding_kind_name((enum finding_kind)k),
                finding_kind_name((enum finding_kind)k), by_kind[k]);
        for (size_t i = 0; i < h->n; i++) {
            const struct check_result *r = &h->files[i].result;
            for (size_t j = 0; j < r->nfindings; j++) {
                const struct html_finding *f = &h->files[i].findings[j];
                if (f->kind != k)
                    continue;
                fprintf(out, "<div class=\"finding %s\"><div class=\"where\">",
                        severity_name(f->severity));
                esc(out, h->files[i].path);
                fputs(": ", out);
                esc(out, f->where);
                if (f->source[0]) {
                    fputs(" (", out);
                    esc(out, f->source);
                    fputc(')', out);
                }
                fprintf(out, "</div><div class=\"msg\">%s: ", severity_name(f->severity));
                esc(out, f->message);
                if (f->count > 1)
                    fprintf(out, " (%zu addresses)", f->count);
                fputs("</div>\n", out);
                if (f->cx.present) {
                    char cx[512];
                    counterexample_format(cx, sizeof cx, &f->cx);
                    fputs("<div class=\"msg\">counterexample: ", out);
                    esc(out, cx);
                    fputs("</div>\n", out);
                }
                /* The same view, whole, with every rule's verdict and why. */
                fprintf(out, "<div class=\"msg\">explained by: <code>dwcheck --explain=0x%llx '",
                        (unsigned long long)f->address);
                esc_text(out, h->files[i].path, 1);
                fputs("'</code></div>\n", out);
                excerpt_table(out, f->excerpt);
                fputs("</div>\n", out);
            }
        }
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
    /* Through a temporary file beside it, renamed into place (object/output_file). */
    if (output_write_stream(final, write_page_stream, h, why, sizeof why) != 0)
        return error_set(err, errlen, "%s: %s", final, why);
    return 0;
}
