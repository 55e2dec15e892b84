/* SPDX-License-Identifier: Apache-2.0 */
/*
 * source_rewrite: a source with whole lines inserted, every other byte kept.
 *
 * The rewrite copies each line of the input byte for byte (its terminator
 * included: CRLF stays CRLF) and puts the inserted text after the lines it
 * belongs to.  The only byte ever added to an input line is the terminator
 * of a last line that had none, when text goes after it.  It also tells,
 * for each output line, which input line it is, so that addresses the
 * assembler maps to output lines can be reported as input lines.
 */
#ifndef DWCHECK_SOURCE_REWRITE_H
#define DWCHECK_SOURCE_REWRITE_H

#include <stddef.h>

#include "asm_source.h"

/* Text (whole lines) to put after input line AFTER_LINE (0: before line 1). */
struct insertion {
    size_t after_line;
    const char *text;
};

struct rewritten {
    char *text;
    size_t size;
    size_t *input_line;      /* per output line (1-based): its input line, 0 if inserted */
    size_t nlines;
};

/*
 * RAW with INSERTIONS (in any order; those after the same line keep their
 * order).  Returns 0 (release OUT with source_rewrite_release), or -1 when out of
 * memory.
 */
int source_rewrite(struct rewritten *out, const struct source_text *raw,
                   const struct insertion *insertions, size_t n);
void source_rewrite_release(struct rewritten *r);

/* The input line of output line K, or 0. */
size_t source_rewrite_input_line(const struct rewritten *r, size_t k);

#endif
