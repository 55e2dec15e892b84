/*
 * sarif_report: SARIF 2.1.0 rendering.
 */
#include "sarif_report.h"

#include <stdlib.h>
#include <string.h>

#include "report/json_string.h"

struct sarif_report {
    FILE *out;
    size_t results;          /* results written so far */
    FILE *notes;             /* the notifications' JSON, comma-separated, */
    char *notes_text;        /* ... in this memory stream */
    size_t notes_len, nnotes;
    int notes_lost;          /* a write to the stream failed: out of memory */
    int failed;              /* executionSuccessful will be false */
};

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
    print_json_string(out, version);
    fputs(",\"rules\":[", out);
    for (int k = 0; k < FINDING_KINDS; k++) {
        fprintf(out, "%s{\"id\":\"%s\",\"shortDescription\":{\"text\":", k ? "," : "",
                finding_kind_name((enum finding_kind)k));
        print_json_string(out, finding_kind_help((enum finding_kind)k));
        fputs("}}", out);
    }
    fputs("]}},\"results\":[", out);
    return s;
}

static const char *sarif_level(enum severity s)
{
    return s == SEVERITY_ERROR ? "error" : s == SEVERITY_WARNING ? "warning" : "note";
}

/* PATH as a JSON string holding a URI: every byte but the unreserved ones,
 * '/' and the sub-delimiters percent-encoded (':' too, which would make a
 * relative path's first segment a scheme); an absolute path a file: URI. */
static void print_uri(FILE *out, const char *path)
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

void sarif_file(struct sarif_report *s, const char *path, const struct check_result *r)
{
    FILE *out = s->out;
    for (size_t i = 0; i < r->nfindings; i++) {
        const struct finding *f = &r->findings[i];
        char where[FINDING_WHERE_LEN], text[1024], cx[512] = "";
        finding_where(where, sizeof where, f);
        if (f->cx.present)
            counterexample_format(cx, sizeof cx, &f->cx);
        snprintf(text, sizeof text, "%s%s%s%s: %s%s%s", where, f->source[0] ? " (" : "", f->source,
                 f->source[0] ? ")" : "", f->message, cx[0] ? "; counterexample: " : "", cx);
        fprintf(out, "%s{\"ruleId\":\"%s\",\"level\":\"%s\",\"message\":{\"text\":",
                s->results++ ? "," : "", finding_kind_name(f->kind), sarif_level(f->severity));
        print_json_string(out, text);
        fputs("},\"locations\":[{\"physicalLocation\":{\"artifactLocation\":{\"uri\":", out);
        print_uri(out, path);
        fprintf(out, "},\"address\":{\"absoluteAddress\":%llu}},\"logicalLocations\":[{\"name\":",
                (unsigned long long)f->address);
        print_json_string(out, f->function[0] ? f->function : where);
        fputs(",\"kind\":\"function\"}]}],\"properties\":{\"dwarf\":", out);
        print_json_string(out, f->dwarf);
        fputs(",\"synth\":", out);
        print_json_string(out, f->synth);
        fprintf(out, ",\"addresses\":%zu}}", f->count);
    }
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
    print_json_string(s->notes, text ? text : reason);
    fputc('}', s->notes);
    if (path) {
        fputs(",\"locations\":[{\"physicalLocation\":{\"artifactLocation\":{\"uri\":", s->notes);
        print_uri(s->notes, path);
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
