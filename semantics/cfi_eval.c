/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cfi_eval: CIE and FDE programs of one section.
 */
#include "cfi_eval.h"

#include <stdlib.h>
#include <string.h>

int cfi_eval_init(struct cfi_eval *ev, const struct cfi_section *section)
{
    memset(ev, 0, sizeof *ev);
    ev->section = section;
    ev->cies = calloc(section->ncies ? section->ncies : 1, sizeof *ev->cies);
    ev->stack = calloc(CFI_REMEMBER_DEPTH, sizeof *ev->stack);
    if (!ev->cies || !ev->stack) {
        cfi_eval_release(ev);
        return -1;
    }
    for (size_t i = 0; i < section->ncies; i++)
        ev->cies[i].ok = -1;   /* not computed yet */
    return 0;
}

void cfi_eval_release(struct cfi_eval *ev)
{
    free(ev->cies);
    free(ev->stack);
    memset(ev, 0, sizeof *ev);
}

size_t cfi_eval_cie_index(const struct cfi_eval *ev, const struct eh_frame_cie *cie)
{
    return (size_t)(cie - ev->section->cies);
}

static int only_nops(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != 0)
            return 0;
    return 1;
}

static void cie_params(const struct cfi_eval *ev, const struct eh_frame_cie *cie, const uint8_t *insns,
                       struct cfa_cie_params *p)
{
    *p = cfa_cie_params_of(cie, ev->section->addr + (uint64_t)(insns - ev->section->bytes));
}

int cfi_eval_cie(struct cfi_eval *ev, const struct eh_frame_cie *cie, cfa_row_fn on_row, void *arg,
                 struct cfi_state *final, int *all_nops, struct cfa_error *err)
{
    struct cfa_cie_params params;
    cie_params(ev, cie, cie->insns, &params);
    struct cfa_program prog = {
        .insns = cie->insns, .len = cie->insns_len, .cie = &params, .cie_state = NULL,
        .stack = ev->stack, .stack_cap = CFI_REMEMBER_DEPTH, .on_row = on_row, .arg = arg,
    };
    cfa_program_state_init(final, 0);
    *all_nops = only_nops(cie->insns, cie->insns_len);
    return cfa_program_run(&prog, final, err);
}

const struct cie_result *cfi_eval_cie_result(struct cfi_eval *ev, const struct eh_frame_cie *cie)
{
    struct cie_result *res = &ev->cies[cfi_eval_cie_index(ev, cie)];
    if (res->ok < 0) {
        int all_nops;
        cie_params(ev, cie, cie->insns, &res->params);
        res->ok = cfi_eval_cie(ev, cie, NULL, NULL, &res->state, &all_nops, &res->error) == 0;
    }
    return res;
}

int cfi_eval_fde(struct cfi_eval *ev, const struct eh_frame_fde *fde, cfa_row_fn on_row, void *arg,
                 struct cfi_state *final, int *all_nops, struct cfa_error *err)
{
    const struct cie_result *cie = cfi_eval_cie_result(ev, fde->cie);
    *all_nops = only_nops(fde->insns, fde->insns_len);
    if (!cie->ok) {
        *err = cie->error;
        return -1;
    }
    struct cfa_cie_params params;
    cie_params(ev, fde->cie, fde->insns, &params);
    struct cfa_program prog = {
        .insns = fde->insns, .len = fde->insns_len, .cie = &params, .cie_state = &cie->state,
        .stack = ev->stack, .stack_cap = CFI_REMEMBER_DEPTH, .on_row = on_row, .arg = arg,
    };
    *final = cie->state;
    final->loc = fde->pc_begin;
    return cfa_program_run(&prog, final, err);
}

/* Copy the 17 stored columns of a state into a new row [st->loc, end), cut
 * to the FDE's range: an advance past its end (or a set_loc before its
 * start) describes no code of this FDE, and a row must not claim it (a
 * 4-byte FDE advancing 2 GiB made a 2 GiB row). */
static int append_state(struct unwind_table *t, const struct cfi_state *st, uint64_t end)
{
    uint64_t start = st->loc > t->start ? st->loc : t->start;
    if (end > t->end)
        end = t->end;
    if (end <= start)
        return 0;   /* empty ranges (advance by 0, or past the end) describe nothing */
    struct unwind_row *row = unwind_table_append(t, start, end);
    if (!row)
        return -2;
    row->cfa = st->cfa;
    memcpy(row->reg, st->col, sizeof row->reg);
    row->args_size = st->args_size;
    for (unsigned c = UNWIND_COLUMNS; c < UNWIND_MAX_COLUMNS; c++)
        if (st->col[c].kind != REG_RULE_UNREFERENCED)
            t->extra_columns[c / 64] |= (uint64_t)1 << (c % 64);
    return 0;
}

static int table_row(void *arg, const struct cfi_state *st, uint64_t new_loc)
{
    return append_state(arg, st, new_loc);
}

int cfi_eval_fde_table(struct cfi_eval *ev, const struct eh_frame_fde *fde, struct unwind_table *t,
                       struct cfa_error *err)
{
    uint64_t end = fde->pc_begin + fde->pc_range;
    unwind_table_init(t, fde->pc_begin, end);
    t->signal_frame = fde->cie->signal_frame;
    struct cfi_state st;
    int all_nops;
    int rc = cfi_eval_fde(ev, fde, table_row, t, &st, &all_nops, err);
    if (rc == 0)
        rc = append_state(t, &st, end);
    else if (rc > 0)
        rc = -2;
    if (rc != 0)
        unwind_table_release(t);
    return rc;
}

int cfi_eval_all_tables(struct cfi_eval *ev, struct unwind_table **tables, size_t *n,
                        struct cfa_error *err, const struct eh_frame_fde **bad)
{
    const struct cfi_section *s = ev->section;
    struct unwind_table *t = calloc(s->nfdes + 1, sizeof *t);
    *tables = NULL;
    *n = 0;
    if (!t)
        return -2;
    size_t k = 0;
    for (size_t i = 0; i < s->nfdes; i++) {
        if (s->fdes[i].fault != FDE_SOUND)
            continue;   /* not code of the file: nothing to build */
        int rc = cfi_eval_fde_table(ev, &s->fdes[i], &t[k], err);
        if (rc != 0) {
            *bad = &s->fdes[i];
            cfi_eval_tables_release(t, k);
            return rc;
        }
        k++;
    }
    *tables = t;
    *n = k;
    return 0;
}

void cfi_eval_tables_release(struct unwind_table *tables, size_t n)
{
    for (size_t i = 0; i < n; i++)
        unwind_table_release(&tables[i]);
    free(tables);
}
