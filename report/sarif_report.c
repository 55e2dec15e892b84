/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sarif_report: SARIF 2.1.0 rendering.
 */
#include "sarif_report.h"

#include <stdlib.h>
#include <string.h>

#include "report/json_string.h"
#include "report/json_report.h"
#include "report/text_report.h"
#include "verify/audit/finding_identity.h"

struct sarif_report {
    FILE *out;
    size_t results;          /* results written so far */
    FILE *notes;             /* the notifications' JSON, comma-separated, */
    char *notes_text;        /* ... in this memory stream */
    size_t notes_len, nnotes;
    int notes_lost;          /* a write to the stream failed: out of memory */
    int failed;              /* executionSuccessful will be false */
};

static const char *sarif_level(enum severity s)
{
    return s == SEVERITY_ERROR ? "error" : s == SEVERITY_WARNING ? "warning" : "note";
}

struct sarif_report *sarif_begin(FILE *out, const char *version)
{
    struct sarif_report *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->out = out;
    s->notes = open_memstream(&s->notes_text, &s->notes_len);
    if (!s->notes) {
        free(s);
        return NULL;
    }
    fputs("{\"$schema\":\"https://json.schemastore.org/sarif-2.1.0.json\",\"version\":\"2.1.0\","
          "\"runs\":[{\"tool\":{\"driver\":{\"name\":\"dwcheck\",\"version\":", out);
    json_string_print(out, version);
    fputs(",\"rules\":[", out);
    for (int k = 0; k < FINDING_KINDS; k++) {
        enum finding_kind kind = (enum finding_kind)k;
        fprintf(out, "%s{\"id\":\"%s\",\"name\":\"%s\",\"shortDescription\":{\"text\":", k ? "," : "",
                finding_kind_name(kind), finding_kind_name(kind));
        json_string_print(out, finding_kind_title(kind));
        fputs("},\"fullDescription\":{\"text\":", out);
        json_string_print(out, finding_kind_help(kind));
        fputs("},\"help\":{\"text\":", out);
        json_string_print(out, finding_kind_advice(kind));
        fprintf(out, "},\"defaultConfiguration\":{\"level\":\"%s\"}}",
                sarif_level(finding_kind_severity(kind)));
    }
    fputs("]}},\"results\":[", out);
    return s;
}

/* PATH as a JSON string holding a URI: every byte but the unreserved ones,
 * '/' and the sub-delimiters percent-encoded (':' too, which would make a
 * relative path's first segment a scheme); an absolute path a file: URI. */
void sarif_print_uri(FILE *out, const char *path)
{
    fputs(path[0] == '/' ? "\"file://" : "\"", out);
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
            strchr("-._~/!$&'()*+,;=@", *p))
            fputc(*p, out);
        else
            fprintf(out, "%%%02X", *p);
    }
    fputc('"', out);
}

/* The line of SOURCE, "file.c:123": the file's length in *NAME_LEN and
 * the line returned, or 0 when it has none. */
static unsigned long line_of(const char *source, size_t *name_len)
{
    const char *colon = strrchr(source, ':');
    if (!colon || colon == source || !colon[1] || strspn(colon + 1, "0123456789") != strlen(colon + 1))
        return 0;
    unsigned long line = strtoul(colon + 1, NULL, 10);
    *name_len = (size_t)(colon - source);
    return line < 1 || line > 0x7fffffff ? 0 : line;
}

/* The source line of F (line_of its source). */
static unsigned long source_line(const struct finding *f, size_t *name_len)
{
    return line_of(f->source, name_len);
}

/* The binary and the address, as logical locations (the binary a module,
 * the function's place in it "BINARY!func+0x1a"). */
void sarif_print_logical(FILE *out, const char *path, const char *object, const char *name, const char *where)
{
    fputs(",\"logicalLocations\":[{\"name\":", out);
    json_string_print(out, name);
    char *fq = malloc(strlen(object) + strlen(where) + 2);
    if (fq) {
        sprintf(fq, "%s!%s", object, where);
        fputs(",\"fullyQualifiedName\":", out);
        json_string_print(out, fq);
        free(fq);
    }
    fputs(",\"kind\":\"function\"},{\"name\":", out);
    json_string_print(out, object);
    fputs(",\"fullyQualifiedName\":", out);
    json_string_print(out, path);
    fputs(",\"kind\":\"module\"}]", out);
}

static void print_fingerprint(FILE *out, const struct finding_identity *id)
{
    char fp[FINDING_FINGERPRINT_LEN];
    finding_identity_fingerprint(fp, id);
    fprintf(out, ",\"partialFingerprints\":{\"" FINDING_IDENTITY_KEY "\":\"%s\"}", fp);
}

static int kind_index(const char *name)
{
    for (int k = 0; k < FINDING_KINDS; k++)
        if (!strcmp(name, finding_kind_name((enum finding_kind)k)))
            return k;
    return -1;
}

/* Whether SOURCE ("file.S:12") names an assembly source, where a fix's
 * directives can be written: .s, .S, .sx, .asm. */
static int assembly_source(const char *source, size_t name_len)
{
    static const char *const ext[] = {".s", ".S", ".sx", ".asm"};
    for (size_t i = 0; i < sizeof ext / sizeof ext[0]; i++) {
        size_t n = strlen(ext[i]);
        if (name_len > n && memcmp(source + name_len - n, ext[i], n) == 0)
            return 1;
    }
    return 0;
}

/* Where PLACE's directives go in its source, an insertion point: before
 * the line of the instruction they precede, when that is not the line of
 * the one they follow (a macro, `a; b`), else after the latter's line.
 * Returns the line (its file's name length in *NAME_LEN, from *FILE), or 0
 * when there is none in an assembly source. */
static unsigned long place_line(const struct fix_place *place, const char **file, size_t *name_len)
{
    size_t n = 0, n_after = 0;
    unsigned long line = line_of(place->source, &n);
    unsigned long after = place->has_after ? line_of(place->after_source, &n_after) : 0;
    int same_file = line && after && n == n_after && memcmp(place->source, place->after_source, n) == 0;
    if (line && !(same_file && after >= line)) {
        *file = place->source;
        *name_len = n;
    } else if (after && !line && after < 0x7fffffff) {
        *file = place->after_source;
        *name_len = n_after;
        line = after + 1;
    } else {
        return 0;
    }
    return assembly_source(*file, *name_len) ? line : 0;
}

/* PLACE's directives as one line of text, "A; B". */
static void joined_directives(char *buf, size_t size, const struct fix_place *place)
{
    size_t k = 0;
    for (const char *d = place->directives; *d && k + 3 < size; d++) {
        if (*d != '\n') {
            buf[k++] = *d;
        } else if (d[1]) {
            buf[k++] = ';';
            buf[k++] = ' ';
        }
    }
    buf[k] = '\0';
}

/* A replacement inserting PLACE's directives before LINE, each on a line
 * of its own, indented by a tab as `dwsynth annotate` writes them. */
static void print_insertion(FILE *out, const struct fix_place *place, unsigned long line)
{
    char inserted[2 * sizeof place->directives];
    size_t k = 0;
    for (const char *d = place->directives; *d && k + 2 < sizeof inserted; d++) {
        if (d == place->directives || d[-1] == '\n')
            inserted[k++] = '\t';
        inserted[k++] = *d;
    }
    inserted[k] = '\0';
    fprintf(out, "{\"deletedRegion\":{\"startLine\":%lu,\"startColumn\":1,\"endLine\":%lu,\"endColumn\":1},"
                 "\"insertedContent\":{\"text\":", line, line);
    json_string_print(out, inserted);
    fputs("}}", out);
}

/* F's fix as SARIF's `fixes`: its insertions, in line order, where each
 * place has a line in one assembly source (else none: half a fix is a
 * wrong one, and the result's properties keep it whole). */
static void print_fixes(FILE *out, const struct finding *f)
{
    const struct finding_fix *fix = &f->fix;
    const char *file = NULL, *then_file = NULL;
    size_t name_len = 0, then_len = 0;
    unsigned long line = fix->state == FIX_KNOWN ? place_line(&fix->at, &file, &name_len) : 0;
    unsigned long then = line && fix->has_then ? place_line(&fix->then, &then_file, &then_len) : 0;
    if (!line || (fix->has_then && (!then || then_len != name_len || memcmp(file, then_file, name_len) != 0)))
        return;
    char place[600], description[1600], joined[2 * sizeof fix->at.directives], name[sizeof fix->at.source];
    text_report_fix_place(place, sizeof place, &fix->at, f->function_start, f->source);
    joined_directives(joined, sizeof joined, &fix->at);
    int n = snprintf(description, sizeof description, "Write %s %s", joined, place);
    if (fix->has_then && n > 0 && (size_t)n < sizeof description) {
        text_report_fix_place(place, sizeof place, &fix->then, f->function_start, f->source);
        joined_directives(joined, sizeof joined, &fix->then);
        snprintf(description + n, sizeof description - (size_t)n, "; then %s %s", joined, place);
    }
    memcpy(name, file, name_len);
    name[name_len] = '\0';
    fputs(",\"fixes\":[{\"description\":{\"text\":", out);
    json_string_print(out, description);
    fputs("},\"artifactChanges\":[{\"artifactLocation\":{\"uri\":", out);
    sarif_print_uri(out, name);
    fputs("},\"replacements\":[", out);
    int then_first = fix->has_then && then < line;
    print_insertion(out, then_first ? &fix->then : &fix->at, then_first ? then : line);
    if (fix->has_then) {
        fputc(',', out);
        print_insertion(out, then_first ? &fix->at : &fix->then, then_first ? line : then);
    }
    fputs("]}]}]", out);
}

void sarif_finding(struct sarif_report *s, const char *path, const struct finding *f,
                   const struct sarif_mark *mark)
{
    FILE *out = s->out;
    const char *slash = strrchr(path, '/');
    const char *object = slash ? slash + 1 : path;
    char where[FINDING_WHERE_LEN], text[2048], cx[512] = "", fix[900] = "";
    finding_where(where, sizeof where, f);
    if (f->cx.present)
        counterexample_format(cx, sizeof cx, &f->cx);
    if (f->fix.state == FIX_KNOWN) {
        char place[600], one[2 * sizeof f->fix.at.directives];
        text_report_fix_place(place, sizeof place, &f->fix.at, f->function_start, f->source);
        joined_directives(one, sizeof one, &f->fix.at);
        size_t n = strlen(place);
        if (n + 2 + strlen(one) < sizeof fix) {   /* else the message names no fix: the property does */
            memcpy(fix, place, n);
            memcpy(fix + n, ": ", 2);
            memcpy(fix + n + 2, one, strlen(one) + 1);
        }
        if (fix[0] && f->fix.has_then) {
            text_report_fix_place(place, sizeof place, &f->fix.then, f->function_start, f->source);
            joined_directives(one, sizeof one, &f->fix.then);
            size_t at = strlen(fix);
            int w = snprintf(fix + at, sizeof fix - at, "; then %s: %s", place, one);
            if (w < 0 || (size_t)w >= sizeof fix - at)
                fix[0] = '\0';
        }
    } else if (f->fix.state == FIX_UNKNOWN) {
        snprintf(fix, sizeof fix, "none: %s", f->fix.why);
    }
    /* The first line as the text output's; the words of a column's
     * rule on lines of their own. */
    snprintf(text, sizeof text, "%s%s%s%s: %s%s%s%s%s%s%s%s%s", where, f->source[0] ? " (" : "", f->source,
             f->source[0] ? ")" : "", f->message, f->claim[0] ? "\ntable: " : "", f->claim,
             f->code[0] ? "\ncode: " : "", f->code, cx[0] ? "\ncounterexample: " : "", cx,
             fix[0] ? "\nfix: " : "", fix);
    fprintf(out, "%s{\"ruleId\":\"%s\",\"ruleIndex\":%d,\"level\":\"%s\",\"message\":{\"text\":",
            s->results++ ? "," : "", finding_kind_name(f->kind), (int)f->kind, sarif_level(f->severity));
    json_string_print(out, text);
    fputs("},\"locations\":[{\"physicalLocation\":{\"artifactLocation\":{\"uri\":", out);
    size_t name_len = 0;
    unsigned long line = source_line(f, &name_len);
    if (line) {
        /* The source line where the line table knows it; the binary
         * and address are then the logical locations and the related one. */
        char src[sizeof f->source];
        memcpy(src, f->source, name_len);
        src[name_len] = '\0';
        sarif_print_uri(out, src);
        fprintf(out, "},\"region\":{\"startLine\":%lu}}", line);
    } else {
        sarif_print_uri(out, path);
        fprintf(out, "},\"address\":{\"absoluteAddress\":%llu}}", (unsigned long long)f->address);
    }
    sarif_print_logical(out, path, object, f->function[0] ? f->function : where, where);
    fputs("}]", out);
    if (line) {
        fputs(",\"relatedLocations\":[{\"id\":1,\"physicalLocation\":{\"artifactLocation\":{\"uri\":", out);
        sarif_print_uri(out, path);
        fprintf(out, "},\"address\":{\"absoluteAddress\":%llu}}}]", (unsigned long long)f->address);
    }
    print_fixes(out, f);
    struct finding_identity id;
    finding_identity_of(&id, path, f);
    print_fingerprint(out, &id);
    if (mark && mark->baseline)
        fprintf(out, ",\"baselineState\":\"%s\"", mark->known ? "unchanged" : "new");
    if (mark && mark->suppressed) {
        fputs(",\"suppressions\":[{\"kind\":\"external\",\"justification\":", out);
        json_string_print(out, mark->suppressed);
        fputs("}]", out);
    }
    fputs(",\"properties\":{\"dwarf\":", out);
    json_string_print(out, f->dwarf);
    fputs(",\"synth\":", out);
    json_string_print(out, f->synth);
    json_report_words(out, f);   /* the fix also where no source line takes `fixes` */
    fprintf(out, ",\"addresses\":%zu,\"address\":%llu,\"insnIndex\":%ld}}", f->count,
            (unsigned long long)f->address, (long)f->insn_index);
}

FILE *sarif_next_result(struct sarif_report *s)
{
    if (s->results++)
        fputc(',', s->out);
    return s->out;
}

void sarif_absent(struct sarif_report *s, const struct finding_identity *id)
{
    FILE *out = s->out;
    int k = kind_index(id->kind);
    char where[sizeof id->function + 48];
    if (id->insn >= 0)
        snprintf(where, sizeof where, "%s, instruction %ld", id->function, id->insn);
    else
        snprintf(where, sizeof where, "%s", id->function);
    char text[1024];
    snprintf(text, sizeof text, "%s: %s no longer found (the baseline's rule %s, synthesis %s)", where, id->kind,
             id->rule[0] ? id->rule : "-", id->synth[0] ? id->synth : "-");
    fprintf(out, "%s{\"ruleId\":\"%s\",\"ruleIndex\":%d,\"kind\":\"pass\",\"level\":\"none\",\"message\":{\"text\":",
            s->results++ ? "," : "", id->kind, k);
    json_string_print(out, text);
    fputs("},\"locations\":[{\"physicalLocation\":{\"artifactLocation\":{\"uri\":", out);
    sarif_print_uri(out, id->object);
    fputs("}}", out);
    sarif_print_logical(out, id->object, id->object, id->function, id->function);
    fputs("}]", out);
    print_fingerprint(out, id);
    fputs(",\"baselineState\":\"absent\"}", out);
}

int sarif_notify(struct sarif_report *s, enum sarif_notification_level level, const char *path,
                 const char *reason)
{
    if (level == SARIF_ERROR)
        s->failed = 1;
    char *text = NULL;
    if (path) {
        size_t np = strlen(path), nr = strlen(reason);
        if (!(text = malloc(np + nr + 3))) {
            s->notes_lost = s->failed = 1;
            return -1;
        }
        memcpy(text, path, np);
        memcpy(text + np, ": ", 2);
        memcpy(text + np + 2, reason, nr + 1);
    }
    fprintf(s->notes, "%s{\"level\":\"%s\",\"message\":{\"text\":", s->nnotes++ ? "," : "",
            level == SARIF_ERROR ? "error" : "note");
    json_string_print(s->notes, text ? text : reason);
    fputc('}', s->notes);
    if (path) {
        fputs(",\"locations\":[{\"physicalLocation\":{\"artifactLocation\":{\"uri\":", s->notes);
        sarif_print_uri(s->notes, path);
        fputs("}}}]", s->notes);
    }
    fputc('}', s->notes);
    free(text);
    if (ferror(s->notes)) {
        s->notes_lost = s->failed = 1;
        return -1;
    }
    return 0;
}

void sarif_end(struct sarif_report *s, int failed)
{
    if (fclose(s->notes) != 0)
        s->notes_lost = 1;
    fprintf(s->out, "],\"invocations\":[{\"executionSuccessful\":%s,\"toolExecutionNotifications\":[",
            s->failed || s->notes_lost || failed ? "false" : "true");
    /* What the memory stream holds may then stop mid-notification: say so instead. */
    if (s->notes_lost)
        fputs("{\"level\":\"error\",\"message\":{\"text\":\"out of memory: notifications lost\"}}", s->out);
    else if (s->notes_text)
        fwrite(s->notes_text, 1, s->notes_len, s->out);
    fputs("]}]}]}\n", s->out);
    free(s->notes_text);
    free(s);
}
