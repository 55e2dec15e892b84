/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dwarf_fallback: unwind one frame by interpreting .eh_frame (see the header).
 */
#include "dwarf_fallback.h"

#include <string.h>

#include "column_policy.h"
#include "frame_descriptor.h"
#include "semantics/abi.h"
#include "semantics/cfa_program.h"
#include "semantics/dwarf_constants.h"
#include "semantics/dwarf_expr.h"
#include "semantics/eh_frame_parse.h"
#include "semantics/unwind_limits.h"

/* The public header numbers registers as DWARF does. */
_Static_assert((int)DWU_RSP == (int)ABI_RSP && (int)DWU_RIP == (int)ABI_RA && DWU_NREGS == UNWIND_COLUMNS,
               "dwunwind.h's register numbers are the ABI's DWARF numbers");

struct row_search {
    uint64_t pc;
    struct cfi_state row;
    int found;
};

static int stop_at_pc(void *arg, const struct cfi_state *st, uint64_t new_loc)
{
    struct row_search *s = arg;
    if (s->pc >= st->loc && s->pc < new_loc) {
        s->row = *st;
        s->found = 1;
        return 1;
    }
    return 0;
}

int dwu_dwarf_row(const struct dwu_object *obj, uint64_t pc, struct cfi_state *row, int *signal)
{
    struct eh_frame_cie cie;
    struct eh_frame_fde fde;
    if (!obj->eh_frame_hdr)
        return DWU_ENOINFO;
    switch (eh_frame_find_fde_in_memory(obj->readable_start, obj->eh_frame_hdr, obj->readable_end, pc, &cie,
                                        &fde)) {
    case FRAME_FOUND: break;
    case FRAME_NOT_COVERED: return DWU_ENOINFO;
    default: return DWU_EBADRULE;
    }
    *signal = cie.signal_frame;
    return dwu_dwarf_fde_row(&cie, &fde, pc, row);
}

int dwu_dwarf_fde_row(const struct eh_frame_cie *cie, const struct eh_frame_fde *fde, uint64_t pc,
                      struct cfi_state *row)
{
    struct cfa_cie_params params = cfa_cie_params_of(cie, (uint64_t)(uintptr_t)cie->insns);
    /* The analysis's nesting bound, in the states an unwinder needs. */
    struct cfi_saved_row stack[UNWIND_REMEMBER_DEPTH];
    struct cfa_error err;
    struct cfi_state cie_state;
    struct cfa_program prog = {
        .insns = cie->insns, .len = cie->insns_len, .cie = &params,
        .saved = stack, .stack_cap = UNWIND_REMEMBER_DEPTH,
    };
    cfa_program_state_init(&cie_state, 0);
    if (cfa_program_run(&prog, &cie_state, &err) != 0)
        return DWU_EBADRULE;
    struct row_search search = {.pc = pc};
    struct cfa_cie_params fde_params = params;
    fde_params.insns_addr = (uint64_t)(uintptr_t)fde->insns;
    prog = (struct cfa_program){
        .insns = fde->insns, .len = fde->insns_len, .cie = &fde_params, .cie_state = &cie_state,
        .saved = stack, .stack_cap = UNWIND_REMEMBER_DEPTH, .on_row = stop_at_pc, .arg = &search,
    };
    search.row = cie_state;
    search.row.loc = fde->pc_begin;
    if (cfa_program_run(&prog, &search.row, &err) < 0)
        return DWU_EBADRULE;
    /* Without a stop the final state is the row: it runs to the FDE's end. */
    *row = search.row;
    return 0;
}

/* ---- applying a row ------------------------------------------------------ */

struct eval_env {
    const struct dwu_regs *in;
    const struct dwu_memory *mem;
};

static int load(const struct dwu_memory *mem, uint64_t addr, uint64_t *v)
{
    if (mem)
        return mem->read(mem->arg, addr, v) ? -1 : 0;
    memcpy(v, (const void *)(uintptr_t)addr, 8);
    return 0;
}

static int env_reg(void *arg, unsigned reg, uint64_t *v)
{
    const struct eval_env *e = arg;
    if (reg >= DWU_NREGS || !(e->in->valid & (1u << reg)))
        return -1;
    *v = e->in->r[reg];
    return 0;
}

static int env_mem(void *arg, uint64_t addr, unsigned size, uint64_t *v)
{
    const struct eval_env *e = arg;
    uint64_t w = 0;
    if (e->mem) {
        if (e->mem->read(e->mem->arg, addr, &w))
            return -1;
    } else {
        memcpy(&w, (const void *)(uintptr_t)addr, size);
    }
    if (size < 8)
        w &= ((uint64_t)1 << (8 * size)) - 1;
    *v = w;
    return 0;
}

static int eval_expr(const struct eval_env *env, const struct unwind_rule *rule, const uint64_t *init,
                     uint64_t *out)
{
    struct dwarf_op ops[UNWIND_EXPR_MAX_OPS];
    const char *why;
    int n = dwarf_expr_decode(rule->expr, rule->expr_len, 8, ops, UNWIND_EXPR_MAX_OPS, &why);
    if (n < 0)
        return DWU_EBADRULE;
    struct dwarf_expr_env de = {env_reg, env_mem, (void *)env};
    /* The status the compiled expression returns for the same failure. */
    switch (dwarf_expr_eval(ops, (size_t)n, &de, init, out, &why)) {
    case 0: return 0;
    case DWARF_EXPR_NO_REGISTER: return DWU_EREG;
    case DWARF_EXPR_NO_MEMORY: return DWU_EMEM;
    default: return DWU_EBADRULE;
    }
}

int dwu_dwarf_apply_rules(const struct unwind_rule *cfa_rule, const struct unwind_rule *col, int signal_frame,
                          const struct dwu_regs *in, struct dwu_regs *out, const struct dwu_memory *mem)
{
    int rc;
    if (col[DWU_RIP].kind == REG_RULE_UNDEFINED)
        return DWU_END;
    struct eval_env env = {in, mem};
    uint64_t cfa;
    if (cfa_rule->kind == CFA_RULE_REG_OFFSET) {
        if (cfa_rule->reg >= DWU_NREGS || !(in->valid & (1u << cfa_rule->reg)))
            return DWU_EREG;
        cfa = in->r[cfa_rule->reg] + (uint64_t)cfa_rule->offset;
    } else if (cfa_rule->kind == CFA_RULE_EXPRESSION) {
        if ((rc = eval_expr(&env, cfa_rule, NULL, &cfa)) != 0)
            return rc;
    } else {
        return DWU_EBADRULE;
    }
    memset(out, 0, sizeof *out);
    for (unsigned c = 0; c < DWU_NREGS; c++) {
        const struct unwind_rule *r = &col[c];
        uint64_t v = 0, addr;
        switch (r->kind) {
        case REG_RULE_UNREFERENCED:
            if (c == DWU_RIP)
                return DWU_EBADRULE;
            if (unmentioned_column(c) == COLUMN_BECOMES_CFA) {
                v = cfa;
                break;
            }
            if (unmentioned_column(c) == COLUMN_KEEPS_VALUE && (in->valid & (1u << c))) {
                v = in->r[c];
                break;
            }
            continue;
        case REG_RULE_SAME_VALUE:
            if (!(in->valid & (1u << c)))
                continue;
            v = in->r[c];
            break;
        case REG_RULE_UNDEFINED:
            continue;
        case REG_RULE_OFFSET:
            /* A saved register whose slot cannot be read (outside a stack
             * copy: an epilogue's rows often still name a slot below the
             * stack pointer) is not known in the caller; only the return
             * address must be read. */
            if (load(mem, cfa + (uint64_t)r->offset, &v) != 0) {
                if (c == DWU_RIP)
                    return DWU_EMEM;
                continue;
            }
            break;
        case REG_RULE_VAL_OFFSET:
            v = cfa + (uint64_t)r->offset;
            break;
        case REG_RULE_REGISTER:
            if (r->reg >= DWU_NREGS || !(in->valid & (1u << r->reg)))
                return DWU_EREG;
            v = in->r[r->reg];
            break;
        case REG_RULE_EXPRESSION:
            if ((rc = eval_expr(&env, r, &cfa, &addr)) != 0)
                return rc;
            if (load(mem, addr, &v) != 0) {
                if (c == DWU_RIP)
                    return DWU_EMEM;
                continue;
            }
            break;
        case REG_RULE_VAL_EXPRESSION:
            if ((rc = eval_expr(&env, r, &cfa, &v)) != 0)
                return rc;
            break;
        default:
            return DWU_EBADRULE;
        }
        out->r[c] = v;
        out->valid |= 1u << c;
    }
    out->flags = signal_frame ? DWU_FLAG_EXACT_IP : 0;
    return DWU_OK;
}

int dwu_dwarf_step(const struct dwu_object *obj, uint64_t lookup_pc, const struct dwu_regs *in,
                   struct dwu_regs *out, const struct dwu_memory *mem)
{
    struct cfi_state row;
    int signal = 0;
    int rc = dwu_dwarf_row(obj, lookup_pc, &row, &signal);
    return rc != 0 ? rc : dwu_dwarf_apply_rules(&row.cfa, row.col, signal, in, out, mem);
}

uint64_t dwu_dwarf_descriptor(const struct dwu_object *obj, uint64_t lookup_pc)
{
    struct cfi_state row;
    int signal = 0;
    return dwu_dwarf_row(obj, lookup_pc, &row, &signal) == 0 ? dwu_frame_descriptor(&row.cfa, row.col, signal) : 0;
}
