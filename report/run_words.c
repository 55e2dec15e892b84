/* SPDX-License-Identifier: Apache-2.0 */
#include "run_words.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "semantics/dwarf_expr.h"
#include "semantics/print/table_print.h"

void run_words_names_init(struct run_words_names *n)
{
    n->object = -1;
    n->ok = 0;
}

void run_words_names_release(struct run_words_names *n)
{
    if (n->ok)
        elf_file_close(&n->ef);
    run_words_names_init(n);
}

static void names_for(struct run_words_names *n, const struct run_result *r, int object)
{
    if (n->object == object)
        return;
    run_words_names_release(n);
    n->object = object;
    char err[ELF_FILE_ERRLEN];
    n->ok = elf_file_open(&n->ef, r->objects[object], err, sizeof err) == 0;
    if (n->ok && elf_file_load_symbols(&n->ef, err, sizeof err) != 0) {
        elf_file_close(&n->ef);
        n->ok = 0;
    }
}

void run_words_where(struct run_words_names *n, const struct run_result *r, int object, uint64_t addr,
                     uint64_t function_start, char *buf, size_t size)
{
    names_for(n, r, object);
    const struct elf_symbol *best = NULL;
    for (size_t i = 0; n->ok && i < n->ef.nsymbols; i++) {
        const struct elf_symbol *s = &n->ef.symbols[i];
        /* A symbol of no size (hand-written assembly without .size) names the FDE it starts. */
        uint64_t extent = s->size ? s->size : s->value == function_start ? addr - s->value + 1 : 1;
        if (s->type == STT_FUNC && s->name[0] && addr >= s->value && addr - s->value < extent &&
            (!best || s->value > best->value))
            best = s;
    }
    if (best)
        snprintf(buf, size, "%s+0x%" PRIx64, best->name, addr - best->value);
    else
        snprintf(buf, size, "0x%" PRIx64 "+0x%" PRIx64, function_start, addr - function_start);
}

void run_words_function(struct run_words_names *n, const struct run_result *r, int object, uint64_t function_start,
                        char *buf, size_t size)
{
    run_words_where(n, r, object, function_start, function_start, buf, size);
    size_t len = strlen(buf);
    if (len > 4 && strcmp(buf + len - 4, "+0x0") == 0)
        buf[len - 4] = 0;
}

enum finding_kind run_words_kind(int column)
{
    return column == RUN_COLUMN_CFA || column == ABI_RSP ? FINDING_CFA_MISMATCH
           : column == ABI_RA                            ? FINDING_RA_MISMATCH
                                                         : FINDING_REG_MISMATCH;
}

const char *run_words_column(int column)
{
    return column == RUN_COLUMN_CFA ? "CFA" : column == ABI_RA ? "return address" : dwarf_reg_name((unsigned)column);
}

void run_words_rule(const struct run_witness *w, char *buf, size_t size)
{
    if (w->column == RUN_COLUMN_CFA)
        table_print_cfa_rule(buf, size, &w->rule);
    else
        table_print_reg_rule_plain(buf, size, &w->rule);
}

void run_words_message(const struct run_address *a, char *buf, size_t size)
{
    const struct run_witness *w = &a->witness;
    char rule[64];
    run_words_rule(w, rule, sizeof rule);
    const char *truth = w->column == RUN_COLUMN_CFA ? "the true CFA"
                        : w->column == ABI_RA       ? "the true return address"
                                                    : "the value at entry";
    if (w->gave_ok)
        snprintf(buf, size, "at run time the %s rule %s gave 0x%" PRIx64 ", %s is 0x%" PRIx64,
                 run_words_column(w->column), rule, w->gave, truth, w->truth);
    else
        snprintf(buf, size, "at run time the %s rule %s read unreadable memory, %s is 0x%" PRIx64,
                 run_words_column(w->column), rule, truth, w->truth);
}

void run_words_witness(const struct run_address *a, char *buf, size_t size)
{
    const struct run_witness *w = &a->witness;
    size_t at = (size_t)snprintf(buf, size, "thread %d, rip 0x%" PRIx64, w->tid, w->rip);
    for (unsigned i = 0; i < w->nregs && at < size; i++)
        at += (size_t)snprintf(buf + at, size - at, "%s%s=0x%" PRIx64, i ? ", " : ", read ",
                               dwarf_reg_name(w->reg[i]), w->reg_value[i]);
    if (at < size)
        snprintf(buf + at, size - at, "; execution %" PRIu64 " of %" PRIu64, w->execution, a->executions);
}

static const char *const static_ids[] = {
    [RUN_STATIC_NOT_AUDITED] = "not-audited", [RUN_STATIC_FAILS] = "fails",
    [RUN_STATIC_UNDECIDED] = "undecided",     [RUN_STATIC_NOT_JUDGED] = "not-judged",
    [RUN_STATIC_HOLDS] = "holds",
};
static const char *const static_refuted[] = {
    [RUN_STATIC_NOT_AUDITED] = "not audited",
    [RUN_STATIC_FAILS] = "finds this rule wrong too: confirmed by execution",
    [RUN_STATIC_UNDECIDED] = "left this rule undecided: decided by execution",
    [RUN_STATIC_NOT_JUDGED] = "did not judge this row: decided by execution",
    [RUN_STATIC_HOLDS] = "PROVED this rule: the run refutes a proof, an internal error of dwcheck",
};

const char *run_words_static_id(unsigned v)
{
    return v <= RUN_STATIC_HOLDS ? static_ids[v] : "not-audited";
}

const char *run_words_static_refuted(unsigned v)
{
    return v <= RUN_STATIC_HOLDS ? static_refuted[v] : "not audited";
}

static const char *const static_held[] = {
    [RUN_STATIC_NOT_AUDITED] = "not audited",
    [RUN_STATIC_FAILS] = "finds a rule of this row wrong, yet every rule checked held",
    [RUN_STATIC_UNDECIDED] = "left a rule of this row undecided: held at run time",
    [RUN_STATIC_NOT_JUDGED] = "did not judge this row: held at run time",
    [RUN_STATIC_HOLDS] = "proved this row's rules",
};

const char *run_words_static_held(unsigned v)
{
    return v <= RUN_STATIC_HOLDS ? static_held[v] : "not audited";
}

void run_words_json_verdict(FILE *out, const struct run_address *a)
{
    const struct run_witness *w = &a->witness;
    fprintf(out, ",\"executions\":%" PRIu64 ",\"held\":%" PRIu64 ",\"refuted\":%" PRIu64, a->executions, a->held,
            a->refuted);
    fprintf(out, ",\"static\":\"%s\",\"confirmed\":%s", run_words_static_id(a->static_verdict),
            a->static_verdict == RUN_STATIC_FAILS ? "true" : "false");
    fprintf(out, ",\"witness\":{\"thread\":%d,\"rip\":%" PRIu64 ",\"registers\":{", w->tid, w->rip);
    for (unsigned i = 0; i < w->nregs; i++)
        fprintf(out, "%s\"%s\":%" PRIu64, i ? "," : "", dwarf_reg_name(w->reg[i]), w->reg_value[i]);
    fputc('}', out);
    if (w->gave_ok)
        fprintf(out, ",\"gave\":%" PRIu64, w->gave);
    fprintf(out, ",\"truth\":%" PRIu64 ",\"execution\":%" PRIu64 "}", w->truth, w->execution);
}
