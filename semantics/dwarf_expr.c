/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dwarf_expr: decode, evaluate and print CFI expressions.
 */
#include "dwarf_expr.h"

#include "byte_reader.h"
#include "dwarf_constants.h"
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
};

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
        return (struct op_info){lit_names[op - DW_OP_lit0], OPND_NONE};
    if (op >= DW_OP_reg0 && op <= DW_OP_reg31)
        return (struct op_info){reg_names[op - DW_OP_reg0], OPND_NONE};
    if (op >= DW_OP_breg0 && op <= DW_OP_breg31)
        return (struct op_info){breg_names[op - DW_OP_breg0], OPND_REG_SLEB};
    switch (op) {
    case DW_OP_addr: return (struct op_info){"DW_OP_addr", OPND_ADDR};
    case DW_OP_deref: return (struct op_info){"DW_OP_deref", OPND_NONE};
    case DW_OP_const1u: return (struct op_info){"DW_OP_const1u", OPND_U1};
    case DW_OP_const1s: return (struct op_info){"DW_OP_const1s", OPND_S1};
    case DW_OP_const2u: return (struct op_info){"DW_OP_const2u", OPND_U2};
    case DW_OP_const2s: return (struct op_info){"DW_OP_const2s", OPND_S2};
    case DW_OP_const4u: return (struct op_info){"DW_OP_const4u", OPND_U4};
    case DW_OP_const4s: return (struct op_info){"DW_OP_const4s", OPND_S4};
    case DW_OP_const8u: return (struct op_info){"DW_OP_const8u", OPND_U8};
    case DW_OP_const8s: return (struct op_info){"DW_OP_const8s", OPND_S8};
    case DW_OP_constu: return (struct op_info){"DW_OP_constu", OPND_ULEB};
    case DW_OP_consts: return (struct op_info){"DW_OP_consts", OPND_SLEB};
    case DW_OP_dup: return (struct op_info){"DW_OP_dup", OPND_NONE};
    case DW_OP_drop: return (struct op_info){"DW_OP_drop", OPND_NONE};
    case DW_OP_over: return (struct op_info){"DW_OP_over", OPND_NONE};
    case DW_OP_pick: return (struct op_info){"DW_OP_pick", OPND_U1};
    case DW_OP_swap: return (struct op_info){"DW_OP_swap", OPND_NONE};
    case DW_OP_rot: return (struct op_info){"DW_OP_rot", OPND_NONE};
    case DW_OP_abs: return (struct op_info){"DW_OP_abs", OPND_NONE};
    case DW_OP_and: return (struct op_info){"DW_OP_and", OPND_NONE};
    case DW_OP_div: return (struct op_info){"DW_OP_div", OPND_NONE};
    case DW_OP_minus: return (struct op_info){"DW_OP_minus", OPND_NONE};
    case DW_OP_mod: return (struct op_info){"DW_OP_mod", OPND_NONE};
    case DW_OP_mul: return (struct op_info){"DW_OP_mul", OPND_NONE};
    case DW_OP_neg: return (struct op_info){"DW_OP_neg", OPND_NONE};
    case DW_OP_not: return (struct op_info){"DW_OP_not", OPND_NONE};
    case DW_OP_or: return (struct op_info){"DW_OP_or", OPND_NONE};
    case DW_OP_plus: return (struct op_info){"DW_OP_plus", OPND_NONE};
    case DW_OP_plus_uconst: return (struct op_info){"DW_OP_plus_uconst", OPND_ULEB};
    case DW_OP_shl: return (struct op_info){"DW_OP_shl", OPND_NONE};
    case DW_OP_shr: return (struct op_info){"DW_OP_shr", OPND_NONE};
    case DW_OP_shra: return (struct op_info){"DW_OP_shra", OPND_NONE};
    case DW_OP_xor: return (struct op_info){"DW_OP_xor", OPND_NONE};
    case DW_OP_bra: return (struct op_info){"DW_OP_bra", OPND_BRANCH};
    case DW_OP_eq: return (struct op_info){"DW_OP_eq", OPND_NONE};
    case DW_OP_ge: return (struct op_info){"DW_OP_ge", OPND_NONE};
    case DW_OP_gt: return (struct op_info){"DW_OP_gt", OPND_NONE};
    case DW_OP_le: return (struct op_info){"DW_OP_le", OPND_NONE};
    case DW_OP_lt: return (struct op_info){"DW_OP_lt", OPND_NONE};
    case DW_OP_ne: return (struct op_info){"DW_OP_ne", OPND_NONE};
    case DW_OP_skip: return (struct op_info){"DW_OP_skip", OPND_BRANCH};
    case DW_OP_regx: return (struct op_info){"DW_OP_regx", OPND_ULEB};
    case DW_OP_bregx: return (struct op_info){"DW_OP_bregx", OPND_ULEB_SLEB};
    case DW_OP_piece: return (struct op_info){"DW_OP_piece", OPND_ULEB};
    case DW_OP_deref_size: return (struct op_info){"DW_OP_deref_size", OPND_U1};
    case DW_OP_nop: return (struct op_info){"DW_OP_nop", OPND_NONE};
    case DW_OP_bit_piece: return (struct op_info){"DW_OP_bit_piece", OPND_ULEB_SLEB};
    case DW_OP_implicit_value: return (struct op_info){"DW_OP_implicit_value", OPND_ULEB_BLOCK};
    case DW_OP_stack_value: return (struct op_info){"DW_OP_stack_value", OPND_NONE};
    case DW_OP_form_tls_address: return (struct op_info){"DW_OP_form_tls_address", OPND_NONE};
    case DW_OP_GNU_push_tls_address:
        return (struct op_info){"DW_OP_GNU_push_tls_address", OPND_NONE};
    default: return (struct op_info){NULL, OPND_BAD};
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

static int op_index_at(const struct dwarf_op *ops, size_t nops, int64_t offset, size_t end)
{
    if (offset == (int64_t)end)
        return (int)nops;
    for (size_t i = 0; i < nops; i++)
        if ((int64_t)ops[i].offset == offset)
            return (int)i;
    return -1;
}

size_t dwarf_expr_branch_target(const struct dwarf_op *ops, size_t nops, int64_t offset)
{
    /* Decoding checked every target: it is an op, or the end. */
    int target = op_index_at(ops, nops, offset, SIZE_MAX);
    return target < 0 ? nops : (size_t)target;
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
        if (info.shape == OPND_BAD) {
            *error = "unknown DW_OP opcode in expression";
            return -1;
        }
        if (read_operands(&r, info.shape, addr_size, op) != 0) {
            *error = r.error;
            return -1;
        }
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

int dwarf_expr_eval(const struct dwarf_op *ops, size_t nops, const struct dwarf_expr_env *env,
                    const uint64_t *initial, uint64_t *result, const char **error)
{
    uint64_t stack[UNWIND_EXPR_STACK];
    size_t sp = 0;
#define NEED(k) do { if (sp < (k)) { *error = "expression stack underflow"; return DWARF_EXPR_INVALID; } } while (0)
#define PUSH(v) do { if (sp == UNWIND_EXPR_STACK) { *error = "expression stack overflow"; \
                                                    return DWARF_EXPR_INVALID; } \
                     stack[sp++] = (v); } while (0)
    if (initial)
        PUSH(*initial);
    unsigned branches = 0;
    for (size_t pc = 0; pc < nops;) {
        const struct dwarf_op *op = &ops[pc++];
        uint8_t o = op->opcode;
        uint64_t a, b, v;
        if (o >= DW_OP_lit0 && o <= DW_OP_lit31) {
            PUSH((uint64_t)(o - DW_OP_lit0));
            continue;
        }
        if ((o >= DW_OP_breg0 && o <= DW_OP_breg31) || o == DW_OP_bregx) {
            if (!env || !env->read_reg || env->read_reg(env->arg, (unsigned)op->operand1, &v) != 0) {
                *error = "expression reads a register whose value is unknown";
                return DWARF_EXPR_NO_REGISTER;
            }
            PUSH(v + (uint64_t)op->operand2);
            continue;
        }
        if ((o >= DW_OP_reg0 && o <= DW_OP_reg31) || o == DW_OP_regx) {
            *error = "register location operation in a CFI expression";
            return DWARF_EXPR_INVALID;
        }
        switch (o) {
        case DW_OP_addr: case DW_OP_const1u: case DW_OP_const2u: case DW_OP_const4u:
        case DW_OP_const8u: case DW_OP_const1s: case DW_OP_const2s: case DW_OP_const4s:
        case DW_OP_const8s: case DW_OP_constu: case DW_OP_consts:
            PUSH(op->operand1);
            break;
        case DW_OP_deref: case DW_OP_deref_size: {
            unsigned size = o == DW_OP_deref ? 8 : (unsigned)op->operand1;
            NEED(1);
            if (size == 0 || size > 8) {
                *error = "DW_OP_deref_size with a size other than 1..8";
                return DWARF_EXPR_INVALID;
            }
            if (!env || !env->read_mem || env->read_mem(env->arg, stack[sp - 1], size, &v) != 0) {
                *error = "expression reads memory that cannot be read";
                return DWARF_EXPR_NO_MEMORY;
            }
            stack[sp - 1] = v;
            break;
        }
        case DW_OP_dup: NEED(1); v = stack[sp - 1]; PUSH(v); break;
        case DW_OP_drop: NEED(1); sp--; break;
        case DW_OP_over: NEED(2); v = stack[sp - 2]; PUSH(v); break;
        case DW_OP_pick:
            NEED(op->operand1 + 1);
            v = stack[sp - 1 - op->operand1];
            PUSH(v);
            break;
        case DW_OP_swap: NEED(2); a = stack[sp - 1]; stack[sp - 1] = stack[sp - 2]; stack[sp - 2] = a; break;
        case DW_OP_rot:
            NEED(3);
            a = stack[sp - 1];
            stack[sp - 1] = stack[sp - 2];
            stack[sp - 2] = stack[sp - 3];
            stack[sp - 3] = a;
            break;
        case DW_OP_abs: NEED(1); if ((int64_t)stack[sp - 1] < 0) stack[sp - 1] = -stack[sp - 1]; break;
        case DW_OP_neg: NEED(1); stack[sp - 1] = -stack[sp - 1]; break;
        case DW_OP_not: NEED(1); stack[sp - 1] = ~stack[sp - 1]; break;
        case DW_OP_plus_uconst: NEED(1); stack[sp - 1] += op->operand1; break;
        case DW_OP_and: case DW_OP_div: case DW_OP_minus: case DW_OP_mod: case DW_OP_mul:
        case DW_OP_or: case DW_OP_plus: case DW_OP_shl: case DW_OP_shr: case DW_OP_shra:
        case DW_OP_xor: case DW_OP_eq: case DW_OP_ge: case DW_OP_gt: case DW_OP_le:
        case DW_OP_lt: case DW_OP_ne:
            NEED(2);
            b = stack[--sp];
            a = stack[sp - 1];
            switch (o) {
            case DW_OP_and: v = a & b; break;
            case DW_OP_div:
                if (b == 0) {
                    *error = "division by zero in expression";
                    return DWARF_EXPR_INVALID;
                }
                v = ((int64_t)a == INT64_MIN && (int64_t)b == -1)
                        ? a : (uint64_t)((int64_t)a / (int64_t)b);
                break;
            case DW_OP_mod:
                if (b == 0) {
                    *error = "division by zero in expression";
                    return DWARF_EXPR_INVALID;
                }
                v = a % b;
                break;
            case DW_OP_minus: v = a - b; break;
            case DW_OP_mul: v = a * b; break;
            case DW_OP_or: v = a | b; break;
            case DW_OP_plus: v = a + b; break;
            case DW_OP_shl: v = b >= 64 ? 0 : a << b; break;
            case DW_OP_shr: v = b >= 64 ? 0 : a >> b; break;
            case DW_OP_shra:
                v = b >= 64 ? ((int64_t)a < 0 ? ~(uint64_t)0 : 0) : (uint64_t)((int64_t)a >> b);
                break;
            case DW_OP_xor: v = a ^ b; break;
            case DW_OP_eq: v = (int64_t)a == (int64_t)b; break;
            case DW_OP_ge: v = (int64_t)a >= (int64_t)b; break;
            case DW_OP_gt: v = (int64_t)a > (int64_t)b; break;
            case DW_OP_le: v = (int64_t)a <= (int64_t)b; break;
            case DW_OP_lt: v = (int64_t)a < (int64_t)b; break;
            default: v = (int64_t)a != (int64_t)b; break;
            }
            stack[sp - 1] = v;
            break;
        case DW_OP_skip: case DW_OP_bra: {
            if (o == DW_OP_bra) {
                NEED(1);
                if (stack[--sp] == 0)
                    break;
            }
            if (++branches > UNWIND_EXPR_BRANCHES) {
                *error = "expression does not terminate";
                return DWARF_EXPR_INVALID;
            }
            pc = dwarf_expr_branch_target(ops, nops, op->operand2);
            break;
        }
        case DW_OP_nop:
            break;
        case DW_OP_stack_value:
            /* Marks the value itself as the result; the top of stack already is. */
            pc = nops;
            break;
        default:
            *error = "operation has no meaning in a CFI expression";
            return DWARF_EXPR_INVALID;
        }
    }
#undef NEED
#undef PUSH
    if (sp == 0) {
        *error = "expression leaves an empty stack";
        return DWARF_EXPR_INVALID;
    }
    *result = stack[sp - 1];
    return 0;
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
