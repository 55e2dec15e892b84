/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dwarf_ops: what each operation of a CFI expression does, written once.
 *
 * Four parts of the project read DWARF expressions: the concrete evaluator
 * (semantics/dwarf_expr, which the runtime's fallback runs), the exact
 * linear decider (verify/rules/linear_expr), the z3 encoder (verify/rules/prover) and
 * dwcompile's C generator (compile/eh_elf_gen).  None of them looks at an
 * opcode.  dwarf_expr_decode gives each operation its class (struct
 * dwarf_op's `kind`: what the expression machine does with its stack), and
 * an arithmetic one its function (`function`); the stack discipline,
 * branches and limits are semantics/expr_machine's, for every domain of
 * values; the functions' meaning on 64-bit numbers is the C text of the
 * tables below, which the concrete evaluator compiles (dwarf_binary_eval,
 * dwarf_unary_eval) and the C generator prints into eh_elfs: the two
 * cannot disagree.
 *
 * The types every reader shares are here too, so that the machine needs
 * nothing of the decoder: a decoded operation (struct dwarf_op), and why an
 * evaluation fails (enum dwarf_expr_fault).
 *
 * Tables: X(OPCODE, NAME, C) where C computes the result from the uint64_t
 * values a (the operand below, or the only one) and b (the top of the
 * stack).  DW_OP_div and DW_OP_mod fail when b is 0 (dwarf_binary_divides).
 */
#ifndef DWCHECK_DWARF_OPS_H
#define DWCHECK_DWARF_OPS_H

#include <stddef.h>
#include <stdint.h>

#include "dwarf_constants.h"

/* What an operation does to the expression stack. */
enum dwarf_op_class {
    DWARF_OP_CONSTANT,      /* push operand1: DW_OP_lit*, addr, const* */
    DWARF_OP_REGISTER,      /* push register operand1 + operand2: DW_OP_breg*, bregx */
    DWARF_OP_DEREF,         /* the word at the top, operand1 bytes (deref: 8, deref_size) */
    DWARF_OP_DUP,
    DWARF_OP_DROP,
    DWARF_OP_OVER,
    DWARF_OP_PICK,          /* operand1: the index from the top */
    DWARF_OP_SWAP,
    DWARF_OP_ROT,
    DWARF_OP_UNARY,         /* function: an enum dwarf_unary */
    DWARF_OP_PLUS_CONSTANT, /* DW_OP_plus_uconst: top + operand1 */
    DWARF_OP_BINARY,        /* function: an enum dwarf_binary */
    DWARF_OP_SKIP,          /* jump to operand2 (a byte offset) */
    DWARF_OP_BRANCH,        /* DW_OP_bra: pop; jump to operand2 when not 0 */
    DWARF_OP_NOP,
    DWARF_OP_STACK_VALUE,   /* the top of the stack is the result */
    DWARF_OP_LOCATION,      /* DW_OP_reg*, regx: a register location, meaningless in CFI */
    DWARF_OP_MEANINGLESS,   /* decodes, but has no meaning in CFI (piece, TLS ...) */
};

/* One operation, as dwarf_expr_decode decodes it. */
struct dwarf_op {
    uint8_t opcode;         /* DW_OP_* */
    uint8_t kind;           /* enum dwarf_op_class: what it does */
    uint8_t function;       /* BINARY: an enum dwarf_binary; UNARY: an enum dwarf_unary */
    uint32_t offset;        /* byte offset of the op in the expression */
    uint64_t operand1;      /* constant (a DW_OP_lit's too), register, size (DW_OP_deref's: 8),
                               or unsigned operand */
    int64_t operand2;       /* signed operand: breg offset, branch target offset */
};

/* Why an evaluation failed.  The runtime reports each with its own status
 * (DWU_EBADRULE, DWU_EREG, DWU_EMEM), as the compiled tables do. */
enum dwarf_expr_fault {
    DWARF_EXPR_INVALID = -1,      /* the expression cannot be evaluated */
    DWARF_EXPR_NO_REGISTER = -2,  /* it reads a register whose value is unknown */
    DWARF_EXPR_NO_MEMORY = -3,    /* it reads memory that cannot be read */
};

/* The index in OPS of the operation at byte OFFSET of their expression,
 * or NOPS when none starts there: a branch's target (dwarf_expr_decode
 * checked each: an operation, or the end of the expression). */
static inline size_t dwarf_op_at(const struct dwarf_op *ops, size_t nops, int64_t offset)
{
    for (size_t i = 0; i < nops; i++)
        if ((int64_t)ops[i].offset == offset)
            return i;
    return nops;
}

#define DWARF_BINARY_FUNCTIONS(X)                                                                  \
    X(DW_OP_and, AND, a & b)                                                                       \
    X(DW_OP_div, DIV, ((int64_t)a == INT64_MIN && (int64_t)b == -1) ? a : (uint64_t)((int64_t)a / (int64_t)b)) \
    X(DW_OP_minus, MINUS, a - b)                                                                   \
    X(DW_OP_mod, MOD, a % b)                                                                       \
    X(DW_OP_mul, MUL, a * b)                                                                       \
    X(DW_OP_or, OR, a | b)                                                                         \
    X(DW_OP_plus, PLUS, a + b)                                                                     \
    X(DW_OP_shl, SHL, b >= 64 ? 0 : a << b)                                                        \
    X(DW_OP_shr, SHR, b >= 64 ? 0 : a >> b)                                                        \
    X(DW_OP_shra, SHRA, b >= 64 ? ((int64_t)a < 0 ? ~(uint64_t)0 : 0) : (uint64_t)((int64_t)a >> b)) \
    X(DW_OP_xor, XOR, a ^ b)                                                                       \
    X(DW_OP_eq, EQ, (uint64_t)((int64_t)a == (int64_t)b))                                          \
    X(DW_OP_ge, GE, (uint64_t)((int64_t)a >= (int64_t)b))                                          \
    X(DW_OP_gt, GT, (uint64_t)((int64_t)a > (int64_t)b))                                           \
    X(DW_OP_le, LE, (uint64_t)((int64_t)a <= (int64_t)b))                                          \
    X(DW_OP_lt, LT, (uint64_t)((int64_t)a < (int64_t)b))                                           \
    X(DW_OP_ne, NE, (uint64_t)((int64_t)a != (int64_t)b))

#define DWARF_UNARY_FUNCTIONS(X)                                                                   \
    X(DW_OP_abs, ABS, (int64_t)a < 0 ? -a : a)                                                     \
    X(DW_OP_neg, NEG, -a)                                                                          \
    X(DW_OP_not, NOT, ~a)

enum dwarf_binary {
#define DWARF_OPS_ENUM(op, name, c) DWARF_BINARY_##name,
    DWARF_BINARY_FUNCTIONS(DWARF_OPS_ENUM)
#undef DWARF_OPS_ENUM
    DWARF_BINARIES
};

enum dwarf_unary {
#define DWARF_OPS_ENUM(op, name, c) DWARF_UNARY_##name,
    DWARF_UNARY_FUNCTIONS(DWARF_OPS_ENUM)
#undef DWARF_OPS_ENUM
    DWARF_UNARIES
};

/* Whether F fails when its second operand is 0. */
static inline int dwarf_binary_divides(enum dwarf_binary f)
{
    return f == DWARF_BINARY_DIV || f == DWARF_BINARY_MOD;
}

/* A op B on numbers into *V: 0, or -1 for a division by zero. */
static inline int dwarf_binary_eval(enum dwarf_binary f, uint64_t a, uint64_t b, uint64_t *v)
{
    if (dwarf_binary_divides(f) && b == 0)
        return -1;
    switch (f) {
#define DWARF_OPS_EVAL(op, name, c) case DWARF_BINARY_##name: *v = (c); return 0;
    DWARF_BINARY_FUNCTIONS(DWARF_OPS_EVAL)
#undef DWARF_OPS_EVAL
    default: return -1;
    }
}

/* op A on a number. */
static inline uint64_t dwarf_unary_eval(enum dwarf_unary f, uint64_t a)
{
    switch (f) {
#define DWARF_OPS_EVAL(op, name, c) case DWARF_UNARY_##name: return (c);
    DWARF_UNARY_FUNCTIONS(DWARF_OPS_EVAL)
#undef DWARF_OPS_EVAL
    default: return a;
    }
}

/* The C text of F's result from uint64_t a and b (dwcompile prints it). */
static inline const char *dwarf_binary_c(enum dwarf_binary f)
{
    switch (f) {
#define DWARF_OPS_TEXT(op, name, c) case DWARF_BINARY_##name: return #c;
    DWARF_BINARY_FUNCTIONS(DWARF_OPS_TEXT)
#undef DWARF_OPS_TEXT
    default: return "0";
    }
}

/* The C text of F's result from uint64_t a. */
static inline const char *dwarf_unary_c(enum dwarf_unary f)
{
    switch (f) {
#define DWARF_OPS_TEXT(op, name, c) case DWARF_UNARY_##name: return #c;
    DWARF_UNARY_FUNCTIONS(DWARF_OPS_TEXT)
#undef DWARF_OPS_TEXT
    default: return "a";
    }
}

#endif
