/* SPDX-License-Identifier: Apache-2.0 */
#include "run_sarif.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report/json_string.h"
#include "report/run_words.h"
#include "report/sarif_report.h"
#include "semantics/dwarf_expr.h"

/* FNV-1a over the identity's words, 64 bits. */
static uint64_t hash(uint64_t h, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        h = (h ^ *p) * 0x100000001b3ull;
    return (h ^ 0xff) * 0x100000001b3ull;   /* the end of a word */
}

static void result(struct sarif_report *s, const struct run_result *r, const struct run_address *a,
                   const char *place)
{
    FILE *out = sarif_next_result(s);
    const char *path = r->objects[a->object];
    const char *slash = strrchr(path, '/');
    const char *object = slash ? slash + 1 : path;
    const struct run_witness *w = &a->witness;
    enum finding_kind k = run_words_kind(w->column);
    char msg[256], witness[256], rule[64], text[1200];
    run_words_message(a, msg, sizeof msg);
    run_words_witness(a, witness, sizeof witness);
    run_words_rule(w, rule, sizeof rule);
    snprintf(text, sizeof text, "%s: %s (held %" PRIu64 " of %" PRIu64 " executions)\nwitness: %s\nstatic audit: %s",
             place, msg, a->held, a->executions, witness, run_words_static_refuted(a->static_verdict));
    fprintf(out, "{\"ruleId\":\"%s\",\"ruleIndex\":%d,\"level\":\"error\",\"message\":{\"text\":",
            finding_kind_name(k), (int)k);
    json_string_print(out, text);
    fputs("},\"locations\":[{\"physicalLocation\":{\"artifactLocation\":{\"uri\":", out);
    sarif_print_uri(out, path);
    fprintf(out, "},\"address\":{\"absoluteAddress\":%" PRIu64 "}}", a->addr);
    sarif_print_logical(out, path, object, place, place);
    char column[16];
    snprintf(column, sizeof column, "%d", w->column);
    uint64_t h = hash(hash(hash(hash(0xcbf29ce484222325ull, finding_kind_name(k)), object), column), place);
    fprintf(out, "}],\"partialFingerprints\":{\"dwcheckRunFindingIdentity/v1\":\"%016" PRIx64 "\"}", h);
    fprintf(out, ",\"properties\":{\"address\":%" PRIu64 ",\"function_start\":%" PRIu64 ",\"dwarf\":", a->addr,
            a->function_start);
    json_string_print(out, rule);
    fprintf(out, ",\"column\":%d", w->column);
    run_words_json_verdict(out, a);
    fputs("}}", out);
}

size_t run_sarif(FILE *out, const struct run_result *r, const char *version)
{
    struct sarif_report *s = sarif_begin(out, version);
    if (!s) {
        fputs("dwcheck: out of memory: no SARIF report\n", out);
        return 0;
    }
    size_t n, refuted = 0, contradictions = 0;
    struct run_address *all = run_result_sorted(r, &n);
    struct run_words_names names;
    run_words_names_init(&names);
    for (size_t i = 0; i < n; i++) {
        if (!all[i].refuted)
            continue;
        char place[512];
        run_words_where(&names, r, (int)all[i].object, all[i].addr, all[i].function_start, place, sizeof place);
        result(s, r, &all[i], place);
        refuted++;
        contradictions += all[i].static_verdict == RUN_STATIC_HOLDS;
    }
    run_words_names_release(&names);
    free(all);
    int failed = 0;
    for (size_t o = 0; o < r->nobjects; o++)
        if (r->not_audited[o] && sarif_notify(s, SARIF_ERROR, r->objects[o], r->not_audited[o]) != 0)
            failed = 1;
    if (r->join_out_of_memory)
        failed |= sarif_notify(s, SARIF_ERROR, NULL, "objects not audited: their names lost (out of memory)") != 0;
    if (contradictions) {
        char why[200];
        snprintf(why, sizeof why, "INTERNAL ERROR: the run refutes %zu rules the static audit proved; "
                 "please report it with the witnesses", contradictions);
        failed |= sarif_notify(s, SARIF_ERROR, NULL, why) != 0;
    }
    sarif_end(s, failed);
    return refuted;
}
