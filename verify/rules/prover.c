/* SPDX-License-Identifier: Apache-2.0 */
/*
 * prover: DWARF rules as z3 bit-vector queries (see the header).
 */
#include "prover.h"

#include <stdlib.h>
#include <string.h>
#include <z3.h>

#include "semantics/abi.h"
#include "semantics/dwarf_expr.h"
#include "semantics/expr_machine.h"
#include "semantics/unwind_limits.h"
#include "verify/rules/linear_expr.h"
#include "verify/rules/slot_truth.h"

#define CONTEXT_RULES 4000        /* rules before the z3 context is made anew */
#define CACHE_SLOTS 4096          /* verdicts kept, direct-mapped by the key's hash */
#define EXPR_FORKS 6              /* nested two-way DW_OP_bra on one path */
#define EXPR_STEPS 20000          /* operations run over all paths of one expression */
#define STACK_LOW (1ull << 20)    /* stack addresses lie in [STACK_LOW, STACK_HIGH) */
#define STACK_HIGH (1ull << 47)

struct cache_entry {
    uint64_t hash;
    uint8_t *key;
    size_t key_len;
    uint8_t verdict, timed_out;
    struct counterexample cx;
};

/* The z3 context of the prover in use (one per file, one after the other:
 * a worker audits many files): made on its first query, made anew every
 * CONTEXT_RULES rules, so that memory stays bounded, and dropped with the
 * prover.  A file's verdicts and counterexamples then never depend on the
 * files its worker audited before it (the models z3 picks follow its
 * context's history: a whole-system run gave libmvec another
 * counterexample than an audit of libmvec alone). */
static struct {
    Z3_context ctx;
    Z3_solver solver;
    Z3_sort bv;
    Z3_func_decl memory;          /* the words of memory the state does not track */
    unsigned long rules;
    unsigned timeout_ms;          /* the solver's, as last set */
} z3;

struct prover {
    unsigned timeout_ms;
    int solver_only;              /* no linear stage */
    struct prover_stats stats;
    struct cache_entry cache[CACHE_SLOTS];
};

/* A value during evaluation; TAINT: it depends on something the state does
 * not know (in the query's context), so a model proves nothing by itself. */
struct term {
    Z3_ast ast;
    uint8_t taint;
};

/* One rule's evaluation. */
struct query {
    struct prover *p;
    Z3_context c;
    const struct abstract_state *st;
    uint64_t rip;
    int place;                    /* a CFA or an address: entry values are unknowns */
    Z3_ast cfa, aligned;          /* aligned: NULL without a realignment */
    int aligned_tied;             /* aligned is the known rounding of the CFA */
    Z3_ast entry[STATE_GPRS + 1]; /* entry(R), entry(RA) last; made when first read */
    Z3_ast assumptions;
    unsigned nregs, nwords;       /* what the rule read, for the counterexample */
    uint8_t reg[CX_MAX_REGS];
    Z3_ast reg_term[CX_MAX_REGS];
    Z3_ast word_addr[CX_MAX_WORDS], word_value[CX_MAX_WORDS];
    unsigned steps;
    int timed_out;
};

static int z3_failed;             /* set by the error handler; each worker is one thread */

static void on_z3_error(Z3_context c, Z3_error_code e)
{
    (void)c;
    (void)e;
    z3_failed = 1;
}

/* ---- the context ---------------------------------------------------------- */

static void context_drop(void)
{
    if (!z3.ctx)
        return;
    Z3_solver_dec_ref(z3.ctx, z3.solver);
    Z3_del_context(z3.ctx);
    z3.ctx = NULL;
}

/* The shared context, ready for a query with P's timeout.  Returns 0, or -1. */
static int context_ready(struct prover *p)
{
    if (!z3.ctx || z3.rules >= CONTEXT_RULES) {
        context_drop();
        Z3_config cfg = Z3_mk_config();
        if (!cfg)
            return -1;
        z3.ctx = Z3_mk_context(cfg);
        Z3_del_config(cfg);
        if (!z3.ctx)
            return -1;
        Z3_set_error_handler(z3.ctx, on_z3_error);
        z3.bv = Z3_mk_bv_sort(z3.ctx, 64);
        z3.memory = Z3_mk_func_decl(z3.ctx, Z3_mk_string_symbol(z3.ctx, "memory"), 1, &z3.bv, z3.bv);
        z3.solver = Z3_mk_solver_for_logic(z3.ctx, Z3_mk_string_symbol(z3.ctx, "QF_UFBV"));
        Z3_solver_inc_ref(z3.ctx, z3.solver);
        z3.rules = 0;
        z3.timeout_ms = 0;
    }
    if (z3.timeout_ms != p->timeout_ms) {
        Z3_params params = Z3_mk_params(z3.ctx);
        Z3_params_inc_ref(z3.ctx, params);
        Z3_params_set_uint(z3.ctx, params, Z3_mk_string_symbol(z3.ctx, "timeout"), p->timeout_ms);
        Z3_solver_set_params(z3.ctx, z3.solver, params);
        Z3_params_dec_ref(z3.ctx, params);
        z3.timeout_ms = p->timeout_ms;
    }
    return 0;
}

struct prover *prover_new(unsigned timeout_ms, int solver_only)
{
    struct prover *p = calloc(1, sizeof *p);
    if (p) {
        p->timeout_ms = timeout_ms ? timeout_ms : 1;
        p->solver_only = solver_only;
    }
    return p;
}

void prover_free(struct prover *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < CACHE_SLOTS; i++)
        free(p->cache[i].key);
    free(p);
    context_drop();
}

void prover_stats_get(const struct prover *p, struct prover_stats *out)
{
    *out = p->stats;
}

/* ---- terms ---------------------------------------------------------------- */

static Z3_ast num(struct query *q, uint64_t v)
{
    return Z3_mk_unsigned_int64(q->c, v, z3.bv);
}

static Z3_ast add(struct query *q, Z3_ast a, int64_t k)
{
    return k ? Z3_mk_bvadd(q->c, a, num(q, (uint64_t)k)) : a;
}

static struct term fresh(struct query *q)
{
    return (struct term){Z3_mk_fresh_const(q->c, "unknown", z3.bv), 1};
}

static Z3_ast entry_var(struct query *q, unsigned reg)
{
    if (!q->entry[reg]) {
        char name[16] = "entry_ra";
        if (reg < STATE_GPRS)
            memcpy(name + 6, dwarf_reg_name(reg), strlen(dwarf_reg_name(reg)) + 1);
        q->entry[reg] = Z3_mk_const(q->c, Z3_mk_string_symbol(q->c, name), z3.bv);
    }
    return q->entry[reg];
}

/* The term of a value the state holds. */
static struct term value_term(struct query *q, struct abstract_value v)
{
    switch (v.kind) {
    case AV_CFA:
        return (struct term){add(q, q->cfa, v.off), 0};
    case AV_ALIGNED:
        if (q->aligned)
            return (struct term){add(q, q->aligned, v.off), (uint8_t)(q->place && !q->aligned_tied)};
        break;
    case AV_ENTRY:
        if (v.reg <= STATE_GPRS)
            return (struct term){add(q, entry_var(q, v.reg), v.off), (uint8_t)q->place};
        break;
    case AV_CONST:
        return (struct term){num(q, (uint64_t)v.off), (uint8_t)q->place};
    default:
        break;
    }
    return fresh(q);
}

static struct term read_register(struct query *q, unsigned reg)
{
    struct term t = reg == ABI_RA ? (struct term){num(q, q->rip), 0}
                    : reg < STATE_GPRS ? value_term(q, q->st->reg[reg]) : fresh(q);
    unsigned i = 0;
    while (i < q->nregs && q->reg[i] != reg)
        i++;
    if (i == q->nregs && i < CX_MAX_REGS) {
        q->reg[i] = (uint8_t)reg;
        q->reg_term[i] = t.ast;
        q->nregs++;
    }
    return t;
}

/* ---- solving -------------------------------------------------------------- */

/* Check the assumptions and EXTRA (may be NULL): 1 satisfiable (*MODEL, when
 * asked, holds a reference), 0 unsatisfiable, -1 unknown or out of time. */
static int check(struct query *q, Z3_ast extra, Z3_model *model)
{
    Z3_context c = q->c;
    q->p->stats.queries++;
    Z3_solver_push(c, z3.solver);
    Z3_solver_assert(c, z3.solver, q->assumptions);
    if (extra)
        Z3_solver_assert(c, z3.solver, extra);
    Z3_lbool r = Z3_solver_check(c, z3.solver);
    if (r == Z3_L_TRUE && model) {
        *model = Z3_solver_get_model(c, z3.solver);
        Z3_model_inc_ref(c, *model);
    }
    Z3_solver_pop(c, z3.solver, 1);
    if (r == Z3_L_UNDEF || z3_failed) {
        q->p->stats.timeouts++;
        q->timed_out = 1;
        return -1;
    }
    return r == Z3_L_TRUE;
}

static int numeral(struct query *q, Z3_ast t, uint64_t *v)
{
    Z3_ast s = Z3_simplify(q->c, t);
    return Z3_is_numeral_ast(q->c, s) && Z3_get_numeral_uint64(q->c, s, v);
}

static uint64_t model_value(struct query *q, Z3_model m, Z3_ast t)
{
    Z3_ast out;
    uint64_t v = 0;
    if (Z3_model_eval(q->c, m, t, true, &out))
        Z3_get_numeral_uint64(q->c, out, &v);
    return v;
}

/* Is A - BASE the same number K in every state the assumptions allow?  A
 * simplification first; then (ASK_Z3) one model's difference, and its
 * proof. */
static int offset_from(struct query *q, struct term a, Z3_ast base, int ask_z3, int64_t *k)
{
    Z3_ast diff = Z3_mk_bvsub(q->c, a.ast, base);
    uint64_t v;
    if (numeral(q, diff, &v)) {
        *k = (int64_t)v;
        return 1;
    }
    if (a.taint || !ask_z3)
        return 0;
    Z3_model m;
    if (check(q, NULL, &m) != 1)
        return 0;
    v = model_value(q, m, diff);
    Z3_model_dec_ref(q->c, m);
    if (check(q, Z3_mk_not(q->c, Z3_mk_eq(q->c, diff, num(q, v))), NULL) != 0)
        return 0;
    *k = (int64_t)v;
    return 1;
}

/* ---- DWARF expressions ---------------------------------------------------- */

/* Where A lies: a fixed place of the CFA's frame (*AT_CFA, *K_CFA) and/or
 * of the realigned frame.  Both are asked of the simplifier first; z3 is
 * asked only when it places A in neither (a rounding it cannot see through). */
static void place_of(struct query *q, struct term a, int *at_cfa, int64_t *k_cfa, int *at_aligned,
                     int64_t *k_aligned)
{
    for (int ask_z3 = 0; ask_z3 < 2; ask_z3++) {
        *at_cfa = offset_from(q, a, q->cfa, ask_z3, k_cfa);
        *at_aligned = q->aligned && offset_from(q, a, q->aligned, ask_z3, k_aligned);
        if (*at_cfa || *at_aligned)
            return;
    }
}

/* The word at A (SIZE bytes, zero-extended): a tracked slot's value when A
 * is a fixed place of the CFA's or the realigned frame (both tracking it
 * must agree); else memory(A), an uninterpreted read: unknown, but the same
 * at the same address. */
static struct term deref(struct query *q, struct term a, unsigned size)
{
    int64_t k_cfa = 0, k_aligned = 0;
    int at_cfa, at_aligned;
    struct abstract_value in_cfa = {0}, in_aligned = {0};
    place_of(q, a, &at_cfa, &k_cfa, &at_aligned, &k_aligned);
    if (at_cfa)
        in_cfa = abstract_state_slot_in(q->st, AV_CFA, k_cfa);
    if (at_aligned)
        in_aligned = abstract_state_slot_in(q->st, AV_ALIGNED, k_aligned);
    struct term w;
    if (in_cfa.kind != AV_UNKNOWN && in_aligned.kind != AV_UNKNOWN && !abstract_value_equal(in_cfa, in_aligned))
        w = fresh(q);
    else if (in_cfa.kind != AV_UNKNOWN || in_aligned.kind != AV_UNKNOWN)
        w = value_term(q, in_cfa.kind != AV_UNKNOWN ? in_cfa : in_aligned);
    else
        w = (struct term){Z3_mk_app(q->c, z3.memory, 1, &a.ast), 1};
    if (q->nwords < CX_MAX_WORDS) {
        q->word_addr[q->nwords] = a.ast;
        q->word_value[q->nwords++] = w.ast;
    }
    if (size < 8)
        w.ast = Z3_mk_zero_ext(q->c, 64 - 8 * size, Z3_mk_extract(q->c, 8 * size - 1, 0, w.ast));
    return w;
}

static struct term bool_term(struct query *q, Z3_ast cond, uint8_t taint)
{
    return (struct term){Z3_mk_ite(q->c, cond, num(q, 1), num(q, 0)), taint};
}

/* ---- the domain: z3 terms over the query (struct term) ------------------- */

static int term_constant(void *ctx, uint64_t k, void *out)
{
    struct query *q = ctx;
    *(struct term *)out = (struct term){num(q, k), 0};
    return 0;
}

static int term_reg(void *ctx, unsigned reg, int64_t offset, void *out)
{
    struct query *q = ctx;
    struct term a = read_register(q, reg);
    a.ast = add(q, a.ast, offset);
    *(struct term *)out = a;
    return 0;
}

static int term_deref(void *ctx, void *v, unsigned size)
{
    struct term *t = v;
    *t = deref(ctx, *t, size);
    return 0;
}

static int term_unary(void *ctx, enum dwarf_unary f, void *v)
{
    struct query *q = ctx;
    Z3_context c = q->c;
    struct term *a = v;
    switch (f) {
    case DWARF_UNARY_ABS: a->ast = Z3_mk_ite(c, Z3_mk_bvslt(c, a->ast, num(q, 0)), Z3_mk_bvneg(c, a->ast), a->ast); break;
    case DWARF_UNARY_NEG: a->ast = Z3_mk_bvneg(c, a->ast); break;
    default: a->ast = Z3_mk_bvnot(c, a->ast); break;
    }
    return 0;
}

/* *A F *B (B was on top).  DWARF_EXPR_INVALID for a division by zero. */
static int term_binary(void *ctx, enum dwarf_binary f, void *av, const void *bv)
{
    struct query *q = ctx;
    Z3_context c = q->c;
    struct term *a = av;
    const struct term *b = bv;
    uint8_t taint = a->taint | b->taint;
    uint64_t k;
    Z3_ast x = a->ast, y = b->ast, r;
    switch (f) {
    case DWARF_BINARY_AND: r = Z3_mk_bvand(c, x, y); break;
    case DWARF_BINARY_OR: r = Z3_mk_bvor(c, x, y); break;
    case DWARF_BINARY_XOR: r = Z3_mk_bvxor(c, x, y); break;
    case DWARF_BINARY_PLUS: r = numeral(q, y, &k) ? add(q, x, (int64_t)k) : Z3_mk_bvadd(c, x, y); break;
    case DWARF_BINARY_MINUS: r = Z3_mk_bvsub(c, x, y); break;
    case DWARF_BINARY_MUL: r = Z3_mk_bvmul(c, x, y); break;
    case DWARF_BINARY_SHL: r = Z3_mk_bvshl(c, x, y); break;     /* a shift of 64 or more gives 0 */
    case DWARF_BINARY_SHR: r = Z3_mk_bvlshr(c, x, y); break;
    case DWARF_BINARY_SHRA: r = Z3_mk_bvashr(c, x, y); break;
    case DWARF_BINARY_DIV: case DWARF_BINARY_MOD:
        /* Only by a known divisor: z3's x/0 is not the unwinder's failure. */
        if (!numeral(q, y, &k)) {
            *a = fresh(q);
            return 0;
        }
        if (k == 0)
            return DWARF_EXPR_INVALID;
        r = f == DWARF_BINARY_DIV ? Z3_mk_bvsdiv(c, x, y) : Z3_mk_bvurem(c, x, y);
        break;
    case DWARF_BINARY_EQ: r = Z3_mk_eq(c, x, y); goto truth;
    case DWARF_BINARY_NE: r = Z3_mk_not(c, Z3_mk_eq(c, x, y)); goto truth;
    case DWARF_BINARY_LT: r = Z3_mk_bvslt(c, x, y); goto truth;
    case DWARF_BINARY_LE: r = Z3_mk_bvsle(c, x, y); goto truth;
    case DWARF_BINARY_GT: r = Z3_mk_bvsgt(c, x, y); goto truth;
    default: r = Z3_mk_bvsge(c, x, y); goto truth;
    }
    *a = (struct term){r, taint};
    return 0;
truth:
    *a = bool_term(q, r, taint);
    return 0;
}

static int term_truth(void *ctx, const void *v)
{
    uint64_t k;
    return numeral(ctx, ((const struct term *)v)->ast, &k) ? k != 0 : -1;
}

/* A DW_OP_bra on a condition that is not a number: both values, chosen. */
static int term_join(void *ctx, const void *cond, const void *taken, const void *fall, void *out)
{
    struct query *q = ctx;
    const struct term *k = cond, *t = taken, *f = fall;
    Z3_ast nonzero = Z3_mk_not(q->c, Z3_mk_eq(q->c, k->ast, num(q, 0)));
    *(struct term *)out = (struct term){Z3_mk_ite(q->c, nonzero, t->ast, f->ast),
                                        (uint8_t)(k->taint | t->taint | f->taint)};
    return 0;
}

static int term_step(void *ctx)
{
    struct query *q = ctx;
    return ++q->steps > EXPR_STEPS;
}

static const struct expr_domain terms = {
    .size = sizeof(struct term),
    .max_forks = EXPR_FORKS,
    .constant = term_constant,
    .reg = term_reg,
    .deref = term_deref,
    .unary = term_unary,
    .binary = term_binary,
    .truth = term_truth,
    .join = term_join,
    .step = term_step,
};

/* The rule's expression as a term; INITIAL (may be NULL) pushed first. */
static int expression_term(struct query *q, const struct unwind_rule *rule, const Z3_ast *initial,
                           struct term *out)
{
    struct dwarf_op ops[UNWIND_EXPR_MAX_OPS];
    const char *error;
    int n = dwarf_expr_decode(rule->expr, rule->expr_len, 8, ops, UNWIND_EXPR_MAX_OPS, &error);
    if (n < 0)
        return -1;
    struct term first = {initial ? *initial : NULL, 0};
    return expr_machine_run(&terms, q, ops, (size_t)n, initial ? &first : NULL, out, &error) == 0 ? 0 : -1;
}

/* Is T, simplified, one unknown plus a number: an entry value, a fresh
 * unknown or a memory word the state does not track, plus k?  The
 * assumptions constrain only the CFA and ALIGNED, so such a term takes
 * every value as its unknown does: equal to a term free of it in some
 * states, different in others — undecided, without asking z3. */
static int one_unknown_plus_k(struct query *q, Z3_ast t)
{
    Z3_context c = q->c;
    Z3_ast s = Z3_simplify(c, t), var = s;
    if (Z3_get_ast_kind(c, s) != Z3_APP_AST)
        return 0;
    Z3_app app = Z3_to_app(c, s);
    if (Z3_get_decl_kind(c, Z3_get_app_decl(c, app)) == Z3_OP_BADD && Z3_get_app_num_args(c, app) == 2) {
        Z3_ast a0 = Z3_get_app_arg(c, app, 0), a1 = Z3_get_app_arg(c, app, 1);
        var = Z3_is_numeral_ast(c, a0) ? a1 : Z3_is_numeral_ast(c, a1) ? a0 : NULL;
    }
    if (!var || Z3_get_ast_kind(c, var) != Z3_APP_AST || Z3_is_eq_ast(c, var, q->cfa) ||
        (q->aligned && Z3_is_eq_ast(c, var, q->aligned)))
        return 0;
    Z3_app v = Z3_to_app(c, var);
    Z3_func_decl d = Z3_get_app_decl(c, v);
    return Z3_get_decl_kind(c, d) == Z3_OP_UNINTERPRETED &&
           (Z3_get_app_num_args(c, v) == 0 || Z3_is_eq_func_decl(c, d, z3.memory));
}

/* ---- counterexamples ------------------------------------------------------ */

struct cx_env {
    const struct counterexample *cx;
};

static int cx_reg(void *arg, unsigned reg, uint64_t *v)
{
    const struct counterexample *cx = ((struct cx_env *)arg)->cx;
    for (unsigned i = 0; i < cx->nregs; i++)
        if (cx->reg[i] == reg) {
            *v = cx->reg_value[i];
            return 0;
        }
    return -1;
}

static int cx_mem(void *arg, uint64_t addr, unsigned size, uint64_t *v)
{
    const struct counterexample *cx = ((struct cx_env *)arg)->cx;
    for (unsigned i = 0; i < cx->nwords; i++)
        if (cx->word_addr[i] == addr) {
            *v = size < 8 ? cx->word_value[i] & (((uint64_t)1 << (8 * size)) - 1) : cx->word_value[i];
            return 0;
        }
    return -1;
}

/* Fill CX from model M; then substitute it back into an expression rule: a
 * counterexample that does not give what the model says is not reported. */
static int make_counterexample(struct query *q, Z3_model m, const struct unwind_rule *rule, int push_cfa,
                               Z3_ast value, Z3_ast truth, enum cx_what what, unsigned column,
                               struct counterexample *cx)
{
    memset(cx, 0, sizeof *cx);
    cx->present = 1;
    cx->what = (uint8_t)what;
    cx->column = (uint8_t)column;
    cx->cfa = model_value(q, m, q->cfa);
    cx->nregs = (uint8_t)q->nregs;
    for (unsigned i = 0; i < q->nregs; i++) {
        cx->reg[i] = q->reg[i];
        cx->reg_value[i] = model_value(q, m, q->reg_term[i]);
    }
    cx->nwords = (uint8_t)q->nwords;
    for (unsigned i = 0; i < q->nwords; i++) {
        cx->word_addr[i] = model_value(q, m, q->word_addr[i]);
        cx->word_value[i] = model_value(q, m, q->word_value[i]);
    }
    cx->rule = model_value(q, m, value);
    cx->has_code = truth != NULL;
    cx->code = truth ? model_value(q, m, truth) : 0;
    if (!rule || (rule->kind != CFA_RULE_EXPRESSION && rule->kind != REG_RULE_EXPRESSION &&
                  rule->kind != REG_RULE_VAL_EXPRESSION))
        return 0;
    struct dwarf_op ops[UNWIND_EXPR_MAX_OPS];
    const char *error;
    int n = dwarf_expr_decode(rule->expr, rule->expr_len, 8, ops, UNWIND_EXPR_MAX_OPS, &error);
    struct cx_env env = {cx};
    struct dwarf_expr_env de = {cx_reg, cx_mem, &env};
    uint64_t result;
    if (n < 0 || dwarf_expr_eval(ops, (size_t)n, &de, push_cfa ? &cx->cfa : NULL, &result, &error) != 0 ||
        result != cx->rule) {
        memset(cx, 0, sizeof *cx);
        return -1;
    }
    return 0;
}

/* ---- verdicts ------------------------------------------------------------- */

/* VALUE against TRUTH: holds when they are equal in every state; fails with a
 * model when they differ in one and VALUE reads only what is known, or when
 * they differ in all. */
static enum rule_verdict decide(struct query *q, struct term value, Z3_ast truth, const struct unwind_rule *rule,
                                int push_cfa, enum cx_what what, unsigned column, struct counterexample *cx)
{
    uint64_t d;
    Z3_ast differ = Z3_mk_not(q->c, Z3_mk_eq(q->c, value.ast, truth));
    int known_difference = numeral(q, Z3_mk_bvsub(q->c, value.ast, truth), &d);
    if (known_difference && d == 0)
        return RULE_HOLDS;
    if (!known_difference && value.taint && one_unknown_plus_k(q, value.ast))
        return RULE_UNDECIDED;   /* the truth holds no unknown: it is the CFA or entry(R) */
    Z3_model m;
    int sat = check(q, known_difference ? NULL : differ, &m);
    if (sat <= 0)
        return sat == 0 && !known_difference ? RULE_HOLDS : RULE_UNDECIDED;
    int wrong = !value.taint || known_difference ||
                check(q, Z3_mk_eq(q->c, value.ast, truth), NULL) == 0;
    enum rule_verdict v = RULE_UNDECIDED;
    if (wrong && make_counterexample(q, m, rule, push_cfa, value.ast, truth, what, column, cx) == 0)
        v = RULE_FAILS;
    Z3_model_dec_ref(q->c, m);
    return v;
}

/* Where a register's save lies (ADDR) against where the code keeps its entry value. */
static enum rule_verdict decide_address(struct query *q, struct term addr, unsigned reg,
                                        const struct unwind_rule *rule, struct counterexample *cx)
{
    Z3_context c = q->c;
    const struct abstract_state *st = q->st;
    int64_t k_cfa = 0, k_aligned = 0;
    int at_cfa, at_aligned;
    place_of(q, addr, &at_cfa, &k_cfa, &at_aligned, &k_aligned);
    /* Slots holding entry(REG): where the code keeps it. */
    Z3_ast kept = NULL, none_equal = Z3_mk_true(c), some_equal = Z3_mk_false(c);
    for (unsigned i = 0; i < st->nslots; i++) {
        if (slot_truth_holds_entry(st->slot[i].value, reg) != RULE_HOLDS)
            continue;
        Z3_ast base = st->slot[i].base == AV_CFA ? q->cfa : q->aligned;
        if (!base)
            continue;
        Z3_ast at = add(q, base, st->slot[i].off), eq = Z3_mk_eq(c, addr.ast, at);
        kept = kept ? kept : at;
        Z3_ast both[2] = {none_equal, Z3_mk_not(c, eq)}, either[2] = {some_equal, eq};
        none_equal = Z3_mk_and(c, 2, both);
        some_equal = Z3_mk_or(c, 2, either);
    }
    enum rule_verdict v;
    if (at_cfa || at_aligned) {
        /* A fixed place: what the state says is there (the fast path's answer). */
        v = slot_truth_place_holds_entry(st, at_cfa, k_cfa, at_aligned, k_aligned, reg);
        if (v != RULE_FAILS)
            return v;
        Z3_model m;
        if (check(q, NULL, &m) != 1)
            return RULE_UNDECIDED;
        v = make_counterexample(q, m, rule, 1, addr.ast, kept, CX_ADDRESS, reg, cx) == 0 ? RULE_FAILS
                                                                                           : RULE_UNDECIDED;
        Z3_model_dec_ref(c, m);
        return v;
    }
    /* A place that moves with the state: right only if it is always a slot
     * where the code keeps the value. */
    if (!kept || (addr.taint && one_unknown_plus_k(q, addr.ast)))
        return RULE_UNDECIDED;
    Z3_model m;
    int sat = check(q, none_equal, &m);
    if (sat <= 0)
        return sat == 0 ? RULE_HOLDS : RULE_UNDECIDED;
    int wrong = !addr.taint || check(q, some_equal, NULL) == 0;
    v = wrong && make_counterexample(q, m, rule, 1, addr.ast, kept, CX_ADDRESS, reg, cx) == 0 ? RULE_FAILS
                                                                                             : RULE_UNDECIDED;
    Z3_model_dec_ref(c, m);
    return v;
}

/* ---- the cache ------------------------------------------------------------ */

struct key {
    uint8_t b[2048];
    size_t n;
    int overflow;
};

static void key_add(struct key *k, const void *data, size_t n)
{
    if (k->overflow || n > sizeof k->b - k->n) {
        k->overflow = 1;
        return;
    }
    if (n)
        memcpy(k->b + k->n, data, n);
    k->n += n;
}

static void key_value(struct key *k, struct abstract_value v)
{
    key_add(k, &v.kind, 1);
    key_add(k, &v.reg, 1);
    key_add(k, &v.off, sizeof v.off);
}

/* The key of a rule in a state: the rule, and the part of the state it reads. */
static void make_key(struct key *k, int is_cfa, unsigned reg, const struct unwind_rule *rule,
                     const struct abstract_state *st, uint64_t rip)
{
    uint8_t head[4] = {(uint8_t)is_cfa, (uint8_t)reg, (uint8_t)rule->kind, (uint8_t)rule->reg};
    k->n = 0;
    k->overflow = 0;
    key_add(k, head, sizeof head);
    key_add(k, &rule->offset, sizeof rule->offset);
    key_add(k, &rule->expr_len, sizeof rule->expr_len);
    key_add(k, rule->expr, rule->expr_len);
    key_add(k, &st->realigned, 1);
    key_add(k, &st->realign_log2, 1);
    key_add(k, &st->realign_from, sizeof st->realign_from);
    int slots = !is_cfa && (rule->kind == REG_RULE_OFFSET || rule->kind == REG_RULE_EXPRESSION);
    uint32_t regs = 0;
    if (rule->kind == CFA_RULE_REG_OFFSET || rule->kind == REG_RULE_REGISTER)
        regs |= rule->reg < 32 ? 1u << rule->reg : 0;
    if (!is_cfa && reg < STATE_GPRS)
        regs |= 1u << reg;
    struct dwarf_op ops[UNWIND_EXPR_MAX_OPS];
    const char *error;
    int is_expr = is_cfa ? rule->kind == CFA_RULE_EXPRESSION
                         : rule->kind == REG_RULE_EXPRESSION || rule->kind == REG_RULE_VAL_EXPRESSION;
    int n = is_expr ? dwarf_expr_decode(rule->expr, rule->expr_len, 8, ops, UNWIND_EXPR_MAX_OPS, &error) : 0;
    for (int i = 0; i < n; i++) {
        if (ops[i].kind == DWARF_OP_REGISTER)
            regs |= ops[i].operand1 < 32 ? 1u << ops[i].operand1 : 0;
        slots |= ops[i].kind == DWARF_OP_DEREF;
    }
    for (unsigned r = 0; r < STATE_GPRS; r++)
        if (regs & (1u << r))
            key_value(k, st->reg[r]);
    if (regs & (1u << ABI_RA))
        key_add(k, &rip, sizeof rip);
    if (slots) {
        key_value(k, st->reg[ABI_RSP]);
        key_add(k, &st->nslots, 1);
        for (unsigned i = 0; i < st->nslots; i++) {
            key_add(k, &st->slot[i].base, 1);
            key_add(k, &st->slot[i].off, sizeof st->slot[i].off);
            key_value(k, st->slot[i].value);
        }
    }
}

static uint64_t key_hash(const struct key *k)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < k->n; i++)
        h = (h ^ k->b[i]) * 0x100000001b3ull;
    return h;
}

static struct cache_entry *cache_find(struct prover *p, const struct key *k, uint64_t h)
{
    struct cache_entry *e = &p->cache[h % CACHE_SLOTS];
    return !k->overflow && e->key && e->hash == h && e->key_len == k->n && memcmp(e->key, k->b, k->n) == 0 ? e
                                                                                                     : NULL;
}

static void cache_store(struct prover *p, const struct key *k, uint64_t h, enum rule_verdict v, int timed_out,
                        const struct counterexample *cx)
{
    if (k->overflow)
        return;
    struct cache_entry *e = &p->cache[h % CACHE_SLOTS];
    uint8_t *key = e->key_len >= k->n && e->key ? e->key : realloc(e->key, k->n ? k->n : 1);
    if (!key)
        return;
    memcpy(key, k->b, k->n);
    *e = (struct cache_entry){h, key, k->n, (uint8_t)v, (uint8_t)timed_out, *cx};
}

/* ---- entry points --------------------------------------------------------- */

/* Start a query on ST at RIP: the variables and the assumptions. */
static int begin(struct prover *p, struct query *q, const struct abstract_state *st, uint64_t rip, int place)
{
    z3_failed = 0;
    if (context_ready(p) != 0)
        return -1;
    z3.rules++;
    memset(q, 0, sizeof *q);
    q->p = p;
    q->c = z3.ctx;
    q->st = st;
    q->rip = rip;
    q->place = place;
    Z3_context c = z3.ctx;
    q->cfa = Z3_mk_const(c, Z3_mk_string_symbol(c, "cfa"), z3.bv);
    Z3_ast facts[4] = {
        Z3_mk_eq(c, Z3_mk_bvand(c, q->cfa, num(q, 15)), num(q, 0)),   /* the ABI's 16-byte aligned CFA */
        Z3_mk_bvuge(c, q->cfa, num(q, STACK_LOW)),
        Z3_mk_bvult(c, q->cfa, num(q, STACK_HIGH)),
        Z3_mk_true(c),
    };
    if (st->realigned == 1 && st->realign_log2 > 0 && st->realign_log2 < 64) {
        q->aligned = Z3_mk_bvand(c, add(q, q->cfa, st->realign_from),
                                 num(q, ~(((uint64_t)1 << st->realign_log2) - 1)));
        q->aligned_tied = 1;
    } else if (st->realigned) {
        q->aligned = Z3_mk_const(c, Z3_mk_string_symbol(c, "aligned"), z3.bv);
        Z3_ast in_stack[2] = {Z3_mk_bvuge(c, q->aligned, num(q, STACK_LOW)),
                              Z3_mk_bvult(c, q->aligned, num(q, STACK_HIGH))};
        facts[3] = Z3_mk_and(c, 2, in_stack);
    }
    q->assumptions = Z3_mk_and(c, 4, facts);
    return z3_failed ? -1 : 0;
}

/* The first stage: 1 and *V when exact linear evaluation decides RULE (counted). */
static int linear_stage(struct prover *p, const struct unwind_rule *rule, int is_cfa, unsigned reg,
                        const struct abstract_state *st, uint64_t rip, enum rule_verdict *v)
{
    if (p->solver_only || !linear_expr_decide(rule, is_cfa, reg, st, rip, v))
        return 0;
    p->stats.rules++;
    p->stats.linear++;
    return 1;
}

/* The answer remembered for key K, if any (counted). */
static int cache_hit(struct prover *p, const struct key *k, uint64_t h, enum rule_verdict *v,
                     struct counterexample *cx, int *timed_out)
{
    struct cache_entry *e = cache_find(p, k, h);
    p->stats.rules++;
    if (!e)
        return 0;
    p->stats.cache_hits++;
    *cx = e->cx;
    *timed_out = e->timed_out;
    *v = (enum rule_verdict)e->verdict;
    return 1;
}

/* Settle query Q's verdict V (a z3 error undecides it) and remember it under K. */
static enum rule_verdict finish(struct prover *p, struct query *q, const struct key *k, uint64_t h,
                                enum rule_verdict v, struct counterexample *cx, int *timed_out)
{
    if (z3_failed && v != RULE_UNDECIDED) {
        v = RULE_UNDECIDED;
        q->timed_out = 1;
    }
    if (v != RULE_FAILS)
        memset(cx, 0, sizeof *cx);
    *timed_out = v == RULE_UNDECIDED && q->timed_out;
    cache_store(p, k, h, v, *timed_out, cx);
    return v;
}

enum rule_verdict prover_cfa(struct prover *p, const struct unwind_rule *cfa, const struct abstract_state *st,
                             uint64_t rip, struct counterexample *cx, int *timed_out)
{
    memset(cx, 0, sizeof *cx);
    *timed_out = 0;
    if (cfa->kind == CFA_RULE_UNSET)
        return RULE_FAILS;
    if (cfa->kind != CFA_RULE_REG_OFFSET && cfa->kind != CFA_RULE_EXPRESSION)
        return RULE_UNDECIDED;
    enum rule_verdict v;
    if (cfa->kind == CFA_RULE_EXPRESSION && linear_stage(p, cfa, 1, 0, st, rip, &v))
        return v;
    struct key k;
    make_key(&k, 1, 0, cfa, st, rip);
    uint64_t h = key_hash(&k);
    if (cache_hit(p, &k, h, &v, cx, timed_out))
        return v;
    struct query q;
    if (begin(p, &q, st, rip, 1) != 0)
        return RULE_UNDECIDED;
    struct term value;
    if (cfa->kind == CFA_RULE_REG_OFFSET) {
        value = read_register(&q, cfa->reg);
        value.ast = add(&q, value.ast, cfa->offset);
        v = decide(&q, value, q.cfa, cfa, 0, CX_CFA, 0, cx);
    } else {
        v = expression_term(&q, cfa, NULL, &value) == 0 ? decide(&q, value, q.cfa, cfa, 0, CX_CFA, 0, cx)
                                                        : RULE_UNDECIDED;
    }
    return finish(p, &q, &k, h, v, cx, timed_out);
}

enum rule_verdict prover_reg(struct prover *p, const struct unwind_rule *rule, unsigned reg,
                             const struct abstract_state *st, uint64_t rip, struct counterexample *cx, int *timed_out)
{
    memset(cx, 0, sizeof *cx);
    *timed_out = 0;
    if (rule->kind == REG_RULE_UNDEFINED)
        return RULE_HOLDS;
    int address = rule->kind == REG_RULE_OFFSET || rule->kind == REG_RULE_EXPRESSION;
    unsigned source = rule->kind == REG_RULE_REGISTER ? rule->reg : reg;
    if (source >= STATE_GPRS && !address && rule->kind != REG_RULE_VAL_OFFSET &&
        rule->kind != REG_RULE_VAL_EXPRESSION)
        return RULE_UNDECIDED;   /* "unchanged" ra, or another frame's register */
    enum rule_verdict v;
    if ((rule->kind == REG_RULE_EXPRESSION || rule->kind == REG_RULE_VAL_EXPRESSION) &&
        linear_stage(p, rule, 0, reg, st, rip, &v))
        return v;
    struct key k;
    make_key(&k, 0, reg, rule, st, rip);
    uint64_t h = key_hash(&k);
    if (cache_hit(p, &k, h, &v, cx, timed_out))
        return v;
    struct query q;
    if (begin(p, &q, st, rip, address) != 0)
        return RULE_UNDECIDED;
    struct term value = {q.cfa, 0};
    switch (rule->kind) {
    case REG_RULE_UNREFERENCED: case REG_RULE_SAME_VALUE: case REG_RULE_REGISTER:
        value = value_term(&q, st->reg[source]);
        break;
    case REG_RULE_OFFSET: case REG_RULE_VAL_OFFSET:
        value.ast = add(&q, q.cfa, rule->offset);
        break;
    case REG_RULE_EXPRESSION: case REG_RULE_VAL_EXPRESSION:
        if (expression_term(&q, rule, &q.cfa, &value) != 0)
            return finish(p, &q, &k, h, RULE_UNDECIDED, cx, timed_out);
        break;
    default:
        return finish(p, &q, &k, h, RULE_UNDECIDED, cx, timed_out);
    }
    v = address ? decide_address(&q, value, reg, rule, cx)
                : decide(&q, value, entry_var(&q, reg), rule, 1, CX_VALUE, reg, cx);
    return finish(p, &q, &k, h, v, cx, timed_out);
}
