/* SPDX-License-Identifier: Apache-2.0 */
/*
 * annotate: the annotation pipeline, from a source to its annotated text.
 */
#include "annotate.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "annotate/asm_build.h"
#include "annotate/asm_source.h"
#include "annotate/cfi_plan.h"
#include "annotate/line_map.h"
#include "annotate/source_rewrite.h"
#include "object/elf_file.h"
#include "synth/program.h"
#include "verify/audit/check.h"

/* The label that marks the end of a line in the analysed copy. */
#define MARKER_PREFIX "__dwsynth_point_"

#define ERRLEN 2560

enum fate {
    FATE_CANDIDATE,              /* no CFI: to annotate */
    FATE_WITH_CFI,               /* carries CFI: to check */
    FATE_NOT_ANNOTATED,          /* could not be placed or synthesised */
    FATE_PLANNED,                /* plan built (exact or not) */
};

struct func_state {
    const struct source_function *src;
    enum fate fate;
    struct cfi_plan plan;
    int failed_check;            /* the annotation did not verify */
};

struct session {
    const struct annotate_options *o;
    struct annotate_result *r;
    struct source_text raw;
    struct source_text preprocessed;
    struct asm_source src;
    struct asm_build build;
    struct func_state *funcs;
    char **owned;                /* texts of the analysed copy's insertions */
    size_t nowned;
    const char *ext;             /* the input's extension, for the copies */
    int unchecked;               /* the result could not be verified */
    char err[ERRLEN];
};

static void message(struct annotate_result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void message(struct annotate_result *r, const char *fmt, ...)
{
    char **more = realloc(r->messages, (r->nmessages + 1) * sizeof *more);
    if (!more)
        return;
    r->messages = more;
    va_list ap;
    va_start(ap, fmt);
    if (vasprintf(&r->messages[r->nmessages], fmt, ap) >= 0)
        r->nmessages++;
    va_end(ap);
}

/* A tool error: status 2 and the reason (WHAT, then s->err; either may be empty). */
static int trouble(struct session *s, const char *what)
{
    message(s->r, "%s%s%s", what, what[0] && s->err[0] ? ": " : "", s->err);
    s->r->status = 2;
    return -1;
}

/* ---- symbols of an analysed executable ------------------------------------------ */

struct symbols {
    const struct elf_symbol **by_name;
    size_t n;
};

static int by_symbol_name(const void *a, const void *b)
{
    const struct elf_symbol *const *x = a, *const *y = b;
    return strcmp((*x)->name, (*y)->name);
}

static int symbols_index(struct symbols *sy, struct elf_file *ef, char *err, size_t errlen)
{
    memset(sy, 0, sizeof *sy);
    if (elf_file_load_symbols(ef, err, errlen) != 0)
        return -1;
    sy->by_name = calloc(ef->nsymbols + 1, sizeof *sy->by_name);
    if (!sy->by_name) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < ef->nsymbols; i++) {
        const struct elf_symbol *e = &ef->symbols[i];
        if (!e->dynamic && e->name[0] && e->shndx != SHN_UNDEF && e->shndx < SHN_LORESERVE)
            sy->by_name[sy->n++] = e;
    }
    qsort(sy->by_name, sy->n, sizeof *sy->by_name, by_symbol_name);
    return 0;
}

static const struct elf_symbol *symbol_named(const struct symbols *sy, const char *name)
{
    struct elf_symbol key = {.name = name};
    const struct elf_symbol *k = &key;
    const struct elf_symbol **hit = bsearch(&k, sy->by_name, sy->n, sizeof *sy->by_name, by_symbol_name);
    return hit ? *hit : NULL;
}

static const struct elf_symbol *marker_of(const struct symbols *sy, size_t line)
{
    char name[64];
    snprintf(name, sizeof name, MARKER_PREFIX "%zu", line);
    return symbol_named(sy, name);
}

/* ---- where directives go ------------------------------------------------------------- */

/* The terminator inserted lines get after line K: K's own, else the one
 * before it, else "\n". */
static const char *insert_eol(const struct source_text *raw, size_t k)
{
    for (size_t j = k ? k : 1; j >= 1 && j <= raw->nlines; j--) {
        const char *eol = asm_source_text_eol(raw, j);
        if (*eol)
            return eol;
        if (j == 1)
            break;
    }
    return "\n";
}

static int own_text(struct session *s, char *text)
{
    char **more = text ? realloc(s->owned, (s->nowned + 1) * sizeof *more) : NULL;
    if (!more) {
        free(text);
        return -1;
    }
    s->owned = more;
    s->owned[s->nowned++] = text;
    return 0;
}

static int add_insertion(struct insertion **ins, size_t *n, size_t after, const char *text)
{
    struct insertion *more = realloc(*ins, (*n + 1) * sizeof *more);
    if (!more)
        return -1;
    *ins = more;
    more[(*n)++] = (struct insertion){after, text};
    return 0;
}

/* The analysed copy: a marker after every line a directive may follow in a
 * function to annotate (markers first, so that they come before the
 * directives after the same line), and .cfi_startproc/.cfi_endproc. */
static int copy_insertions(struct session *s, struct insertion **ins, size_t *n)
{
    size_t nlines = s->src.nlines;
    uint8_t *marked = calloc(nlines + 1, 1);
    if (!marked)
        return -1;
    for (size_t i = 0; i < s->src.nfuncs; i++) {
        const struct source_function *f = s->funcs[i].src;
        if (s->funcs[i].fate == FATE_CANDIDATE)
            for (size_t k = f->start_after; k <= f->end_after; k++)
                marked[k] |= s->src.lines[k].insertable;
    }
    int rc = 0;
    for (size_t k = 0; k <= nlines && rc == 0; k++) {
        char *text = NULL;
        if (marked[k] && (asprintf(&text, MARKER_PREFIX "%zu:%s", k, insert_eol(&s->raw, k)) < 0 ||
                          own_text(s, text) != 0 || add_insertion(ins, n, k, text) != 0))
            rc = -1;
    }
    free(marked);
    for (size_t i = 0; i < s->src.nfuncs && rc == 0; i++) {
        const struct source_function *f = s->funcs[i].src;
        char *start = NULL, *end = NULL;
        if (s->funcs[i].fate != FATE_CANDIDATE)
            continue;
        if (asprintf(&start, "\t.cfi_startproc%s", insert_eol(&s->raw, f->start_after)) < 0 ||
            own_text(s, start) != 0 || add_insertion(ins, n, f->start_after, start) != 0 ||
            asprintf(&end, "\t.cfi_endproc%s", insert_eol(&s->raw, f->end_after)) < 0 ||
            own_text(s, end) != 0 || add_insertion(ins, n, f->end_after, end) != 0)
            rc = -1;
    }
    return rc;
}

static int write_text(const char *path, const char *text, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t w = fwrite(text, 1, size, f);
    return fclose(f) != 0 || w != size ? -1 : 0;
}

/* Write TEXT as DIR/NAME+ext, assemble and link it; *EXE receives the
 * executable's path.  Returns 0, or -1 (status 2, with the reason). */
static int build_copy(struct session *s, const char *name, const struct rewritten *text, const char **src,
                      const char **exe)
{
    char file[64], obj[64];
    snprintf(file, sizeof file, "%s%s", name, s->ext);
    snprintf(obj, sizeof obj, "%s.o", name);
    const char *src_path = asm_build_file(&s->build, file), *obj_path = asm_build_file(&s->build, obj);
    *exe = asm_build_file(&s->build, name);
    *src = src_path;
    s->err[0] = '\0';
    if (!src_path || !obj_path || !*exe)
        return trouble(s, "out of memory");
    if (write_text(src_path, text->text, text->size) != 0)
        return trouble(s, "cannot write a copy in the temporary directory");
    enum build_status st = asm_build_assemble(&s->build, src_path, obj_path, BUILD_COPY | BUILD_QUIET,
                                              s->err, sizeof s->err);
    if (st == BUILD_STOPPED)   /* s->err says who, and which limit */
        return trouble(s, "");
    if (st != BUILD_OK)
        return trouble(s, "internal error: a copy with CFI lines added does not assemble");
    st = asm_build_link(&s->build, obj_path, *exe, s->err, sizeof s->err);
    if (st != BUILD_OK)
        return trouble(s, st == BUILD_STOPPED ? "" : "cannot link the object for analysis");
    return 0;
}

/* ---- synthesis and plans -------------------------------------------------------------- */

struct insn_list {
    struct plan_insn *insns;
    size_t n, cap;
    int oom;
};

static void collect_insn(void *arg, const struct ir_insn *in, const struct abstract_state *st, int reached)
{
    (void)st;
    struct insn_list *l = arg;
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 256;
        struct plan_insn *more = realloc(l->insns, cap * sizeof *more);
        if (!more) {
            l->oom = 1;
            return;
        }
        l->insns = more;
        l->cap = cap;
    }
    l->insns[l->n++] = (struct plan_insn){in->addr, in->len, in->flow, (uint8_t)reached};
}

static void not_annotated(struct session *s, struct func_state *fs, const char *why)
{
    message(s->r, "%s (line %zu): not annotated: %s", fs->src->name, fs->src->label_line, why);
    fs->fate = FATE_NOT_ANNOTATED;
}

/* The places of function F: lines of its span in its section (as the source
 * says and as the linked file's marker symbol says). */
static size_t function_points(struct session *s, const struct source_function *f,
                              const struct symbols *sy, const struct elf_symbol *label,
                              struct plan_point *points)
{
    size_t n = 0;
    for (size_t k = f->start_after; k <= f->end_after; k++) {
        const struct source_line *l = &s->src.lines[k];
        const struct elf_symbol *m = l->insertable && l->section == f->section ? marker_of(sy, k) : NULL;
        if (!m || m->shndx != label->shndx)
            continue;
        points[n++] = (struct plan_point){
            .line = k, .addr = m->value, .eol = insert_eol(&s->raw, k),
            .style = s->src.lines[k].syntax == SYNTAX_INTEL_NOPREFIX ? CFI_REGS_BARE : CFI_REGS_PERCENT,
        };
    }
    return n;
}

/* A global label in the code of function FS that is no function: its code
 * is annotated as part of FS, which the user should know. */
static void note_inner_globals(struct session *s, const struct func_state *fs)
{
    const struct source_function *f = fs->src;
    for (size_t i = 0; i < s->src.nother_globals; i++) {
        const struct source_label *g = &s->src.other_globals[i];
        if (g->line > f->label_line && g->line <= f->end_after && g->section == f->section)
            message(s->r, "%s (line %zu): the global label %s (line %zu) inside it is no function "
                    "(no .type %s, @function, no call to it): its code is annotated as %s's",
                    f->name, f->label_line, g->name, g->line, g->name, f->name);
    }
}

/* Synthesise and plan function FS of the analysed executable. */
static void plan_function(struct session *s, struct func_state *fs, struct synth_program *prog,
                          const struct symbols *sy)
{
    const struct source_function *f = fs->src;
    const struct elf_symbol *label = symbol_named(sy, f->name);
    if (!label)
        return not_annotated(s, fs, "its label is not assembled");
    size_t fi = function_index_at(&prog->index, label->value);
    if (fi == (size_t)-1 || prog->index.funcs[fi].lo != label->value)
        return not_annotated(s, fs, "no code at its label");
    const struct function_range *range = &prog->index.funcs[fi];
    struct plan_point *points = calloc(f->end_after - f->start_after + 2, sizeof *points);
    if (!points)
        return not_annotated(s, fs, "out of memory");
    size_t n = function_points(s, f, sy, label, points);
    int monotonic = 1;
    for (size_t j = 1; j < n; j++)
        monotonic &= points[j].addr >= points[j - 1].addr;
    if (n < 2 || points[0].line != f->start_after || points[n - 1].line != f->end_after ||
        points[0].addr != label->value || points[n - 1].addr != range->hi || !monotonic) {
        free(points);
        return not_annotated(s, fs, !monotonic ? "its lines are not in address order (subsections?)"
                                               : "its .cfi_startproc or .cfi_endproc cannot be placed");
    }
    struct insn_list insns = {0};
    struct unwind_table t;
    struct synth_outcome out;
    int rc = synth_program_function(prog, fi, &t, collect_insn, &insns, &out);
    if (rc != 0 || insns.oom) {
        char why[256];
        snprintf(why, sizeof why, "cannot synthesise: %s", insns.oom ? "out of memory" : out.reason);
        not_annotated(s, fs, why);
    } else if (cfi_plan_build(&fs->plan, points, n, insns.insns, insns.n, &t) != 0) {
        not_annotated(s, fs, "out of memory");
    } else {
        for (size_t i = 0; i < fs->plan.nnotes; i++)
            message(s->r, "%s: %s", f->name, fs->plan.notes[i]);
        if (fs->plan.verdict == PLAN_REFUSED) {
            fs->fate = FATE_NOT_ANNOTATED;
        } else {
            fs->fate = FATE_PLANNED;
            note_inner_globals(s, fs);
        }
    }
    unwind_table_release(&t);
    free(insns.insns);
    free(points);
}

/* Steps 3 and 4: the analysed copy, synthesis, a plan per function. */
static int plan_functions(struct session *s)
{
    int candidates = 0;
    for (size_t i = 0; i < s->src.nfuncs; i++)
        candidates |= s->funcs[i].fate == FATE_CANDIDATE;
    if (!candidates)
        return 0;
    struct insertion *ins = NULL;
    size_t n = 0;
    struct rewritten copy;
    if (copy_insertions(s, &ins, &n) != 0 || source_rewrite(&copy, &s->raw, ins, n) != 0) {
        free(ins);
        s->err[0] = '\0';
        return trouble(s, "out of memory");
    }
    free(ins);
    const char *src, *exe;
    int rc = build_copy(s, "analysed", &copy, &src, &exe);
    source_rewrite_release(&copy);
    if (rc != 0)
        return -1;
    struct elf_file ef;
    struct synth_program prog;
    struct symbols sy;
    char eh_err[ELF_FILE_ERRLEN] = "";
    if (elf_file_open(&ef, exe, s->err, sizeof s->err) != 0)
        return trouble(s, "cannot read the object for analysis");
    if (symbols_index(&sy, &ef, s->err, sizeof s->err) != 0 ||
        synth_program_open(&prog, &ef, eh_err, sizeof eh_err, s->err, sizeof s->err) != 0) {
        free(sy.by_name);
        elf_file_close(&ef);
        return trouble(s, "cannot analyse the object");
    }
    for (size_t i = 0; i < s->src.nfuncs; i++)
        if (s->funcs[i].fate == FATE_CANDIDATE)
            plan_function(s, &s->funcs[i], &prog, &sy);
    free(sy.by_name);
    synth_program_close(&prog);
    elf_file_close(&ef);
    return 0;
}

/* ---- verification of the result -------------------------------------------------------- */

/* The source function whose code starts at ADDR in the checked executable. */
static struct func_state *function_at(struct session *s, const struct symbols *sy, uint64_t addr)
{
    for (size_t i = 0; i < s->src.nfuncs; i++) {
        const struct elf_symbol *e = symbol_named(sy, s->funcs[i].src->name);
        if (e && e->value == addr)
            return &s->funcs[i];
    }
    return NULL;
}

static void report_finding(struct session *s, struct func_state *fs, const struct finding *fd,
                           size_t line)
{
    struct annotate_result *r = s->r;
    const char *sev = finding_severity_name((enum severity)fd->severity);
    const char *kind = finding_kind_name((enum finding_kind)fd->kind);
    if (fs->fate == FATE_WITH_CFI) {
        message(r, "%s (line %zu): its CFI: %s: %s at line %zu (0x%llx): %s", fs->src->name,
                fs->src->label_line, sev, kind, line, (unsigned long long)fd->address, fd->message);
        if (fd->severity == SEVERITY_ERROR)
            r->cfi_errors++;
    } else if (fs->fate == FATE_PLANNED && fs->plan.verdict == PLAN_EXACT && fd->severity == SEVERITY_ERROR) {
        message(r, "%s (line %zu): internal error: the CFI written fails verification: %s at line %zu "
                "(0x%llx): %s", fs->src->name, fs->src->label_line, kind, line,
                (unsigned long long)fd->address, fd->message);
        fs->failed_check = 1;
    }
}

/* Step 5: assemble the annotated text and check every function's CFI. */
static int verify_result(struct session *s, const struct rewritten *out)
{
    const char *src, *exe;
    if (build_copy(s, "annotated", out, &src, &exe) != 0)
        return -1;
    struct check_result cr;
    int not_elf = 0;
    if (check_file(exe, NULL, &cr, &not_elf, s->err, sizeof s->err) != 0) {
        /* `.cfi_sections .debug_frame` only, say: written, not checked. */
        message(s->r, "the CFI cannot be checked: %s", s->err);
        s->unchecked = 1;
        return 0;
    }
    /* Expression rules (the .cfi_escape of a realigned frame) are the
     * prover's (verify/rules/prover: exact linear evaluation, then z3): one it
     * cannot decide is CFI not checked. */
    size_t proved = 0, undecided = 0;
    for (int k = 0; k < EXPRESSION_KINDS; k++) {
        proved += cr.expression_verdicts[k][RULE_HOLDS];
        undecided += cr.expression_verdicts[k][RULE_UNDECIDED];
    }
    if (undecided) {
        message(s->r, "the prover could not decide %zu expression rules of the result (at instruction addresses): "
                "that CFI is not checked", undecided);
        s->unchecked = 1;
    } else if (proved && s->o->verbose) {
        message(s->r, "the prover proved the expression rules of the result at %zu instruction addresses", proved);
    }
    struct elf_file ef;
    struct symbols sy = {0};
    struct line_map lines = {0};
    int rc = 0;
    if (elf_file_open(&ef, exe, s->err, sizeof s->err) != 0) {
        check_result_release(&cr);
        return trouble(s, "cannot read the annotated object");
    }
    if (symbols_index(&sy, &ef, s->err, sizeof s->err) != 0 ||
        line_map_read(&lines, &ef, src, s->err, sizeof s->err) != 0) {
        rc = trouble(s, "cannot read the annotated object");
    } else {
        for (size_t i = 0; i < cr.nfindings; i++) {
            const struct finding *fd = &cr.findings[i];
            struct func_state *fs = function_at(s, &sy, fd->function_start);
            if (fs && fd->severity >= SEVERITY_WARNING)
                report_finding(s, fs, fd,
                               source_rewrite_input_line(out, line_map_line_at(&lines, fd->address)));
        }
    }
    line_map_release(&lines);
    free(sy.by_name);
    elf_file_close(&ef);
    check_result_release(&cr);
    return rc;
}

/* ---- the pipeline ----------------------------------------------------------------------- */

/* Steps 1 and 2: the input assembles; its functions. */
static int read_source(struct session *s)
{
    const char *in = s->o->input;
    if (asm_source_text_read(&s->raw, in, s->err, sizeof s->err) != 0)
        return trouble(s, "cannot read the source");
    if (asm_build_init(&s->build, in, s->o->flags, s->o->nflags, s->err, sizeof s->err) != 0)
        return trouble(s, "cannot prepare the build");
    const char *obj = asm_build_file(&s->build, "input.o");
    s->err[0] = '\0';
    if (!obj)
        return trouble(s, "out of memory");
    enum build_status st = asm_build_assemble(&s->build, in, obj, 0, s->err, sizeof s->err);
    if (st == BUILD_REJECTED) {
        s->err[0] = '\0';
        return trouble(s, "the source does not assemble (the assembler's messages are above); "
                          "nothing written");
    }
    if (st != BUILD_OK)
        return trouble(s, st == BUILD_STOPPED ? "" : "cannot assemble");
    int cpp = asm_build_needs_cpp(in);
    if (cpp) {
        const char *pp = asm_build_file(&s->build, "input.i");
        if (!pp)
            return trouble(s, "out of memory");
        st = asm_build_preprocess(&s->build, in, pp, BUILD_QUIET, s->err, sizeof s->err);
        if (st != BUILD_OK)
            return trouble(s, st == BUILD_STOPPED ? "" : "cannot preprocess the source");
        if (asm_source_text_read(&s->preprocessed, pp, s->err, sizeof s->err) != 0)
            return trouble(s, "cannot read the preprocessed source");
    }
    if (asm_source_parse(&s->src, &s->raw, cpp ? s->preprocessed.bytes : NULL, s->err, sizeof s->err) != 0)
        return trouble(s, "cannot parse the source");
    s->funcs = calloc(s->src.nfuncs + 1, sizeof *s->funcs);
    if (!s->funcs)
        return trouble(s, "out of memory");
    for (size_t i = 0; i < s->src.nfuncs; i++) {
        struct func_state *fs = &s->funcs[i];
        fs->src = &s->src.funcs[i];
        fs->fate = fs->src->has_cfi ? FATE_WITH_CFI : FATE_CANDIDATE;
        if (fs->fate == FATE_CANDIDATE && fs->src->problem)
            not_annotated(s, fs, fs->src->problem);
    }
    return 0;
}

/* The input with every plan's directives. */
static int final_text(struct session *s, struct rewritten *out)
{
    struct insertion *ins = NULL;
    size_t n = 0;
    int rc = 0;
    for (size_t i = 0; i < s->src.nfuncs && rc == 0; i++)
        for (size_t j = 0; s->funcs[i].fate == FATE_PLANNED && j < s->funcs[i].plan.ntexts && rc == 0; j++)
            rc = add_insertion(&ins, &n, s->funcs[i].plan.texts[j].after_line, s->funcs[i].plan.texts[j].text);
    if (rc == 0)
        rc = source_rewrite(out, &s->raw, ins, n);
    free(ins);
    return rc;
}

/* Counts, the verbose lines and the status. */
static void conclude(struct session *s)
{
    struct annotate_result *r = s->r;
    r->functions = s->src.nfuncs;
    for (size_t i = 0; i < s->src.nfuncs; i++) {
        const struct func_state *fs = &s->funcs[i];
        const struct source_function *f = fs->src;
        if (fs->fate == FATE_WITH_CFI) {
            r->with_cfi++;
            if (s->o->verbose)
                message(r, "%s (line %zu): carries CFI already: checked", f->name, f->label_line);
        } else if (fs->fate == FATE_NOT_ANNOTATED) {
            r->not_annotated++;
        } else if (fs->plan.verdict == PLAN_EXACT && !fs->failed_check) {
            r->annotated++;
            if (s->o->verbose)
                message(r, "%s (line %zu): annotated: %zu row changes, %zu remembered states", f->name,
                        f->label_line, fs->plan.changes, fs->plan.remembered);
        } else {
            r->inexact++;
        }
    }
    if (s->o->verbose)
        message(r, "%zu functions: %zu annotated, %zu inexactly, %zu not annotated, %zu with CFI "
                "checked (%zu errors)", r->functions, r->annotated, r->inexact, r->not_annotated,
                r->with_cfi, r->cfi_errors);
    r->status = r->inexact || r->not_annotated || r->cfi_errors || s->unchecked ? 1 : 0;
}

void annotate_source(const struct annotate_options *o, struct annotate_result *r)
{
    memset(r, 0, sizeof *r);
    struct session s = {.o = o, .r = r};
    const char *dot = strrchr(o->input, '.');
    s.ext = dot && !strchr(dot, '/') && strlen(dot) < 8 ? dot : ".s";
    struct rewritten out = {0};
    int ok = read_source(&s) == 0 && plan_functions(&s) == 0;
    if (ok && final_text(&s, &out) != 0) {
        s.err[0] = '\0';
        ok = trouble(&s, "out of memory") == 0;
    }
    int carries_cfi = 0;
    for (size_t i = 0; ok && i < s.src.nfuncs; i++)
        carries_cfi |= s.funcs[i].fate == FATE_WITH_CFI || s.funcs[i].fate == FATE_PLANNED;
    if (ok && carries_cfi)
        ok = verify_result(&s, &out) == 0;
    if (ok) {
        conclude(&s);
        r->text = out.text;
        r->size = out.size;
        out.text = NULL;
    }
    source_rewrite_release(&out);
    for (size_t i = 0; s.funcs && i < s.src.nfuncs; i++)
        cfi_plan_release(&s.funcs[i].plan);
    for (size_t i = 0; i < s.nowned; i++)
        free(s.owned[i]);
    free(s.owned);
    free(s.funcs);
    asm_source_release(&s.src);
    asm_source_text_release(&s.preprocessed);
    asm_source_text_release(&s.raw);
    asm_build_release(&s.build);
}

void annotate_result_release(struct annotate_result *r)
{
    for (size_t i = 0; i < r->nmessages; i++)
        free(r->messages[i]);
    free(r->messages);
    free(r->text);
    memset(r, 0, sizeof *r);
}
