/*
 * Unit tests for what auditing past one machine is made of:
 * report/json_record (a result written as a JSON line and read back is the
 * same result, every field the renderings use, every kind of
 * counterexample; read finding by finding, the same; malformed lines,
 * counts of 2^63 or more, addresses of 2^64 - 1 are refused with a reason),
 * tools/result_cache (an entry stored is loaded whole; one cut short or
 * damaged is not trusted; another key misses) and tools/shard (the shards
 * of a list are a partition of it, balanced; K/N is checked).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "report/json_record.h"
#include "report/json_report.h"
#include "tools/result_cache.h"
#include "tools/shard.h"

/* A result with a finding of each shape: no counterexample; a CFA rule's;
 * an address rule's with no slot; a value rule's. */
static void sample_result(struct check_result *r)
{
    memset(r, 0, sizeof *r);
    r->fdes = 10;
    r->rows_checked = 33;
    r->addresses_checked = 59;
    r->unchecked[UNCHECKED_PADDING] = 1;
    r->unchecked[UNCHECKED_RULE_TIMEOUT] = 4;
    r->unchecked_total = 1;
    r->functions_unchecked = 2;
    r->addresses_outermost = 3;
    r->rets_checked = 9;
    r->cross_fde_checked = 5;
    r->prover_rules = 7;
    r->prover_linear = 3;
    r->prover_queries = 8;
    r->prover_cache_hits = 1;
    r->prover_timeouts = 2;
    r->prove_all = 1;
    r->prover_disagreements = 1;
    snprintf(r->first_disagreement, sizeof r->first_disagreement, "f+0x2: \"quoted\"");
    r->expression_verdicts[EXPR_PLT][RULE_HOLDS] = 3;
    r->expression_verdicts[EXPR_REALIGN][RULE_FAILS] = 2;
    r->nfindings = r->cap = 4;
    r->findings = calloc(4, sizeof *r->findings);
    for (int i = 0; i < 4; i++) {
        struct finding *f = &r->findings[i];
        f->kind = (uint8_t)(i == 0 ? FINDING_FDE_GAP : FINDING_CFA_MISMATCH + i - 1);
        f->severity = (uint8_t)finding_kind_severity((enum finding_kind)f->kind);
        f->column = -1;
        snprintf(f->function, sizeof f->function, "func%d", i);
        f->function_start = 0x1000u + 0x100u * (unsigned)i;
        f->address = f->function_start + 4;
        f->count = (size_t)i + 1;
        snprintf(f->dwarf, sizeof f->dwarf, "rsp+8");
        snprintf(f->synth, sizeof f->synth, "rsp+16");
        snprintf(f->message, sizeof f->message, "message %d with a tab\t", i);
        if (i == 1)
            snprintf(f->source, sizeof f->source, "a.c:12");
    }
    struct counterexample *cfa = &r->findings[1].cx, *addr = &r->findings[2].cx, *value = &r->findings[3].cx;
    *cfa = (struct counterexample){.present = 1, .what = CX_CFA, .has_code = 1, .nregs = 1, .nwords = 1, .reg = {7},
                                   .reg_value = {0x7ffe0000}, .word_addr = {0x7ffe0008},
                                   .word_value = {0x20}, .cfa = 0x7ffe0010, .rule = 0x7ffe0018, .code = 0x7ffe0010};
    *addr = (struct counterexample){.present = 1, .what = CX_ADDRESS, .column = 16, .cfa = 0x100000,
                                    .rule = 0xfff08};
    *value = (struct counterexample){.present = 1, .what = CX_VALUE, .column = 3, .has_code = 1, .nregs = 2,
                                     .reg = {12, 6}, .reg_value = {0, 1}, .cfa = 0x2000, .rule = 8};
}

static char *json_line(const char *path, const struct check_result *r)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    json_report_file(f, path, r);
    fclose(f);
    char *line = strdup(text);   /* (gcc takes TEXT for a local's address) */
    free(text);
    return line;
}

static void test_json_round_trip(void **state)
{
    (void)state;
    struct check_result r;
    sample_result(&r);
    char *line = json_line("/lib/a \"b\".so", &r);
    struct json_record rec;
    char err[256];
    assert_int_equal(json_record_parse(line, strlen(line), &rec, err, sizeof err), 0);
    assert_int_equal(rec.kind, JSON_RECORD_AUDITED);
    assert_string_equal(rec.path, "/lib/a \"b\".so");
    /* Every byte of the figures and findings, but what JSON does not carry
     * (the findings' DWARF column, excerpts) and the pointers. */
    struct check_result *back = &rec.result;
    assert_int_equal(back->nfindings, 4);
    for (size_t i = 0; i < 4; i++) {
        r.findings[i].column = -1;
        assert_memory_equal(&back->findings[i], &r.findings[i], sizeof r.findings[i]);
    }
    struct check_result a = r, b = *back;
    a.findings = b.findings = NULL;
    a.cap = b.cap = 0;
    assert_memory_equal(&a, &b, offsetof(struct check_result, findings));
    char *again = json_line(rec.path, back);
    assert_string_equal(again, line);
    json_record_release(&rec);
    free(again);
    free(line);
    check_result_release(&r);
}

static void test_json_not_audited(void **state)
{
    (void)state;
    struct json_record rec;
    char err[256];
    const char *error = "{\"file\":\"x\",\"error\":\"No such file\"}\n";
    assert_int_equal(json_record_parse(error, strlen(error), &rec, err, sizeof err), 0);
    assert_int_equal(rec.kind, JSON_RECORD_ERROR);
    assert_string_equal(rec.reason, "No such file");
    json_record_release(&rec);
    const char *skipped = "{\"file\":\"y\",\"skipped\":\"not an ELF file\"}";
    assert_int_equal(json_record_parse(skipped, strlen(skipped), &rec, err, sizeof err), 0);
    assert_int_equal(rec.kind, JSON_RECORD_SKIPPED);
    json_record_release(&rec);
}

static void expect_refused(const char *line, const char *reason)
{
    struct json_record rec;
    char err[256] = "";
    assert_int_equal(json_record_parse(line, strlen(line), &rec, err, sizeof err), -1);
    if (!strstr(err, reason) || !err[0])
        fail_msg("%s: got \"%s\", want \"%s\"", line, err, reason);
    assert_null(rec.path);
}

static void test_json_refused(void **state)
{
    (void)state;
    expect_refused("", "not JSON");
    expect_refused("{\"file\":\"a\"", "cut off");
    expect_refused("{\"file\":\"a\",\"error\":\"x\"}{}", "");
    expect_refused("{\"file\":\"a\",\"error\":\"x\"} 1", "");
    expect_refused("[]", "not a JSON object");
    expect_refused("{\"error\":\"x\"}", "no \"file\"");
    expect_refused("{\"file\":1}", "\"file\" is not a string");
    struct check_result r;
    sample_result(&r);
    char *line = json_line("a", &r);
    char *edit = strstr(line, "\"fdes\":10");
    memcpy(edit, "\"fdes\":-1", 9);
    expect_refused(line, "\"fdes\" is not a count");
    free(line);
    line = json_line("a", &r);
    memcpy(strstr(line, "\"fde-gap\""), "\"fde-gab\"", 9);
    expect_refused(line, "finding 1: unknown finding kind \"fde-gab\"");
    free(line);
    line = json_line("a", &r);
    memcpy(strstr(line, "\"rsp\":\"0x7ffe0000\""), "\"rsp\":\"0y7ffe0000\"", 18);
    expect_refused(line, "finding 2: counterexample: a register's value is not a 0x-prefixed hex string");
    free(line);
    check_result_release(&r);
}

/* LINE with the first FROM replaced by TO (a new string). */
static char *edited(const char *line, const char *from, const char *to)
{
    const char *at = strstr(line, from);
    assert_non_null(at);
    size_t n = strlen(line) + strlen(to) + 1;
    char *out = malloc(n);
    snprintf(out, n, "%.*s%s%s", (int)(at - line), line, to, at + strlen(from));
    return out;
}

/* Parse LINE; 0 or -1 as expected, with REASON in the error. */
static void expect_parse(const char *line, int want, const char *reason)
{
    struct json_record rec;
    char err[256] = "";
    int rc = json_record_parse(line, strlen(line), &rec, err, sizeof err);
    if (rc != want || (want && !strstr(err, reason)))
        fail_msg("%.80s...: got %d \"%s\", want %d \"%s\"", line, rc, err, want, reason);
    if (rc == 0)
        json_record_release(&rec);
}

/* Counts are below 2^63, so that their sums fit in 64 bits: json-c reads
 * any larger number, 2^64 and past too, as 2^64 - 1, which is refused;
 * addresses go up to 2^64 - 2 (a kernel's are past 2^63). */
static void test_json_large_numbers(void **state)
{
    (void)state;
    struct check_result r;
    sample_result(&r);
    char *line = json_line("a", &r);
    static const struct {
        const char *from, *to;
        int want;
        const char *reason;
    } cases[] = {
        {"\"fdes\":10", "\"fdes\":9223372036854775807", 0, ""},
        {"\"fdes\":10", "\"fdes\":9223372036854775808", -1, "\"fdes\" is too large (2^63 or more)"},
        {"\"fdes\":10", "\"fdes\":18446744073709551616", -1, "\"fdes\" is too large"},
        {"\"padding\":1", "\"padding\":99999999999999999999999", -1, "\"padding\" is too large"},
        {"\"rules\":7", "\"rules\":9223372036854775808", -1, "\"rules\" is too large"},
        {"\"addresses\":1", "\"addresses\":18446744073709551615", -1, "finding 1: \"addresses\" is too large"},
        {"\"address\":4100", "\"address\":18446744071562067968", 0, ""},
        {"\"address\":4100", "\"address\":18446744073709551614", 0, ""},
        {"\"address\":4100", "\"address\":18446744073709551615", -1, "finding 1: \"address\" is too large (2^64 - 1"},
        {"\"function_start\":4096", "\"function_start\":18446744073709551616", -1, "\"function_start\" is too large"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *e = edited(line, cases[i].from, cases[i].to);
        expect_parse(e, cases[i].want, cases[i].reason);
        free(e);
    }
    free(line);
    check_result_release(&r);
}

/* The findings read one by one (json_record_next) are the findings of the
 * line; the array is set apart from the text exactly: what json-c refuses
 * whole is refused, element by element. */
static void test_json_findings_one_by_one(void **state)
{
    (void)state;
    struct check_result r;
    sample_result(&r);
    char *line = json_line("a", &r);
    struct json_record_reader rd;
    struct json_record rec;
    char err[256];
    assert_int_equal(json_record_open(&rd, line, strlen(line), &rec, err, sizeof err), 0);
    assert_int_equal(rec.result.nfindings, 0);
    assert_int_equal(rec.result.fdes, 10);
    struct finding f;
    for (size_t i = 0; i < r.nfindings; i++) {
        assert_int_equal(json_record_next(&rd, &f, err, sizeof err), 1);
        r.findings[i].column = -1;
        assert_memory_equal(&f, &r.findings[i], sizeof f);
    }
    assert_int_equal(json_record_next(&rd, &f, err, sizeof err), 0);
    assert_int_equal(json_record_next(&rd, &f, err, sizeof err), 0);
    json_record_close(&rd);
    json_record_release(&rec);

    /* The same line with the array first, or its key escaped (read whole). */
    char *findings = strstr(line, ",\"findings\":[");
    size_t n = strlen(line);
    char *moved = malloc(n + 1);
    snprintf(moved, n + 1, "{%.*s,%.*s}\n", (int)(n - 3 - (size_t)(findings - line)), findings + 1,
             (int)(findings - line - 1), line + 1);
    char *escaped = edited(line, "\"findings\"", "\"findin\\u0067s\"");
    const char *same[] = {moved, escaped};
    for (int k = 0; k < 2; k++) {
        if (json_record_parse(same[k], strlen(same[k]), &rec, err, sizeof err) != 0)
            fail_msg("%s: %s", same[k], err);
        assert_int_equal(rec.result.nfindings, r.nfindings);
        for (size_t i = 0; i < r.nfindings; i++)
            assert_memory_equal(&rec.result.findings[i], &r.findings[i], sizeof f);
        json_record_release(&rec);
    }
    free(moved);
    free(escaped);

    static const struct {
        const char *from, *to;
        int want;
        const char *reason;
    } cases[] = {
        {"\"findings\":[{", "\"findings\":[ 1, {", -1, "finding 1: not an object"},
        {"\"findings\":[{", "\"findings\":[1 2,{", -1, "not JSON"},
        {"\"findings\":[{", "\"findings\":[{},{", -1, "finding 1: no \"kind\""},
        {"\"findings\":[{", "\"findings\":[,{", -1, "not JSON"},
        {"}]}", "},]}", -1, "not JSON"},
        {"}]}", "}] }", 0, ""},
        {"}]}", "}]} []", -1, "not JSON"},
        {"}]}", "}", -1, "cut off"},
        {"\"func1\"", "\"func1 ]}\\\" [\"", 0, ""},
        {"\"func1\"", "\"func1", -1, "not JSON"},
        {"\"kind\":\"cfa-mismatch\"", "\"kind\":\"cfa-mismatch\",\"later\":[[{}],\"]\"]", 0, ""},
        {"\"findings\":[", "\"findings\":3,\"x\":[", -1, "\"findings\" is not an array"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *e = edited(line, cases[i].from, cases[i].to);
        expect_parse(e, cases[i].want, cases[i].reason);
        free(e);
    }
    free(line);
    check_result_release(&r);
}

/* A name longer than the finding's array is cut between characters. */
static void test_json_long_text(void **state)
{
    (void)state;
    char line[4096];
    char name[300];
    for (int i = 0; i < 149; i++)
        memcpy(name + 2 * i, "\xc3\xa9", 2);   /* é */
    name[298] = '\0';
    struct check_result r;
    memset(&r, 0, sizeof r);
    char *empty = json_line("a", &r);
    char *findings = strstr(empty, "\"findings\":[]");
    snprintf(line, sizeof line, "%.*s\"findings\":[{\"kind\":\"fde-gap\",\"severity\":\"warning\",\"function\":\"%s\","
             "\"address\":1,\"addresses\":1,\"dwarf\":\"\",\"synth\":\"\",\"message\":\"\",\"function_start\":0}]}",
             (int)(findings - empty), empty, name);
    struct json_record rec;
    char err[256];
    assert_int_equal(json_record_parse(line, strlen(line), &rec, err, sizeof err), 0);
    assert_int_equal(strlen(rec.result.findings[0].function), 126);
    json_record_release(&rec);
    free(empty);
}

/* The one entry file under DIR. */
static void entry_of(const char *dir, char *path, size_t size)
{
    char cmd[700];
    snprintf(cmd, sizeof cmd, "find %s -type f", dir);
    FILE *found = popen(cmd, "r");
    assert_non_null(found);
    assert_non_null(fgets(path, (int)size, found));
    path[strcspn(path, "\n")] = '\0';
    pclose(found);
}

static void test_cache(void **state)
{
    (void)state;
    /* Under TMPDIR (make check: the build's own tmp/): a cache is used only
     * where no other user can write (runtime/trusted_path.h), not in /tmp. */
    const char *tmp = getenv("TMPDIR");
    char dir[512], cache_dir[600], err[4200];
    snprintf(dir, sizeof dir, "%s/dwcheck-cache-test-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    assert_non_null(mkdtemp(dir));
    snprintf(cache_dir, sizeof cache_dir, "%s/a/b", dir);
    struct check_options opt = {.prove = CHECK_PROVE_EXPRESSIONS, .timeout_ms = 100},
                         other = {.prove = CHECK_PROVE_EXPRESSIONS, .timeout_ms = 99};
    struct result_cache *c = result_cache_open(cache_dir, &opt, err, sizeof err);
    struct result_cache *c99 = result_cache_open(cache_dir, &other, err, sizeof err);
    assert_non_null(c);
    assert_non_null(c99);
    struct result_cache_key key, key99;
    assert_int_equal(result_cache_key(c, "/proc/self/exe", &key), 0);
    assert_int_equal(result_cache_key(c99, "/proc/self/exe", &key99), 0);
    assert_int_equal(result_cache_key(c, "/proc/self/cmdline", &key), -1);   /* not ELF */
    assert_int_equal(result_cache_key(c, "/proc/self/exe", &key), 0);
    struct check_result r, back;
    sample_result(&r);
    assert_int_equal(result_cache_load(c, &key, &back), RESULT_CACHE_ABSENT);
    assert_int_equal(result_cache_store(c, &key, &r, err, sizeof err), 0);
    assert_int_equal(result_cache_load(c, &key, &back), RESULT_CACHE_HIT);
    assert_int_equal(back.nfindings, r.nfindings);
    assert_memory_equal(back.findings, r.findings, r.nfindings * sizeof *r.findings);
    assert_int_equal(back.addresses_checked, r.addresses_checked);
    assert_string_equal(back.first_disagreement, r.first_disagreement);
    check_result_release(&back);
    assert_int_equal(result_cache_load(c99, &key99, &back), RESULT_CACHE_ABSENT);

    char entry[4400];
    entry_of(cache_dir, entry, sizeof entry);
    assert_int_equal(truncate(entry, 100), 0);
    assert_int_equal(result_cache_load(c, &key, &back), RESULT_CACHE_DAMAGED);
    assert_int_equal(result_cache_store(c, &key, &r, err, sizeof err), 0);
    FILE *f = fopen(entry, "r+");
    fseek(f, -10, SEEK_END);
    fputc('!', f);
    fclose(f);
    assert_int_equal(result_cache_load(c, &key, &back), RESULT_CACHE_DAMAGED);
    assert_null(back.findings);

    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
    result_cache_free(c);
    result_cache_free(c99);
    check_result_release(&r);
}

static void test_shards(void **state)
{
    (void)state;
    char a1[] = "a", a2[] = "a";   /* one name twice: two places */
    char *names[] = {"b", a1, "d", "c", a2, "e", "g"};
    const int n = 7;
    int seen[7] = {0};
    for (unsigned k = 1; k <= 3; k++) {
        char *part[7];
        memcpy(part, names, sizeof names);
        int kept = shard_select(part, n, k, 3);
        assert_true(kept == 2 || kept == 3);
        for (int i = 0; i < kept; i++)
            for (int j = 0; j < n; j++)
                if (part[i] == names[j])
                    seen[j]++;
    }
    for (int j = 0; j < n; j++)
        assert_int_equal(seen[j], 1);
    char *one[] = {"x"};
    assert_int_equal(shard_select(one, 1, 2, 2), 0);
    unsigned k, m;
    assert_int_equal(shard_parse("2/5", &k, &m), 0);
    assert_true(k == 2 && m == 5);
    const char *bad[] = {"0/2", "3/2", "x", "1/", "/1", "01/2", "1/2/3", "+1/2", "1/9999999"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(shard_parse(bad[i], &k, &m), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_json_round_trip),
        cmocka_unit_test(test_json_not_audited),
        cmocka_unit_test(test_json_refused),
        cmocka_unit_test(test_json_long_text),
        cmocka_unit_test(test_json_large_numbers),
        cmocka_unit_test(test_json_findings_one_by_one),
        cmocka_unit_test(test_cache),
        cmocka_unit_test(test_shards),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
/* SPDX-License-Identifier: Apache-2.0 */
