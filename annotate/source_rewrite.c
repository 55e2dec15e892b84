/* SPDX-License-Identifier: Apache-2.0 */
/*
 * source_rewrite: insertions between the lines of a source.
 */
#include "source_rewrite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ordered {
    const struct insertion *ins;
    size_t seq;
};

static int by_line(const void *a, const void *b)
{
    const struct ordered *x = a, *y = b;
    if (x->ins->after_line != y->ins->after_line)
        return x->ins->after_line < y->ins->after_line ? -1 : 1;
    return (x->seq > y->seq) - (x->seq < y->seq);
}

/* Lines of TEXT, counting a last one without a terminator. */
static size_t count_lines(const char *text)
{
    size_t n = 0;
    for (const char *p = text; *p; p++)
        n += *p == '\n';
    size_t len = strlen(text);
    return n + (len > 0 && text[len - 1] != '\n');
}

int source_rewrite(struct rewritten *out, const struct source_text *raw,
                   const struct insertion *insertions, size_t n)
{
    memset(out, 0, sizeof *out);
    struct ordered *order = calloc(n + 1, sizeof *order);
    if (!order)
        return -1;
    size_t nout = raw->nlines;
    for (size_t i = 0; i < n; i++) {
        order[i] = (struct ordered){&insertions[i], i};
        nout += count_lines(insertions[i].text);
    }
    qsort(order, n, sizeof *order, by_line);
    out->input_line = calloc(nout + 2, sizeof *out->input_line);
    FILE *f = open_memstream(&out->text, &out->size);
    if (!out->input_line || !f) {
        if (f)
            fclose(f);
        free(order);
        source_rewrite_release(out);
        return -1;
    }
    size_t next = 0, k = 0;
    for (size_t line = 0; line <= raw->nlines; line++) {
        int unterminated = line > 0 && !*asm_source_text_eol(raw, line);
        if (line > 0) {
            size_t start = raw->line_start[line], end = raw->line_start[line + 1];
            fwrite(raw->bytes + start, 1, end - start, f);
            out->input_line[++k] = line;
        }
        for (; next < n && order[next].ins->after_line == line; next++) {
            const char *text = order[next].ins->text;
            /* A last line without its terminator gets one before the text. */
            if (unterminated)
                fputs(strstr(text, "\r\n") ? "\r\n" : "\n", f);
            unterminated = 0;
            fputs(text, f);
            for (size_t m = count_lines(text); m > 0; m--)
                out->input_line[++k] = 0;
        }
    }
    out->nlines = k;
    free(order);
    if (fclose(f) != 0) {
        source_rewrite_release(out);
        return -1;
    }
    return 0;
}

void source_rewrite_release(struct rewritten *r)
{
    free(r->text);
    free(r->input_line);
    memset(r, 0, sizeof *r);
}

size_t source_rewrite_input_line(const struct rewritten *r, size_t k)
{
    return k >= 1 && k <= r->nlines ? r->input_line[k] : 0;
}
