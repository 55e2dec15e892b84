/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dwarf_expr: decode, evaluate and print CFI expressions.
 */
#include "dwarf_expr.h"

#include <string.h>

#include "byte_reader.h"
#include "dwarf_constants.h"
#include "dwarf_ops.h"
#include "expr_machine.h"
#include "unwind_limits.h"

static const char *const x86_64_reg_names[] = {
    "rax", "rdx", "rcx", "rbx", "rsi", "rdi", "rbp", "rsp",
    "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15", "rip",
    "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7",
    "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15",
    "st0", "st1", "st2", "st3", "st4", "st5", "st6", "st7",
    "mm0", "mm1", "mm2", "mm3", "mm4", "mm5", "mm6", "mm7",
    "rflags", "es", "cs", "ss", "ds", "fs", "gs", NULL, NULL,
    "fs.base", "gs.base", NULL, NULL, "tr", "ldtr", "mxcsr", "fcw", "fsw",
    "xmm16", "xmm17", "xmm18", "xmm19", "xmm20", "xmm21", "xmm22", "xmm23",
    "xmm24", "xmm25", "xmm26", "xmm27", "xmm28", "xmm29", "xmm30", "xmm31",
    NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
    NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
    NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
    NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
    NULL, NULL, NULL,
    "k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7",
};

const char *dwarf_reg_name(unsigned reg)
{
    if (reg < sizeof x86_64_reg_names / sizeof x86_64_reg_names[0])
        return x86_64_reg_names[reg];
    return NULL;
}

/* Operand shapes of the ops CFI may use. */
enum operand_shape {
    OPND_NONE, OPND_U1, OPND_S1, OPND_U2, OPND_S2, OPND_U4, OPND_S4, OPND_U8, OPND_S8,
    OPND_ADDR, OPND_ULEB, OPND_SLEB, OPND_REG_SLEB, OPND_ULEB_SLEB, OPND_BRANCH,
    OPND_ULEB_BLOCK, OPND_BAD
};

struct op_info {
    const char *name;
    enum operand_shape shape;
    enum dwarf_op_class kind;
    uint8_t function;               /* an enum dwarf_binary or dwarf_unary */
};

#define INFO(name, shape, kind) ((struct op_info){name, shape, kind, 0})

static struct op_info op_info(uint8_t op)
{
    static char lit_names[32][12], reg_names[32][12], breg_names[32][13];
    static int named;
    if (!named) {
        for (int i = 0; i < 32; i++) {
            snprintf(lit_names[i], sizeof lit_names[i], "DW_OP_lit%d", i);
            snprintf(reg_names[i], sizeof reg_names[i], "DW_OP_reg%d", i);
            snprintf(breg_names[i], sizeof breg_names[i], "DW_OP_breg%d", i);
        }
        named = 1;
    }
    if (op >= DW_OP_lit0 && op <= DW_OP_lit31)
        return INFO(lit_names[op - DW_OP_lit0], OPND_NONE, DWARF_OP_CONSTANT);
    if (op >= DW_OP_reg0 && op <= DW_OP_reg31)
        return INFO(reg_names[op - DW_OP_reg0], OPND_NONE, DWARF_OP_LOCATION);
    if (op >= DW_OP_breg0 && op <= DW_OP_breg31)
        return INFO(breg_names[op - DW_OP_breg0], OPND_REG_SLEB, DWARF_OP_REGISTER);
    switch (op) {
    case DW_OP_addr: return INFO("DW_OP_addr", OPND_ADDR, DWARF_OP_CONSTANT);
    case DW_OP_deref: return INFO("DW_OP_deref", OPND_NONE, DWARF_OP_DEREF);
    case DW_OP_const1u: return INFO("DW_OP_const1u", OPND_U1, DWARF_OP_CONSTANT);
    case DW_OP_const1s: return INFO("DW_OP_const1s", OPND_S1, DWARF_OP_CONSTANT);
    case DW_OP_const2u: return INFO("DW_OP_const2u", OPND_U2, DWARF_OP_CONSTANT);
    case DW_OP_const2s: return INFO("DW_OP_const2s", OPND_S2, DWARF_OP_CONSTANT);
    case DW_OP_const4u: return INFO("DW_OP_const4u", OPND_U4, DWARF_OP_CONSTANT);
    case DW_OP_const4s: return INFO("DW_OP_const4s", OPND_S4, DWARF_OP_CONSTANT);
    case DW_OP_const8u: return INFO("DW_OP_const8u", OPND_U8, DWARF_OP_CONSTANT);
    case DW_OP_const8s: return INFO("DW_OP_const8s", OPND_S8, DWARF_OP_CONSTANT);
    case DW_OP_constu: return INFO("DW_OP_constu", OPND_ULEB, DWARF_OP_CONSTANT);
    case DW_OP_consts: return INFO("DW_OP_consts", OPND_SLEB, DWARF_OP_CONSTANT);
    case DW_OP_dup: return INFO("DW_OP_dup", OPND_NONE, DWARF_OP_DUP);
    case DW_OP_drop: return INFO("DW_OP_drop", OPND_NONE, DWARF_OP_DROP);
    case DW_OP_over: return INFO("DW_OP_over", OPND_NONE, DWARF_OP_OVER);
    case DW_OP_pick: return INFO("DW_OP_pick", OPND_U1, DWARF_OP_PICK);
    case DW_OP_swap: return INFO("DW_OP_swap", OPND_NONE, DWARF_OP_SWAP);
    case DW_OP_rot: return INFO("DW_OP_rot", OPND_NONE, DWARF_OP_ROT);
    case DW_OP_plus_uconst: return INFO("DW_OP_plus_uconst", OPND_ULEB, DWARF_OP_PLUS_CONSTANT);
    case DW_OP_bra: return INFO("DW_OP_bra", OPND_BRANCH, DWARF_OP_BRANCH);
    case DW_OP_skip: return INFO("DW_OP_skip", OPND_BRANCH, DWARF_OP_SKIP);
    case DW_OP_regx: return INFO("DW_OP_regx", OPND_ULEB, DWARF_OP_LOCATION);
    case DW_OP_bregx: return INFO("DW_OP_bregx", OPND_ULEB_SLEB, DWARF_OP_REGISTER);
    case DW_OP_piece: return INFO("DW_OP_piece", OPND_ULEB, DWARF_OP_MEANINGLESS);
    case DW_OP_deref_size: return INFO("DW_OP_deref_size", OPND_U1, DWARF_OP_DEREF);
    case DW_OP_nop: return INFO("DW_OP_nop", OPND_NONE, DWARF_OP_NOP);
    case DW_OP_bit_piece: return INFO("DW_OP_bit_piece", OPND_ULEB_SLEB, DWARF_OP_MEANINGLESS);
    case DW_OP_implicit_value: return INFO("DW_OP_implicit_value", OPND_ULEB_BLOCK, DWARF_OP_MEANINGLESS);
    case DW_OP_stack_value: return INFO("DW_OP_stack_value", OPND_NONE, DWARF_OP_STACK_VALUE);
    case DW_OP_form_tls_address: return INFO("DW_OP_form_tls_address", OPND_NONE, DWARF_OP_MEANINGLESS);
    case DW_OP_GNU_push_tls_address:
        return INFO("DW_OP_GNU_push_tls_address", OPND_NONE, DWARF_OP_MEANINGLESS);
#define BINARY(op, name, c) case op: return (struct op_info){#op, OPND_NONE, DWARF_OP_BINARY, DWARF_BINARY_##name};
#define UNARY(op, name, c) case op: return (struct op_info){#op, OPND_NONE, DWARF_OP_UNARY, DWARF_UNARY_##name};
    DWARF_BINARY_FUNCTIONS(BINARY)
    DWARF_UNARY_FUNCTIONS(UNARY)
#undef BINARY
#undef UNARY
    default: return INFO(NULL, OPND_BAD, DWARF_OP_MEANINGLESS);
    }
}

const char *dwarf_op_name(uint8_t opcode)
{
    return op_info(opcode).name;
}

static int read_operands(struct byte_reader *r, enum operand_shape shape, unsigned addr_size,
                         struct dwarf_op *op)
{
    uint64_t u = 0;
    int64_t s = 0;
    switch (shape) {
    case OPND_NONE: return 0;
    case OPND_U1: return read_uint(r, 1, &op->operand1);
    case OPND_U2: return read_uint(r, 2, &op->operand1);
    case OPND_U4: return read_uint(r, 4, &op->operand1);
    case OPND_U8: return read_uint(r, 8, &op->operand1);
    case OPND_ADDR: return read_uint(r, addr_size, &op->operand1);
    case OPND_S1: case OPND_S2: case OPND_S4: case OPND_S8: {
        unsigned size = shape == OPND_S1 ? 1 : shape == OPND_S2 ? 2 : shape == OPND_S4 ? 4 : 8;
        if (read_sint(r, size, &s) != 0)
            return -1;
        op->operand1 = (uint64_t)s;
        op->operand2 = s;
        return 0;
    }
    case OPND_ULEB: return read_uleb128(r, &op->operand1);
    case OPND_SLEB:
        if (read_sleb128(r, &s) != 0)
            return -1;
        op->operand1 = (uint64_t)s;
        op->operand2 = s;
        return 0;
    case OPND_REG_SLEB:
        op->operand1 = op->opcode - DW_OP_breg0;
        return read_sleb128(r, &op->operand2);
    case OPND_ULEB_SLEB:
        if (read_uleb128(r, &op->operand1) != 0)
            return -1;
        return op->opcode == DW_OP_bit_piece ? read_uleb128(r, &u) || (op->operand2 = (int64_t)u, 0)
                                             : read_sleb128(r, &op->operand2);
    case OPND_BRANCH:
        if (read_sint(r, 2, &s) != 0)
            return -1;
        op->operand2 = (int64_t)byte_reader_offset(r) + s;
        return 0;
    case OPND_ULEB_BLOCK:
        if (read_uleb128(r, &op->operand1) != 0)
            return -1;
        if (op->operand1 > byte_reader_left(r))
            return byte_reader_fail(r, "DW_OP_implicit_value block runs past the end");
        op->operand2 = (int64_t)byte_reader_offset(r);
        r->cur += op->operand1;
        return 0;
    case OPND_BAD: break;
    }
    return byte_reader_fail(r, "unknown DW_OP opcode");
}

/* The index of the op at OFFSET, NOPS for END (the end of the
 * expression), or -1 when no op starts there. */
static int op_index_at(const struct dwarf_op *ops, size_t nops, int64_t offset, size_t end)
{
    if (offset == (int64_t)end)
        return (int)nops;
    size_t i = dwarf_op_at(ops, nops, offset);
    return i < nops ? (int)i : -1;
}

int dwarf_expr_decode(const uint8_t *bytes, size_t len, unsigned addr_size,
                      struct dwarf_op *ops, size_t max_ops, const char **error)
{
    struct byte_reader r;
    byte_reader_init(&r, bytes, len);
    size_t n = 0;
    while (byte_reader_left(&r) > 0) {
        if (n == max_ops) {
            *error = "expression has more operations than room was given for";
            return -1;
        }
        struct dwarf_op *op = &ops[n];
        op->offset = (uint32_t)byte_reader_offset(&r);
        op->opcode = *r.cur++;
        op->operand1 = 0;
        op->operand2 = 0;
        struct op_info info = op_info(op->opcode);
        op->kind = (uint8_t)info.kind;
        op->function = info.function;
        if (info.shape == OPND_BAD) {
            *error = "unknown DW_OP opcode in expression";
            return -1;
        }
        if (read_operands(&r, info.shape, addr_size, op) != 0) {
            *error = r.error;
            return -1;
        }
        if (op->opcode >= DW_OP_lit0 && op->opcode <= DW_OP_lit31)
            op->operand1 = (uint64_t)(op->opcode - DW_OP_lit0);
        else if (op->opcode == DW_OP_deref)
            op->operand1 = 8;
        n++;
    }
    for (size_t i = 0; i < n; i++)
        if ((ops[i].opcode == DW_OP_bra || ops[i].opcode == DW_OP_skip) &&
            op_index_at(ops, n, ops[i].operand2, len) < 0) {
            *error = "branch target is not the start of an operation";
            return -1;
        }
    return (int)n;
}

/* ---- the concrete domain: 64-bit numbers, registers and memory read
 * through the caller's callbacks ---------------------------------------- */

static int concrete_constant(void *ctx, uint64_t k, void *out)
{
    (void)ctx;
    memcpy(out, &k, 8);
    return 0;
}

static int concrete_reg(void *ctx, unsigned reg, int64_t offset, void *out)
{
    const struct dwarf_expr_env *env = ctx;
    uint64_t v;
    if (!env || !env->read_reg || env->read_reg(env->arg, reg, &v) != 0)
        return DWARF_EXPR_NO_REGISTER;
    v += (uint64_t)offset;
    memcpy(out, &v, 8);
    return 0;
}

static int concrete_deref(void *ctx, void *v, unsigned size)
{
    const struct dwarf_expr_env *env = ctx;
    uint64_t addr, word;
    memcpy(&addr, v, 8);
    if (!env || !env->read_mem || env->read_mem(env->arg, addr, size, &word) != 0)
        return DWARF_EXPR_NO_MEMORY;
    memcpy(v, &word, 8);
    return 0;
}

static int concrete_unary(void *ctx, enum dwarf_unary f, void *v)
{
    (void)ctx;
    uint64_t a;
    memcpy(&a, v, 8);
    a = dwarf_unary_eval(f, a);
    memcpy(v, &a, 8);
    return 0;
}

static int concrete_binary(void *ctx, enum dwarf_binary f, void *a, const void *b)
{
    (void)ctx;
    uint64_t x, y, r;
    memcpy(&x, a, 8);
    memcpy(&y, b, 8);
    if (dwarf_binary_eval(f, x, y, &r) != 0)
        return DWARF_EXPR_INVALID;
    memcpy(a, &r, 8);
    return 0;
}

static int concrete_truth(void *ctx, const void *v)
{
    (void)ctx;
    uint64_t x;
    memcpy(&x, v, 8);
    return x != 0;
}

static const struct expr_domain concrete = {
    .size = 8,
    .constant = concrete_constant,
    .reg = concrete_reg,
    .deref = concrete_deref,
    .unary = concrete_unary,
    .binary = concrete_binary,
    .truth = concrete_truth,
};

int dwarf_expr_eval(const struct dwarf_op *ops, size_t nops, const struct dwarf_expr_env *env,
                    const uint64_t *initial, uint64_t *result, const char **error)
{
    return expr_machine_run(&concrete, (void *)env, ops, nops, initial, result, error);
}

void dwarf_expr_print(FILE *out, const struct dwarf_op *ops, size_t nops)
{
    for (size_t i = 0; i < nops; i++) {
        const struct dwarf_op *op = &ops[i];
        struct op_info info = op_info(op->opcode);
        if (i)
            fputs("; ", out);
        fputs(info.name ? info.name : "DW_OP_unknown", out);
        const char *reg = NULL;
        switch (info.shape) {
        case OPND_NONE: case OPND_BAD:
            break;
        case OPND_REG_SLEB:
            reg = dwarf_reg_name((unsigned)op->operand1);
            fprintf(out, " (%s): %lld", reg ? reg : "?", (long long)op->operand2);
            break;
        case OPND_ULEB_SLEB:
            if (op->opcode == DW_OP_bregx) {
                reg = dwarf_reg_name((unsigned)op->operand1);
                fprintf(out, ": %llu (%s) %lld", (unsigned long long)op->operand1, reg ? reg : "?",
                        (long long)op->operand2);
            } else {
                fprintf(out, " size: %llu offset: %lld", (unsigned long long)op->operand1,
                        (long long)op->operand2);
            }
            break;
        case OPND_S1: case OPND_S2: case OPND_S4: case OPND_S8: case OPND_SLEB:
            fprintf(out, ": %lld", (long long)op->operand2);
            break;
        case OPND_ADDR:
            fprintf(out, ": 0x%llx", (unsigned long long)op->operand1);
            break;
        case OPND_BRANCH:
            fprintf(out, ": %lld", (long long)(op->operand2 - (int64_t)(op->offset + 3)));
            break;
        case OPND_ULEB_BLOCK:
            fprintf(out, " %llu byte block", (unsigned long long)op->operand1);
            break;
        default:
            if (op->opcode == DW_OP_regx) {
                reg = dwarf_reg_name((unsigned)op->operand1);
                fprintf(out, ": %llu (%s)", (unsigned long long)op->operand1, reg ? reg : "?");
            } else {
                fprintf(out, ": %llu", (unsigned long long)op->operand1);
            }
            break;
        }
    }
}
