/* SPDX-License-Identifier: Apache-2.0 */
/*
 * json_record: a file's JSON line, written and read back (json_record.h).
 */
#include "json_record.h"

#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "sys/error.h"
#include "semantics/dwarf_expr.h"

/* ---- reading ----------------------------------------------------------------- */

static struct json_object *member(struct json_object *obj, const char *key)
{
    struct json_object *v;
    return json_object_object_get_ex(obj, key, &v) ? v : NULL;
}

/* OBJ's KEY, which must be an object. */
static struct json_object *object_at(struct json_object *obj, const char *key, char *err, size_t errlen)
{
    struct json_object *v = member(obj, key);
    if (!v || !json_object_is_type(v, json_type_object)) {
        error_set(err, errlen, v ? "\"%s\" is not an object" : "no \"%s\"", key);
        return NULL;
    }
    return v;
}

/* OBJ's KEY, a non-negative integer, into *OUT: a count below 2^63 (a sum
 * of counts then stays in 64 bits for long), or with ADDRESS an address
 * below 2^64 - 1 (json-c reads a larger number as 2^64 - 1). */
static int integer_at(struct json_object *obj, const char *key, int address, uint64_t *out, char *err,
                      size_t errlen)
{
    struct json_object *v = member(obj, key);
    if (!v)
        return error_set(err, errlen, "no \"%s\"", key);
    if (!json_object_is_type(v, json_type_int) || json_object_get_int64(v) < 0)
        return error_set(err, errlen, "\"%s\" is not a count", key);
    *out = json_object_get_uint64(v);
    if (address ? *out == UINT64_MAX : *out > INT64_MAX)
        return error_set(err, errlen, "\"%s\" is too large (%s or more)", key, address ? "2^64 - 1" : "2^63");
    return 0;
}

static int count_at(struct json_object *obj, const char *key, uint64_t *out, char *err, size_t errlen)
{
    return integer_at(obj, key, 0, out, err, errlen);
}

static int size_at(struct json_object *obj, const char *key, size_t *out, char *err, size_t errlen)
{
    uint64_t v;
    if (count_at(obj, key, &v, err, errlen) != 0)
        return -1;
    *out = (size_t)v;
    return 0;
}

static int ulong_at(struct json_object *obj, const char *key, unsigned long *out, char *err, size_t errlen)
{
    uint64_t v;
    if (count_at(obj, key, &v, err, errlen) != 0)
        return -1;
    *out = (unsigned long)v;
    return 0;
}

/* S, cut to fit SIZE bytes with its NUL at a UTF-8 character's boundary. */
static void copy_text(char *buf, size_t size, const char *s)
{
    size_t n = strlen(s);
    if (n >= size) {
        n = size - 1;
        while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
            n--;
    }
    memcpy(buf, s, n);
    buf[n] = '\0';
}

/* OBJ's KEY, a string: into BUF (SIZE bytes).  Absent: "" when OPTIONAL, else an error. */
static int text_at(struct json_object *obj, const char *key, char *buf, size_t size, int optional, char *err,
                   size_t errlen)
{
    struct json_object *v = member(obj, key);
    buf[0] = '\0';
    if (!v && optional)
        return 0;
    if (!v || !json_object_is_type(v, json_type_string))
        return error_set(err, errlen, v ? "\"%s\" is not a string" : "no \"%s\"", key);
    copy_text(buf, size, json_object_get_string(v));
    return 0;
}

/* TEXT, "0x" and hex digits, into *OUT. */
static int parse_hex(const char *text, uint64_t *out)
{
    if (text[0] != '0' || text[1] != 'x' || !text[2] || strspn(text + 2, "0123456789abcdef") != strlen(text + 2) ||
        strlen(text + 2) > 16)
        return -1;
    *out = strtoull(text + 2, NULL, 16);
    return 0;
}

static int hex_value(struct json_object *v, const char *what, uint64_t *out, char *err, size_t errlen)
{
    if (!v || !json_object_is_type(v, json_type_string) || parse_hex(json_object_get_string(v), out) != 0)
        return error_set(err, errlen, "%s is not a 0x-prefixed hex string", what);
    return 0;
}

static int hex_at(struct json_object *obj, const char *key, uint64_t *out, char *err, size_t errlen)
{
    char what[64];
    snprintf(what, sizeof what, "\"%s\"", key);
    return hex_value(member(obj, key), what, out, err, errlen);
}

/* The index of NAME among NAME_OF(0 .. N-1), or -1. */
static int index_of(const char *name, int n, const char *(*name_of)(int))
{
    for (int i = 0; i < n; i++)
        if (strcmp(name, name_of(i)) == 0)
            return i;
    return -1;
}

static const char *kind_name(int k) { return finding_kind_name((enum finding_kind)k); }
static const char *severity_of(int s) { return finding_severity_name((enum severity)s); }
static const char *reason_id(int u) { return finding_unchecked_reason_id((enum unchecked_reason)u); }
static const char *family_name(int k) { return expression_kind_name((enum expression_kind)k); }
static const char *what_name(int w)
{
    struct counterexample cx = {.what = (uint8_t)w};
    return counterexample_what(&cx);
}

/* A register's DWARF number by its name as the JSON line writes it ("?": one with no name). */
static int reg_number(const char *name)
{
    if (strcmp(name, "?") == 0)
        return 255;
    for (unsigned r = 0; dwarf_reg_name(r); r++)
        if (strcmp(name, dwarf_reg_name(r)) == 0)
            return (int)r;
    return -1;
}

static int read_counterexample(struct json_object *o, struct counterexample *cx, char *err, size_t errlen)
{
    memset(cx, 0, sizeof *cx);
    cx->present = 1;
    char what[16];
    if (text_at(o, "what", what, sizeof what, 0, err, errlen) != 0)
        return -1;
    int w = index_of(what, 3, what_name);
    if (w < 0)
        return error_set(err, errlen, "unknown counterexample \"what\" \"%s\"", what);
    cx->what = (uint8_t)w;
    if (cx->what != CX_CFA) {
        char column[16];
        if (text_at(o, "column", column, sizeof column, 0, err, errlen) != 0)
            return -1;
        int reg = reg_number(column);
        if (reg < 0)
            return error_set(err, errlen, "unknown register \"%s\"", column);
        cx->column = (uint8_t)reg;
    }
    struct json_object *regs = object_at(o, "registers", err, errlen);
    struct json_object *memory = regs ? object_at(o, "memory", err, errlen) : NULL;
    if (!memory || hex_at(o, "cfa", &cx->cfa, err, errlen) != 0 || hex_at(o, "rule", &cx->rule, err, errlen) != 0)
        return -1;
    json_object_object_foreach(regs, name, value) {
        int reg = reg_number(name);
        if (reg < 0)
            return error_set(err, errlen, "unknown register \"%s\"", name);
        if (cx->nregs == CX_MAX_REGS)
            return error_set(err, errlen, "more than %d registers", CX_MAX_REGS);
        cx->reg[cx->nregs] = (uint8_t)reg;
        if (hex_value(value, "a register's value", &cx->reg_value[cx->nregs++], err, errlen) != 0)
            return -1;
    }
    json_object_object_foreach(memory, address, word) {
        if (cx->nwords == CX_MAX_WORDS)
            return error_set(err, errlen, "more than %d memory words", CX_MAX_WORDS);
        if (parse_hex(address, &cx->word_addr[cx->nwords]) != 0)
            return error_set(err, errlen, "memory address \"%s\" is not 0x-prefixed hex", address);
        if (hex_value(word, "a memory word", &cx->word_value[cx->nwords++], err, errlen) != 0)
            return -1;
    }
    struct json_object *code = member(o, "code");
    cx->has_code = code && !json_object_is_type(code, json_type_null);
    if (!cx->has_code && cx->what != CX_ADDRESS)
        return error_set(err, errlen, "no \"code\"");
    return cx->has_code ? hex_at(o, "code", &cx->code, err, errlen) : 0;
}

/* A fix's place (json_report's json_place): its directives, address,
 * source, and the instruction it follows.  Directives that do not fit are
 * refused, not cut: a fix cut short would be a wrong one. */
static int read_place(struct json_object *o, struct fix_place *place, char *err, size_t errlen)
{
    if (!json_object_is_type(o, json_type_object))
        return error_set(err, errlen, "not an object");
    struct json_object *list = member(o, "directives");
    if (!list || !json_object_is_type(list, json_type_array))
        return error_set(err, errlen, list ? "\"directives\" is not a list of strings" : "no \"directives\"");
    if (json_object_array_length(list) == 0)
        return error_set(err, errlen, "\"directives\" is empty");
    size_t used = 0;
    for (size_t i = 0; i < json_object_array_length(list); i++) {
        struct json_object *d = json_object_array_get_idx(list, i);
        if (!json_object_is_type(d, json_type_string))
            return error_set(err, errlen, "\"directives\" is not a list of strings");
        const char *text = json_object_get_string(d);
        size_t n = strlen(text);
        if (!n || strchr(text, '\n') || n + 1 >= sizeof place->directives - used)
            return error_set(err, errlen, n ? "a directive too long, or of more than one line" : "an empty directive");
        memcpy(place->directives + used, text, n);
        used += n;
        place->directives[used++] = '\n';
        place->directives[used] = '\0';
    }
    if (integer_at(o, "address", 1, &place->address, err, errlen) != 0 ||
        text_at(o, "source", place->source, sizeof place->source, 1, err, errlen) != 0)
        return -1;
    struct json_object *after = member(o, "after");
    if (!after)
        return 0;
    if (!json_object_is_type(after, json_type_object))
        return error_set(err, errlen, "\"after\" is not an object");
    place->has_after = 1;
    if (text_at(after, "insn", place->after, sizeof place->after, 0, err, errlen) != 0 ||
        integer_at(after, "address", 1, &place->after_address, err, errlen) != 0 ||
        text_at(after, "source", place->after_source, sizeof place->after_source, 1, err, errlen) != 0)
        return -1;
    return 0;
}

/* A finding's "fix" (json_report_fix): {"none": why}, or
 * its place's members and, for a second place, "then". */
static int read_fix(struct json_object *o, struct finding_fix *fix, char *err, size_t errlen)
{
    memset(fix, 0, sizeof *fix);
    if (!json_object_is_type(o, json_type_object))
        return error_set(err, errlen, "not an object");
    if (member(o, "none")) {
        fix->state = FIX_UNKNOWN;
        return text_at(o, "none", fix->why, sizeof fix->why, 0, err, errlen);
    }
    fix->state = FIX_KNOWN;
    if (read_place(o, &fix->at, err, errlen) != 0)
        return -1;
    struct json_object *then = member(o, "then");
    if (!then)
        return 0;
    fix->has_then = 1;
    char why[160];
    if (read_place(then, &fix->then, why, sizeof why) != 0)
        return error_set(err, errlen, "then: %s", why);
    return 0;
}

static int read_finding(struct json_object *o, struct finding *f, char *err, size_t errlen)
{
    memset(f, 0, sizeof *f);
    f->column = -1;
    char kind[64], severity[16];
    uint64_t count;
    if (!json_object_is_type(o, json_type_object))
        return error_set(err, errlen, "not an object");
    if (text_at(o, "kind", kind, sizeof kind, 0, err, errlen) != 0 ||
        text_at(o, "severity", severity, sizeof severity, 0, err, errlen) != 0)
        return -1;
    int k = index_of(kind, FINDING_KINDS, kind_name), s = index_of(severity, 3, severity_of);
    if (k < 0 || s < 0)
        return error_set(err, errlen, k < 0 ? "unknown finding kind \"%s\"" : "unknown severity \"%s\"",
                         k < 0 ? kind : severity);
    f->kind = (uint8_t)k;
    f->severity = (uint8_t)s;
    if (text_at(o, "function", f->function, sizeof f->function, 0, err, errlen) != 0 ||
        text_at(o, "source", f->source, sizeof f->source, 1, err, errlen) != 0 ||
        integer_at(o, "function_start", 1, &f->function_start, err, errlen) != 0 ||
        integer_at(o, "address", 1, &f->address, err, errlen) != 0 ||
        count_at(o, "addresses", &count, err, errlen) != 0 ||
        text_at(o, "dwarf", f->dwarf, sizeof f->dwarf, 0, err, errlen) != 0 ||
        text_at(o, "synth", f->synth, sizeof f->synth, 0, err, errlen) != 0 ||
        text_at(o, "message", f->message, sizeof f->message, 0, err, errlen) != 0 ||
        text_at(o, "claim", f->claim, sizeof f->claim, 1, err, errlen) != 0 ||
        text_at(o, "code", f->code, sizeof f->code, 1, err, errlen) != 0)
        return -1;
    f->count = (size_t)count;
    struct json_object *fix = member(o, "fix");
    char fix_why[200];
    if (fix && read_fix(fix, &f->fix, fix_why, sizeof fix_why) != 0)
        return error_set(err, errlen, "fix: %s", fix_why);
    if (member(o, "column")) {
        uint64_t column;
        if (count_at(o, "column", &column, err, errlen) != 0)
            return -1;
        if (column > 65535)
            return error_set(err, errlen, "\"column\" is too large (65536 or more)");
        f->column = (int)column;
    }
    f->insn_index = -1;
    if (member(o, "insn_index")) {
        uint64_t insn;
        if (count_at(o, "insn_index", &insn, err, errlen) != 0)
            return -1;
        if (insn > INT32_MAX)
            return error_set(err, errlen, "\"insn_index\" is too large (2^31 or more)");
        f->insn_index = (int32_t)insn;
    }
    struct json_object *cx = member(o, "counterexample");
    if (!cx)
        return 0;
    char why[200];
    if (!json_object_is_type(cx, json_type_object))
        return error_set(err, errlen, "\"counterexample\" is not an object");
    if (read_counterexample(cx, &f->cx, why, sizeof why) != 0)
        return error_set(err, errlen, "counterexample: %s", why);
    return 0;
}

static int read_prover(struct json_object *top, struct check_result *r, char *err, size_t errlen)
{
    struct json_object *p = object_at(top, "prover", err, errlen);
    struct json_object *families = p ? object_at(p, "expressions", err, errlen) : NULL;
    if (!families || ulong_at(p, "rules", &r->prover_rules, err, errlen) != 0 ||
        ulong_at(p, "linear", &r->prover_linear, err, errlen) != 0 ||
        ulong_at(p, "queries", &r->prover_queries, err, errlen) != 0 ||
        ulong_at(p, "cache_hits", &r->prover_cache_hits, err, errlen) != 0 ||
        ulong_at(p, "timeouts", &r->prover_timeouts, err, errlen) != 0)
        return -1;
    if (member(p, "disagreements")) {
        r->prove_all = 1;
        if (ulong_at(p, "disagreements", &r->prover_disagreements, err, errlen) != 0 ||
            text_at(p, "first_disagreement", r->first_disagreement, sizeof r->first_disagreement, 0, err,
                    errlen) != 0)
            return -1;
    }
    static const char *const verdicts[3] = {"proved", "refuted", "undecided"};   /* enum rule_verdict */
    for (int k = 0; k < EXPRESSION_KINDS; k++) {
        struct json_object *family = object_at(families, family_name(k), err, errlen);
        if (!family)
            return -1;
        for (int v = 0; v < 3; v++)
            if (size_at(family, verdicts[v], &r->expression_verdicts[k][v], err, errlen) != 0)
                return -1;
    }
    return 0;
}

/* The "sframe" object, written only for a file with a .sframe section. */
static int read_sframe(struct json_object *top, struct check_sframe *sf, char *err, size_t errlen)
{
    if (!member(top, "sframe"))
        return 0;
    struct json_object *o = object_at(top, "sframe", err, errlen);
    size_t version;
    if (!o || size_at(o, "version", &version, err, errlen) != 0 || size_at(o, "fdes", &sf->fdes, err, errlen) != 0 ||
        size_at(o, "rows_checked", &sf->rows_checked, err, errlen) != 0 ||
        size_at(o, "addresses_checked", &sf->addresses_checked, err, errlen) != 0 ||
        size_at(o, "unchecked", &sf->unchecked, err, errlen) != 0 ||
        size_at(o, "addresses_outermost", &sf->addresses_outermost, err, errlen) != 0 ||
        size_at(o, "fdes_missing", &sf->fdes_missing, err, errlen) != 0)
        return -1;
    if (version > 255)
        return error_set(err, errlen, "\"sframe\": \"version\" is not an SFrame version");
    sf->present = 1;
    sf->version = (uint8_t)version;
    return 0;
}

static int read_result(struct json_object *top, struct check_result *r, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    struct json_object *reasons = object_at(top, "unchecked_reasons", err, errlen);
    if (!reasons || size_at(top, "fdes", &r->fdes, err, errlen) != 0 ||
        size_at(top, "rows_checked", &r->rows_checked, err, errlen) != 0 ||
        size_at(top, "addresses_checked", &r->addresses_checked, err, errlen) != 0 ||
        size_at(top, "unchecked", &r->unchecked_total, err, errlen) != 0 ||
        size_at(top, "functions_unchecked", &r->functions_unchecked, err, errlen) != 0 ||
        size_at(top, "addresses_outermost", &r->addresses_outermost, err, errlen) != 0 ||
        size_at(top, "rets_checked", &r->rets_checked, err, errlen) != 0 ||
        size_at(top, "cross_fde_jumps_checked", &r->cross_fde_checked, err, errlen) != 0)
        return -1;
    for (int u = 0; u < UNCHECKED_REASONS; u++)
        if (size_at(reasons, reason_id(u), &r->unchecked[u], err, errlen) != 0)
            return -1;
    return read_sframe(top, &r->sframe, err, errlen) != 0 || read_prover(top, r, err, errlen) != 0 ? -1 : 0;
}

/* The optional "names" of TOP (strings, the first the "file"). */
static int read_names(struct json_object *top, struct json_record *rec, char *err, size_t errlen)
{
    struct json_object *names = member(top, "names");
    if (!names)
        return 0;
    if (!json_object_is_type(names, json_type_array))
        return error_set(err, errlen, "\"names\" is not an array");
    size_t n = json_object_array_length(names);
    if (n == 0)
        return error_set(err, errlen, "\"names\" is empty");
    if (!(rec->names = calloc(n, sizeof *rec->names)))
        return error_set(err, errlen, "out of memory");
    for (size_t i = 0; i < n; i++) {
        struct json_object *name = json_object_array_get_idx(names, i);
        if (!json_object_is_type(name, json_type_string))
            return error_set(err, errlen, "\"names\" holds what is not a string");
        if (!(rec->names[i] = strdup(json_object_get_string(name))))
            return error_set(err, errlen, "out of memory");
        rec->nnames++;
    }
    if (strcmp(rec->names[0], rec->path) != 0)
        return error_set(err, errlen, "\"names\" does not begin with the \"file\"");
    return 0;
}

/* The object TOP as REC. */
static int read_record(struct json_object *top, struct json_record *rec, char *err, size_t errlen)
{
    if (!json_object_is_type(top, json_type_object))
        return error_set(err, errlen, "not a JSON object");
    struct json_object *file = member(top, "file");
    if (!file || !json_object_is_type(file, json_type_string))
        return error_set(err, errlen, file ? "\"file\" is not a string" : "no \"file\"");
    if (!(rec->path = strdup(json_object_get_string(file))))
        return error_set(err, errlen, "out of memory");
    static const char *const not_audited[] = {"error", "skipped"};
    for (int i = 0; i < 2; i++) {
        struct json_object *reason = member(top, not_audited[i]);
        if (!reason)
            continue;
        if (!json_object_is_type(reason, json_type_string))
            return error_set(err, errlen, "\"%s\" is not a string", not_audited[i]);
        rec->kind = i ? JSON_RECORD_SKIPPED : JSON_RECORD_ERROR;
        if (!(rec->reason = strdup(json_object_get_string(reason))))
            return error_set(err, errlen, "out of memory");
        return 0;
    }
    rec->kind = JSON_RECORD_AUDITED;
    return read_names(top, rec, err, errlen) != 0 ? -1 : read_result(top, &rec->result, err, errlen);
}

static int is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static int only_blanks(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!is_blank(s[i]))
            return 0;
    return 1;
}

static size_t skip_blanks(const char *s, size_t i, size_t n)
{
    while (i < n && is_blank(s[i]))
        i++;
    return i;
}

/* ---- the findings, one at a time ---------------------------------------------- */

#define NO_END SIZE_MAX

/* The end of the JSON value that starts at S[I] (N bytes): past a string's
 * closing quote, an object's or an array's closing bracket (brackets
 * counted, strings skipped), else up to the next delimiter; NO_END when the
 * line ends first.  Nothing is checked: json-c does that. */
static size_t value_end(const char *s, size_t i, size_t n)
{
    size_t depth = 0;
    while (i < n) {
        char c = s[i];
        if (c == '"') {
            for (i++; i < n && s[i] != '"'; i++)
                i += s[i] == '\\';
            if (i >= n)
                return NO_END;
            i++;
        } else if (c == '{' || c == '[') {
            depth++;
            i++;
        } else if (c == '}' || c == ']') {
            if (!depth)
                return i;   /* a scalar's end */
            depth--;
            i++;
        } else if (!depth && (c == ',' || c == ':' || is_blank(c))) {
            return i;
        } else {
            i++;
            continue;
        }
        if (!depth)
            return i;
    }
    return depth ? NO_END : i;
}

/*
 * Where the top-level member "findings" of the object in S (N bytes) holds
 * an array: [*AT, *END), its brackets included (to the line's end when it
 * does not close).  The key is compared as written; the last member of
 * that name counts, as json-c's.  Returns 0 when there is none, or the
 * line stops making sense first: json-c then reads it whole, and says what
 * is wrong with it.
 */
static int findings_span(const char *s, size_t n, size_t *at, size_t *end)
{
    static const char key[] = "\"findings\"";
    int found = 0;
    size_t i = skip_blanks(s, 0, n);
    if (i == n || s[i] != '{')
        return 0;
    for (i = skip_blanks(s, i + 1, n); i < n && s[i] == '"';) {
        size_t k = i, ke = value_end(s, i, n);
        if (ke == NO_END || (i = skip_blanks(s, ke, n)) == n || s[i] != ':')
            break;
        size_t v = skip_blanks(s, i + 1, n), ve = v < n ? value_end(s, v, n) : NO_END;
        if (ke - k == sizeof key - 1 && memcmp(s + k, key, sizeof key - 1) == 0) {
            found = v < n && s[v] == '[';
            *at = v;
            *end = ve == NO_END ? n : ve;
        }
        if (ve == NO_END || (i = skip_blanks(s, ve, n)) == n || s[i] != ',')
            break;
        i = skip_blanks(s, i + 1, n);
    }
    return found;
}

/* The JSON value in TEXT (LEN bytes, then whatever follows it up to
 * AVAIL) with TOK, into *OUT.  Returns 0, or -1 with ERR. */
static int parse_value(struct json_tokener *tok, const char *text, size_t len, size_t avail,
                       struct json_object **out, char *err, size_t errlen)
{
    *out = NULL;
    if (avail > INT32_MAX)
        return error_set(err, errlen, "line too long");
    json_tokener_reset(tok);
    struct json_object *v = json_tokener_parse_ex(tok, text, (int)len);
    enum json_tokener_error e = json_tokener_get_error(tok);
    size_t used = json_tokener_get_parse_end(tok);
    if (e == json_tokener_continue && len < avail) {
        /* Something follows: json-c knows that a number has ended only
         * when it sees a byte past it. */
        v = json_tokener_parse_ex(tok, " ", 1);
        e = json_tokener_get_error(tok);
        used = len;
    }
    if (e == json_tokener_continue)
        return error_set(err, errlen, "not JSON: the object is cut off");
    if (e != json_tokener_success)
        return error_set(err, errlen, "not JSON: %s", json_tokener_error_desc(e));
    if (used < len && !only_blanks(text + used, len - used)) {
        json_object_put(v);
        return error_set(err, errlen, "more than one JSON value on the line");
    }
    *out = v;
    return 0;
}

int json_record_open(struct json_record_reader *rd, const char *line, size_t len, struct json_record *rec,
                     char *err, size_t errlen)
{
    memset(rd, 0, sizeof *rd);
    memset(rec, 0, sizeof *rec);
    if (len > INT32_MAX)
        return error_set(err, errlen, "line too long");
    size_t at, end;
    char *skeleton = NULL;
    size_t n = len;
    if (findings_span(line, len, &at, &end)) {
        /* The line with the array emptied: the findings are read one by one. */
        n = at + 2 + (len - end);
        if (!(skeleton = malloc(n)))
            return error_set(err, errlen, "out of memory");
        memcpy(skeleton, line, at);
        memcpy(skeleton + at, "[]", 2);
        memcpy(skeleton + at + 2, line + end, len - end);
        rd->text = line;
        rd->at = at + 1;
        rd->end = end;
    }
    rd->tok = json_tokener_new();
    if (!rd->tok) {
        free(skeleton);
        return error_set(err, errlen, "out of memory");
    }
    json_tokener_set_flags(rd->tok, JSON_TOKENER_STRICT);
    int rc = parse_value(rd->tok, skeleton ? skeleton : line, n, n, &rd->top, err, errlen);
    free(skeleton);
    if (rc == 0)
        rc = read_record(rd->top, rec, err, errlen);
    if (rc == 0 && rec->kind == JSON_RECORD_AUDITED) {
        struct json_object *list = member(rd->top, "findings");
        if (!list || !json_object_is_type(list, json_type_array))
            rc = error_set(err, errlen, list ? "\"findings\" is not an array" : "no \"findings\"");
        else if (!rd->text)
            rd->list = list;   /* read with the line: a key written with escapes */
    }
    if (rc != 0 || rec->kind != JSON_RECORD_AUDITED)
        rd->text = NULL;
    if (rc != 0) {
        json_record_release(rec);
        json_record_close(rd);
    }
    return rc;
}

/* The next element of the array set apart, parsed, into *V (NULL at its end). */
static int next_element(struct json_record_reader *rd, struct json_object **v, char *err, size_t errlen)
{
    *v = NULL;
    const char *s = rd->text;
    size_t i = skip_blanks(s, rd->at, rd->end);
    if (i < rd->end && s[i] == ']' && !rd->read) {
        rd->text = NULL;
        return 0;
    }
    size_t ve = value_end(s, i, rd->end);
    if (ve == NO_END || ve == i)
        return error_set(err, errlen, "not JSON: %s", json_tokener_error_desc(json_tokener_error_parse_unexpected));
    if (parse_value(rd->tok, s + i, ve - i, rd->end - i, v, err, errlen) != 0)
        return -1;
    i = skip_blanks(s, ve, rd->end);
    if (i < rd->end && (s[i] == ',' || s[i] == ']')) {
        rd->at = i + 1;
        if (s[i] == ']')
            rd->text = NULL;   /* the last one */
        return 0;
    }
    json_object_put(*v);
    *v = NULL;
    return error_set(err, errlen, "not JSON: %s", json_tokener_error_desc(json_tokener_error_parse_array));
}

int json_record_next(struct json_record_reader *rd, struct finding *f, char *err, size_t errlen)
{
    struct json_object *v = NULL, *owned = NULL;
    if (rd->list && rd->read < json_object_array_length(rd->list))
        v = json_object_array_get_idx(rd->list, rd->read);
    else if (rd->text && next_element(rd, &owned, err, errlen) != 0)
        return -1;
    if (owned)
        v = owned;
    if (!v)
        return 0;
    char why[200];
    rd->read++;
    int rc = read_finding(v, f, why, sizeof why);
    json_object_put(owned);
    if (rc != 0)
        return error_set(err, errlen, "finding %zu: %s", rd->read, why);
    return 1;
}

void json_record_close(struct json_record_reader *rd)
{
    json_object_put(rd->top);
    if (rd->tok)
        json_tokener_free(rd->tok);
    memset(rd, 0, sizeof *rd);
}

int json_record_parse(const char *line, size_t len, struct json_record *rec, char *err, size_t errlen)
{
    struct json_record_reader rd;
    if (json_record_open(&rd, line, len, rec, err, errlen) != 0)
        return -1;
    struct check_result *r = &rec->result;
    struct finding f;
    int got;
    while ((got = json_record_next(&rd, &f, err, errlen)) == 1) {
        if (r->nfindings == r->cap) {
            size_t cap = r->cap ? 2 * r->cap : 16;
            struct finding *more = realloc(r->findings, cap * sizeof *more);
            if (!more) {
                got = error_set(err, errlen, "out of memory");
                break;
            }
            r->findings = more;
            r->cap = cap;
        }
        r->findings[r->nfindings++] = f;
    }
    json_record_close(&rd);
    if (got != 0)
        json_record_release(rec);
    return got;
}

void json_record_release(struct json_record *rec)
{
    free(rec->path);
    free(rec->reason);
    for (size_t i = 0; i < rec->nnames; i++)
        free(rec->names[i]);
    free(rec->names);
    if (rec->kind == JSON_RECORD_AUDITED)
        check_result_release(&rec->result);
    memset(rec, 0, sizeof *rec);
}
