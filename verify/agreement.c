/*
 * agreement: synthesis against DWARF, address by address.
 */
#include "agreement.h"

#include <stdlib.h>
#include <string.h>

#include "object/elf_file.h"
#include "semantics/abi.h"
#include "semantics/cfi_eval.h"
#include "semantics/cfi_reader.h"
#include "semantics/dwarf_expr.h"
#include "semantics/table_print.h"
#include "synth/program.h"

/* FDEs sorted by address, with the table of the last one used. */
struct dwarf_lookup {
    struct cfi_eval ev;
    const struct cfi_fde **by_pc;
    size_t n;
    size_t current;            /* index in by_pc of `table`, or (size_t)-1 */
    struct unwind_table table;
    int table_ok;
};

struct file_check {
    struct agreement *a;
    struct dwarf_lookup *dw;
    const char *file;
    const struct function_range *func;
};

static int by_pc(const void *x, const void *y)
{
    const struct cfi_fde *a = *(const struct cfi_fde *const *)x, *b = *(const struct cfi_fde *const *)y;
    return a->pc_begin < b->pc_begin ? -1 : a->pc_begin > b->pc_begin;
}

/* The DWARF row covering ADDR, or NULL when no FDE covers it. */
static const struct unwind_row *dwarf_row_at(struct dwarf_lookup *dw, uint64_t addr)
{
    if (dw->current != (size_t)-1) {
        const struct cfi_fde *f = dw->by_pc[dw->current];
        if (addr >= f->pc_begin && addr - f->pc_begin < f->pc_range)
            return dw->table_ok ? unwind_table_row_at(&dw->table, addr) : NULL;
    }
    size_t lo = 0, hi = dw->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (dw->by_pc[mid]->pc_begin <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return NULL;
    const struct cfi_fde *f = dw->by_pc[lo - 1];
    if (addr - f->pc_begin >= f->pc_range)
        return NULL;
    if (dw->table_ok)
        unwind_table_release(&dw->table);
    struct cfa_error err;
    dw->table_ok = cfi_eval_fde_table(&dw->ev, f, &dw->table, &err) == 0;
    dw->current = lo - 1;
    return dw->table_ok ? unwind_table_row_at(&dw->table, addr) : NULL;
}

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

/* Concrete evaluation of the symbolic state: CFA-relative values become
 * CFA_BASE + k and values relative to a realigned stack ALIGNED_BASE + k,
 * the two bases far apart; anything else is unavailable. */
struct concrete {
    const struct abs_state *st;
    uint64_t cfa_base, aligned_base;
    uint64_t rip;
};

#define SPACE_SPAN 0x100000000ull   /* offsets within a frame stay below 4 GiB */

static int concrete_value(const struct concrete *c, struct absval v, uint64_t *out)
{
    if (v.kind == AV_CFA)
        *out = c->cfa_base + (uint64_t)v.off;
    else if (v.kind == AV_ALIGNED)
        *out = c->aligned_base + (uint64_t)v.off;
    else
        return -1;
    return 0;
}

static int concrete_reg(void *arg, unsigned reg, uint64_t *value)
{
    const struct concrete *c = arg;
    if (reg == ABI_RA) {
        *value = c->rip;
        return 0;
    }
    return reg < STATE_GPRS ? concrete_value(c, c->st->reg[reg], value) : -1;
}

/* The stack space and offset of a concrete address. */
static int concrete_slot(const struct concrete *c, uint64_t addr, uint8_t *base, int64_t *off)
{
    if (addr - c->cfa_base + SPACE_SPAN / 2 < SPACE_SPAN) {
        *base = AV_CFA;
        *off = (int64_t)(addr - c->cfa_base);
        return 0;
    }
    if (addr - c->aligned_base + SPACE_SPAN / 2 < SPACE_SPAN) {
        *base = AV_ALIGNED;
        *off = (int64_t)(addr - c->aligned_base);
        return 0;
    }
    return -1;
}

static int concrete_mem(void *arg, uint64_t addr, unsigned size, uint64_t *value)
{
    const struct concrete *c = arg;
    uint8_t base;
    int64_t off;
    if (size != 8 || concrete_slot(c, addr, &base, &off) != 0)
        return -1;
    return concrete_value(c, abs_state_slot_in(c->st, base, off), value);
}

/* Evaluate an expression twice, with two unrelated pairs of bases; the
 * result is the address BASE + *OFF in the same space both times. */
static int eval_in_state(const uint8_t *expr, uint32_t len, const struct abs_state *st,
                         uint64_t rip, int push_cfa, uint8_t *base, int64_t *off)
{
    struct dwarf_op ops[64];
    const char *error;
    int n = len <= 64 ? dwarf_expr_decode(expr, len, 8, ops, 64, &error) : -1;
    if (n < 0)
        return -1;
    static const uint64_t cfa_bases[2] = {0x7ff000001000ull, 0x10000000000ull};
    static const uint64_t aligned_bases[2] = {0x500000000000ull, 0x300000000000ull};
    uint8_t got_base[2];
    int64_t got_off[2];
    for (int i = 0; i < 2; i++) {
        struct concrete c = {st, cfa_bases[i], aligned_bases[i], rip};
        struct dwarf_expr_env env = {concrete_reg, concrete_mem, &c};
        uint64_t init = cfa_bases[i], result;
        if (dwarf_expr_eval(ops, (size_t)n, &env, push_cfa ? &init : NULL, &result, &error) != 0 ||
            concrete_slot(&c, result, &got_base[i], &got_off[i]) != 0)
            return -1;
    }
    if (got_base[0] != got_base[1] || got_off[0] != got_off[1])
        return -1;
    *base = got_base[0];
    *off = got_off[0];
    return 0;
}

static int is_entry(struct absval v, unsigned reg)
{
    return v.kind == AV_ENTRY && v.reg == reg && v.off == 0;
}

/* Does DWARF's rule for REG evaluate to entry(REG) in ST?  1 yes, 0 no. */
static int reg_rule_holds(const struct unwind_rule *rule, unsigned reg, const struct abs_state *st,
                          uint64_t rip)
{
    int64_t k;
    uint8_t base;
    switch (rule->kind) {
    case REG_RULE_UNDEFINED:
        return 1;   /* imprecise, never wrong */
    case REG_RULE_UNREFERENCED: case REG_RULE_SAME_VALUE:
        return reg < STATE_GPRS && is_entry(st->reg[reg], reg);
    case REG_RULE_OFFSET:
        return is_entry(abs_state_slot(st, rule->offset), reg);
    case REG_RULE_REGISTER:
        return rule->reg < STATE_GPRS && is_entry(st->reg[rule->reg], reg);
    case REG_RULE_EXPRESSION:
        return eval_in_state(rule->expr, rule->expr_len, st, rip, 1, &base, &k) == 0 &&
               is_entry(abs_state_slot_in(st, base, k), reg);
    default:
        return 0;
    }
}

static int cfa_rule_holds(const struct unwind_rule *cfa, const struct abs_state *st, uint64_t rip)
{
    int64_t k;
    uint8_t base;
    if (cfa->kind == CFA_RULE_REG_OFFSET)
        return cfa->reg < STATE_GPRS && st->reg[cfa->reg].kind == AV_CFA &&
               st->reg[cfa->reg].off + cfa->offset == 0;
    if (cfa->kind == CFA_RULE_EXPRESSION)
        return eval_in_state(cfa->expr, cfa->expr_len, st, rip, 0, &base, &k) == 0 &&
               base == AV_CFA && k == 0;
    return 0;
}

static void observe(void *arg, const struct ir_insn *in, const struct abs_state *st, int reached)
{
    struct file_check *fc = arg;
    struct agreement *a = fc->a;
    const struct unwind_row *dw = dwarf_row_at(fc->dw, in->addr);
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
    if (reached)
        synth_row_from_state(st, &syn);
    if (!reached || syn.cfa.kind == CFA_RULE_UNKNOWN) {
        add_cause(a, reached ? "no row: CFA unknown" : "no row: unreached code", fc->file, fc->func,
                  in->addr);
        return;
    }
    a->synthesised++;
    format_cfa_rule(d, sizeof d, &dw->cfa);
    format_cfa_rule(s, sizeof s, &syn.cfa);
    int text = strcmp(d, s) == 0 && dw->cfa.kind != CFA_RULE_EXPRESSION;
    int sem = cfa_rule_holds(&dw->cfa, st, in->addr);
    if (dw->cfa.kind == CFA_RULE_EXPRESSION && sem)
        text = 1;   /* both sides describe the same CFA; synthesis has no expression form */
    a->cfa_text_agree += text;
    a->cfa_sem_agree += sem;
    if (!sem || !text) {
        snprintf(key, sizeof key, "%s: dwarf %s synth %s", sem ? "cfa text" : "cfa", d, s);
        add_cause(a, key, fc->file, fc->func, in->addr);
    }
    if (reg_rule_holds(&dw->reg[ABI_RA], ABI_RA, st, in->addr)) {
        a->ra_agree++;
    } else {
        format_reg_rule(d, sizeof d, &dw->reg[ABI_RA]);
        snprintf(key, sizeof key, "ra: dwarf %s", d);
        add_cause(a, key, fc->file, fc->func, in->addr);
    }
    for (unsigned i = 0; i < ABI_NCALLEE_SAVED; i++) {
        unsigned r = abi_callee_saved_regs[i];
        a->callee_checked++;
        if (reg_rule_holds(&dw->reg[r], r, st, in->addr)) {
            a->callee_agree++;
        } else {
            format_reg_rule(d, sizeof d, &dw->reg[r]);
            format_reg_rule(s, sizeof s, &syn.reg[r]);
            snprintf(key, sizeof key, "%s: dwarf %s synth %s", unwind_column_name((int)r), d, s);
            add_cause(a, key, fc->file, fc->func, in->addr);
        }
    }
}

int agreement_add_file(struct agreement *a, const char *path, char *err, size_t errlen)
{
    struct elf_file ef;
    if (elf_file_open(&ef, path, err, errlen) != 0)
        return -1;
    struct synth_program prog;
    char eh_err[ELF_FILE_ERRLEN] = "";
    if (synth_program_open(&prog, &ef, eh_err, sizeof eh_err, err, errlen) != 0) {
        elf_file_close(&ef);
        return -1;
    }
    int result = -1;
    struct dwarf_lookup dw = {.current = (size_t)-1};
    if (!prog.have_eh) {
        snprintf(err, errlen, "%s", eh_err[0] ? eh_err : "no .eh_frame to compare with");
        goto out;
    }
    if (cfi_eval_init(&dw.ev, &prog.eh) != 0 ||
        !(dw.by_pc = malloc((prog.eh.nfdes + 1) * sizeof *dw.by_pc))) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < prog.eh.nfdes; i++)
        if (prog.eh.fdes[i].pc_range > 0)
            dw.by_pc[dw.n++] = &prog.eh.fdes[i];
    qsort(dw.by_pc, dw.n, sizeof *dw.by_pc, by_pc);

    struct agreement *mine = calloc(1, sizeof *mine);
    if (!mine) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    struct file_check fc = {mine, &dw, path, NULL};
    for (size_t i = 0; i < prog.index.nfuncs; i++) {
        struct unwind_table t;
        struct synth_outcome outcome;
        fc.func = &prog.index.funcs[i];
        mine->functions++;
        if (synth_program_function(&prog, i, &t, observe, &fc, &outcome) != 0)
            mine->functions_unknown++;
        unwind_table_release(&t);
    }
    mine->files = 1;
    agreement_merge(a, mine);
    free(mine);
    result = 0;
out:
    if (dw.table_ok)
        unwind_table_release(&dw.table);
    free(dw.by_pc);
    if (dw.ev.cies)
        cfi_eval_release(&dw.ev);
    synth_program_close(&prog);
    elf_file_close(&ef);
    return result;
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
