/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cfa_program: decode and evaluate DW_CFA_* instructions.
 *
 * Decoding (decode_insn) and evaluation (apply_insn) are separate so that
 * cfa_program_columns can walk a program without running it.
 */
#include "cfa_program.h"

#include <string.h>

#include "byte_reader.h"
#include "dwarf_constants.h"
#include "eh_pointer.h"

/* One decoded instruction; operands already scaled by the alignment factors. */
struct cfa_insn {
    uint8_t op;            /* DW_CFA_* with the low 6 bits cleared for the primary ops */
    unsigned reg, reg2;
    int has_reg;           /* names a register column */
    int64_t offset;        /* factored offset, scaled */
    uint64_t value;        /* advance delta, set_loc address, args size, CFA offset */
    const uint8_t *block;  /* expression operand */
    uint32_t block_len;
};

void cfa_program_state_init(struct cfi_state *st, uint64_t loc)
{
    memset(st, 0, sizeof *st);
    st->loc = loc;
}

static int read_encoded_address(struct byte_reader *r, const struct cfa_cie_params *cie,
                                uint64_t *out)
{
    /* DW_CFA_set_loc's operand: in the FDE's pointer encoding. */
    return read_eh_pointer(r, cie->fde_encoding, cie->insns_addr, cie->addr_size, out);
}

/* A factored offset times the data alignment factor; malformed when it
 * does not fit 64 bits (or is INT64_MIN, which cannot be negated). */
static int scale(struct byte_reader *r, int64_t factored, int64_t align, int64_t *out)
{
    if (__builtin_mul_overflow(factored, align, out) || *out == INT64_MIN)
        return byte_reader_fail(r, "factored offset out of range");
    return 0;
}

static int read_reg(struct byte_reader *r, struct cfa_insn *in, unsigned *reg)
{
    uint64_t v;
    if (read_uleb128(r, &v) != 0)
        return -1;
    if (v >= UNWIND_MAX_COLUMNS)
        return byte_reader_fail(r, "register number out of range");
    *reg = (unsigned)v;
    in->has_reg = 1;
    return 0;
}

static int read_block(struct byte_reader *r, struct cfa_insn *in)
{
    uint64_t n;
    if (read_uleb128(r, &n) != 0)
        return -1;
    if (n > byte_reader_left(r))
        return byte_reader_fail(r, "expression runs past the end of the instructions");
    in->block = r->cur;
    in->block_len = (uint32_t)n;
    r->cur += n;
    return 0;
}

static int decode_insn(struct byte_reader *r, const struct cfa_cie_params *cie, struct cfa_insn *in)
{
    memset(in, 0, sizeof *in);
    uint8_t b = *r->cur++;
    uint64_t u;
    int64_t s;
    switch (b & 0xc0) {
    case DW_CFA_advance_loc:
        in->op = DW_CFA_advance_loc;
        in->value = (b & 0x3f) * cie->code_align;
        return 0;
    case DW_CFA_offset:
        in->op = DW_CFA_offset;
        in->reg = b & 0x3f;
        in->has_reg = 1;
        if (read_uleb128(r, &u) != 0)
            return -1;
        return scale(r, (int64_t)u, cie->data_align, &in->offset);
    case DW_CFA_restore:
        in->op = DW_CFA_restore;
        in->reg = b & 0x3f;
        in->has_reg = 1;
        return 0;
    }
    in->op = b;
    switch (b) {
    case DW_CFA_nop: case DW_CFA_remember_state: case DW_CFA_restore_state:
        return 0;
    case DW_CFA_set_loc:
        return read_encoded_address(r, cie, &in->value);
    case DW_CFA_advance_loc1: case DW_CFA_advance_loc2: case DW_CFA_advance_loc4:
        if (read_uint(r, b == DW_CFA_advance_loc1 ? 1 : b == DW_CFA_advance_loc2 ? 2 : 4, &u) != 0)
            return -1;
        in->value = u * cie->code_align;
        return 0;
    case DW_CFA_offset_extended: case DW_CFA_val_offset: case DW_CFA_GNU_negative_offset_extended:
        if (read_reg(r, in, &in->reg) != 0 || read_uleb128(r, &u) != 0)
            return -1;
        if (scale(r, (int64_t)u, cie->data_align, &in->offset) != 0)
            return -1;
        if (b == DW_CFA_GNU_negative_offset_extended)
            in->offset = -in->offset;
        return 0;
    case DW_CFA_offset_extended_sf: case DW_CFA_val_offset_sf:
        if (read_reg(r, in, &in->reg) != 0 || read_sleb128(r, &s) != 0)
            return -1;
        return scale(r, s, cie->data_align, &in->offset);
    case DW_CFA_restore_extended: case DW_CFA_undefined: case DW_CFA_same_value:
        return read_reg(r, in, &in->reg);
    case DW_CFA_register:
        if (read_reg(r, in, &in->reg) != 0 || read_uleb128(r, &u) != 0)
            return -1;
        if (u >= UNWIND_MAX_COLUMNS)
            return byte_reader_fail(r, "register number out of range");
        in->reg2 = (unsigned)u;
        return 0;
    case DW_CFA_def_cfa:
        /* The CFA register is not a column of the row. */
        if (read_uleb128(r, &u) != 0 || u >= UNWIND_MAX_COLUMNS)
            return byte_reader_fail(r, "register number out of range");
        in->reg2 = (unsigned)u;
        if (read_uleb128(r, &u) != 0)
            return -1;
        in->offset = (int64_t)u;
        return 0;
    case DW_CFA_def_cfa_sf:
        if (read_uleb128(r, &u) != 0 || u >= UNWIND_MAX_COLUMNS)
            return byte_reader_fail(r, "register number out of range");
        in->reg2 = (unsigned)u;
        if (read_sleb128(r, &s) != 0)
            return -1;
        return scale(r, s, cie->data_align, &in->offset);
    case DW_CFA_def_cfa_register:
        if (read_uleb128(r, &u) != 0 || u >= UNWIND_MAX_COLUMNS)
            return byte_reader_fail(r, "register number out of range");
        in->reg2 = (unsigned)u;
        return 0;
    case DW_CFA_def_cfa_offset:
        if (read_uleb128(r, &u) != 0)
            return -1;
        in->offset = (int64_t)u;
        return 0;
    case DW_CFA_def_cfa_offset_sf:
        if (read_sleb128(r, &s) != 0)
            return -1;
        return scale(r, s, cie->data_align, &in->offset);
    case DW_CFA_def_cfa_expression:
        return read_block(r, in);
    case DW_CFA_expression: case DW_CFA_val_expression:
        if (read_reg(r, in, &in->reg) != 0)
            return -1;
        return read_block(r, in);
    case DW_CFA_GNU_args_size:
        return read_uleb128(r, &in->value);
    default:
        return byte_reader_fail(r, "unknown DW_CFA opcode");
    }
}

static void set_rule(struct unwind_rule *rule, uint8_t kind, uint16_t reg, int64_t offset,
                     const uint8_t *expr, uint32_t expr_len)
{
    rule->kind = kind;
    rule->reg = reg;
    rule->offset = offset;
    rule->expr = expr;
    rule->expr_len = expr_len;
}

/* Apply one decoded instruction.  Returns 0 or -1 with a reason in *WHY. */
static int apply_insn(const struct cfa_program *prog, struct cfi_state *st, size_t *depth,
                      const struct cfa_insn *in, const char **why)
{
    struct unwind_rule *col = in->has_reg ? &st->col[in->reg] : NULL;
    switch (in->op) {
    case DW_CFA_nop: case DW_CFA_advance_loc: case DW_CFA_advance_loc1: case DW_CFA_advance_loc2:
    case DW_CFA_advance_loc4: case DW_CFA_set_loc:
        return 0;   /* location changes are handled by the caller */
    case DW_CFA_offset: case DW_CFA_offset_extended: case DW_CFA_offset_extended_sf:
    case DW_CFA_GNU_negative_offset_extended:
        set_rule(col, REG_RULE_OFFSET, 0, in->offset, NULL, 0);
        return 0;
    case DW_CFA_val_offset: case DW_CFA_val_offset_sf:
        set_rule(col, REG_RULE_VAL_OFFSET, 0, in->offset, NULL, 0);
        return 0;
    case DW_CFA_restore: case DW_CFA_restore_extended:
        /* In a CIE there is no initial rule to return to: nothing changes. */
        if (prog->cie_state)
            *col = prog->cie_state->col[in->reg];
        return 0;
    case DW_CFA_undefined:
        set_rule(col, REG_RULE_UNDEFINED, 0, 0, NULL, 0);
        return 0;
    case DW_CFA_same_value:
        set_rule(col, REG_RULE_SAME_VALUE, 0, 0, NULL, 0);
        return 0;
    case DW_CFA_register:
        set_rule(col, REG_RULE_REGISTER, (uint16_t)in->reg2, 0, NULL, 0);
        return 0;
    case DW_CFA_expression:
        set_rule(col, REG_RULE_EXPRESSION, 0, 0, in->block, in->block_len);
        return 0;
    case DW_CFA_val_expression:
        set_rule(col, REG_RULE_VAL_EXPRESSION, 0, 0, in->block, in->block_len);
        return 0;
    case DW_CFA_remember_state:
        if (*depth == prog->stack_cap) {
            *why = "DW_CFA_remember_state nested too deeply";
            return -1;
        }
        if (prog->stack) {
            prog->stack[(*depth)++] = *st;
        } else {
            struct cfi_saved_row *saved = &prog->saved[(*depth)++];
            saved->cfa = st->cfa;
            memcpy(saved->col, st->col, sizeof saved->col);
            saved->args_size = st->args_size;
        }
        return 0;
    case DW_CFA_restore_state: {
        if (*depth == 0) {
            *why = "DW_CFA_restore_state with no remembered state";
            return -1;
        }
        /* The location is not part of the remembered state. */
        --*depth;
        if (prog->stack) {
            uint64_t loc = st->loc;
            *st = prog->stack[*depth];
            st->loc = loc;
        } else {
            const struct cfi_saved_row *saved = &prog->saved[*depth];
            st->cfa = saved->cfa;
            memcpy(st->col, saved->col, sizeof saved->col);
            st->args_size = saved->args_size;
        }
        return 0;
    }
    case DW_CFA_def_cfa: case DW_CFA_def_cfa_sf:
        set_rule(&st->cfa, CFA_RULE_REG_OFFSET, (uint16_t)in->reg2, in->offset, NULL, 0);
        return 0;
    case DW_CFA_def_cfa_register:
        /* After an expression this resumes the last register rule's offset,
         * as libgcc's unwinder (and readelf) do; DWARF leaves it undefined. */
        set_rule(&st->cfa, CFA_RULE_REG_OFFSET, (uint16_t)in->reg2, st->cfa.offset, NULL, 0);
        return 0;
    case DW_CFA_def_cfa_offset: case DW_CFA_def_cfa_offset_sf:
        /* While the CFA is an expression the offset is only recorded (libgcc
         * keeps the expression in force). */
        st->cfa.offset = in->offset;
        if (st->cfa.kind != CFA_RULE_EXPRESSION)
            st->cfa.kind = CFA_RULE_REG_OFFSET;
        return 0;
    case DW_CFA_def_cfa_expression:
        /* reg and offset stay recorded for a later def_cfa_register/offset. */
        st->cfa.kind = CFA_RULE_EXPRESSION;
        st->cfa.expr = in->block;
        st->cfa.expr_len = in->block_len;
        return 0;
    case DW_CFA_GNU_args_size:
        st->args_size = in->value;
        return 0;
    }
    *why = "unknown DW_CFA opcode";
    return -1;
}

int cfa_program_run(const struct cfa_program *prog, struct cfi_state *st, struct cfa_error *err)
{
    struct byte_reader r;
    byte_reader_init(&r, prog->insns, prog->len);
    size_t depth = 0;
    while (byte_reader_left(&r) > 0) {
        size_t at = byte_reader_offset(&r);
        struct cfa_insn in;
        if (decode_insn(&r, prog->cie, &in) != 0) {
            err->reason = r.error;
            err->offset = at;
            return -1;
        }
        uint64_t new_loc;
        switch (in.op) {
        case DW_CFA_advance_loc: case DW_CFA_advance_loc1: case DW_CFA_advance_loc2:
        case DW_CFA_advance_loc4:
            new_loc = st->loc + in.value;
            break;
        case DW_CFA_set_loc:
            new_loc = in.value;
            break;
        default: {
            const char *why = NULL;
            if (apply_insn(prog, st, &depth, &in, &why) != 0) {
                err->reason = why;
                err->offset = at;
                return -1;
            }
            continue;
        }
        }
        if (prog->on_row) {
            int rc = prog->on_row(prog->arg, st, new_loc);
            if (rc)
                return rc;
        }
        st->loc = new_loc;
    }
    return 0;
}

int cfa_program_columns(const uint8_t *insns, size_t len, const struct cfa_cie_params *cie,
                        uint64_t mask[UNWIND_MAX_COLUMNS / 64], struct cfa_error *err)
{
    struct byte_reader r;
    byte_reader_init(&r, insns, len);
    while (byte_reader_left(&r) > 0) {
        size_t at = byte_reader_offset(&r);
        struct cfa_insn in;
        if (decode_insn(&r, cie, &in) != 0) {
            err->reason = r.error;
            err->offset = at;
            return -1;
        }
        if (in.has_reg)
            mask[in.reg / 64] |= (uint64_t)1 << (in.reg % 64);
    }
    return 0;
}
