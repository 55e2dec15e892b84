/* SPDX-License-Identifier: Apache-2.0 */
/*
 * asm_source: lines, statements and functions of a GAS source.
 */
#include "asm_source.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sys/error.h"

/* ---- the text ------------------------------------------------------------ */

int asm_source_text_read(struct source_text *t, const char *path, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    FILE *f = fopen(path, "rb");
    if (!f)
        return error_set(err, errlen, "%s", strerror(errno));
    size_t cap = 1 << 16;
    t->bytes = malloc(cap + 1);
    size_t n;
    while (t->bytes && (n = fread(t->bytes + t->size, 1, cap - t->size, f)) > 0) {
        t->size += n;
        if (t->size == cap) {
            char *more = realloc(t->bytes, 2 * cap + 1);
            if (!more) {
                free(t->bytes);
                t->bytes = NULL;
                break;
            }
            t->bytes = more;
            cap *= 2;
        }
    }
    int failed = ferror(f);
    fclose(f);
    if (!t->bytes)
        return error_set(err, errlen, "out of memory");
    if (failed) {
        asm_source_text_release(t);
        return error_set(err, errlen, "cannot read the file");
    }
    t->bytes[t->size] = '\0';
    size_t lines = 0;
    for (size_t i = 0; i < t->size; i++)
        lines += t->bytes[i] == '\n';
    lines += t->size > 0 && t->bytes[t->size - 1] != '\n';
    t->line_start = malloc((lines + 2) * sizeof *t->line_start);
    if (!t->line_start) {
        asm_source_text_release(t);
        return error_set(err, errlen, "out of memory");
    }
    size_t k = 1;
    t->line_start[1] = 0;
    for (size_t i = 0; i < t->size; i++)
        if (t->bytes[i] == '\n')
            t->line_start[++k] = i + 1;
    t->nlines = lines;
    t->line_start[lines + 1] = t->size;
    t->line_start[0] = 0;
    return 0;
}

void asm_source_text_release(struct source_text *t)
{
    free(t->bytes);
    free(t->line_start);
    memset(t, 0, sizeof *t);
}

const char *asm_source_text_line(const struct source_text *t, size_t k, size_t *len)
{
    size_t start = t->line_start[k], end = t->line_start[k + 1];
    if (end > start && t->bytes[end - 1] == '\n')
        end--;
    if (end > start && t->bytes[end - 1] == '\r')
        end--;
    *len = end - start;
    return t->bytes + start;
}

const char *asm_source_text_eol(const struct source_text *t, size_t k)
{
    size_t len;
    const char *line = asm_source_text_line(t, k, &len);
    size_t rest = t->line_start[k + 1] - t->line_start[k] - len;
    return rest == 2 ? "\r\n" : rest == 1 ? (line[len] == '\n' ? "\n" : "\r") : "";
}

/* ---- the parser's state ---------------------------------------------------- */

#define MAX_SECTION_STACK 32

/* What the parse learns about a name, one record per mention; sorted by
 * name afterwards, so that each name's records are together. */
enum mention_kind { MENTION_LABEL, MENTION_TYPE_FUNCTION, MENTION_GLOBAL, MENTION_CALL, MENTION_SIZE };

struct mention {
    char *name;
    uint8_t kind;
    size_t line;             /* input line, 0 outside the input */
    uint32_t section;        /* MENTION_LABEL: the section it is in */
    size_t pos;              /* MENTION_LABEL: order within the line */
    size_t seq;              /* order of the parse, to keep sorting stable */
};

struct parser {
    struct asm_source *s;
    int cpp;                 /* parsing the preprocessor's output */
    uint32_t section, previous;
    uint32_t stack[MAX_SECTION_STACK];
    size_t depth;            /* section stack */
    uint8_t syntax;
    int macro_depth;         /* inside .macro / .rept / .irp bodies */
    int cfi_open;
    int in_comment;          /* inside a block comment */
    size_t line;             /* input line of the text being parsed, 0 outside the input */
    size_t filled;           /* lines[1 .. filled] have their facts */
    size_t pos;              /* statement position within the line */
    size_t *code_first, *code_last;   /* per line, positions of code-emitting statements
                                         (SIZE_MAX: none) */
    struct mention *mentions;
    size_t nmentions, capmentions;
    int oom;
};

static uint32_t intern_section(struct parser *ps, const char *name, size_t len)
{
    struct asm_source *s = ps->s;
    for (size_t i = 0; i < s->nsections; i++)
        if (strlen(s->sections[i]) == len && memcmp(s->sections[i], name, len) == 0)
            return (uint32_t)i;
    char **more = realloc(s->sections, (s->nsections + 1) * sizeof *more);
    char *copy = strndup(name, len);
    if (!more || !copy) {
        free(copy);
        if (more)
            s->sections = more;
        ps->oom = 1;
        return 0;
    }
    s->sections = more;
    s->sections[s->nsections] = copy;
    return (uint32_t)s->nsections++;
}

static void mention(struct parser *ps, enum mention_kind kind, const char *name, size_t len)
{
    if (len == 0)
        return;
    if (ps->nmentions == ps->capmentions) {
        size_t cap = ps->capmentions ? 2 * ps->capmentions : 256;
        struct mention *more = realloc(ps->mentions, cap * sizeof *more);
        if (!more) {
            ps->oom = 1;
            return;
        }
        ps->mentions = more;
        ps->capmentions = cap;
    }
    char *copy = strndup(name, len);
    if (!copy) {
        ps->oom = 1;
        return;
    }
    ps->mentions[ps->nmentions] = (struct mention){copy, (uint8_t)kind, ps->line, ps->section, ps->pos,
                                                   ps->nmentions};
    ps->nmentions++;
}

/* Record the state at the end of every input line up to LINE - 1 (the
 * lines the parse has moved past) before statements of LINE. */
static void fill_lines(struct parser *ps, size_t line)
{
    struct asm_source *s = ps->s;
    while (ps->filled + 1 < line && ps->filled < s->nlines) {
        struct source_line *l = &s->lines[++ps->filled];
        l->section = ps->section;
        l->syntax = ps->syntax;
        l->cfi_open = (uint8_t)ps->cfi_open;
        /* A line inside a macro body is not assembled where it stands. */
        if (ps->macro_depth > 0)
            l->insertable = 0;
    }
}

/* The current line's facts after one of its statements. */
static void note_line(struct parser *ps)
{
    if (!ps->line || ps->line > ps->s->nlines)
        return;
    fill_lines(ps, ps->line);
    if (ps->filled < ps->line)
        ps->filled = ps->line;
    struct source_line *l = &ps->s->lines[ps->line];
    l->section = ps->section;
    l->syntax = ps->syntax;
    l->cfi_open = (uint8_t)ps->cfi_open;
    if (ps->macro_depth > 0)
        l->insertable = 0;
}

static void note_code(struct parser *ps)
{
    if (!ps->line || ps->line > ps->s->nlines)
        return;
    ps->s->lines[ps->line].emits_code = 1;
    if (ps->code_first[ps->line] == SIZE_MAX)
        ps->code_first[ps->line] = ps->pos;
    ps->code_last[ps->line] = ps->pos;
}

/* ---- lexing ------------------------------------------------------------------ */

static int symbol_char(int c)
{
    return isalnum(c) || c == '_' || c == '.' || c == '$' || c == '@';
}

static const char *skip_space(const char *p, const char *end)
{
    while (p < end && isspace((unsigned char)*p))
        p++;
    return p;
}

/* Length of the symbol at P ("name", or a quoted "name" without its quotes
 * through *START). */
static size_t symbol_at(const char *p, const char *end, const char **start)
{
    if (p < end && *p == '"') {
        const char *q = p + 1;
        while (q < end && *q != '"')
            q++;
        *start = p + 1;
        return (size_t)(q - p - 1);
    }
    const char *q = p;
    while (q < end && symbol_char((unsigned char)*q))
        q++;
    *start = p;
    return (size_t)(q - p);
}

static int word_is(const char *w, size_t len, const char *name)
{
    return strlen(name) == len && strncasecmp(w, name, len) == 0;
}

static int word_in(const char *w, size_t len, const char *const *names)
{
    for (; *names; names++)
        if (word_is(w, len, *names))
            return 1;
    return 0;
}

/* Directives that put bytes into the current section (alignment apart). */
static int data_directive(const char *w, size_t len)
{
    static const char *const names[] = {
        ".byte", ".2byte", ".4byte", ".8byte", ".word", ".short", ".hword", ".value", ".int",
        ".long", ".quad", ".octa", ".ascii", ".asciz", ".string", ".string8", ".string16",
        ".string32", ".string64", ".fill", ".skip", ".space", ".zero", ".nops", ".sleb128",
        ".uleb128", ".incbin", ".float", ".single", ".double", ".tfloat", ".ds", ".dcb", ".insn",
        ".endr", NULL,   /* .endr: where a .rept body is assembled */
    };
    return word_in(w, len, names) || (len > 3 && strncasecmp(w, ".dc", 3) == 0) ||
           (len > 3 && strncasecmp(w, ".ds.", 4) == 0);
}

/* The next comma-separated argument of ARGS: [*a, *a + *alen), trimmed. */
static const char *next_arg(const char *p, const char *end, const char **a, size_t *alen)
{
    p = skip_space(p, end);
    const char *q = p;
    int quoted = 0;
    while (q < end && (quoted || *q != ',')) {
        if (*q == '"')
            quoted = !quoted;
        q++;
    }
    const char *e = q;
    while (e > p && isspace((unsigned char)e[-1]))
        e--;
    *a = p;
    *alen = (size_t)(e - p);
    return q < end ? q + 1 : q;
}

static void set_section(struct parser *ps, uint32_t sec)
{
    ps->previous = ps->section;
    ps->section = sec;
}

static void section_directive(struct parser *ps, const char *w, size_t wlen, const char *args,
                              const char *end)
{
    const char *a, *name;
    size_t alen;
    if (word_is(w, wlen, ".text") || word_is(w, wlen, ".data") || word_is(w, wlen, ".bss")) {
        set_section(ps, intern_section(ps, w, wlen));
    } else if (word_is(w, wlen, ".section") || word_is(w, wlen, ".pushsection")) {
        next_arg(args, end, &a, &alen);
        size_t n = symbol_at(a, a + alen, &name);
        if (n == 0)
            return;
        if (word_is(w, wlen, ".pushsection") && ps->depth < MAX_SECTION_STACK)
            ps->stack[ps->depth++] = ps->section;
        set_section(ps, intern_section(ps, name, n));
    } else if (word_is(w, wlen, ".popsection")) {
        if (ps->depth > 0)
            set_section(ps, ps->stack[--ps->depth]);
    } else if (word_is(w, wlen, ".previous")) {
        set_section(ps, ps->previous);
    }
}

/* `.type NAME, @function` (or %function, "function", STT_FUNC, an ifunc). */
static void type_directive(struct parser *ps, const char *args, const char *end)
{
    const char *a, *b, *name;
    size_t alen, blen;
    const char *p = next_arg(args, end, &a, &alen);
    next_arg(p, end, &b, &blen);
    while (blen > 0 && (*b == '@' || *b == '%' || *b == '"')) {
        b++;
        blen--;
    }
    while (blen > 0 && b[blen - 1] == '"')
        blen--;
    if (word_is(b, blen, "function") || word_is(b, blen, "STT_FUNC") ||
        word_is(b, blen, "gnu_indirect_function") || word_is(b, blen, "STT_GNU_IFUNC")) {
        size_t n = symbol_at(a, a + alen, &name);
        mention(ps, MENTION_TYPE_FUNCTION, name, n);
    }
}

static void directive(struct parser *ps, const char *w, size_t wlen, const char *args, const char *end)
{
    const char *a, *name;
    size_t alen;
    if (word_is(w, wlen, ".macro") || word_is(w, wlen, ".rept") || word_is(w, wlen, ".irp") ||
        word_is(w, wlen, ".irpc")) {
        ps->macro_depth++;
        return;
    }
    if (word_is(w, wlen, ".intel_syntax")) {
        next_arg(args, end, &a, &alen);
        ps->syntax = word_is(a, alen, "noprefix") ? SYNTAX_INTEL_NOPREFIX : SYNTAX_INTEL;
    } else if (word_is(w, wlen, ".att_syntax")) {
        next_arg(args, end, &a, &alen);
        ps->syntax = word_is(a, alen, "noprefix") ? SYNTAX_INTEL_NOPREFIX : SYNTAX_ATT;
    } else if (word_is(w, wlen, ".cfi_startproc")) {
        ps->cfi_open = 1;
        if (ps->line && ps->line <= ps->s->nlines)
            ps->s->lines[ps->line].cfi_start = 1;
    } else if (word_is(w, wlen, ".cfi_endproc")) {
        ps->cfi_open = 0;
    } else if (word_is(w, wlen, ".type")) {
        type_directive(ps, args, end);
    } else if (word_is(w, wlen, ".globl") || word_is(w, wlen, ".global")) {
        const char *p = args;
        while (p < end) {
            p = next_arg(p, end, &a, &alen);
            size_t n = symbol_at(a, a + alen, &name);
            mention(ps, MENTION_GLOBAL, name, n);
        }
    } else if (word_is(w, wlen, ".size")) {
        next_arg(args, end, &a, &alen);
        size_t n = symbol_at(a, a + alen, &name);
        mention(ps, MENTION_SIZE, name, n);
    } else if (data_directive(w, wlen)) {
        note_code(ps);
    } else {
        section_directive(ps, w, wlen, args, end);
    }
}

/* `call NAME`, `callq NAME@PLT`, Intel's `call NAME`: the callee's name. */
static void instruction(struct parser *ps, const char *w, size_t wlen, const char *args, const char *end)
{
    note_code(ps);
    if (!word_is(w, wlen, "call") && !word_is(w, wlen, "callq"))
        return;
    const char *p = skip_space(args, end), *name;
    size_t n = symbol_at(p, end, &name);
    /* Only a bare symbol: not *%rax, not QWORD PTR [...], not a register. */
    if (n == 0 || *name == '%' || skip_space(name + n, end) != end)
        return;
    const char *at = memchr(name, '@', n);
    if (at)
        n = (size_t)(at - name);
    if (ps->syntax == SYNTAX_INTEL_NOPREFIX) {
        static const char *const regs[] = {"rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp", "rsp",
                                           "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15", NULL};
        if (word_in(name, n, regs))
            return;
    }
    mention(ps, MENTION_CALL, name, n);
}

/* One statement: labels, then a directive, an instruction or a macro. */
static void statement(struct parser *ps, const char *p, const char *end)
{
    p = skip_space(p, end);
    while (end > p && isspace((unsigned char)end[-1]))
        end--;
    if (ps->macro_depth > 0) {
        /* Only the nesting matters inside a body. */
        const char *w;
        size_t wlen = symbol_at(p, end, &w);
        if (word_is(w, wlen, ".macro") || word_is(w, wlen, ".rept") || word_is(w, wlen, ".irp") ||
            word_is(w, wlen, ".irpc"))
            ps->macro_depth++;
        else if (word_is(w, wlen, ".endm") || word_is(w, wlen, ".endr"))
            ps->macro_depth--;
        if (ps->macro_depth == 0 && word_is(w, wlen, ".endr"))
            note_code(ps);
        note_line(ps);
        return;
    }
    for (;;) {
        const char *name;
        size_t n = symbol_at(p, end, &name);
        const char *after = name + n + (*p == '"' ? 1 : 0);
        if (n == 0 || after >= end || *after != ':' || (after + 1 < end && after[1] == ':'))
            break;
        /* Numeric labels (1:) are local: never functions. */
        if (!isdigit((unsigned char)*name))
            mention(ps, MENTION_LABEL, name, n);
        ps->pos++;
        p = skip_space(after + 1, end);
    }
    const char *w;
    size_t wlen = symbol_at(p, end, &w);
    if (wlen > 0) {
        const char *args = w + wlen;
        if (*w == '.')
            directive(ps, w, wlen, args, end);
        else
            instruction(ps, w, wlen, args, end);
        ps->pos++;
    }
    note_line(ps);
}

/* One line of assembly: comments out, statements split at `;`. */
static void parse_line(struct parser *ps, const char *line, size_t len)
{
    char *clean = malloc(len + 1);
    if (!clean) {
        ps->oom = 1;
        return;
    }
    size_t n = 0;
    int quoted = 0;
    for (size_t i = 0; i < len; i++) {
        char c = line[i];
        if (ps->in_comment) {
            if (c == '*' && i + 1 < len && line[i + 1] == '/') {
                ps->in_comment = 0;
                i++;
            }
            clean[n++] = ' ';
            continue;
        }
        if (quoted) {
            if (c == '\\' && i + 1 < len) {
                clean[n++] = c;
                c = line[++i];
            } else if (c == '"') {
                quoted = 0;
            }
            clean[n++] = c;
            continue;
        }
        if (c == '"')
            quoted = 1;
        else if (c == '/' && i + 1 < len && line[i + 1] == '*') {
            ps->in_comment = 1;
            i++;
            clean[n++] = ' ';
            continue;
        } else if (c == '#') {
            break;   /* x86 GAS: a comment to the end of the line */
        }
        clean[n++] = c;
    }
    clean[n] = '\0';   /* a statement's end may be looked at (an empty one's) */
    ps->pos = 0;
    size_t start = 0;
    quoted = 0;
    for (size_t i = 0; i <= n; i++) {
        if (i < n && clean[i] == '"')
            quoted = !quoted;
        if (i == n || (clean[i] == ';' && !quoted)) {
            statement(ps, clean + start, clean + i);
            start = i + 1;
        }
    }
    free(clean);
}

/* `# 12 "file.S" 2`: a preprocessor line marker.  Returns 1 and sets the
 * line and the file name (quoted, without quotes) when LINE is one. */
static int line_marker(const char *line, size_t len, size_t *number, const char **file, size_t *flen)
{
    const char *p = line, *end = line + len;
    if (p >= end || *p != '#')
        return 0;
    p = skip_space(p + 1, end);
    if (end - p > 4 && strncmp(p, "line", 4) == 0)
        p = skip_space(p + 4, end);
    if (p >= end || !isdigit((unsigned char)*p))
        return 0;
    size_t v = 0;
    while (p < end && isdigit((unsigned char)*p))
        v = v * 10 + (size_t)(*p++ - '0');
    p = skip_space(p, end);
    *number = v;
    *file = NULL;
    *flen = 0;
    if (p < end && *p == '"') {
        const char *q = p + 1;
        while (q < end && *q != '"')
            q += *q == '\\' ? 2 : 1;
        *file = p + 1;
        *flen = (size_t)((q < end ? q : end) - p - 1);
    }
    return 1;
}

/* The preprocessor's output, line by line, each attributed to the input
 * line it comes from (or to none, for included files). */
static void parse_preprocessed(struct parser *ps, const char *text)
{
    const char *input = NULL;
    size_t input_len = 0, next = 1;
    int in_input = 0;
    for (const char *p = text; *p && !ps->oom;) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        size_t number, flen;
        const char *file;
        if (line_marker(p, len, &number, &file, &flen)) {
            if (file && !input) {
                input = file;
                input_len = flen;
            }
            if (file)
                in_input = flen == input_len && memcmp(file, input, flen) == 0;
            next = number;
        } else {
            ps->line = in_input ? next : 0;
            parse_line(ps, p, len);
            next++;
        }
        p += len + (eol ? 1 : 0);
    }
    ps->line = 0;
}

/* Which lines a line may be inserted after, from the raw text: not inside
 * a block comment, not continued with a backslash (for the preprocessor). */
static void raw_insertable(struct asm_source *s, const struct source_text *raw, int cpp)
{
    int in_comment = 0;
    for (size_t k = 1; k <= raw->nlines; k++) {
        size_t len;
        const char *line = asm_source_text_line(raw, k, &len);
        int quoted = 0;
        for (size_t i = 0; i < len; i++) {
            char c = line[i];
            if (in_comment) {
                if (c == '*' && i + 1 < len && line[i + 1] == '/') {
                    in_comment = 0;
                    i++;
                }
            } else if (quoted) {
                if (c == '\\')
                    i++;
                else if (c == '"')
                    quoted = 0;
            } else if (c == '"') {
                quoted = 1;
            } else if (c == '/' && i + 1 < len && line[i + 1] == '*') {
                in_comment = 1;
                i++;
            } else if ((c == '#' && !cpp) || (cpp && c == '/' && i + 1 < len && line[i + 1] == '/')) {
                break;
            }
        }
        int continued = cpp && len > 0 && line[len - 1] == '\\';
        s->lines[k].insertable = !in_comment && !continued;
    }
}

/* ---- functions ------------------------------------------------------------------ */

static int by_name(const void *a, const void *b)
{
    const struct mention *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->seq > y->seq) - (x->seq < y->seq);
}

static int by_label_line(const void *a, const void *b)
{
    const struct source_function *x = a, *y = b;
    return (x->label_line > y->label_line) - (x->label_line < y->label_line);
}

static int by_global_line(const void *a, const void *b)
{
    const struct source_label *x = a, *y = b;
    return (x->line > y->line) - (x->line < y->line);
}

/* The functions among the mentions (sorted by name): typed, or global and
 * called; with a label in the input. */
static int collect_functions(struct parser *ps)
{
    struct asm_source *s = ps->s;
    struct mention *m = ps->mentions;
    for (size_t i = 0; i < ps->nmentions;) {
        size_t j = i;
        int typed = 0, global = 0, called = 0;
        const struct mention *label = NULL;
        size_t size_line = 0;
        for (; j < ps->nmentions && strcmp(m[j].name, m[i].name) == 0; j++) {
            typed |= m[j].kind == MENTION_TYPE_FUNCTION;
            global |= m[j].kind == MENTION_GLOBAL;
            called |= m[j].kind == MENTION_CALL;
            if (m[j].kind == MENTION_LABEL && !label)
                label = &m[j];
        }
        for (size_t k = i; label && k < j; k++)
            if (m[k].kind == MENTION_SIZE && m[k].line >= label->line && !size_line)
                size_line = m[k].line;
        if (label && label->line && global && !typed && !called) {
            struct source_label *more = realloc(s->other_globals, (s->nother_globals + 1) * sizeof *more);
            if (!more)
                return -1;
            s->other_globals = more;
            more[s->nother_globals++] = (struct source_label){m[i].name, label->line, label->section};
            m[i].name = NULL;
        }
        if (label && label->line && (typed || (global && called))) {
            struct source_function *more = realloc(s->funcs, (s->nfuncs + 1) * sizeof *more);
            if (!more)
                return -1;
            s->funcs = more;
            struct source_function *f = &s->funcs[s->nfuncs++];
            *f = (struct source_function){.name = m[i].name, .label_line = label->line,
                                          .section = label->section, .last_line = size_line};
            m[i].name = NULL;   /* the function owns it now */
            size_t first = ps->code_first[label->line], last = ps->code_last[label->line];
            if (first != SIZE_MAX && first < label->pos)
                f->problem = "code precedes the function's label on its line";
            else if (last != SIZE_MAX && last > label->pos)
                f->start_after = label->line - 1;   /* `f: push %rbx`: before the line */
            else
                f->start_after = label->line;
        }
        i = j;
    }
    if (s->nfuncs)
        qsort(s->funcs, s->nfuncs, sizeof *s->funcs, by_label_line);
    if (s->nother_globals)
        qsort(s->other_globals, s->nother_globals, sizeof *s->other_globals, by_global_line);
    return 0;
}

/* Each function's span, whether it carries CFI, and where .cfi_endproc goes. */
static void place_functions(struct asm_source *s)
{
    for (size_t i = 0; i < s->nfuncs; i++) {
        struct source_function *f = &s->funcs[i];
        size_t size_line = f->last_line;
        size_t next = i + 1 < s->nfuncs ? s->funcs[i + 1].label_line : s->nlines + 1;
        f->last_line = size_line ? size_line : next - 1;
        /* Inside another function's span in the same section: part of it.
         * (In another section, as GCC's `foo.cold` parts, it is a range of
         * its own; GAS keeps one CFI region open per section.) */
        for (size_t j = 0; j < i && !f->problem; j++)
            if (s->funcs[j].section == f->section && f->label_line <= s->funcs[j].last_line)
                f->problem = "its label lies inside another function";
        /* CFI already: the label inside an open region, or a startproc in the span. */
        const struct source_line *before = &s->lines[f->label_line - 1];
        f->has_cfi = f->label_line > 1 && before->cfi_open;
        for (size_t k = f->label_line; k <= f->last_line && !f->has_cfi; k++)
            f->has_cfi = s->lines[k].cfi_start;
        if (f->has_cfi || f->problem)
            continue;
        const struct source_line *start = &s->lines[f->start_after];
        if (!start->insertable || start->section != f->section) {
            f->problem = "no line to put .cfi_startproc after";
            continue;
        }
        /* .cfi_endproc: before the .size line, else after the last line
         * that emits code in the function's section. */
        f->end_after = 0;
        if (size_line && size_line - 1 >= f->start_after && s->lines[size_line - 1].insertable &&
            s->lines[size_line - 1].section == f->section)
            f->end_after = size_line - 1;
        for (size_t k = f->last_line; !f->end_after && k > f->start_after; k--)
            if (s->lines[k].emits_code && s->lines[k].section == f->section && s->lines[k].insertable)
                f->end_after = k;
        if (!f->end_after)
            f->end_after = f->start_after;
    }
}

int asm_source_parse(struct asm_source *s, const struct source_text *raw, const char *preprocessed,
                     char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    struct parser ps = {.s = s, .cpp = preprocessed != NULL};
    s->nlines = raw->nlines;
    s->lines = calloc(raw->nlines + 2, sizeof *s->lines);
    ps.code_first = malloc((raw->nlines + 2) * sizeof *ps.code_first);
    ps.code_last = malloc((raw->nlines + 2) * sizeof *ps.code_last);
    if (!s->lines || !ps.code_first || !ps.code_last)
        ps.oom = 1;
    if (!ps.oom) {
        for (size_t k = 0; k < raw->nlines + 2; k++)
            ps.code_first[k] = ps.code_last[k] = SIZE_MAX;
        intern_section(&ps, ".text", 5);
        raw_insertable(s, raw, ps.cpp);
        s->lines[0].insertable = 1;   /* before the first line: in .text */
    }
    if (!ps.oom && preprocessed) {
        parse_preprocessed(&ps, preprocessed);
    } else if (!ps.oom) {
        for (size_t k = 1; k <= raw->nlines && !ps.oom; k++) {
            size_t len;
            const char *line = asm_source_text_line(raw, k, &len);
            ps.line = k;
            parse_line(&ps, line, len);
        }
    }
    if (!ps.oom) {
        ps.line = 0;
        fill_lines(&ps, s->nlines + 1);
        if (ps.nmentions)
            qsort(ps.mentions, ps.nmentions, sizeof *ps.mentions, by_name);
        if (collect_functions(&ps) != 0)
            ps.oom = 1;
        else
            place_functions(s);
    }
    for (size_t i = 0; i < ps.nmentions; i++)
        free(ps.mentions[i].name);
    free(ps.mentions);
    free(ps.code_first);
    free(ps.code_last);
    if (ps.oom) {
        asm_source_release(s);
        return error_set(err, errlen, "out of memory");
    }
    return 0;
}

void asm_source_release(struct asm_source *s)
{
    for (size_t i = 0; i < s->nfuncs; i++)
        free(s->funcs[i].name);
    for (size_t i = 0; i < s->nother_globals; i++)
        free(s->other_globals[i].name);
    free(s->other_globals);
    for (size_t i = 0; i < s->nsections; i++)
        free(s->sections[i]);
    free(s->funcs);
    free(s->sections);
    free(s->lines);
    memset(s, 0, sizeof *s);
}
