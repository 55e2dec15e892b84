/* SPDX-License-Identifier: Apache-2.0 */
/*
 * expr_machine: the stack machine of CFI expressions (see the header).
 */
#include "expr_machine.h"

#include <string.h>

#include "unwind_limits.h"

/* One evaluation: the domain and the budget every path shares. */
struct machine {
    const struct expr_domain *d;
    void *ctx;
    const struct dwarf_op *ops;
    size_t nops;
    const char **why;
};

/* The stack: DEPTH values of SIZE bytes in BYTES. */
struct stack {
    unsigned char bytes[UNWIND_EXPR_STACK * EXPR_VALUE_MAX];
    size_t depth;
};

static inline void *slot(const struct machine *m, struct stack *s, size_t from_top)
{
    return s->bytes + (s->depth - 1 - from_top) * m->d->size;
}

static int fail(const struct machine *m, int fault, const char *why)
{
    *m->why = why;
    return fault;
}

/* Push a copy of V (which may be a slot of S). */
static int push(const struct machine *m, struct stack *s, const void *v)
{
    if (s->depth == UNWIND_EXPR_STACK)
        return fail(m, DWARF_EXPR_INVALID, "expression stack overflow");
    memmove(s->bytes + s->depth * m->d->size, v, m->d->size);
    s->depth++;
    return 0;
}

static int underflow(const struct machine *m)
{
    return fail(m, DWARF_EXPR_INVALID, "expression stack underflow");
}

#define NEED(k) do { if (s->depth < (size_t)(k)) return underflow(m); } while (0)

/* Run from operation PC over S, BRANCHES taken so far, FORKS deep. */
static int run(const struct machine *m, struct stack *s, size_t pc, unsigned branches, unsigned forks,
               void *result)
{
    const struct expr_domain *d = m->d;
    unsigned char a[EXPR_VALUE_MAX], b[EXPR_VALUE_MAX];
    int rc;
    while (pc < m->nops) {
        const struct dwarf_op *op = &m->ops[pc++];
        if (d->step && d->step(m->ctx) != 0)
            return fail(m, DWARF_EXPR_INVALID, "expression too costly to follow");
        switch ((enum dwarf_op_class)op->kind) {
        case DWARF_OP_CONSTANT:
            if ((rc = d->constant(m->ctx, op->operand1, a)) != 0)
                return fail(m, rc, "expression constant out of the domain");
            if ((rc = push(m, s, a)) != 0)
                return rc;
            break;
        case DWARF_OP_REGISTER:
            if ((rc = d->reg(m->ctx, (unsigned)op->operand1, op->operand2, a)) != 0)
                return fail(m, rc, "expression reads a register whose value is unknown");
            if ((rc = push(m, s, a)) != 0)
                return rc;
            break;
        case DWARF_OP_DEREF:
            NEED(1);
            if (op->operand1 == 0 || op->operand1 > 8)
                return fail(m, DWARF_EXPR_INVALID, "DW_OP_deref_size with a size other than 1..8");
            if ((rc = d->deref(m->ctx, slot(m, s, 0), (unsigned)op->operand1)) != 0)
                return fail(m, rc, "expression reads memory that cannot be read");
            break;
        case DWARF_OP_DUP: NEED(1); if ((rc = push(m, s, slot(m, s, 0))) != 0) return rc; break;
        case DWARF_OP_DROP: NEED(1); s->depth--; break;
        case DWARF_OP_OVER: NEED(2); if ((rc = push(m, s, slot(m, s, 1))) != 0) return rc; break;
        case DWARF_OP_PICK:
            NEED(op->operand1 + 1);
            if ((rc = push(m, s, slot(m, s, (size_t)op->operand1))) != 0)
                return rc;
            break;
        case DWARF_OP_SWAP:
            NEED(2);
            memcpy(a, slot(m, s, 0), d->size);
            memcpy(slot(m, s, 0), slot(m, s, 1), d->size);
            memcpy(slot(m, s, 1), a, d->size);
            break;
        case DWARF_OP_ROT:   /* the top goes third, the second and third go up */
            NEED(3);
            memcpy(a, slot(m, s, 0), d->size);
            memcpy(slot(m, s, 0), slot(m, s, 1), d->size);
            memcpy(slot(m, s, 1), slot(m, s, 2), d->size);
            memcpy(slot(m, s, 2), a, d->size);
            break;
        case DWARF_OP_UNARY:
            NEED(1);
            if ((rc = d->unary(m->ctx, (enum dwarf_unary)op->function, slot(m, s, 0))) != 0)
                return fail(m, rc, "expression operation out of the domain");
            break;
        case DWARF_OP_PLUS_CONSTANT:
            NEED(1);
            if ((rc = d->constant(m->ctx, op->operand1, b)) != 0 ||
                (rc = d->binary(m->ctx, DWARF_BINARY_PLUS, slot(m, s, 0), b)) != 0)
                return fail(m, rc, "expression operation out of the domain");
            break;
        case DWARF_OP_BINARY:
            NEED(2);
            memcpy(b, slot(m, s, 0), d->size);
            s->depth--;
            if ((rc = d->binary(m->ctx, (enum dwarf_binary)op->function, slot(m, s, 0), b)) != 0)
                return fail(m, rc, dwarf_binary_divides((enum dwarf_binary)op->function)
                                       ? "division by zero in expression"
                                       : "expression operation out of the domain");
            break;
        case DWARF_OP_SKIP:
        case DWARF_OP_BRANCH: {
            int taken = 1;
            if (op->kind == DWARF_OP_BRANCH) {
                NEED(1);
                memcpy(a, slot(m, s, 0), d->size);
                s->depth--;
                taken = d->truth(m->ctx, a);
            }
            if (taken == 0)
                break;
            if (++branches > UNWIND_EXPR_BRANCHES)
                return fail(m, DWARF_EXPR_INVALID, "expression does not terminate");
            size_t target = dwarf_op_at(m->ops, m->nops, op->operand2);
            if (taken > 0) {
                pc = target;
                break;
            }
            /* Not known: both ways, then joined. */
            if (!d->join || forks >= d->max_forks)
                return fail(m, DWARF_EXPR_INVALID, "expression branches on a value not known");
            struct stack copy;
            copy.depth = s->depth;
            memcpy(copy.bytes, s->bytes, s->depth * d->size);
            unsigned char when_taken[EXPR_VALUE_MAX], when_not[EXPR_VALUE_MAX];
            if ((rc = run(m, &copy, target, branches, forks + 1, when_taken)) != 0 ||
                (rc = run(m, s, pc, branches, forks + 1, when_not)) != 0)
                return rc;
            if ((rc = d->join(m->ctx, a, when_taken, when_not, result)) != 0)
                return fail(m, rc, "expression branches on a value not known");
            return 0;
        }
        case DWARF_OP_NOP:
            break;
        case DWARF_OP_STACK_VALUE:   /* the top of the stack is the result */
            pc = m->nops;
            break;
        case DWARF_OP_LOCATION:
            return fail(m, DWARF_EXPR_INVALID, "register location operation in a CFI expression");
        default:
            return fail(m, DWARF_EXPR_INVALID, "operation has no meaning in a CFI expression");
        }
    }
    if (s->depth == 0)
        return fail(m, DWARF_EXPR_INVALID, "expression leaves an empty stack");
    memcpy(result, slot(m, s, 0), d->size);
    return 0;
}

int expr_machine_run(const struct expr_domain *domain, void *ctx, const struct dwarf_op *ops, size_t nops,
                     const void *initial, void *result, const char **why)
{
    const char *ignored;
    struct machine m = {domain, ctx, ops, nops, why ? why : &ignored};
    if (domain->size == 0 || domain->size > EXPR_VALUE_MAX)
        return fail(&m, DWARF_EXPR_INVALID, "expression domain too large");
    struct stack s;
    s.depth = 0;
    if (initial) {
        int rc = push(&m, &s, initial);
        if (rc != 0)
            return rc;
    }
    return run(&m, &s, 0, 0, 0, result);
}
