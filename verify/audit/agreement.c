/* SPDX-License-Identifier: Apache-2.0 */
/*
 * agreement: synthesis against DWARF, address by address.
 */
#include "agreement.h"

#include <stdlib.h>
#include <string.h>

#include "sys/error.h"
#include "semantics/abi.h"
#include "semantics/print/table_print.h"
#include "verify/audit/audit_input.h"
#include "verify/audit/check.h"
#include "verify/rules/prover.h"
#include "verify/rules/rule_eval.h"

struct file_check {
    struct agreement *a;
    struct fde_lookup *dw;
    const char *file;
    const struct function_range *func;
    struct rule_judge judge;           /* expressions go to the prover, as in dwcheck */
};

static void add_cause(struct agreement *a, const char *key, const char *file,
                      const struct function_range *func, uint64_t addr)
{
    for (size_t i = 0; i < a->ncauses; i++)
        if (strcmp(a->causes[i].key, key) == 0) {
            a->causes[i].count++;
            return;
        }
    if (a->ncauses == AGREEMENT_MAX_CAUSES)
        return;
    struct agreement_cause *c = &a->causes[a->ncauses++];
    snprintf(c->key, sizeof c->key, "%s", key);
    c->count = 1;
    const char *base = strrchr(file, '/');
    snprintf(c->example, sizeof c->example, "%s: %s+0x%llx (0x%llx)", base ? base + 1 : file,
             func->name[0] ? func->name : "?", (unsigned long long)(addr - func->lo),
             (unsigned long long)addr);
}

static void observe(void *arg, const struct ir_insn *in, const struct abstract_state *st, int reached)
{
    struct file_check *fc = arg;
    struct agreement *a = fc->a;
    const struct eh_frame_fde *fde;
    const struct unwind_row *dw = fde_lookup_row(fc->dw, in->addr, &fde);
    if (!dw)
        return;
    if (dw->reg[ABI_RA].kind == REG_RULE_UNDEFINED) {
        /* The outermost frame (_start, a thread's entry): unwinding stops
         * here and no other rule of the row is ever used.  Counted apart. */
        a->outermost++;
        return;
    }
    a->covered++;
    char key[128], d[48], s[48];
    struct unwind_row syn;
    struct synth_row_exprs syn_exprs;
    if (reached)
        emit_row_from_state(st, &syn, &syn_exprs);
    if (!reached || syn.cfa.kind == CFA_RULE_UNKNOWN) {
        add_cause(a, reached ? "no row: CFA unknown"
                     : st ? "no row: unreached code" : "no row: function not synthesisable",
                  fc->file, fc->func, in->addr);
        return;
    }
    a->synthesised++;
    table_print_cfa_rule(d, sizeof d, &dw->cfa);
    table_print_cfa_rule(s, sizeof s, &syn.cfa);
    int text = strcmp(d, s) == 0 && dw->cfa.kind != CFA_RULE_EXPRESSION;
    int sem = rule_eval_cfa(&fc->judge, &dw->cfa, st, in->addr, NULL) == RULE_HOLDS;
    if (dw->cfa.kind == CFA_RULE_EXPRESSION && sem)
        text = 1;   /* both sides describe the same CFA; synthesis has no expression form */
    a->cfa_text_agree += text;
    a->cfa_sem_agree += sem;
    if (!sem || !text) {
        snprintf(key, sizeof key, "%s: dwarf %s synth %s", sem ? "cfa text" : "cfa", d, s);
        add_cause(a, key, fc->file, fc->func, in->addr);
    }
    if (rule_eval_reg(&fc->judge, &dw->reg[ABI_RA], ABI_RA, st, in->addr, NULL) == RULE_HOLDS) {
        a->ra_agree++;
    } else {
        table_print_reg_rule(d, sizeof d, &dw->reg[ABI_RA]);
        snprintf(key, sizeof key, "ra: dwarf %s", d);
        add_cause(a, key, fc->file, fc->func, in->addr);
    }
    for (unsigned i = 0; i < ABI_NCALLEE_SAVED; i++) {
        unsigned r = abi_callee_saved_regs[i];
        a->callee_checked++;
        if (rule_eval_reg(&fc->judge, &dw->reg[r], r, st, in->addr, NULL) == RULE_HOLDS) {
            a->callee_agree++;
        } else {
            table_print_reg_rule(d, sizeof d, &dw->reg[r]);
            table_print_reg_rule(s, sizeof s, &syn.reg[r]);
            snprintf(key, sizeof key, "%s: dwarf %s synth %s", unwind_column_name((int)r), d, s);
            add_cause(a, key, fc->file, fc->func, in->addr);
        }
    }
}

int agreement_add_file(struct agreement *a, const char *path, char *err, size_t errlen)
{
    struct audit_input af;
    if (audit_input_open(&af, path, "no .eh_frame to compare with", NULL, err, errlen) != 0)
        return -1;
    struct synth_program *prog = &af.prog;
    struct agreement *mine = calloc(1, sizeof *mine);
    if (!mine) {
        audit_input_close(&af);
        return error_set(err, errlen, "out of memory");
    }
    struct file_check fc = {mine, &af.dw, path, NULL, {.prover = prover_new(CHECK_PROVE_TIMEOUT_MS, 0)}};
    if (!fc.judge.prover) {
        free(mine);
        audit_input_close(&af);
        return error_set(err, errlen, "out of memory");
    }
    for (size_t i = 0; i < prog->index.nfuncs; i++) {
        struct unwind_table t;
        struct synth_outcome outcome;
        fc.func = &prog->index.funcs[i];
        mine->functions++;
        if (synth_program_function(prog, i, &t, observe, &fc, &outcome) != 0) {
            /* Its covered instructions count too, as addresses without a row. */
            mine->functions_unknown++;
            struct function_code code;
            synth_program_code(prog, i, &code);
            for (size_t k = 0; k < code.n; k++)
                observe(&fc, &code.insns[k], NULL, 0);
            synth_program_code_release(prog, i, &code);
        }
        unwind_table_release(&t);
    }
    prover_free(fc.judge.prover);
    mine->files = 1;
    agreement_merge(a, mine);
    free(mine);
    audit_input_close(&af);
    return 0;
}

void agreement_merge(struct agreement *into, const struct agreement *from)
{
    into->files += from->files;
    into->functions += from->functions;
    into->functions_unknown += from->functions_unknown;
    into->covered += from->covered;
    into->outermost += from->outermost;
    into->synthesised += from->synthesised;
    into->cfa_text_agree += from->cfa_text_agree;
    into->cfa_sem_agree += from->cfa_sem_agree;
    into->ra_agree += from->ra_agree;
    into->callee_checked += from->callee_checked;
    into->callee_agree += from->callee_agree;
    for (size_t i = 0; i < from->ncauses; i++) {
        const struct agreement_cause *c = &from->causes[i];
        size_t j;
        for (j = 0; j < into->ncauses; j++)
            if (strcmp(into->causes[j].key, c->key) == 0) {
                into->causes[j].count += c->count;
                break;
            }
        if (j == into->ncauses && into->ncauses < AGREEMENT_MAX_CAUSES)
            into->causes[into->ncauses++] = *c;
    }
}

static double pct(size_t part, size_t whole)
{
    return whole ? 100.0 * (double)part / (double)whole : 100.0;
}

static int by_count(const void *x, const void *y)
{
    const struct agreement_cause *a = x, *b = y;
    return a->count < b->count ? 1 : a->count > b->count ? -1 : 0;
}

void agreement_print(FILE *out, const struct agreement *a, const char *label, size_t top_causes)
{
    fprintf(out, "%s: %zu files, %zu functions (%zu not synthesisable), %zu addresses covered by FDEs\n",
            label, a->files, a->functions, a->functions_unknown, a->covered);
    if (a->outermost)
        fprintf(out, "  (and %zu in outermost frames, where DWARF ends the stack: not compared)\n",
                a->outermost);
    fprintf(out, "  synthesised row:   %6.2f%% (%zu)\n", pct(a->synthesised, a->covered), a->synthesised);
    fprintf(out, "  CFA agrees (text): %6.2f%% of synthesised\n", pct(a->cfa_text_agree, a->synthesised));
    fprintf(out, "  CFA holds (state): %6.2f%% of synthesised\n", pct(a->cfa_sem_agree, a->synthesised));
    fprintf(out, "  ra holds:          %6.2f%% of synthesised\n", pct(a->ra_agree, a->synthesised));
    fprintf(out, "  callee-saved hold: %6.2f%% of %zu (address, register) pairs\n",
            pct(a->callee_agree, a->callee_checked), a->callee_checked);
    if (!top_causes || !a->ncauses)
        return;
    struct agreement_cause *sorted = malloc(a->ncauses * sizeof *sorted);
    if (!sorted)
        return;
    memcpy(sorted, a->causes, a->ncauses * sizeof *sorted);
    qsort(sorted, a->ncauses, sizeof *sorted, by_count);
    fprintf(out, "  largest causes of disagreement:\n");
    for (size_t i = 0; i < a->ncauses && i < top_causes; i++)
        fprintf(out, "  %10zu  %-44s e.g. %s\n", sorted[i].count, sorted[i].key, sorted[i].example);
    free(sorted);
}
