/* SPDX-License-Identifier: Apache-2.0 */
/*
 * asm_source: what an x86_64 GAS source says, line by line.
 *
 * A source_text is the file as read: its bytes and where each line starts,
 * terminators included, so that a rewrite can copy every line it does not
 * touch byte for byte (CRLF, a last line without a newline).
 *
 * asm_source_parse reads the statements of the file — the file itself for a
 * `.s`, the C preprocessor's output for a `.S` (its line markers map every
 * statement back to the line of the input it came from, so that `ENTRY(f)`
 * style macros are seen expanded) — and records, per input line, the facts
 * an annotator needs: the section and the syntax in force at its end,
 * whether it emits bytes, whether a line may be inserted after it, whether
 * it opens CFI; and the functions: `.type NAME, @function` symbols and
 * global labels that a `call` targets, with where their CFI would start and
 * end.
 *
 * Invariants: lines are numbered from 1; line 0 means "before the first
 * line".  A line is insertable only when a directive placed after it is
 * assembled exactly once, right after the line's own bytes: not inside a
 * `.macro`/`.rept`/`.irp` body, a block comment or a continued line, and
 * not from another file.  The parser never evaluates conditionals or
 * expands GAS macros: a macro invocation is one opaque statement that may
 * emit code.
 */
#ifndef DWCHECK_ASM_SOURCE_H
#define DWCHECK_ASM_SOURCE_H

#include <stddef.h>
#include <stdint.h>

struct source_text {
    char *bytes;
    size_t size;
    size_t *line_start;      /* line k (1-based) is [line_start[k], line_start[k + 1]) */
    size_t nlines;
};

/* Read PATH.  Returns 0, or -1 with a reason in ERR. */
int asm_source_text_read(struct source_text *t, const char *path, char *err, size_t errlen);
void asm_source_text_release(struct source_text *t);

/* Line K's bytes without its terminator, and the terminator ("\r\n", "\n"
 * or "" for a last line without one). */
const char *asm_source_text_line(const struct source_text *t, size_t k, size_t *len);
const char *asm_source_text_eol(const struct source_text *t, size_t k);

enum asm_syntax { SYNTAX_ATT, SYNTAX_INTEL, SYNTAX_INTEL_NOPREFIX };

struct source_line {
    uint32_t section;        /* index in asm_source.sections, at the end of the line */
    uint8_t syntax;          /* enum asm_syntax at the end of the line */
    uint8_t insertable;      /* a line may be inserted after this one */
    uint8_t emits_code;      /* an instruction, a macro invocation or data */
    uint8_t cfi_open;        /* inside .cfi_startproc ... .cfi_endproc at its end */
    uint8_t cfi_start;       /* has a .cfi_startproc */
};

struct source_function {
    char *name;
    size_t label_line;       /* the line defining the label */
    uint32_t section;        /* the section the label is in */
    size_t last_line;        /* the last line of its span (its .size line, else the
                                line before the next function's label, else the last) */
    size_t start_after;      /* .cfi_startproc goes after this line */
    size_t end_after;        /* .cfi_endproc goes after this line */
    int has_cfi;             /* it carries CFI already (left as it is) */
    const char *problem;     /* why its CFI cannot be placed, or NULL (static string) */
};

/* A global label that is no function (neither typed nor called). */
struct source_label {
    char *name;
    size_t line;
    uint32_t section;
};

struct asm_source {
    struct source_line *lines;   /* lines[1 .. nlines] */
    size_t nlines;
    struct source_function *funcs;   /* in source order */
    size_t nfuncs;
    struct source_label *other_globals;   /* in source order */
    size_t nother_globals;
    char **sections;             /* names; 0 is ".text" */
    size_t nsections;
};

/*
 * Parse the statements of RAW.  PREPROCESSED (NUL-terminated, or NULL for a
 * `.s`) is the C preprocessor's output for RAW; its first line marker names
 * the input.  Returns 0, or -1 with a reason in ERR (out of memory).
 */
int asm_source_parse(struct asm_source *s, const struct source_text *raw, const char *preprocessed,
                     char *err, size_t errlen);
void asm_source_release(struct asm_source *s);

#endif
