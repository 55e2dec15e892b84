/* SPDX-License-Identifier: Apache-2.0 */
/*
 * unw_reg_states: a frame's rows shown, applied, and its registers'
 * locations (see the header).
 */
#include "compat/unw_reg_states.h"

#include <string.h>

#include "runtime/dwarf_fallback.h"
#include "semantics/cfa_program.h"
#include "semantics/dwarf_expr.h"
#include "semantics/eh_frame_parse.h"

#define ROW_MAGIC 0xd0e5dfa1e0c5a7e5ull

/* A row as the callback receives it. */
struct lu_row {
    uint64_t magic;
    struct unwind_rule cfa;
    struct unwind_rule col[DWU_NREGS];
    int signal_frame;
};

/* The FDE and CIE of the frame at PC, and the CIE's state.  0, or
 * -UNW_ENOINFO. */
struct frame_program {
    struct eh_frame_cie cie;
    struct eh_frame_fde fde;
    struct cfa_cie_params params;
    struct cfi_state cie_state;
    struct cfi_saved_row stack[UNWIND_REMEMBER_DEPTH];
};

static int frame_program_find(uint64_t pc, struct frame_program *p)
{
    const struct dwu_object *o = dwu_objects_at(pc);
    struct cfa_error err;
    if (!o || !o->eh_frame_hdr ||
        eh_frame_find_fde_in_memory(o->readable_start, o->eh_frame_hdr, o->readable_end, pc - o->bias + o->table_bias,
                                    &p->cie, &p->fde) != FRAME_FOUND)
        return -UNW_ENOINFO;
    p->params = cfa_cie_params_of(&p->cie, (uint64_t)(uintptr_t)p->cie.insns);
    struct cfa_program prog = {
        .insns = p->cie.insns, .len = p->cie.insns_len, .cie = &p->params,
        .saved = p->stack, .stack_cap = UNWIND_REMEMBER_DEPTH,
    };
    cfa_program_state_init(&p->cie_state, 0);
    return cfa_program_run(&prog, &p->cie_state, &err) == 0 ? 0 : -UNW_EINVAL;
}

/* ---- unw_reg_states_iterate ---------------------------------------------- */

struct iteration {
    unw_reg_states_callback cb;
    void *token;
    uint64_t end;          /* the FDE's */
    int signal_frame;
    int rc;
};

static void row_of_state(const struct cfi_state *st, int signal_frame, struct lu_row *row)
{
    memset(row, 0, sizeof *row);
    row->magic = ROW_MAGIC;
    row->cfa = st->cfa;
    memcpy(row->col, st->col, sizeof row->col);
    row->signal_frame = signal_frame;
}

static int report_row(void *arg, const struct cfi_state *st, uint64_t new_loc)
{
    struct iteration *it = arg;
    if (st->loc >= it->end)
        return 1;
    if (new_loc > it->end)
        new_loc = it->end;
    if (new_loc <= st->loc)
        return 0;
    struct lu_row row;
    row_of_state(st, it->signal_frame, &row);
    it->rc = it->cb(it->token, &row, sizeof row, st->loc, new_loc);
    return it->rc < 0;
}

int lu_reg_states_iterate(struct lu_cursor *c, unw_reg_states_callback cb, void *token)
{
    struct frame_program p;
    int rc = frame_program_find(lu_cursor_lookup_pc(c), &p);
    if (rc != 0)
        return rc;
    /* Finding the procedure sets what libunwind's cursor says of the
     * frame: a signal frame or not, and so how its IP is looked up. */
    c->signal_frame = p.cie.signal_frame;
    struct dwu_regs *regs = lu_regs(c);
    regs->flags = (regs->flags & ~DWU_FLAG_EXACT_IP) | (p.cie.signal_frame ? DWU_FLAG_EXACT_IP : 0);
    struct iteration it = {cb, token, p.fde.pc_begin + p.fde.pc_range, p.cie.signal_frame, 0};
    struct cfa_cie_params params = p.params;
    params.insns_addr = (uint64_t)(uintptr_t)p.fde.insns;
    struct cfi_state st = p.cie_state;
    st.loc = p.fde.pc_begin;
    struct cfa_error err;
    struct cfa_program prog = {
        .insns = p.fde.insns, .len = p.fde.insns_len, .cie = &params, .cie_state = &p.cie_state,
        .saved = p.stack, .stack_cap = UNWIND_REMEMBER_DEPTH, .on_row = report_row, .arg = &it,
    };
    int run = cfa_program_run(&prog, &st, &err);
    if (run < 0)
        return -UNW_EINVAL;
    if (run == 0 && st.loc < it.end)   /* the last row, to the FDE's end */
        report_row(&it, &st, it.end);
    return it.rc;
}

/* ---- unw_apply_reg_state ------------------------------------------------- */

int lu_reg_states_apply(struct lu_cursor *c, const void *data)
{
    const struct lu_row *row = data;
    if (row->magic != ROW_MAGIC)
        return -UNW_EINVAL;
    const struct dwu_memory mem = {dwu_stack_read_within_bounds, &c->bounds};
    switch (dwu_dwarf_apply_rules(&row->cfa, row->col, row->signal_frame, lu_regs(c), lu_next_regs(c), &mem)) {
    case DWU_OK: return lu_cursor_take(c);
    case DWU_END: lu_regs(c)->r[DWU_RIP] = 0; return 0;
    case DWU_EMEM: return -UNW_EBADFRAME;
    case DWU_EREG: return -UNW_EBADREG;
    default: return -UNW_EINVAL;
    }
}

/* ---- unw_get_save_loc ---------------------------------------------------- */

/* A register's location, as libunwind tracks it. */
enum loc_kind { LOC_NONE, LOC_MEMORY, LOC_REGISTER, LOC_VALUE };
struct loc {
    enum loc_kind kind;
    uint64_t at;   /* the address, register number or value */
};

struct expr_env {
    struct lu_cursor *frame;
};

static int env_reg(void *arg, unsigned reg, uint64_t *v)
{
    const struct expr_env *e = arg;
    const struct dwu_regs *r = lu_regs(e->frame);
    if (reg >= DWU_NREGS || !(r->valid & (1u << reg)))
        return -1;
    *v = r->r[reg];
    return 0;
}

static int env_mem(void *arg, uint64_t addr, unsigned size, uint64_t *v)
{
    const struct expr_env *e = arg;
    uint64_t w;
    if (dwu_stack_read_within_bounds(&e->frame->bounds, addr, &w) != 0)
        return -1;
    *v = size < 8 ? w & (((uint64_t)1 << (8 * size)) - 1) : w;
    return 0;
}

/* The value of RULE's expression in FRAME, CFA pushed first.  0, or -1. */
static int eval(struct lu_cursor *frame, const struct unwind_rule *rule, const uint64_t *cfa, uint64_t *out)
{
    struct dwarf_op ops[UNWIND_EXPR_MAX_OPS];
    const char *why;
    int n = dwarf_expr_decode(rule->expr, rule->expr_len, 8, ops, UNWIND_EXPR_MAX_OPS, &why);
    struct expr_env env = {frame};
    struct dwarf_expr_env de = {env_reg, env_mem, &env};
    return n >= 0 && dwarf_expr_eval(ops, (size_t)n, &de, cfa, out, &why) == 0 ? 0 : -1;
}

/* The locations after FRAME's row (found again in its .eh_frame) is
 * applied to LOC, as libunwind's apply_reg_state moves them. */
static void table_locations(struct lu_cursor *frame, struct loc *loc)
{
    uint64_t pc = lu_cursor_lookup_pc(frame), cfa;
    const struct dwu_object *o = dwu_objects_at(pc);
    struct cfi_state row;
    int signal;
    if (!o || dwu_dwarf_row(o, pc - o->bias + o->table_bias, &row, &signal) != 0) {
        for (unsigned r = 0; r < DWU_NREGS; r++)   /* an eh_elf's own row: locations unknown */
            loc[r].kind = LOC_NONE;
        return;
    }
    const struct dwu_regs *regs = lu_regs(frame);
    if (row.cfa.kind == CFA_RULE_REG_OFFSET && row.cfa.reg < DWU_NREGS)
        cfa = regs->r[row.cfa.reg] + (uint64_t)row.cfa.offset;
    else if (row.cfa.kind != CFA_RULE_EXPRESSION || eval(frame, &row.cfa, NULL, &cfa) != 0)
        cfa = regs->r[DWU_RSP];
    for (unsigned r = 0; r < DWU_NREGS; r++) {
        const struct unwind_rule *rule = &row.col[r];
        uint64_t v;
        switch (rule->kind) {
        case REG_RULE_UNDEFINED: loc[r] = (struct loc){LOC_NONE, 0}; break;
        case REG_RULE_OFFSET: loc[r] = (struct loc){LOC_MEMORY, cfa + (uint64_t)rule->offset}; break;
        case REG_RULE_VAL_OFFSET: loc[r] = (struct loc){LOC_VALUE, cfa + (uint64_t)rule->offset}; break;
        case REG_RULE_REGISTER:
            loc[r] = rule->reg < DWU_NREGS ? loc[rule->reg] : (struct loc){LOC_NONE, 0};
            break;
        case REG_RULE_EXPRESSION:
        case REG_RULE_VAL_EXPRESSION:
            if (eval(frame, rule, &cfa, &v) != 0)
                loc[r] = (struct loc){LOC_NONE, 0};
            else
                loc[r] = (struct loc){rule->kind == REG_RULE_EXPRESSION ? LOC_MEMORY : LOC_VALUE, v};
            break;
        default: break;   /* unmentioned, same value: where it was */
        }
    }
}

int lu_reg_save_loc(const struct lu_cursor *c, int reg, unw_save_loc_t *sl, int reg_locs)
{
    memset(sl, 0, sizeof *sl);
    sl->type = UNW_SLT_NONE;
    switch (reg) {
    case UNW_X86_64_RBX: case UNW_X86_64_RSP: case UNW_X86_64_RBP: case UNW_X86_64_R12:
    case UNW_X86_64_R13: case UNW_X86_64_R14: case UNW_X86_64_R15: case UNW_X86_64_RIP: break;
    default: return 0;
    }
    if (!c->uc)
        return 0;
    struct loc loc[DWU_NREGS];
    for (unsigned r = 0; r < DWU_NREGS; r++)
        loc[r] = reg_locs ? (struct loc){LOC_REGISTER, r}
                          : (struct loc){LOC_MEMORY, (uint64_t)(uintptr_t)&c->uc->uc_mcontext.gregs[lu_greg_of(r)]};
    struct lu_cursor walk;
    lu_cursor_init(&walk, c->uc, (c->start_flags & DWU_FLAG_EXACT_IP) != 0);
    while (walk.steps < c->steps) {
        struct lu_cursor before = walk;
        uint32_t steps = walk.steps;
        lu_cursor_step(&walk);
        if (walk.steps == steps)
            break;
        const uint64_t rbp = lu_regs(&before)->r[DWU_RBP], rsp = lu_regs(&before)->r[DWU_RSP];
        switch (walk.last_step) {
        case LU_STEP_TABLE: table_locations(&before, loc); break;
        case LU_STEP_PLT: loc[DWU_RIP] = (struct loc){LOC_MEMORY, rsp}; break;
        case LU_STEP_FRAME_CHAIN:
        case LU_STEP_BAD_IP: {
            int chain = walk.last_step == LU_STEP_FRAME_CHAIN;
            int found = (lu_regs(&walk)->valid & (1u << DWU_RBP)) != 0;
            for (unsigned r = 0; r < DWU_NREGS; r++)
                loc[r] = (struct loc){LOC_NONE, 0};
            if (!chain || found) {
                loc[DWU_RBP] = (struct loc){LOC_MEMORY, rbp};
                loc[DWU_RIP] = (struct loc){LOC_MEMORY, chain ? rbp + 8 : rsp};
            }
            if (!chain)
                loc[DWU_RSP] = (struct loc){LOC_MEMORY, rsp};
            break;
        }
        default: break;
        }
    }
    const struct loc *l = &loc[reg];
    if (l->kind == LOC_NONE)
        return 0;
    if (l->kind == LOC_REGISTER) {
        sl->type = UNW_SLT_REG;
        sl->u.regnum = (unw_regnum_t)l->at;
    } else {
        sl->type = UNW_SLT_MEMORY;   /* (a value's too, as libunwind reports it) */
        sl->u.addr = l->at;
    }
    return 0;
}
