/* SPDX-License-Identifier: Apache-2.0 */
/*
 * function_index: which address ranges of a binary are functions to synthesise,
 * and what their names are.
 *
 * Sources, in order of trust: FDE ranges (the compiler's own word), STT_FUNC
 * symbols for code no FDE covers, and the 16-byte stubs of .plt, .plt.got
 * and .plt.sec (named `sym@plt` from the .rela.plt relocations).  The same
 * index answers "which function is at address A" for call targets, so the
 * interpreter can recognise calls to functions that never return.
 *
 * Every range synthesised lies in code the file holds (object/code_bounds):
 * FDEs whose range is not code are left out (cfi_reader.h), symbols that
 * claim more are flawed, and the functions synthesised do not overlap, so
 * that decoding them all reads each byte of code at most once.
 */
#ifndef DWCHECK_FUNCTION_INDEX_H
#define DWCHECK_FUNCTION_INDEX_H

#include <stddef.h>
#include <stdint.h>

#include "object/elf_file.h"
#include "semantics/cfi_reader.h"

enum function_source { FUNC_FROM_FDE, FUNC_FROM_SYMBOL, FUNC_FROM_PLT };

struct function_range {
    uint64_t lo, hi;               /* [lo, hi) */
    const char *name;              /* borrowed from the ELF file or the index; may be "" */
    uint8_t source;                /* enum function_source */
    const char *flaw;              /* why it cannot be synthesised (bogus symbol, overlap), or NULL */
    uint64_t lsda;                 /* the FDE's language-specific data (landing pads), or 0 */
    const struct eh_frame_fde *fde;     /* FUNC_FROM_FDE: the FDE (borrowed), else NULL */
};

struct named_address {
    uint64_t addr, size;
    const char *name;
    int noreturn;                  /* function_name_is_noreturn(name), once */
};

struct function_index {
    struct function_range *funcs;  /* sorted by lo */
    size_t nfuncs;
    struct named_address *names;   /* symbols and PLT stubs, sorted by addr */
    size_t nnames;
    char *plt_names;               /* storage for "sym@plt" strings */
};

/*
 * Build the index for EF.  EH (may be NULL) supplies the FDE ranges.
 * Returns 0, or -1 with a reason in ERR: out of memory, unreadable symbols,
 * or a section header that claims bytes past the end of the file, or code
 * that no executable segment holds (code_bounds_check_sections).
 */
int function_index_build(struct function_index *ix, struct elf_file *ef,
                         const struct cfi_section *eh, char *err, size_t errlen);
void function_index_release(struct function_index *ix);

/* Index in ix->funcs of the function whose range holds ADDR, or (size_t)-1. */
size_t function_index_at(const struct function_index *ix, uint64_t addr);

/* The name of the symbol or PLT stub starting at ADDR (or containing it when
 * it has a size), or NULL. */
const char *function_index_name_at(const struct function_index *ix, uint64_t addr);

/* Whether that name is one of a function that never returns
 * (function_name_is_noreturn, computed when the index is built). */
int function_index_noreturn_at(const struct function_index *ix, uint64_t addr);

/* Whether a call to a function named NAME never returns (exit, abort, the
 * C++ throw helpers, __stack_chk_fail ...).  NAME may carry "@plt". */
int function_name_is_noreturn(const char *name);

#endif
