/* SPDX-License-Identifier: Apache-2.0 */
/*
 * baseline: the baseline file, read, matched and written (baseline.h).
 */
#include "baseline.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys/error.h"
#include "sys/output_file.h"

void baseline_release(struct baseline *b)
{
    free(b->entries);
    free(b->suppress);
    memset(b, 0, sizeof *b);
}

int baseline_add(struct baseline *b, const struct finding_identity *id)
{
    if (b->n == b->cap) {
        size_t ncap = b->cap ? b->cap * 2 : 16;
        struct baseline_entry *n = realloc(b->entries, ncap * sizeof *n);
        if (!n)
            return -1;
        b->entries = n;
        b->cap = ncap;
    }
    memset(&b->entries[b->n], 0, sizeof b->entries[b->n]);
    b->entries[b->n++].id = *id;
    return 0;
}

int baseline_add_suppression(struct baseline *b, const struct baseline_suppression *s)
{
    if (b->nsuppress == b->suppress_cap) {
        size_t ncap = b->suppress_cap ? b->suppress_cap * 2 : 8;
        struct baseline_suppression *n = realloc(b->suppress, ncap * sizeof *n);
        if (!n)
            return -1;
        b->suppress = n;
        b->suppress_cap = ncap;
    }
    b->suppress[b->nsuppress++] = *s;
    return 0;
}

void baseline_audited(struct baseline *b, const char *object)
{
    for (size_t i = 0; i < b->n; i++)
        if (!strcmp(b->entries[i].id.object, object))
            b->entries[i].audited = 1;
}

const char *baseline_match(struct baseline *b, const struct finding_identity *id, int *known)
{
    *known = 0;
    for (size_t i = 0; i < b->n; i++) {
        if (!b->entries[i].matched && finding_identity_equal(&b->entries[i].id, id)) {
            b->entries[i].matched = 1;
            *known = 1;
            break;
        }
    }
    for (size_t i = 0; i < b->nsuppress; i++) {
        const struct baseline_suppression *s = &b->suppress[i];
        if ((!s->kind[0] || !strcmp(s->kind, id->kind)) && (!s->function[0] || !strcmp(s->function, id->function)))
            return s->reason;
    }
    return NULL;
}

/* ---- reading ---------------------------------------------------------------- */

/* A value: a quoted string with escapes, or a bare word.  *P is past it
 * after.  Returns 0, or -1 with ERR. */
static int read_value(const char **p, char *out, size_t size, const char *key, char *err, size_t errlen)
{
    const char *s = *p;
    size_t n = 0;
    if (*s == '"') {
        for (s++;; s++) {
            int c = (unsigned char)*s;
            if (!c)
                return error_set(err, errlen, "value of %s: no closing quote", key);
            if (c == '"') {
                s++;
                break;
            }
            if (c == '\\') {
                s++;
                if (*s == '"' || *s == '\\') {
                    c = (unsigned char)*s;
                } else if (*s == 'x') {
                    unsigned v;
                    char hex[3] = {s[1], s[1] ? s[2] : 0, 0};
                    char *end;
                    v = (unsigned)strtoul(hex, &end, 16);
                    if (!hex[0] || !hex[1] || *end || !v)
                        return error_set(err, errlen, "value of %s: bad \\x escape", key);
                    c = (int)v;
                    s += 2;
                } else {
                    return error_set(err, errlen, "value of %s: bad escape", key);
                }
            }
            if (n + 1 >= size)
                return error_set(err, errlen, "value of %s: longer than %zu bytes", key, size - 1);
            out[n++] = (char)c;
        }
    } else {
        for (; *s && *s != ' ' && *s != '\t'; s++) {
            if (*s == '"' || *s == '\\')
                return error_set(err, errlen, "value of %s: a quote or backslash in a bare word", key);
            if (n + 1 >= size)
                return error_set(err, errlen, "value of %s: longer than %zu bytes", key, size - 1);
            out[n++] = *s;
        }
    }
    if (*s && *s != ' ' && *s != '\t')
        return error_set(err, errlen, "value of %s: junk after it", key);
    out[n] = '\0';
    *p = s;
    return 0;
}

static int read_number(const char *text, const char *key, long max, long *out, char *err, size_t errlen)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (!*text || *end || errno || v < -1 || v > max)
        return error_set(err, errlen, "%s \"%s\" is not a number from -1 to %ld", key, text, max);
    *out = v;
    return 0;
}

enum { K_KIND, K_OBJECT, K_FUNCTION, K_INSN, K_COLUMN, K_RULE, K_SYNTH, K_REASON, NKEYS };
static const char *const key_names[NKEYS] = {"kind", "object", "function", "insn",
                                             "column", "rule", "synth", "reason"};

static int known_kind(const char *name)
{
    for (int k = 0; k < FINDING_KINDS; k++)
        if (!strcmp(name, finding_kind_name((enum finding_kind)k)))
            return 1;
    return 0;
}

/* One record line (no newline, not blank, not a comment). */
static int read_record(struct baseline *b, const char *line, char *err, size_t errlen)
{
    int is_finding;
    const char *p;
    if (!strncmp(line, "finding ", 8) || !strcmp(line, "finding")) {
        is_finding = 1;
        p = line + 7;
    } else if (!strncmp(line, "suppress ", 9) || !strcmp(line, "suppress")) {
        is_finding = 0;
        p = line + 8;
    } else {
        char word[40];
        snprintf(word, sizeof word, "%.*s", (int)strcspn(line, " \t"), line);
        return error_set(err, errlen, "unknown record \"%s\" (finding or suppress)", word);
    }
    static char values[NKEYS][BASELINE_MAX_LINE];
    int have[NKEYS] = {0};
    for (;;) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p)
            break;
        size_t klen = strcspn(p, "= \t");
        if (p[klen] != '=')
            return error_set(err, errlen, "\"%.*s\" is not KEY=VALUE", (int)(klen > 40 ? 40 : klen), p);
        int k = -1;
        for (int i = 0; i < NKEYS; i++)
            if (strlen(key_names[i]) == klen && !strncmp(p, key_names[i], klen))
                k = i;
        if (k < 0 || (is_finding ? k == K_REASON : (k != K_KIND && k != K_FUNCTION && k != K_REASON)))
            return error_set(err, errlen, "unknown key \"%.*s\" in a %s record", (int)(klen > 40 ? 40 : klen), p,
                             is_finding ? "finding" : "suppress");
        if (have[k])
            return error_set(err, errlen, "key %s given twice", key_names[k]);
        have[k] = 1;
        p += klen + 1;
        if (read_value(&p, values[k], sizeof values[k], key_names[k], err, errlen) != 0)
            return -1;
    }
    if (have[K_KIND] && !known_kind(values[K_KIND]))
        return error_set(err, errlen, "unknown finding kind \"%.64s\"", values[K_KIND]);
    if (!is_finding) {
        struct baseline_suppression s;
        memset(&s, 0, sizeof s);
        if (!have[K_KIND] && !have[K_FUNCTION])
            return error_set(err, errlen, "a suppress record names no kind and no function");
        if (!have[K_REASON] || !values[K_REASON][0])
            return error_set(err, errlen, "a suppress record has no reason");
        if ((have[K_FUNCTION] && !values[K_FUNCTION][0]))
            return error_set(err, errlen, "a suppress record's function is empty");
        size_t nk = have[K_KIND] ? strlen(values[K_KIND]) : 0, nf = have[K_FUNCTION] ? strlen(values[K_FUNCTION]) : 0;
        size_t nr = strlen(values[K_REASON]);
        if (nk >= sizeof s.kind || nf >= sizeof s.function || nr >= sizeof s.reason)
            return error_set(err, errlen, "a suppress record's function or reason is too long (%zu, %zu bytes at most)",
                             sizeof s.function - 1, sizeof s.reason - 1);
        memcpy(s.kind, values[K_KIND], nk);
        memcpy(s.function, values[K_FUNCTION], nf);
        memcpy(s.reason, values[K_REASON], nr);
        return baseline_add_suppression(b, &s) == 0 ? 0 : error_set(err, errlen, "out of memory");
    }
    for (int k = 0; k < K_REASON; k++)
        if (!have[k])
            return error_set(err, errlen, "a finding record has no %s", key_names[k]);
    struct finding_identity id;
    memset(&id, 0, sizeof id);
    struct {
        int key;
        char *field;
        size_t size;
    } texts[] = {{K_KIND, id.kind, sizeof id.kind},       {K_OBJECT, id.object, sizeof id.object},
                 {K_FUNCTION, id.function, sizeof id.function}, {K_RULE, id.rule, sizeof id.rule},
                 {K_SYNTH, id.synth, sizeof id.synth}};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        if (strlen(values[texts[i].key]) >= texts[i].size)
            return error_set(err, errlen, "%s is longer than %zu bytes", key_names[texts[i].key], texts[i].size - 1);
        memcpy(texts[i].field, values[texts[i].key], strlen(values[texts[i].key]) + 1);
    }
    if (!id.object[0] || strchr(id.object, '/'))
        return error_set(err, errlen, "object must be a file's base name");
    long insn, column;
    if (read_number(values[K_INSN], "insn", INT32_MAX, &insn, err, errlen) != 0 ||
        read_number(values[K_COLUMN], "column", 65535, &column, err, errlen) != 0)
        return -1;
    id.insn = insn;
    id.column = (int)column;
    return baseline_add(b, &id) == 0 ? 0 : error_set(err, errlen, "out of memory");
}

int baseline_read(struct baseline *b, const char *path, char *err, size_t errlen)
{
    memset(b, 0, sizeof *b);
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return error_set(err, errlen, "%s", strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return error_set(err, errlen, "not a regular file");
    }
    if ((uint64_t)st.st_size > BASELINE_MAX_BYTES) {
        close(fd);
        return error_set(err, errlen, "larger than %u bytes: not a baseline", BASELINE_MAX_BYTES);
    }
    size_t size = (size_t)st.st_size;
    char *text = malloc(size + 1);
    if (!text) {
        close(fd);
        return error_set(err, errlen, "out of memory");
    }
    size_t got = 0;
    while (got < size) {
        ssize_t r = read(fd, text + got, size - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    int read_errno = errno;
    close(fd);
    if (got != size) {
        free(text);
        return error_set(err, errlen, "cannot read it whole (%zu of %zu bytes): %s", got, size,
                         got < size && read_errno ? strerror(read_errno) : "it changed while read");
    }
    text[got] = '\0';
    int rc = 0;
    if (memchr(text, '\0', got)) {
        rc = error_set(err, errlen, "a NUL byte: not a text file");
        goto out;
    }
    size_t lineno = 0;
    int header = 0;
    for (char *line = text; *line && rc == 0;) {
        char *nl = strchr(line, '\n');
        char *next = nl ? nl + 1 : line + strlen(line);
        if (nl)
            *nl = '\0';
        lineno++;
        size_t len = strlen(line);
        if (len && line[len - 1] == '\r')
            line[--len] = '\0';
        char why[300];
        if (len > BASELINE_MAX_LINE) {
            rc = error_set(err, errlen, "line %zu: longer than %d bytes", lineno, BASELINE_MAX_LINE);
        } else if (!header) {
            unsigned long version;
            char *end;
            if (strncmp(line, "dwcheck-baseline ", 17) != 0)
                rc = error_set(err, errlen, "line %zu: not a dwcheck baseline (no \"dwcheck-baseline %d\" line)",
                               lineno, BASELINE_VERSION);
            else if ((version = strtoul(line + 17, &end, 10)) != BASELINE_VERSION || *end || end == line + 17)
                rc = error_set(err, errlen, "line %zu: unsupported baseline version \"%.20s\" (this dwcheck reads %d)",
                               lineno, line + 17, BASELINE_VERSION);
            header = 1;
        } else if (line[strspn(line, " \t")] != '\0' && line[strspn(line, " \t")] != '#' &&
                   read_record(b, line + strspn(line, " \t"), why, sizeof why) != 0) {
            rc = error_set(err, errlen, "line %zu: %s", lineno, why);
        }
        line = next;
    }
    if (rc == 0 && !header)
        rc = error_set(err, errlen, "empty: not a dwcheck baseline");
out:
    free(text);
    return rc;
}

/* ---- writing ---------------------------------------------------------------- */

static void put_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p < 0x20 || *p == 0x7f)
            fprintf(f, "\\x%02x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

static int write_baseline(FILE *f, const void *arg)
{
    const struct baseline *b = arg;
    fprintf(f, "dwcheck-baseline %d\n# dwcheck findings known and accepted; see docs/baselines.md\n",
            BASELINE_VERSION);
    for (size_t i = 0; i < b->nsuppress; i++) {
        const struct baseline_suppression *s = &b->suppress[i];
        fputs("suppress", f);
        if (s->kind[0]) {
            fputs(" kind=", f);
            put_string(f, s->kind);
        }
        if (s->function[0]) {
            fputs(" function=", f);
            put_string(f, s->function);
        }
        fputs(" reason=", f);
        put_string(f, s->reason);
        fputc('\n', f);
    }
    for (size_t i = 0; i < b->n; i++) {
        const struct finding_identity *id = &b->entries[i].id;
        fputs("finding kind=", f);
        put_string(f, id->kind);
        fputs(" object=", f);
        put_string(f, id->object);
        fputs(" function=", f);
        put_string(f, id->function);
        fprintf(f, " insn=%ld column=%d rule=", id->insn, id->column);
        put_string(f, id->rule);
        fputs(" synth=", f);
        put_string(f, id->synth);
        fputc('\n', f);
    }
    return ferror(f) ? -1 : 0;
}

int baseline_write(const struct baseline *b, const char *path, char *err, size_t errlen)
{
    return output_write_stream(path, write_baseline, b, err, errlen);
}
