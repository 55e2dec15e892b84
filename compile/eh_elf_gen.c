/* SPDX-License-Identifier: Apache-2.0 */
/*
 * eh_elf_gen: an object's unwind tables (H) compiled to C (see eh_elf_gen.h).
 */
#include "eh_elf_gen.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/column_policy.h"
#include "runtime/frame_descriptor.h"
#include "runtime/dwunwind.h"
#include "semantics/dwarf_constants.h"
#include "semantics/dwarf_expr.h"
#include "semantics/dwarf_ops.h"
#include "semantics/unwind_limits.h"
#include "verify/validated_table.h"

/* The public header, copied into every generated file (see Makefile). */
static const char dwunwind_header[] =
#include "dwunwind_h.inc"
    ;

#define PAGE_SHIFT 6     /* 64-byte pages: most lie within one row */

/* ---- text from the input --------------------------------------------- */

/*
 * TEXT (a path: anything but NUL) inside a C comment, so that it can
 * neither end the comment nor make the compiler warn: printable ASCII is
 * kept, except a '/' next to a '*' (star-slash would end the comment,
 * slash-star draws -Wcomment) and the backslash; those and every other
 * byte (newlines, controls, UTF-8) are written as \xNN.  Nothing else of the input
 * reaches the generated C: rows, expressions and the identity are numbers.
 */
static void write_comment_text(FILE *out, const char *text)
{
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        int slash_by_star = *p == '/' && ((p > (const unsigned char *)text && p[-1] == '*') || p[1] == '*');
        if (*p >= 0x20 && *p <= 0x7e && *p != '\\' && !slash_by_star)
            fputc(*p, out);
        else
            fprintf(out, "\\x%02x", *p);
    }
}

/* ---- growable text ---------------------------------------------------- */

struct text {
    char *s;
    size_t len, cap;
    int oom;
};

static void text_add(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void text_add(struct text *t, const char *fmt, ...)
{
    if (t->oom)
        return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(t->s ? t->s + t->len : NULL, t->s ? t->cap - t->len : 0, fmt, ap);
        va_end(ap);
        if (n < 0) {
            t->oom = 1;
            return;
        }
        if (t->s && t->len + (size_t)n < t->cap) {
            t->len += (size_t)n;
            return;
        }
        size_t cap = t->cap ? t->cap : 256;
        while (cap <= t->len + (size_t)n)
            cap *= 2;
        char *s = realloc(t->s, cap);
        if (!s) {
            t->oom = 1;
            return;
        }
        t->s = s;
        t->cap = cap;
    }
}

/* ---- interning: distinct byte strings get consecutive numbers ----------- */

struct intern {
    struct { char *bytes; size_t len; size_t id; } *slot;
    size_t cap, count;
    char **by_id;          /* id -> bytes (owned through slot) */
    size_t *len_by_id;
};

static int intern_grow(struct intern *in)
{
    size_t cap = in->cap ? in->cap * 2 : 1024;
    __typeof__(in->slot) slot = calloc(cap, sizeof *slot);
    char **by_id = realloc(in->by_id, cap * sizeof *by_id);
    size_t *len_by_id = by_id ? realloc(in->len_by_id, cap * sizeof *len_by_id) : NULL;
    if (by_id)
        in->by_id = by_id;
    if (len_by_id)
        in->len_by_id = len_by_id;
    if (!slot || !by_id || !len_by_id) {
        free(slot);
        return -1;
    }
    for (size_t i = 0; i < in->cap; i++) {
        if (!in->slot[i].bytes)
            continue;
        size_t h = dwu_fnv1a(in->slot[i].bytes, in->slot[i].len) & (cap - 1);
        while (slot[h].bytes)
            h = (h + 1) & (cap - 1);
        slot[h] = in->slot[i];
    }
    free(in->slot);
    in->slot = slot;
    in->cap = cap;
    return 0;
}

/* The number of BYTES (copied on first sight), or (size_t)-1 when out of memory. */
static size_t intern_id(struct intern *in, const void *bytes, size_t len)
{
    if ((in->count + 1) * 2 > in->cap && intern_grow(in) != 0)
        return (size_t)-1;
    size_t h = dwu_fnv1a(bytes, len) & (in->cap - 1);
    while (in->slot[h].bytes) {
        if (in->slot[h].len == len && memcmp(in->slot[h].bytes, bytes, len) == 0)
            return in->slot[h].id;
        h = (h + 1) & (in->cap - 1);
    }
    char *copy = malloc(len + 1);
    if (!copy)
        return (size_t)-1;
    memcpy(copy, bytes, len);
    copy[len] = 0;
    in->slot[h].bytes = copy;
    in->slot[h].len = len;
    in->slot[h].id = in->count;
    in->by_id[in->count] = copy;
    in->len_by_id[in->count] = len;
    return in->count++;
}

static void intern_release(struct intern *in)
{
    for (size_t i = 0; i < in->cap; i++)
        free(in->slot[i].bytes);
    free(in->slot);
    free(in->by_id);
    free(in->len_by_id);
    memset(in, 0, sizeof *in);
}

/* ---- DWARF expressions to C ------------------------------------------- */

/* The C function x<ID> for expression BYTES: 0 and the result in *res, or a
 * dwu_status.  INIT (the CFA) is pushed first when not NULL.  It computes
 * what dwarf_expr_eval computes, within the same bounds (unwind_limits.h),
 * and fails with the status the DWARF fallback gives the same failure. */
static int expression_to_c(struct text *t, size_t id, const uint8_t *bytes, size_t len,
                           char *err, size_t errlen)
{
    struct dwarf_op ops[UNWIND_EXPR_MAX_OPS];
    const char *why = NULL;
    int n = dwarf_expr_decode(bytes, len, 8, ops, UNWIND_EXPR_MAX_OPS, &why);
    if (n < 0) {
        snprintf(err, errlen, "expression cannot be compiled: %s", why);
        return -1;
    }
    /* Branch targets get labels. */
    uint8_t *target = calloc(len + 1, 1);
    if (!target) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (int i = 0; i < n; i++)
        if (ops[i].kind == DWARF_OP_SKIP || ops[i].kind == DWARF_OP_BRANCH)
            target[ops[i].operand2 < (int64_t)len ? ops[i].operand2 : (int64_t)len] = 1;
        else if (ops[i].kind == DWARF_OP_STACK_VALUE)
            target[len] = 1;
    text_add(t, "static int x%zu(const struct dwu_regs *in, const struct dwu_memory *mem,\n"
                "               const uint64_t *init, uint64_t *res)\n{\n"
                "    uint64_t s[XSTACK], a, b;\n    unsigned sp = 0, steps = 0;\n"
                "    (void)in; (void)mem; (void)a; (void)b; (void)steps;\n"
                "    if (init) s[sp++] = *init;\n", id);
    for (int i = 0; i < n; i++) {
        const struct dwarf_op *op = &ops[i];
        if (target[op->offset])
            text_add(t, "L%u:\n", op->offset);
        switch ((enum dwarf_op_class)op->kind) {
        case DWARF_OP_CONSTANT:
            text_add(t, "    XPUSH(0x%llxull);\n", (unsigned long long)op->operand1);
            break;
        case DWARF_OP_REGISTER:
            if (op->operand1 >= DWU_NREGS)
                text_add(t, "    return DWU_EREG;\n");
            else
                text_add(t, "    XREG(%u); XPUSH(in->r[%u] + (uint64_t)%lldll);\n", (unsigned)op->operand1,
                         (unsigned)op->operand1, (long long)op->operand2);
            break;
        case DWARF_OP_DEREF:
            if (op->operand1 == 0 || op->operand1 > 8)
                text_add(t, "    return DWU_EBADRULE;\n");
            else
                text_add(t, "    XNEED(1); XLOAD(s[sp - 1], %u, s[sp - 1]);\n", (unsigned)op->operand1);
            break;
        case DWARF_OP_DUP: text_add(t, "    XNEED(1); XPUSH(s[sp - 1]);\n"); break;
        case DWARF_OP_DROP: text_add(t, "    XNEED(1); sp--;\n"); break;
        case DWARF_OP_OVER: text_add(t, "    XNEED(2); XPUSH(s[sp - 2]);\n"); break;
        case DWARF_OP_PICK:
            text_add(t, "    XNEED(%u); XPUSH(s[sp - %u]);\n", (unsigned)op->operand1 + 1, (unsigned)op->operand1 + 1);
            break;
        case DWARF_OP_SWAP: text_add(t, "    XNEED(2); a = s[sp - 1]; s[sp - 1] = s[sp - 2]; s[sp - 2] = a;\n"); break;
        case DWARF_OP_ROT:
            text_add(t, "    XNEED(3); a = s[sp - 1]; s[sp - 1] = s[sp - 2]; s[sp - 2] = s[sp - 3]; s[sp - 3] = a;\n");
            break;
        case DWARF_OP_UNARY:   /* the function's text (dwarf_ops.h), as the evaluator computes it */
            text_add(t, "    XNEED(1); a = s[sp - 1]; s[sp - 1] = %s;\n",
                     dwarf_unary_c((enum dwarf_unary)op->function));
            break;
        case DWARF_OP_PLUS_CONSTANT:
            text_add(t, "    XNEED(1); s[sp - 1] += 0x%llxull;\n", (unsigned long long)op->operand1);
            break;
        case DWARF_OP_BINARY: {
            enum dwarf_binary f = (enum dwarf_binary)op->function;
            text_add(t, "    XNEED(2); b = s[--sp]; a = s[sp - 1];%s s[sp - 1] = %s;\n",
                     dwarf_binary_divides(f) ? " if (b == 0) return DWU_EBADRULE;" : "", dwarf_binary_c(f));
            break;
        }
        case DWARF_OP_SKIP:
        case DWARF_OP_BRANCH: {
            char label[32];
            if ((size_t)op->operand2 >= len)
                snprintf(label, sizeof label, "Lend");
            else
                snprintf(label, sizeof label, "L%lld", (long long)op->operand2);
            if (op->kind == DWARF_OP_BRANCH)
                text_add(t, "    XNEED(1); if (s[--sp] != 0) { XSTEP(); goto %s; }\n", label);
            else
                text_add(t, "    XSTEP(); goto %s;\n", label);
            break;
        }
        case DWARF_OP_NOP:
            break;
        case DWARF_OP_STACK_VALUE:   /* the top of stack is the result */
            text_add(t, "    goto Lend;\n");
            break;
        default:
            text_add(t, "    return DWU_EBADRULE;   /* %s */\n",
                     dwarf_op_name(op->opcode) ? dwarf_op_name(op->opcode) : "unknown operation");
            break;
        }
    }
    text_add(t, "%s    if (sp == 0) return DWU_EBADRULE;\n    *res = s[sp - 1];\n    return 0;\n}\n\n",
             target[len] ? "Lend:\n" : "");
    free(target);
    return 0;
}

/* ---- row bodies -------------------------------------------------------- */

#define NO_RESTORE ((size_t)-1)

struct gen {
    struct intern bodies, restores, exprs;
    size_t *body_restore;        /* per body: its register part, or NO_RESTORE */
    uint64_t *body_frame;        /* per body: its DWU_FRAME_* descriptor, or 0 */
    size_t body_restore_cap;
    struct text expr_code;
    char *err;
    size_t errlen;
    int failed;
};

static size_t expression_id(struct gen *g, const uint8_t *bytes, size_t len)
{
    size_t before = g->exprs.count;
    size_t id = intern_id(&g->exprs, bytes, len);
    if (id == (size_t)-1) {
        snprintf(g->err, g->errlen, "out of memory");
        g->failed = 1;
    } else if (id == before && expression_to_c(&g->expr_code, id, bytes, len, g->err, g->errlen) != 0) {
        g->failed = 1;
    }
    return id;
}

static void text_reset(struct text *t)
{
    t->len = 0;
    if (t->s)
        t->s[0] = 0;
}

/*
 * The C that unwinds one row, in two parts that are outlined separately:
 * CFA_PART computes the CFA (or returns, for a row that cannot unwind) and
 * REGS_PART restores the registers from it.  Rows share the second part far
 * more often than the first (the same saves at other CFA offsets... and the
 * reverse), so each distinct REGS_PART is written once, as a label.
 * Returns 1 when REGS_PART is needed.
 */
static int row_code(struct gen *g, struct text *cfa_part, struct text *regs_part,
                    const struct unwind_row *row, int signal_frame, unsigned provenance)
{
    text_reset(cfa_part);
    text_reset(regs_part);
    if (row->reg[ABI_RA].kind == REG_RULE_UNDEFINED) {
        text_add(cfa_part, "return DWU_END;");
        return 0;
    }
    switch (row->cfa.kind) {
    case CFA_RULE_REG_OFFSET:
        if (row->cfa.reg >= DWU_NREGS) {
            text_add(cfa_part, "return DWU_EREG;");
            return 0;
        }
        text_add(cfa_part, "NEED(%u); cfa = in->r[%u] + (uint64_t)%lldll;", 1u << row->cfa.reg,
                 row->cfa.reg, (long long)row->cfa.offset);
        break;
    case CFA_RULE_EXPRESSION:
        text_add(cfa_part, "X(%zu, NULL, &cfa);", expression_id(g, row->cfa.expr, row->cfa.expr_len));
        break;
    default:
        text_add(cfa_part, "return DWU_EBADRULE;");
        return 0;
    }
    struct text *b = regs_part;
    uint32_t known = 0, copied = 0;
    for (unsigned c = 0; c < UNWIND_COLUMNS; c++) {
        const struct unwind_rule *r = &row->reg[c];
        switch (r->kind) {
        case REG_RULE_UNREFERENCED:
            if (c == ABI_RA) {
                text_add(b, "return DWU_EBADRULE; ");
            } else if (unmentioned_column(c) == COLUMN_BECOMES_CFA) {
                text_add(b, "out->r[%u] = cfa; ", c);
                known |= 1u << c;
            } else if (unmentioned_column(c) == COLUMN_KEEPS_VALUE) {
                text_add(b, "out->r[%u] = in->r[%u]; ", c, c);
                copied |= 1u << c;
            }
            break;
        case REG_RULE_SAME_VALUE:
            text_add(b, "out->r[%u] = in->r[%u]; ", c, c);
            copied |= 1u << c;
            break;
        case REG_RULE_UNDEFINED:
            break;
        case REG_RULE_OFFSET:
            if (c == ABI_RA)
                text_add(b, "LOAD(cfa + (uint64_t)%lldll, out->r[%u]); ", (long long)r->offset, c);
            else
                text_add(b, "LOADREG(cfa + (uint64_t)%lldll, out->r[%u], 0x%xu); ", (long long)r->offset, c,
                         1u << c);
            known |= 1u << c;
            break;
        case REG_RULE_VAL_OFFSET:
            text_add(b, "out->r[%u] = cfa + (uint64_t)%lldll; ", c, (long long)r->offset);
            known |= 1u << c;
            break;
        case REG_RULE_REGISTER:
            if (r->reg >= DWU_NREGS) {
                text_add(b, "return DWU_EREG; ");
            } else {
                text_add(b, "NEED(%u); out->r[%u] = in->r[%u]; ", 1u << r->reg, c, r->reg);
                known |= 1u << c;
            }
            break;
        case REG_RULE_EXPRESSION:
            if (c == ABI_RA)
                text_add(b, "X(%zu, &cfa, &a); LOAD(a, out->r[%u]); ", expression_id(g, r->expr, r->expr_len), c);
            else
                text_add(b, "X(%zu, &cfa, &a); LOADREG(a, out->r[%u], 0x%xu); ",
                         expression_id(g, r->expr, r->expr_len), c, 1u << c);
            known |= 1u << c;
            break;
        case REG_RULE_VAL_EXPRESSION:
            text_add(b, "X(%zu, &cfa, &out->r[%u]); ", expression_id(g, r->expr, r->expr_len), c);
            known |= 1u << c;
            break;
        default:
            text_add(b, "return DWU_EBADRULE; ");
            break;
        }
    }
    const char *from = provenance == PROVENANCE_SYNTHESISED ? "DWU_FLAG_SYNTHESISED"
                     : provenance == PROVENANCE_UNCHECKED ? "DWU_FLAG_UNCHECKED" : NULL;
    text_add(b, "out->valid = (0x%xu | (in->valid & 0x%xu)) & ~lost; out->flags = %s%s%s; return DWU_OK;", known,
             copied, signal_frame ? "DWU_FLAG_EXACT_IP" : from ? "" : "0", signal_frame && from ? " | " : "",
             from ? from : "");
    return 1;
}

/* Intern body TEXT, recording its register part RESTORE and its frame
 * descriptor FRAME for a new one.  Returns its number, or -1 when out of
 * memory. */
static size_t intern_body(struct gen *g, const char *text, size_t len, size_t restore, uint64_t frame)
{
    size_t before = g->bodies.count, id = intern_id(&g->bodies, text, len);
    if (id != before)
        return id;
    if (id == g->body_restore_cap) {
        size_t cap = g->body_restore_cap ? 2 * g->body_restore_cap : 256;
        size_t *n = realloc(g->body_restore, cap * sizeof *n);
        if (n)
            g->body_restore = n;
        uint64_t *f = realloc(g->body_frame, cap * sizeof *f);
        if (f)
            g->body_frame = f;
        if (!n || !f)
            return (size_t)-1;
        g->body_restore_cap = cap;
    }
    g->body_restore[id] = restore;
    g->body_frame[id] = frame;
    return id;
}

/* The descriptor of ROW (dwu_eh_elf_frame; runtime/frame_descriptor.h, the
 * rule the DWARF fallback's rows follow too), or 0 when it is not simple.
 * The same rules give the same body text, so a body has one descriptor. */
static uint64_t row_frame(const struct unwind_row *row, int signal_frame)
{
    return dwu_frame_descriptor(&row->cfa, row->reg, signal_frame);
}

/* The body of one row: its CFA part, then a jump to its shared register
 * part (interned in G->restores).  Returns the body's number, or -1. */
static size_t row_body(struct gen *g, struct text *cfa_part, struct text *regs_part,
                       const struct unwind_row *row, int signal_frame, unsigned provenance)
{
    size_t r = NO_RESTORE;
    if (row_code(g, cfa_part, regs_part, row, signal_frame, provenance)) {
        r = intern_id(&g->restores, regs_part->s, regs_part->len);
        if (r == (size_t)-1)
            return (size_t)-1;
        text_add(cfa_part, " return R%zu(cfa, in, out, mem);", r);
    }
    if (cfa_part->oom || regs_part->oom)
        return (size_t)-1;
    return intern_body(g, cfa_part->s, cfa_part->len, r, row_frame(row, signal_frame));
}

/* ---- the row array ----------------------------------------------------- */

struct entry {
    uint64_t start, end;
    size_t body;
};

/* A table, with the provenance of its rows (or NULL). */
struct placed_table {
    const struct unwind_table *t;
    const uint8_t *provenance;
};

static int by_start(const void *a, const void *b)
{
    const struct unwind_table *x = ((const struct placed_table *)a)->t;
    const struct unwind_table *y = ((const struct placed_table *)b)->t;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return x->end < y->end ? -1 : x->end > y->end;
}

/* Append [start, end) with BODY, merging with an equal neighbour. */
static int push_entry(struct entry **e, size_t *n, size_t *cap, uint64_t start, uint64_t end, size_t body)
{
    if (*n && (*e)[*n - 1].end == start && (*e)[*n - 1].body == body) {
        (*e)[*n - 1].end = end;
        return 0;
    }
    if (*n == *cap) {
        size_t c = *cap ? *cap * 2 : 1024;
        struct entry *ne = realloc(*e, c * sizeof *ne);
        if (!ne)
            return -1;
        *e = ne;
        *cap = c;
    }
    (*e)[(*n)++] = (struct entry){start, end, body};
    return 0;
}

/*
 * The row array and the page index, and the lookup.
 *
 * page[p] describes the 64 bytes of code at p * 64:
 *   - PAGE_DIRECT | body, when one entry covers all of it (three pages in
 *     four in libc and libz3): the lookup reads one word of the index and
 *     nothing else;
 *   - otherwise the index of the first entry that starts in it and, in the
 *     top bits, how many do (at least one, at most 64).  A PC before that
 *     first start is in the entry before it, which is its neighbour in the
 *     array.
 * An entry's start is kept as its low 16 bits: the entries of one page lie
 * in one 64 KiB window, so they compare by those bits.
 */
#define PAGE_DIRECT 0x80000000u
#define PAGE_COUNT_SHIFT 24
#define PAGE_MAX_FIRST ((1u << PAGE_COUNT_SHIFT) - 1)

static void write_lookup(FILE *out, const struct entry *ent, size_t nent, uint64_t base, uint64_t limit,
                         size_t nbodies)
{
    /* Start and body side by side: one cache line serves the search and
     * the dispatch. */
    fprintf(out, "static const struct { uint16_t start; %s body; } row[%zu] = {",
            nbodies <= 65536 ? "uint16_t" : "uint32_t", nent ? nent : 1);
    for (size_t i = 0; i < nent; i++)
        fprintf(out, "%s{%u,%zu},", i % 8 ? "" : "\n", (unsigned)((ent[i].start - base) & 0xffff), ent[i].body);
    if (!nent)
        fprintf(out, "{0,0}");
    size_t npages = (size_t)((limit - base + (1u << PAGE_SHIFT) - 1) >> PAGE_SHIFT);
    fprintf(out, "\n};\n\nstatic const uint32_t page[%zu] = {", npages ? npages : 1);
    size_t k = 0;   /* the first entry that ends after the page's start */
    for (size_t p = 0; p < npages; p++) {
        uint64_t lo = base + ((uint64_t)p << PAGE_SHIFT), hi = lo + (1u << PAGE_SHIFT);
        if (hi > limit)
            hi = limit;
        while (k < nent && ent[k].end <= lo)
            k++;
        uint32_t word;
        if (k < nent && ent[k].start <= lo && ent[k].end >= hi) {
            word = PAGE_DIRECT | (uint32_t)ent[k].body;
        } else {
            size_t first = k < nent && ent[k].start < lo ? k + 1 : k, n = 0;
            while (first + n < nent && ent[first + n].start < hi)
                n++;
            word = (uint32_t)first | (uint32_t)n << PAGE_COUNT_SHIFT;
        }
        fprintf(out, "%s%u,", p % 8 ? "" : "\n", word);
    }
    if (!npages)
        fprintf(out, "0");
    fprintf(out,
            "\n};\n\n"
            "/* The body of the row at OFF from LO. */\n"
            "static inline __attribute__((always_inline)) uint32_t body_at(uint32_t off)\n{\n"
            "    uint32_t word = page[off >> %d];\n"
            "    if (word & 0x%xu)\n"
            "        return word & 0x%xu;\n"
            "    uint32_t k = word & 0x%xu, end = k + (word >> %d);\n"
            "    uint16_t low = (uint16_t)off;\n"
            "    if (row[k].start > low)\n"
            "        k--;\n"
            "    else\n"
            "        while (k + 1 < end && row[k + 1].start <= low) k++;\n"
            "    return row[k].body;\n"
            "}\n\n"
            "uint64_t dwu_eh_elf_frame(uint64_t pc)\n{\n"
            "    return pc < LO || pc >= HI ? 0 : frame[body_at((uint32_t)(pc - LO))];\n}\n\n"
            "int dwu_eh_elf_trace(uint64_t pc, uint64_t *rip, uint64_t *rsp, uint64_t *rbp)\n{\n"
            "    uint64_t cfa;\n"
            "    if (pc < LO || pc >= HI) return 0;\n"
            "    switch (body_at((uint32_t)(pc - LO))) {\n"
            ,
            PAGE_SHIFT, PAGE_DIRECT, PAGE_DIRECT - 1, PAGE_MAX_FIRST, PAGE_COUNT_SHIFT);
}

/* Bodies by descriptor, for write_trace. */
struct by_frame {
    uint64_t frame;
    size_t body;
};

static int by_frame_then_body(const void *a, const void *b)
{
    const struct by_frame *x = a, *y = b;
    if (x->frame != y->frame)
        return x->frame < y->frame ? -1 : 1;
    return x->body < y->body ? -1 : x->body > y->body;
}

/*
 * dwu_eh_elf_trace: the simple rows (row_frame) applied to rip, rsp and rbp,
 * one case per distinct descriptor with its offsets as constants, the
 * bodies that share it as its labels.  A jump on the row, which the
 * processor predicts, rather than loads of the descriptor that the next
 * frame's address would wait for: dwu_backtrace's walk.  Returns 1 after a
 * step, 2 at the outermost frame, 0 for a row it does not take (the full
 * step then: DRAP rows too, whose slot reads the walk bounds-checks).  The
 * switch is already open (write_lookup).
 */
static int write_trace(FILE *out, const uint64_t *frame, size_t nbodies)
{
    struct by_frame *b = malloc((nbodies + 1) * sizeof *b);
    if (!b)
        return -1;
    size_t n = 0;
    for (size_t i = 0; i < nbodies; i++)
        if ((frame[i] & (DWU_FRAME_SIMPLE | DWU_FRAME_CFA_DEREF | DWU_FRAME_RBP_AT_RBP)) == DWU_FRAME_SIMPLE)
            b[n++] = (struct by_frame){frame[i], i};
    qsort(b, n, sizeof *b, by_frame_then_body);
    for (size_t i = 0; i < n; i++) {
        fprintf(out, "    case %zu:", b[i].body);
        if (i + 1 < n && b[i + 1].frame == b[i].frame) {
            fputc('\n', out);
            continue;
        }
        uint64_t d = b[i].frame;
        if (d & DWU_FRAME_END) {
            fprintf(out, " return 2;\n");
            continue;
        }
        fprintf(out, " cfa = *%s + (uint64_t)%lldll; memcpy(rip, (const void *)(uintptr_t)(cfa + (uint64_t)%lldll), 8); ",
                d & DWU_FRAME_CFA_RBP ? "rbp" : "rsp", (long long)DWU_FRAME_CFA_OFFSET(d),
                (long long)DWU_FRAME_RA_OFFSET(d));
        if (d & DWU_FRAME_RBP_SAVED)
            fprintf(out, "memcpy(rbp, (const void *)(uintptr_t)(cfa + (uint64_t)%lldll), 8); ",
                    (long long)DWU_FRAME_RBP_OFFSET(d));
        fprintf(out, "*rsp = cfa; return 1;\n");
    }
    fprintf(out, "    default: return 0;\n    }\n}\n\n");
    free(b);
    return ferror(out) ? -1 : 0;
}

/* A body's place in the code: its register part's rank, then its own weight. */
struct placed {
    size_t part_rank;
    uint64_t weight;
    size_t id;
};

static int by_place(const void *a, const void *b)
{
    const struct placed *x = a, *y = b;
    if (x->part_rank != y->part_rank)
        return x->part_rank < y->part_rank ? -1 : 1;
    if (x->weight != y->weight)
        return x->weight > y->weight ? -1 : 1;
    return x->id < y->id ? -1 : x->id > y->id;
}

/*
 * The row bodies and their register parts: small functions, reached by
 * tail calls, so that the dispatch itself saves no registers.  Each
 * register part is followed by the bodies that jump to it, and the parts
 * come in the order of the code they cover, most first (then the bodies
 * without one): a cold lookup's code lies together, and the code of the
 * common frames in few pages.
 */
static int write_bodies(FILE *out, const struct gen *g, const struct entry *ent, size_t nent)
{
    size_t nr = g->restores.count, nb = g->bodies.count;
    struct placed *parts = calloc(nr + 1, sizeof *parts), *bodies = calloc(nb + 1, sizeof *bodies);
    size_t *rank = calloc(nr + 1, sizeof *rank);
    if (!parts || !bodies || !rank) {
        free(parts);
        free(bodies);
        free(rank);
        return -1;
    }
    for (size_t i = 0; i < nb; i++)
        bodies[i].id = i;
    for (size_t k = 0; k < nent; k++)
        bodies[ent[k].body].weight += ent[k].end - ent[k].start;
    for (size_t r = 0; r < nr; r++)
        parts[r].id = r;
    for (size_t i = 0; i < nb; i++)
        if (g->body_restore[i] != NO_RESTORE)
            parts[g->body_restore[i]].weight += bodies[i].weight;
    qsort(parts, nr, sizeof *parts, by_place);
    for (size_t k = 0; k < nr; k++)
        rank[parts[k].id] = k;
    for (size_t i = 0; i < nb; i++)   /* bodies without a part: last */
        bodies[i].part_rank = g->body_restore[i] == NO_RESTORE ? nr : rank[g->body_restore[i]];
    qsort(bodies, nb, sizeof *bodies, by_place);
    for (size_t j = 0; j < nb; j++) {
        size_t i = bodies[j].id, r = g->body_restore[i];
        if (r != NO_RESTORE && (j == 0 || bodies[j - 1].part_rank != bodies[j].part_rank))
            fprintf(out, "static BODY int R%zu(uint64_t cfa, const struct dwu_regs *in, struct dwu_regs *out,\n"
                         "                    const struct dwu_memory *mem)\n{\n    uint64_t a;\n    uint32_t lost = 0;\n"
                         "    (void)a; (void)lost;\n"
                         "    %s\n}\n", r, g->restores.by_id[r]);
        fprintf(out, "static BODY int B%zu(uint64_t off, const struct dwu_regs *in, struct dwu_regs *out,\n"
                     "                    const struct dwu_memory *mem)\n"
                     "{\n    uint64_t cfa;\n    uint32_t lost = 0;\n"
                     "    (void)off; (void)cfa; (void)in; (void)out; (void)mem; (void)lost;\n"
                     "    %s\n}\n", i, g->bodies.by_id[i]);
    }
    free(parts);
    free(bodies);
    free(rank);
    return 0;
}

/* Why writing OUT failed, into ERR: the system's reason (`No space left
 * on device`), which a flush of what is still buffered gives again. */
static void write_error(FILE *out, char *err, size_t errlen)
{
    errno = 0;
    int again = fflush(out);
    snprintf(err, errlen, "%s", again != 0 && errno ? strerror(errno) : "write error");
}

int eh_elf_generate(FILE *out, const struct unwind_table *const *tables, const uint8_t *const *provenance,
                    size_t ntables, const char *object, const struct dwu_identity *id,
                    struct eh_elf_stats *stats, char *err, size_t errlen)
{
    struct gen g = {.err = err, .errlen = errlen};
    struct text cfa_part = {0}, regs_part = {0};
    struct entry *ent = NULL;
    size_t nent = 0, capent = 0;
    int rc = -1;
    memset(stats, 0, sizeof *stats);
    struct placed_table *sorted = malloc((ntables + 1) * sizeof *sorted);
    if (!sorted)
        goto oom;
    for (size_t i = 0; i < ntables; i++)
        sorted[i] = (struct placed_table){tables[i], provenance ? provenance[i] : NULL};
    if (ntables)
        qsort(sorted, ntables, sizeof *sorted, by_start);

    /* Body 0: no information (gaps between FDEs). */
    static const char no_info[] = "return DWU_ENOINFO;";
    if (intern_body(&g, no_info, strlen(no_info), NO_RESTORE, 0) != 0)
        goto oom;
    uint64_t covered = 0;   /* end of what entries cover so far */
    for (size_t i = 0; i < ntables; i++) {
        const struct unwind_table *t = sorted[i].t;
        const uint8_t *prov = sorted[i].provenance;
        if (t->start >= t->end)
            continue;
        stats->tables++;
        for (size_t r = 0; r < t->nrows; r++) {
            const struct unwind_row *row = &t->rows[r];
            uint64_t lo = row->start, hi = row->end;
            stats->rows++;
            if (nent && lo < covered)
                lo = covered;   /* overlap with an earlier table: the earlier wins */
            if (lo >= hi)
                continue;
            if (nent && lo > covered && push_entry(&ent, &nent, &capent, covered, lo, 0) != 0)
                goto oom;
            size_t body = row_body(&g, &cfa_part, &regs_part, row, t->signal_frame, prov ? prov[r] : 0);
            if (g.failed)
                goto fail;
            if (body == (size_t)-1 || push_entry(&ent, &nent, &capent, lo, hi, body) != 0)
                goto oom;
            covered = hi;
        }
    }
    if (g.expr_code.oom)
        goto oom;
    uint64_t base = nent ? ent[0].start : 0, limit = nent ? ent[nent - 1].end : 0;
    if (limit - base >= ((uint64_t)1 << 32)) {
        snprintf(err, errlen, "code spans 4 GiB or more");
        goto fail;
    }
    if (nent > PAGE_MAX_FIRST) {
        snprintf(err, errlen, "more than %u rows", PAGE_MAX_FIRST);
        goto fail;
    }
    stats->entries = nent;
    stats->bodies = g.bodies.count;
    stats->expressions = g.exprs.count;

    fputs("/* eh_elf of ", out);
    write_comment_text(out, object);
    fprintf(out, ": %zu FDE tables, %zu rows, %zu entries, %zu row bodies, %zu expressions.\n"
                 " * Generated by dwcompile. */\n#include <stdint.h>\n#include <string.h>\n\n",
            stats->tables, stats->rows, stats->entries, stats->bodies, stats->expressions);
    fputs(dwunwind_header, out);
    fprintf(out,
            "\n#define LO 0x%llxull\n#define HI 0x%llxull\n#define XSTACK %d\n"
            "#define NEED(m) do { if ((in->valid & (m)) != (m)) return DWU_EREG; } while (0)\n"
            "#define LOAD(addr, dst) do { uint64_t a_ = (addr); \\\n"
            "        if (__builtin_expect(mem != 0, 0)) { if (mem->read(mem->arg, a_, &(dst))) return DWU_EMEM; } \\\n"
            "        else memcpy(&(dst), (const void *)(uintptr_t)a_, 8); } while (0)\n"
            "/* A saved register whose slot cannot be read (outside a stack copy) is\n"
            " * not known in the caller; only the return address must be read. */\n"
            "#define LOADREG(addr, dst, bit) do { uint64_t a_ = (addr); \\\n"
            "        if (__builtin_expect(mem != 0, 0)) { if (mem->read(mem->arg, a_, &(dst))) lost |= (bit); } \\\n"
            "        else memcpy(&(dst), (const void *)(uintptr_t)a_, 8); } while (0)\n"
            "#define XPUSH(v) do { uint64_t p_ = (v); if (sp == XSTACK) return DWU_EBADRULE; s[sp++] = p_; } while (0)\n"
            "#define XNEED(k) do { if (sp < (k)) return DWU_EBADRULE; } while (0)\n"
            "#define XREG(r) do { if (!(in->valid & (1u << (r)))) return DWU_EREG; } while (0)\n"
            "#define XSTEP() do { if (++steps > %d) return DWU_EBADRULE; } while (0)\n"
            "#define XLOAD(addr, size, dst) do { uint64_t v_ = 0; \\\n"
            "        if (mem) { if (mem->read(mem->arg, (addr), &v_)) return DWU_EMEM; } \\\n"
            "        else memcpy(&v_, (const void *)(uintptr_t)(addr), (size)); \\\n"
            "        if ((size) < 8) { v_ &= ((uint64_t)1 << (8 * (size) & 63)) - 1; } \\\n"
            "        (dst) = v_; } while (0)\n"
            "#define X(id, init, res) do { int e_ = x##id(in, mem, (init), (res)); if (e_) return e_; } while (0)\n"
            "/* Bodies keep the step's argument registers (pc's register holds the\n"
            " * CFA for the register part), so each call is a bare jump; they stay\n"
            " * in the order written: most used first, each register part with its bodies. */\n"
            "#if defined(__GNUC__) && !defined(__clang__)\n"
            "#define BODY __attribute__((noinline, noipa, no_reorder))\n"
            "#else\n"
            "#define BODY __attribute__((noinline))\n"
            "#endif\n\n",
            (unsigned long long)base, (unsigned long long)limit, UNWIND_EXPR_STACK, UNWIND_EXPR_BRANCHES);
    fwrite(g.expr_code.s ? g.expr_code.s : "", 1, g.expr_code.len, out);

    if (write_bodies(out, &g, ent, nent) != 0)
        goto oom;
    fprintf(out, "const unsigned dwu_eh_elf_abi = DWU_EH_ELF_ABI;\n"
                 "const unsigned char dwu_eh_elf_identity[] = {%u, %u", id->kind, id->len);
    for (unsigned i = 0; i < id->len; i++)
        fprintf(out, ", %u", id->bytes[i]);
    fprintf(out, "};\n\n");
    fprintf(out, "static const uint64_t frame[%zu] = {", g.bodies.count ? g.bodies.count : 1);
    for (size_t i = 0; i < g.bodies.count; i++)
        fprintf(out, "%s0x%llxull,", i % 4 ? "" : "\n", (unsigned long long)g.body_frame[i]);
    fprintf(out, "%s\n};\n", g.bodies.count ? "" : "0");
    write_lookup(out, ent, nent, base, limit, g.bodies.count);
    if (write_trace(out, g.body_frame, g.bodies.count) != 0)
        goto oom;
    fprintf(out, "int dwu_eh_elf_step(uint64_t pc, const struct dwu_regs *in, struct dwu_regs *out,\n"
                 "                    const struct dwu_memory *mem)\n{\n"
                 "    if (pc < LO || pc >= HI) return DWU_ENOINFO;\n"
                 "    uint32_t off = (uint32_t)(pc - LO);\n"
                 "    switch (body_at(off)) {\n");
    for (size_t i = 0; i < g.bodies.count; i++)
        fprintf(out, "    case %zu: return B%zu(off, in, out, mem);\n", i, i);
    fprintf(out, "    default: __builtin_unreachable();\n    }\n}\n");
    if (ferror(out)) {
        write_error(out, err, errlen);
        goto fail;
    }
    rc = 0;
    goto done;
oom:
    /* A helper fails on a write (a full disk) as on memory: say which. */
    if (ferror(out))
        write_error(out, err, errlen);
    else
        snprintf(err, errlen, "out of memory");
fail:
done:
    free(sorted);
    free(ent);
    free(cfa_part.s);
    free(regs_part.s);
    free(g.expr_code.s);
    intern_release(&g.bodies);
    intern_release(&g.restores);
    intern_release(&g.exprs);
    free(g.body_restore);
    free(g.body_frame);
    return rc;
}
