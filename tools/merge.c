/* SPDX-License-Identifier: Apache-2.0 */
/*
 * merge: JSON Lines of earlier runs rendered as one run (merge.h).
 */
#include "merge.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "cli.h"
#include "runtime/identity.h"
#include "report/json_record.h"

/* Where a record is: its name (owned), and its input, line and offset
 * there; and the line's length and hash, to find it unchanged when it is
 * rendered (it is checked once, before anything is printed). */
struct record_place {
    char *path;
    int input;
    unsigned long line;
    off_t offset;
    size_t len;
    uint64_t hash;
};

struct merge_index {
    struct record_place *places;
    size_t n, cap;
};

static int by_name_then_place(const void *a, const void *b)
{
    const struct record_place *x = a, *y = b;
    int c = strcmp(x->path, y->path);
    if (c)
        return c;
    if (x->input != y->input)
        return x->input < y->input ? -1 : 1;
    return (x->offset > y->offset) - (x->offset < y->offset);
}

static int add_place(struct merge_index *ix, const struct record_place *p)
{
    if (ix->n == ix->cap) {
        size_t cap = ix->cap ? 2 * ix->cap : 256;
        struct record_place *more = realloc(ix->places, cap * sizeof *more);
        if (!more)
            return -1;
        ix->places = more;
        ix->cap = cap;
    }
    ix->places[ix->n++] = *p;
    return 0;
}

/* Add R's counts into SUM, as the renderings add them over files
 * (text_report_totals_add_*, the HTML report's summary).  Returns 0, or
 * -1 with the name of the first count whose sum would pass 2^64 - 1 in
 * NAME ("addresses_checked", "unchecked_reasons.padding" ...). */
static int add_counts(struct check_result *sum, const struct check_result *r, char *name, size_t namelen)
{
#define ADD(field, ...)                                                     \
    do {                                                                    \
        if (__builtin_add_overflow(sum->field, r->field, &sum->field)) {    \
            snprintf(name, namelen, __VA_ARGS__);                           \
            return -1;                                                      \
        }                                                                   \
    } while (0)
    ADD(addresses_checked, "addresses_checked");
    ADD(unchecked_total, "unchecked");
    for (int u = 0; u < UNCHECKED_REASONS; u++)
        ADD(unchecked[u], "unchecked_reasons.%s", finding_unchecked_reason_id((enum unchecked_reason)u));
    ADD(sframe.rows_checked, "sframe.rows_checked");
    ADD(sframe.addresses_checked, "sframe.addresses_checked");
    ADD(sframe.unchecked, "sframe.unchecked");
    ADD(prover_rules, "prover.rules");
    ADD(prover_linear, "prover.linear");
    ADD(prover_queries, "prover.queries");
    ADD(prover_cache_hits, "prover.cache_hits");
    ADD(prover_timeouts, "prover.timeouts");
    ADD(prover_disagreements, "prover.disagreements");
    static const char *const verdicts[3] = {"proved", "refuted", "undecided"};   /* enum rule_verdict */
    for (int k = 0; k < EXPRESSION_KINDS; k++)
        for (int v = 0; v < 3; v++)
            ADD(expression_verdicts[k][v], "prover.expressions.%s.%s", expression_kind_name((enum expression_kind)k),
                verdicts[v]);
#undef ADD
    return 0;
}

/* Check the record in LINE (LEN bytes) finding by finding, and add its
 * counts to SUM.  Returns 0 with REC holding the record but its findings
 * (release it), or -1 with WHY. */
static int check_record(const char *line, size_t len, struct json_record *rec, struct check_result *sum,
                        char *why, size_t whylen)
{
    struct json_record_reader rd;
    if (json_record_open(&rd, line, len, rec, why, whylen) != 0)
        return -1;
    struct finding f;
    int got;
    while ((got = json_record_next(&rd, &f, why, whylen)) == 1)
        ;
    json_record_close(&rd);
    char name[64];
    if (got == 0 && rec->kind == JSON_RECORD_AUDITED && add_counts(sum, &rec->result, name, sizeof name) != 0) {
        snprintf(why, whylen, "the sum of %s over the inputs passes 2^64 - 1", name);
        got = -1;
    }
    if (got != 0)
        json_record_release(rec);
    return got;
}

/* Pass 1: read and check every line of INPUT (number INPUT_NO), noting
 * where each record is, and the sums of the counts the renderings add
 * into SUM.  Returns 0, or -1 with the error printed. */
static int index_input(const char *input, int input_no, struct merge_index *ix, struct check_result *sum)
{
    FILE *f = fopen(input, "r");
    if (!f) {
        cli_error(input, "cannot open: %s", strerror(errno));
        return -1;
    }
    char *line = NULL;
    size_t cap = 0;
    int rc = 0;
    for (unsigned long lineno = 1; rc == 0; lineno++) {
        off_t offset = ftello(f);
        errno = 0;
        ssize_t len = getline(&line, &cap, f);
        if (len < 0) {
            if (ferror(f)) {
                cli_error(input, "cannot read: %s", strerror(errno ? errno : EIO));
                rc = -1;
            }
            break;
        }
        if (strspn(line, " \t\r\n") == (size_t)len)
            continue;
        struct json_record rec;
        char why[300];
        if (check_record(line, (size_t)len, &rec, sum, why, sizeof why) != 0) {
            cli_error(NULL, "%s:%lu: %s", input, lineno, why);
            rc = -1;
            break;
        }
        struct record_place place = {rec.path, input_no, lineno, offset, (size_t)len, dwu_fnv1a(line, (size_t)len)};
        rec.path = NULL;   /* now the place's */
        json_record_release(&rec);
        if (add_place(ix, &place) != 0) {
            free(place.path);
            cli_error(NULL, "out of memory");
            rc = -1;
        }
    }
    free(line);
    fclose(f);
    return rc;
}

/* The findings of the record open in RD, of the audited file REC, taken
 * one at a time.  Returns the file's exit status, or -1 with WHY. */
static int render_findings(struct json_record_reader *rd, const struct json_record *rec, struct run_report *rr,
                           char *why, size_t whylen)
{
    const char *const *names = rec->names ? (const char *const *)rec->names : (const char *const *)&rec->path;
    run_report_file_begin(rr, names, rec->names ? rec->nnames : 1, &rec->result);
    struct finding f;
    int got;
    while ((got = json_record_next(rd, &f, why, whylen)) == 1)
        run_report_finding(rr, &f);
    int rc = run_report_file_end(rr);
    return got == 0 ? rc : -1;
}

/* Pass 2: render the record at P, of INPUTS, finding by finding; *OPEN_INPUT
 * is the input open in *F, if any (kept open for the next record).  Returns
 * its exit status. */
static int render_record(const struct record_place *p, char **inputs, FILE **f, int *open_input,
                         struct run_report *rr)
{
    if (*open_input != p->input) {
        if (*f)
            fclose(*f);
        *f = fopen(inputs[p->input], "r");
        *open_input = *f ? p->input : -1;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t len = -1;
    if (*f && fseeko(*f, p->offset, SEEK_SET) == 0)
        len = getline(&line, &cap, *f);
    /* The line pass 1 checked, byte for byte: the same parse gives the same
     * findings, so that none can be refused once the record is begun. */
    if (len < 0 || (size_t)len != p->len || dwu_fnv1a(line, p->len) != p->hash) {
        free(line);
        cli_error(NULL, "%s:%lu: changed while being merged", inputs[p->input], p->line);
        return EXIT_TROUBLE;
    }
    struct json_record rec;
    struct json_record_reader rd;
    char why[300];
    int rc;
    if (json_record_open(&rd, line, (size_t)len, &rec, why, sizeof why) != 0)
        rc = -1;
    else if (rec.kind == JSON_RECORD_AUDITED)
        rc = render_findings(&rd, &rec, rr, why, sizeof why);
    else
        rc = run_report_not_audited(rr, rec.path, rec.kind == JSON_RECORD_SKIPPED, rec.reason);
    if (rc < 0) {   /* out of memory: the line read the same before */
        cli_error(NULL, "%s:%lu: %s", inputs[p->input], p->line, why);
        rc = EXIT_TROUBLE;
    }
    json_record_close(&rd);
    json_record_release(&rec);
    free(line);
    return rc;
}

int merge_run(char **inputs, int ninputs, enum run_format format, int fail_on, const char *html_dir,
              const struct run_baseline *rb)
{
    struct merge_index ix = {NULL, 0, 0};
    struct check_result sum = {0};
    int status = EXIT_CLEAN;
    for (int i = 0; i < ninputs && status == EXIT_CLEAN; i++)
        if (index_input(inputs[i], i, &ix, &sum) != 0)
            status = EXIT_TROUBLE;
    struct run_report rr;
    if (status == EXIT_CLEAN && run_report_begin(&rr, format, fail_on, html_dir, rb) != 0)
        status = EXIT_TROUBLE;
    if (status == EXIT_CLEAN && rr.html)
        html_report_merged(rr.html);   /* JSON has no windows: the page says so */
    if (status == EXIT_CLEAN) {
        qsort(ix.places, ix.n, sizeof *ix.places, by_name_then_place);
        FILE *f = NULL;
        int open_input = -1;
        for (size_t i = 0; i < ix.n; i++) {
            int rc = render_record(&ix.places[i], inputs, &f, &open_input, &rr);
            if (rc > status)
                status = rc;
        }
        if (f)
            fclose(f);
        status = run_report_end(&rr, status, NULL);
    }
    for (size_t i = 0; i < ix.n; i++)
        free(ix.places[i].path);
    free(ix.places);
    return status;
}
