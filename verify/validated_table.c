/* SPDX-License-Identifier: Apache-2.0 */
/*
 * validated_table: the audit's verdicts, address by address, made into
 * H_valid.  Two steps: collect (what the audit decided at each instruction,
 * through check_options.at) and lay out (each FDE's DWARF rows split where
 * synthesis replaces them; new FDEs for the code no FDE covered).
 */
#include "validated_table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/sorted_search.h"
#include "object/debug_info.h"
#include "sys/error.h"
#include "semantics/abi.h"
#include "semantics/cfi_eval.h"
#include "synth/emit_row.h"
#include "synth/function_index.h"
#include "synth/synthesize.h"
#include "verify/audit/audit_input.h"
#include "verify/rules/slot_truth.h"
#include "verify/rules/frame_exit.h"

const char *validated_provenance_name(enum provenance p)
{
    static const char *const names[PROVENANCES] = {"proved", "unchecked", "synthesised"};
    return p < PROVENANCES ? names[p] : "?";
}

/* Covered addresses [start, end) whose DWARF rules have one provenance, or
 * that nothing executes (SEGMENT_IDLE: padding, code no path reaches). */
struct segment {
    uint64_t start, end;
    uint8_t provenance;
};
#define SEGMENT_IDLE PROVENANCES

struct collector {
    struct validated_table *vt;
    const struct function_index *index;
    struct unwind_table fixes;     /* synthesis's rows where a DWARF rule fails */
    struct unwind_table added;     /* synthesis's rows for code no FDE covers */
    struct segment *segs;
    size_t nsegs, segs_cap;
    uint8_t *incomplete;           /* per function: a table from its entry as the ABI has it
                                      would be wrong somewhere */
    size_t *added_insns;           /* per function: its instructions in ADDED */
    size_t *ending_insns;          /* ... of them, those whose row ends the stack */
    int oom;
};

static void note_segment(struct collector *k, uint64_t start, uint64_t end, unsigned p)
{
    struct segment *last = k->nsegs ? &k->segs[k->nsegs - 1] : NULL;
    if (last && last->end == start && last->provenance == p) {
        last->end = end;
        return;
    }
    if (k->nsegs == k->segs_cap) {
        size_t cap = k->segs_cap ? 2 * k->segs_cap : 256;
        struct segment *n = realloc(k->segs, cap * sizeof *n);
        if (!n) {
            k->oom = 1;
            return;
        }
        k->segs = n;
        k->segs_cap = cap;
    }
    k->segs[k->nsegs++] = (struct segment){start, end, (uint8_t)p};
}

/* Copy RULE into T's storage when it is an expression (synthesis's are on
 * the stack; DWARF's would tie the table to the section).  0, or -1. */
static int own_expr(struct unwind_table *t, struct unwind_rule *rule, int is_cfa)
{
    int is_expr = is_cfa ? rule->kind == CFA_RULE_EXPRESSION
                         : rule->kind == REG_RULE_EXPRESSION || rule->kind == REG_RULE_VAL_EXPRESSION;
    if (!is_expr)
        return 0;
    rule->expr = unwind_table_keep_expr(t, rule->expr, rule->expr_len);
    return rule->expr ? 0 : -1;
}

/* Append ROW's rules over [START, END) to T, merged into the last row when
 * that one ends at START with the same rules (and, with PROV, the same
 * provenance) unless APART.  0, or -1 when out of memory. */
static int append_rules(struct unwind_table *t, uint8_t **prov, uint64_t start, uint64_t end,
                        const struct unwind_row *row, enum provenance p, int apart)
{
    struct unwind_row *last = t->nrows ? &t->rows[t->nrows - 1] : NULL;
    if (!apart && last && last->end == start && unwind_row_rules_equal(last, row) &&
        last->args_size == row->args_size &&
        (!prov || (*prov)[t->nrows - 1] == p)) {
        last->end = end;
        return 0;
    }
    if (prov) {
        uint8_t *n = realloc(*prov, t->nrows + 1);
        if (!n)
            return -1;
        *prov = n;
        n[t->nrows] = (uint8_t)p;
    }
    struct unwind_row *r = unwind_table_append(t, start, end);
    if (!r)
        return -1;
    r->cfa = row->cfa;
    memcpy(r->reg, row->reg, sizeof r->reg);
    r->args_size = row->args_size;
    int rc = own_expr(t, &r->cfa, 1);
    for (unsigned c = 0; c < UNWIND_COLUMNS; c++)
        rc |= own_expr(t, &r->reg[c], 0);
    return rc;
}

/* Synthesis's row in ST, with what it cannot recover `undefined` (never
 * wrong).  0, or -1 when it does not know the CFA either. */
static int synthesised_row(const struct abstract_state *st, struct unwind_row *row, struct synth_row_exprs *ex)
{
    emit_row_from_state(st, row, ex);
    row->args_size = 0;
    if (row->cfa.kind == CFA_RULE_UNKNOWN || row->cfa.kind == CFA_RULE_UNSET)
        return -1;
    for (unsigned c = 0; c < UNWIND_COLUMNS; c++)
        if (row->reg[c].kind == REG_RULE_UNKNOWN)
            row->reg[c] = (struct unwind_rule){.kind = REG_RULE_UNDEFINED};
    return 0;
}


/* The row H_valid has where some rule of AT's DWARF row fails: DWARF's,
 * with synthesis's rule in each failing column.  0, or -1 (keep DWARF's). */
static int repaired_row(const struct check_at *at, struct unwind_row *row, struct synth_row_exprs *ex)
{
    struct unwind_row syn;
    if (synthesised_row(at->every, &syn, ex) != 0)   /* what holds on every path */
        return -1;
    if (at->whole_row) {
        *row = syn;
        row->args_size = at->dwarf->args_size;   /* the call site's, which synthesis does not model */
        return 0;
    }
    *row = *at->dwarf;
    if (at->verdict[CHECK_COLUMN_CFA] == RULE_FAILS)
        row->cfa = syn.cfa;
    for (unsigned c = 0; c < UNWIND_COLUMNS; c++)
        if (at->verdict[c] == RULE_FAILS)
            row->reg[c] = syn.reg[c];
    return 0;
}

/* Does a function of IX start at ADDR?  (New FDEs do not span two.) */
static int starts_function(const struct function_index *ix, uint64_t addr)
{
    size_t i = function_index_at(ix, addr);
    return i != (size_t)-1 && ix->funcs[i].lo == addr;
}

/* Does state ST differ from a function's entry as the ABI has it (rsp at
 * CFA-8, each callee-saved register its entry value) where synthesis knows
 * the values? */
static int not_an_abi_entry(const struct abstract_state *st)
{
    const struct abstract_value *sp = &st->reg[ABI_RSP];
    if (!(sp->kind == AV_CFA && sp->off == -ABI_ENTRY_CFA_OFFSET))
        return 1;
    for (unsigned i = 0; i < ABI_NCALLEE_SAVED; i++)
        if (slot_truth_holds_entry(st->reg[abi_callee_saved_regs[i]], abi_callee_saved_regs[i]) == RULE_FAILS)
            return 1;
    return 0;
}

/* A jump from AT (in function FI) to another function's start in another
 * frame than the ABI's entry: its own frame still in place (V8's builtins
 * pass stack arguments so), or callee-saved registers it changed (V8's
 * builtins keep none).  The target is entered in two frames, and a table
 * of its entry from the ABI would be wrong for this one, so it gets none. */
static void note_jump_with_frame(struct collector *k, const struct check_at *at, size_t fi)
{
    const struct ir_insn *in = at->insn;
    if (at->reached != 1 || (in->flow != IR_FLOW_JUMP && in->flow != IR_FLOW_COND))
        return;
    size_t to = function_index_at(k->index, in->target);
    if (to != (size_t)-1 && to != fi && k->index->funcs[to].lo == in->target && not_an_abi_entry(at->state))
        k->incomplete[to] = 1;
}

static void at_address(void *arg, const struct check_at *at)
{
    struct collector *k = arg;
    uint64_t start = at->insn->addr, end = start + at->insn->len;
    struct unwind_row row;
    struct synth_row_exprs ex;
    size_t fi = function_index_at(k->index, start);
    note_jump_with_frame(k, at, fi);
    if (at->what == CHECK_AT_UNCOVERED) {
        /* Code no FDE covers: synthesis's rows where a known path reaches
         * it from an ordinary entry. */
        if (at->reached != 1 && (at->insn->is_padding || at->reached == SYNTH_PADDING))
            return;   /* alignment, never executed (a trap that code falls into is reached) */
        char why[96];
        if (at->reached == 1 && at->insn->flow == IR_FLOW_RET &&
            frame_exit_ret(at->state, why, sizeof why) == RULE_FAILS &&
            !frame_exit_is_push_jump(synthesize_previous_insn(at->session, at->insn), at->insn)) {
            /* A ret that pops a word of its own frame (V8's prologue
             * helpers): no row describes where control goes. */
            if (fi != (size_t)-1)
                k->incomplete[fi] = 1;
            return;
        }
        int ok = at->entered_ordinarily;
        if (ok && (at->reached != 1 || synthesised_row(at->every, &row, &ex) != 0)) {
            /* No known path reaches it (dead code, a case of a jump table
             * synthesis could not read), or synthesis cannot say its CFA
             * (after `sub %reg,%rsp`): a row that ends the stack, which is
             * never wrong, so that the rest of the function gets its rows.
             * (An FDE cut at such code would make each piece a function of
             * its own, entered in the ABI's frame.) */
            memset(&row, 0, sizeof row);
            emit_row_stack_end(&row);
            if (fi != (size_t)-1)
                k->ending_insns[fi]++;
        }
        if (ok) {
            k->oom |= append_rules(&k->added, NULL, start, end, &row, PROVENANCE_SYNTHESISED,
                                  starts_function(k->index, start)) != 0;
            if (fi != (size_t)-1)
                k->added_insns[fi]++;
        } else if (fi != (size_t)-1)
            k->incomplete[fi] = 1;   /* a row is missing: the function gets no FDE */
        return;
    }
    enum provenance p = PROVENANCE_UNCHECKED;
    if (at->what == CHECK_AT_KEPT) {
        k->vt->addresses_kept++;
        if (at->reached != 1 && at->reached != SYNTH_GUESSED) {
            /* Padding, or code no path reaches: nothing executes it, so no
             * unwinder stands there, and it leaves its row's provenance to
             * the addresses that execute. */
            k->vt->addresses[p]++;
            note_segment(k, start, end, SEGMENT_IDLE);
            return;
        }
    } else {
        int fails = 0, undecided = 0;
        for (unsigned c = 0; c <= UNWIND_COLUMNS; c++) {
            fails |= at->verdict[c] == RULE_FAILS;
            undecided |= at->verdict[c] == RULE_UNDECIDED;
        }
        /* A rule proved wrong that synthesis cannot replace (it has no rule
         * that holds on every path there) stays, and is not proved. */
        p = undecided || fails ? PROVENANCE_UNCHECKED : PROVENANCE_PROVED;
        if (fails && repaired_row(at, &row, &ex) == 0) {
            p = PROVENANCE_SYNTHESISED;
            k->oom |= append_rules(&k->fixes, NULL, start, end, &row, p, 0) != 0;
        }
    }
    k->vt->addresses[p]++;
    note_segment(k, start, end, p);
}

static int by_start(const void *a, const void *b)
{
    uint64_t x = ((const struct unwind_row *)a)->start, y = ((const struct unwind_row *)b)->start;
    return (x > y) - (x < y);
}

static int segment_by_start(const void *a, const void *b)
{
    uint64_t x = ((const struct segment *)a)->start, y = ((const struct segment *)b)->start;
    return (x > y) - (x < y);
}

/* Sort T's rows and drop any that overlaps the one before (an address two
 * function ranges share is observed twice; the first verdict stands). */
static void sort_rows(struct unwind_table *t)
{
    if (t->nrows)
        qsort(t->rows, t->nrows, sizeof *t->rows, by_start);
    size_t kept = 0;
    for (size_t i = 0; i < t->nrows; i++)
        if (!kept || t->rows[i].start >= t->rows[kept - 1].end)
            t->rows[kept++] = t->rows[i];
    t->nrows = kept;
}

/* The index of the first row of T that ends after ADDR. */
static uint64_t row_end_key(const void *rows, size_t i)
{
    return ((const struct unwind_row *)rows)[i].end;
}

static size_t first_row_after(const struct unwind_table *t, uint64_t addr)
{
    return sorted_count_at_most(t->rows, t->nrows, row_end_key, addr);
}

static uint64_t segment_end_key(const void *segs, size_t i)
{
    return ((const struct segment *)segs)[i].end;
}

/* Proved when every address of [START, END) that executes is judged
 * proved, and one is at least; else unchecked. */
static enum provenance dwarf_provenance(const struct collector *k, uint64_t start, uint64_t end)
{
    size_t lo = sorted_count_at_most(k->segs, k->nsegs, segment_end_key, start);
    int any = 0;
    for (size_t i = lo; i < k->nsegs && k->segs[i].start < end; i++) {
        if (k->segs[i].provenance == PROVENANCE_UNCHECKED)
            return PROVENANCE_UNCHECKED;
        any |= k->segs[i].provenance != SEGMENT_IDLE;
    }
    return any ? PROVENANCE_PROVED : PROVENANCE_UNCHECKED;
}

/* F's table: DWARF's rows DW, split where the fixes replace them. */
static int lay_out_repaired(struct collector *k, struct validated_fde *f, const struct unwind_table *dw)
{
    unwind_table_init(&f->table, f->lo, f->hi);
    f->table.signal_frame = dw->signal_frame;
    memcpy(f->table.extra_columns, dw->extra_columns, sizeof f->table.extra_columns);
    size_t j = first_row_after(&k->fixes, f->lo);
    for (size_t i = 0; i < dw->nrows; i++) {
        const struct unwind_row *r = &dw->rows[i];
        for (uint64_t a = r->start; a < r->end;) {
            while (j < k->fixes.nrows && k->fixes.rows[j].end <= a)
                j++;
            const struct unwind_row *fix = j < k->fixes.nrows ? &k->fixes.rows[j] : NULL;
            uint64_t stop;
            int rc;
            if (fix && fix->start <= a) {
                stop = fix->end < r->end ? fix->end : r->end;
                rc = append_rules(&f->table, &f->provenance, a, stop, fix, PROVENANCE_SYNTHESISED, 0);
            } else {
                stop = fix && fix->start < r->end ? fix->start : r->end;
                rc = append_rules(&f->table, &f->provenance, a, stop, r, dwarf_provenance(k, a, stop), 0);
            }
            if (rc != 0)
                return -1;
            a = stop;
        }
    }
    for (size_t i = 0; i < f->table.nrows; i++)
        f->rows_repaired += f->provenance[i] == PROVENANCE_SYNTHESISED;
    return 0;
}

static struct validated_fde *new_fde(struct validated_table *vt, size_t *cap)
{
    if (vt->nfdes == *cap) {
        size_t more = *cap ? 2 * *cap : 64;
        struct validated_fde *n = realloc(vt->fdes, more * sizeof *n);
        if (!n)
            return NULL;
        vt->fdes = n;
        *cap = more;
    }
    struct validated_fde *f = &vt->fdes[vt->nfdes++];
    memset(f, 0, sizeof *f);
    return f;
}

/* Name F's function (object/debug_info), for the report. */
static void name_fde(struct validated_fde *f, const struct synth_program *prog, const struct debug_info *di)
{
    size_t i = function_index_at(&prog->index, f->lo);
    uint64_t start = i == (size_t)-1 ? f->lo : prog->index.funcs[i].lo;
    if (i != (size_t)-1 && prog->index.funcs[i].name[0])
        snprintf(f->function, sizeof f->function, "%s", prog->index.funcs[i].name);
    else if (di)
        debug_info_name(di, f->lo, &start, f->function, sizeof f->function);
    else
        snprintf(f->function, sizeof f->function, "0x%llx", (unsigned long long)f->lo);
}

/* Name the repaired and added FDEs. */
static void name_fdes(struct validated_table *vt, struct audit_input *af)
{
    struct debug_info di;
    int have = debug_info_open(&di, &af->ef) == 0;
    for (size_t i = 0; i < vt->nfdes; i++)
        if (vt->fdes[i].repaired)
            name_fde(&vt->fdes[i], &af->prog, have ? &di : NULL);
    if (have)
        debug_info_close(&di);
}

/* The file's FDEs, each kept or repaired. */
static int lay_out_fdes(struct collector *k, struct audit_input *af, int every_table, size_t *cap, char *err,
                        size_t errlen)
{
    const struct cfi_section *eh = &af->prog.eh;
    struct validated_table *vt = k->vt;
    struct cfi_eval ev;
    if (af->prog.have_eh && cfi_eval_init(&ev, eh) != 0)
        return error_set(err, errlen, "out of memory");
    int rc = 0;
    for (size_t i = 0; af->prog.have_eh && i < eh->nfdes && rc == 0; i++) {
        const struct eh_frame_fde *fde = &eh->fdes[i];
        struct validated_fde *f = new_fde(vt, cap);
        if (!f) {
            rc = error_set(err, errlen, "out of memory");
            break;
        }
        *f = (struct validated_fde){.fde = fde, .lo = fde->pc_begin, .hi = fde->pc_begin + fde->pc_range};
        size_t j = first_row_after(&k->fixes, f->lo);
        int kept = j == k->fixes.nrows || k->fixes.rows[j].start >= f->hi;
        if (fde->fault || (kept && !every_table))
            continue;   /* kept as it is */
        struct unwind_table dw;
        struct cfa_error cerr;
        int erc = cfi_eval_fde_table(&ev, fde, &dw, &cerr);
        if (erc != 0) {
            rc = erc == -2 ? error_set(err, errlen, "out of memory")
                           : error_set(err, errlen, "FDE at offset 0x%llx: malformed", (unsigned long long)fde->offset);
            break;
        }
        f->repaired = !kept;
        if (lay_out_repaired(k, f, &dw) != 0)
            rc = error_set(err, errlen, "out of memory");
        unwind_table_release(&dw);
        vt->fdes_repaired += f->repaired;
        vt->rows_repaired += f->rows_repaired;
    }
    if (af->prog.have_eh)
        cfi_eval_release(&ev);
    return rc;
}

/* Does an FDE of L cover some address of [LO, HI)?  One that covers LO, or
 * one that starts inside. */
static int covered_between(struct fde_lookup *l, uint64_t lo, uint64_t hi)
{
    if (lo >= hi)
        return 0;
    if (fde_lookup_fde(l, lo))
        return 1;
    size_t a = 0, b = l->n;
    while (a < b) {   /* the first FDE that starts at or after LO */
        size_t mid = a + (b - a) / 2;
        if (l->by_pc[mid]->pc_begin < lo)
            a = mid + 1;
        else
            b = mid;
    }
    return a < l->n && l->by_pc[a]->pc_begin < hi;
}

/* New FDEs for the code no FDE covered: one per function entered the
 * ordinary way, with synthesis's rows (code no known path reaches, or
 * whose CFA synthesis cannot say, has a row that ends the stack), from its
 * first row to its last, the padding between (never executed) getting the
 * row before it (split where an FDE of the file lies between).  A function
 * marked incomplete (a table from its ABI entry would be wrong) gets none,
 * nor one whose every new row would end the stack: no table is better than
 * a guess.  (A piece split off by an FDE between may still be all such
 * rows: never wrong, only of no use.) */
static int lay_out_added(struct collector *k, struct audit_input *af, size_t *cap)
{
    struct validated_table *vt = k->vt;
    const struct unwind_table *a = &k->added;
    for (size_t i = 0; i < a->nrows;) {
        size_t fi = function_index_at(&af->prog.index, a->rows[i].start), n = 1;
        while (i + n < a->nrows && function_index_at(&af->prog.index, a->rows[i + n].start) == fi &&
               !starts_function(&af->prog.index, a->rows[i + n].start) &&
               !covered_between(&af->dw, a->rows[i + n - 1].end, a->rows[i + n].start))
            n++;
        if (fi != (size_t)-1 && (k->incomplete[fi] || k->ending_insns[fi] == k->added_insns[fi])) {
            vt->functions_not_added += i == 0 || function_index_at(&af->prog.index, a->rows[i - 1].start) != fi;
            i += n;
            continue;
        }
        struct validated_fde *f = new_fde(vt, cap);
        if (!f)
            return -1;
        f->lo = a->rows[i].start;
        f->hi = a->rows[i + n - 1].end;
        f->repaired = 1;
        unwind_table_init(&f->table, f->lo, f->hi);
        for (size_t r = i; r < i + n; r++) {
            int rc = 0;
            if (r > i && a->rows[r - 1].end < a->rows[r].start)
                rc = append_rules(&f->table, &f->provenance, a->rows[r - 1].end, a->rows[r].start, &a->rows[r - 1],
                                  PROVENANCE_SYNTHESISED, 0);
            if (rc || append_rules(&f->table, &f->provenance, a->rows[r].start, a->rows[r].end, &a->rows[r],
                                   PROVENANCE_SYNTHESISED, 0) != 0)
                return -1;
        }
        f->rows_repaired = f->table.nrows;
        if (fi != (size_t)-1 && (i == 0 || function_index_at(&af->prog.index, a->rows[i - 1].start) != fi)) {
            vt->addresses[PROVENANCE_SYNTHESISED] += k->added_insns[fi];
            vt->addresses_ending_stack += k->ending_insns[fi];
        }
        vt->fdes_added++;
        vt->rows_repaired += f->rows_repaired;
        i += n;
    }
    return 0;
}

int validated_table_build(struct audit_input *af, const struct check_options *opt, int every_table,
                          struct validated_table *vt, struct check_result *r, char *err, size_t errlen)
{
    memset(vt, 0, sizeof *vt);
    struct collector k = {.vt = vt, .index = &af->prog.index,
                          .incomplete = calloc(af->prog.index.nfuncs + 1, 1),
                          .added_insns = calloc(af->prog.index.nfuncs + 1, sizeof *k.added_insns),
                          .ending_insns = calloc(af->prog.index.nfuncs + 1, sizeof *k.ending_insns)};
    if (!k.incomplete || !k.added_insns || !k.ending_insns) {
        free(k.incomplete);
        free(k.added_insns);
        free(k.ending_insns);
        return error_set(err, errlen, "out of memory");
    }
    unwind_table_init(&k.fixes, 0, UINT64_MAX);
    unwind_table_init(&k.added, 0, UINT64_MAX);
    struct check_options o = {.prove = CHECK_PROVE_EXPRESSIONS, .timeout_ms = CHECK_PROVE_TIMEOUT_MS};
    if (opt)
        o = *opt;
    o.at = at_address;
    o.at_arg = &k;
    int rc = check_audit_input(af, &o, r, err, errlen);
    size_t cap = 0;
    if (rc == 0 && k.oom)
        rc = error_set(err, errlen, "out of memory");
    if (rc == 0) {
        sort_rows(&k.fixes);
        sort_rows(&k.added);
        if (k.nsegs)
            qsort(k.segs, k.nsegs, sizeof *k.segs, segment_by_start);
        rc = lay_out_fdes(&k, af, every_table, &cap, err, errlen);
    }
    if (rc == 0 && lay_out_added(&k, af, &cap) != 0)
        rc = error_set(err, errlen, "out of memory");
    if (rc == 0)
        name_fdes(vt, af);
    unwind_table_release(&k.fixes);
    unwind_table_release(&k.added);
    free(k.segs);
    free(k.incomplete);
    free(k.added_insns);
    free(k.ending_insns);
    if (rc != 0) {
        validated_table_release(vt);
        check_result_release(r);
    }
    return rc;
}

void validated_table_release(struct validated_table *vt)
{
    for (size_t i = 0; i < vt->nfdes; i++) {
        unwind_table_release(&vt->fdes[i].table);
        free(vt->fdes[i].provenance);
    }
    free(vt->fdes);
    memset(vt, 0, sizeof *vt);
}
