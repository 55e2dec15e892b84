/* SPDX-License-Identifier: Apache-2.0 */
/*
 * excerpt: the code around a finding, with both tables' rows, as data.
 *
 * An excerpt is up to EXCERPT_ROWS instructions of one function: the
 * finding's address (its row marked `here`), up to four instructions
 * before it and four after.  Each row holds the address, the instruction's
 * text, and the rules of the columns a reader checks (EXCERPT_COLUMNS: the
 * CFA, the callee-saved registers, ra) from the DWARF row and from the row
 * synthesis derives there.  Renderings print each rule as one cell
 * (excerpt_rule_text); nothing is ever split back out of text.
 *
 * An excerpt is a flat value (it travels inside a finding, through pipes):
 * rules keep their kind, register and offset, not an expression's bytes,
 * which belong to the file's mapping; expressions print as `exp`/`vexp`.
 * Gathering one runs synthesis over the function again and decodes its
 * instructions' text: only this module of verify/ asks for that text.
 */
#ifndef DWCHECK_EXCERPT_H
#define DWCHECK_EXCERPT_H

#include <stddef.h>
#include <stdint.h>

#define EXCERPT_BEFORE 4            /* instructions shown before the finding's */
#define EXCERPT_AFTER 4             /* and after it */
#define EXCERPT_ROWS (EXCERPT_BEFORE + 1 + EXCERPT_AFTER)

/* The columns an excerpt row shows, in order: CFA, rbx, rbp, r12-r15, ra. */
#define EXCERPT_COLUMNS "CFA rbx rbp r12 r13 r14 r15 ra"
#define EXCERPT_NCOLUMNS 8

/* One rule of a row: an unwind_rule's kind (a cfa_rule_kind in column 0,
 * a reg_rule_kind elsewhere), register and offset. */
struct excerpt_rule {
    uint8_t kind;
    uint16_t reg;
    int64_t offset;
};

struct excerpt_row {
    uint64_t address;
    char insn[64];                  /* "push rbx"; "?" when its bytes cannot be read */
    uint8_t here;                   /* the finding's address */
    uint8_t has_dwarf;              /* an FDE covers the address (dwarf[] is its row) */
    uint8_t has_synth;              /* synthesis reached it (synth[] is its row) */
    struct excerpt_rule dwarf[EXCERPT_NCOLUMNS];
    struct excerpt_rule synth[EXCERPT_NCOLUMNS];
};

struct excerpt {
    uint8_t nrows;                  /* 0: no excerpt */
    struct excerpt_row rows[EXCERPT_ROWS];
};

struct synth_program;
struct fde_lookup;

/*
 * Fill X with the code of function FUNC (an index into PROG's functions)
 * around ADDRESS, the DWARF rows looked up in DW.  When no instruction of
 * the function is at ADDRESS, X holds its last EXCERPT_BEFORE instructions
 * and no row is marked.  X has nrows 0 when synthesis cannot run over the
 * function at all.
 */
void excerpt_gather(struct excerpt *x, struct synth_program *prog, struct fde_lookup *dw, size_t func,
                    uint64_t address);

/* The text of instruction IN of PROG's file ("push rbx"), as excerpt rows
 * show it; "?" when its bytes cannot be read.  Writes at most SIZE bytes. */
struct ir_insn;
void excerpt_insn_text(struct synth_program *prog, const struct ir_insn *in, char *buf, size_t size);

/* Text of RULE in column COLUMN (0 the CFA), as findings print it: "rsp+8",
 * "c-16", "r0 (rax)", "unchanged", "undefined" ... (semantics/print/table_print's
 * table_print_reg_rule_plain).  Writes at most SIZE bytes to BUF, NUL included. */
void excerpt_rule_text(char *buf, size_t size, const struct excerpt_rule *rule, unsigned column);

#endif
