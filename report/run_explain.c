/* SPDX-License-Identifier: Apache-2.0 */
#include "run_explain.h"

#include <inttypes.h>
#include <string.h>

#include "report/run_words.h"

void run_explain_print(FILE *out, const struct run_result *r, uint32_t object, uint64_t addr)
{
    const struct run_address *a = run_result_find(r, object, addr);
    fprintf(out, "the run at 0x%" PRIx64 " of %s: ", addr, r->objects[object]);
    if (!a || !a->executions) {
        fputs("not checked (never executed in a frame the shadow stack knows)\n", out);
        return;
    }
    fprintf(out, "executed %" PRIu64 " times in a known frame: %" PRIu64 " held, %" PRIu64 " refuted\n",
            a->executions, a->held, a->refuted);
    if (a->refuted) {
        char msg[256], witness[256];
        run_words_message(a, msg, sizeof msg);
        run_words_witness(a, witness, sizeof witness);
        fprintf(out, "  refuted: %s: %s\n  witness: %s\n  static audit: %s\n",
                finding_kind_name(run_words_kind(a->witness.column)), msg, witness,
                run_words_static_refuted(a->static_verdict));
    } else {
        fprintf(out, "  static audit: %s\n", run_words_static_held(a->static_verdict));
    }
}

int run_explain_object(const struct run_result *r, const char *name, size_t len)
{
    int found = -1;
    for (size_t o = 0; o < r->nobjects; o++) {
        const char *path = r->objects[o];
        const char *slash = strrchr(path, '/');
        const char *base = slash ? slash + 1 : path;
        if (strlen(path) == len && memcmp(path, name, len) == 0)
            return (int)o;
        if (strlen(base) == len && memcmp(base, name, len) == 0)
            found = found == -1 ? (int)o : -2;
    }
    return found;
}
