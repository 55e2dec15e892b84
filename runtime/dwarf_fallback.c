/*
 * dwarf_fallback: unwind one frame by interpreting .eh_frame (see the header).
 */
#include "dwarf_fallback.h"

#include <string.h>

#include "column_policy.h"
#include "semantics/abi.h"
#include "semantics/byte_reader.h"
#include "semantics/cfa_program.h"
#include "semantics/dwarf_constants.h"
#include "semantics/dwarf_expr.h"
#include "semantics/eh_pointer.h"
#include "semantics/unwind_limits.h"

/* The public header numbers registers as DWARF does. */
_Static_assert((int)DWU_RSP == (int)ABI_RSP && (int)DWU_RIP == (int)ABI_RA && DWU_NREGS == UNWIND_COLUMNS,
               "dwunwind.h's register numbers are the ABI's DWARF numbers");

struct cie_info {
    struct cfa_cie_params params;
    const uint8_t *insns;
    size_t insns_len;
    int has_z;
    int signal_frame;
};

/* A reader over [P, END) (run-time addresses are the pointers themselves). */
static void reader_at(struct byte_reader *r, const uint8_t *p, const uint8_t *end)
{
    byte_reader_init(r, p, p < end ? (size_t)(end - p) : 0);
}

/* The length field of a CIE or FDE at P: the entry's body in [*BODY, *END). */
static int entry_bounds(const uint8_t *p, const uint8_t *limit, const uint8_t **body, const uint8_t **end)
{
    struct byte_reader r;
    uint64_t len;
    reader_at(&r, p, limit);
    if (read_uint(&r, 4, &len) != 0)
        return -1;
    if (len == 0xffffffffu && read_uint(&r, 8, &len) != 0)
        return -1;
    if (len == 0 || len > byte_reader_left(&r))
        return -1;
    *body = r.cur;
    *end = r.cur + len;
    return 0;
}

static int parse_cie(const uint8_t *p, const uint8_t *limit, struct cie_info *cie)
{
    const uint8_t *body, *end;
    if (entry_bounds(p, limit, &body, &end) != 0)
        return -1;
    struct byte_reader r;
    reader_at(&r, body, end);
    uint64_t id, version, ra;
    int64_t data_align;
    uint64_t code_align;
    if (read_uint(&r, 4, &id) != 0 || id != 0 || read_uint(&r, 1, &version) != 0)
        return -1;
    const char *aug = (const char *)r.cur;
    size_t aug_len = strnlen(aug, byte_reader_left(&r));
    if (aug_len == byte_reader_left(&r))
        return -1;
    r.cur += aug_len + 1;
    memset(cie, 0, sizeof *cie);
    cie->params.addr_size = 8;
    cie->params.fde_encoding = DW_EH_PE_absptr;
    if (read_uleb128(&r, &code_align) != 0 || read_sleb128(&r, &data_align) != 0)
        return -1;
    if (version == 1 ? read_uint(&r, 1, &ra) : read_uleb128(&r, &ra))
        return -1;
    cie->params.code_align = code_align;
    cie->params.data_align = data_align;
    cie->params.ra_column = (unsigned)ra;
    const uint8_t *after_aug = NULL;
    for (size_t i = 0; i < aug_len; i++) {
        char c = aug[i];
        uint64_t v, len;
        if (c == 'z' && i == 0) {
            if (read_uleb128(&r, &len) != 0 || len > byte_reader_left(&r))
                return -1;
            cie->has_z = 1;
            after_aug = r.cur + len;
        } else if (c == 'R') {
            if (read_uint(&r, 1, &v) != 0)
                return -1;
            cie->params.fde_encoding = (uint8_t)v;
        } else if (c == 'L') {
            if (read_uint(&r, 1, &v) != 0)
                return -1;
        } else if (c == 'P') {
            uint64_t enc, ptr;
            if (read_uint(&r, 1, &enc) != 0)
                return -1;
            /* The personality routine is not needed: skip its pointer. */
            if (read_eh_pointer(&r, (uint8_t)(enc & 0x0f), 0, 8, &ptr) != 0)
                return -1;
        } else if (c == 'S') {
            cie->signal_frame = 1;
        } else if (!cie->has_z) {
            return -1;   /* an augmentation we cannot skip */
        } else {
            break;       /* 'z' tells where the data ends */
        }
    }
    if (after_aug)
        r.cur = after_aug;
    cie->insns = r.cur;
    cie->insns_len = (size_t)(end - r.cur);
    cie->params.insns_addr = (uint64_t)(uintptr_t)cie->insns;
    return 0;
}

/* The FDE whose initial location is the greatest not above PC, by the
 * binary-search table of .eh_frame_hdr; *SECTION receives .eh_frame's start. */
static const uint8_t *find_fde(const struct dwu_object *obj, uint64_t pc, const uint8_t **section)
{
    const uint8_t *hdr = obj->eh_frame_hdr;
    struct byte_reader r;
    reader_at(&r, hdr, obj->readable_end);
    uint64_t version, ptr_enc, count_enc, table_enc, eh_frame, count;
    if (read_uint(&r, 1, &version) != 0 || version != 1 || read_uint(&r, 1, &ptr_enc) != 0 ||
        read_uint(&r, 1, &count_enc) != 0 || read_uint(&r, 1, &table_enc) != 0)
        return NULL;
    if (read_eh_pointer(&r, (uint8_t)ptr_enc, (uint64_t)(uintptr_t)hdr, 8, &eh_frame) != 0 ||
        read_eh_pointer(&r, (uint8_t)count_enc, (uint64_t)(uintptr_t)hdr, 8, &count) != 0)
        return NULL;
    /* Linkers write datarel sdata4 pairs, relative to the header. */
    if (table_enc != (DW_EH_PE_datarel | DW_EH_PE_sdata4) || count == 0 ||
        count > byte_reader_left(&r) / 8)
        return NULL;
    const uint8_t *table = r.cur;
    *section = (const uint8_t *)(uintptr_t)eh_frame;
    uint64_t lo = 0, hi = count;   /* last entry with start <= pc */
    while (hi - lo > 1) {
        uint64_t mid = lo + (hi - lo) / 2;
        int32_t start;
        memcpy(&start, table + mid * 8, 4);
        if ((uint64_t)(uintptr_t)hdr + (uint64_t)(int64_t)start <= pc)
            lo = mid;
        else
            hi = mid;
    }
    int32_t start, fde;
    memcpy(&start, table + lo * 8, 4);
    memcpy(&fde, table + lo * 8 + 4, 4);
    if ((uint64_t)(uintptr_t)hdr + (uint64_t)(int64_t)start > pc)
        return NULL;
    return hdr + fde;
}

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

/* The row of OBJ's .eh_frame that covers PC; *SIGNAL says the FDE's CIE has
 * the S augmentation.  Returns 0 or a dwu_status. */
static int row_at(const struct dwu_object *obj, uint64_t pc, struct cfi_state *row, int *signal)
{
    if (!obj->eh_frame_hdr)
        return DWU_ENOINFO;
    const uint8_t *section = NULL, *body, *end;
    const uint8_t *fde = find_fde(obj, pc, &section);
    if (!fde || fde < section || fde >= obj->readable_end ||
        entry_bounds(fde, obj->readable_end, &body, &end) != 0)
        return DWU_ENOINFO;
    struct byte_reader r;
    reader_at(&r, body, end);
    uint64_t cie_off, pc_begin, pc_range;
    /* The CIE pointer counts back from its own field to the CIE. */
    if (read_uint(&r, 4, &cie_off) != 0 || cie_off == 0 || cie_off > (uint64_t)(body - section))
        return DWU_EBADRULE;
    struct cie_info cie;
    if (parse_cie(body - cie_off, obj->readable_end, &cie) != 0)
        return DWU_EBADRULE;
    if (read_eh_pointer(&r, cie.params.fde_encoding, (uint64_t)(uintptr_t)body, 8, &pc_begin) != 0 ||
        read_eh_pointer(&r, cie.params.fde_encoding & 0x0f, 0, 8, &pc_range) != 0)
        return DWU_EBADRULE;
    if (pc < pc_begin || pc - pc_begin >= pc_range)
        return DWU_ENOINFO;
    if (cie.has_z) {
        uint64_t len;
        if (read_uleb128(&r, &len) != 0 || len > byte_reader_left(&r))
            return DWU_EBADRULE;
        r.cur += len;
    }
    /* The analysis's nesting bound, in the states an unwinder needs. */
    struct cfi_saved_row stack[UNWIND_REMEMBER_DEPTH];
    struct cfa_error err;
    struct cfi_state cie_state;
    struct cfa_program prog = {
        .insns = cie.insns, .len = cie.insns_len, .cie = &cie.params,
        .saved = stack, .stack_cap = UNWIND_REMEMBER_DEPTH,
    };
    cfi_state_init(&cie_state, 0);
    if (cfa_program_run(&prog, &cie_state, &err) != 0)
        return DWU_EBADRULE;
    struct row_search search = {.pc = pc};
    struct cfa_cie_params fde_params = cie.params;
    fde_params.insns_addr = (uint64_t)(uintptr_t)r.cur;
    prog = (struct cfa_program){
        .insns = r.cur, .len = byte_reader_left(&r), .cie = &fde_params, .cie_state = &cie_state,
        .saved = stack, .stack_cap = UNWIND_REMEMBER_DEPTH, .on_row = stop_at_pc, .arg = &search,
    };
    search.row = cie_state;
    search.row.loc = pc_begin;
    int rc = cfa_program_run(&prog, &search.row, &err);
    if (rc < 0)
        return DWU_EBADRULE;
    /* Without a stop the final state is the row: it runs to the FDE's end. */
    *row = search.row;
    *signal = cie.signal_frame;
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

int dwu_apply_rules(const struct unwind_rule *cfa_rule, const struct unwind_rule *col, int signal_frame,
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
            if (load(mem, cfa + (uint64_t)r->offset, &v) != 0)
                return DWU_EMEM;
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
            if (load(mem, addr, &v) != 0)
                return DWU_EMEM;
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
    int rc = row_at(obj, lookup_pc, &row, &signal);
    return rc != 0 ? rc : dwu_apply_rules(&row.cfa, row.col, signal, in, out, mem);
}
