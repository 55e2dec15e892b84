/* SPDX-License-Identifier: Apache-2.0 */
/*
 * asm_build: the system's compiler driver, run on an assembly source.
 *
 * An asm_build owns a temporary directory and everything made in it:
 * preprocessed text, objects assembled with line information (`-g -c`), and
 * executables linked from them for analysis only — never run — so that jump
 * tables in .rodata and calls are relocated: `-nostdlib -no-pie`, entry 0.
 * A symbol the object calls but does not define gets a stub function of its
 * name (a `ret`), so that synthesis sees calls to abort or exit as calls
 * that never return; what still has no definition resolves to 0.
 * asm_build_release removes the directory; so does an interruption
 * (SIGINT, SIGTERM, SIGHUP: the directory and every file named by
 * asm_build_file are registered with sys/signals).
 *
 * The compiler is $CC (split at blanks; default `cc`).  The user's flags
 * (-I, -D, -Wa,... after `--`) go to every compilation, never to the link.
 * Sources written into the temporary directory (copies of the input with
 * lines added) also get `-iquote DIR -Wa,-IDIR` for the input's directory, so
 * that their #include "..." and .include find what the input's would.
 *
 * Diagnostics: assembling the user's own file lets the compiler write to the
 * user's stderr (the assembler's messages are the report); every other step
 * keeps its messages and hands them back in ERR when it fails.
 */
#ifndef DWCHECK_ASM_BUILD_H
#define DWCHECK_ASM_BUILD_H

#include <stddef.h>

struct asm_build {
    char *dir;                 /* the temporary directory */
    char **cc;                 /* $CC split at blanks, NULL-terminated */
    size_t ncc;
    char *const *flags;        /* the user's flags (borrowed) */
    size_t nflags;
    char *source_dir;          /* the input's directory */
    char **made;               /* files made in DIR, removed on release */
    size_t nmade;
};

/* Make the temporary directory.  SOURCE is the input's path; FLAGS are
 * borrowed for the build's life.  Returns 0, or -1 with a reason in ERR. */
int asm_build_init(struct asm_build *b, const char *source, char *const *flags, size_t nflags,
                   char *err, size_t errlen);
void asm_build_release(struct asm_build *b);

/* DIR/NAME, registered for removal (once, however often it is asked for);
 * NULL when out of memory.  Owned by B. */
const char *asm_build_file(struct asm_build *b, const char *name);

/* The outcome of a compiler step. */
enum build_status { BUILD_OK = 0, BUILD_REJECTED = 1, BUILD_FAILED = -1, BUILD_STOPPED = -2 };

/* How a source is compiled: BUILD_COPY, it is a copy in DIR (gets the
 * input directory's include flags); BUILD_QUIET, the compiler's messages
 * are kept (in ERR on failure) rather than shown on stderr. */
#define BUILD_COPY 1u
#define BUILD_QUIET 2u

/*
 * Assemble SRC into OBJ with line information.  Returns BUILD_OK;
 * BUILD_REJECTED when the compiler reports errors (with BUILD_QUIET its
 * messages are in ERR); BUILD_FAILED when it cannot run (reason in ERR);
 * BUILD_STOPPED when it was stopped at its memory or time limit, or killed
 * (sys/command.h), ERR the whole reason (`the assembler exceeded its
 * memory limit (4 GiB)`).
 */
enum build_status asm_build_assemble(struct asm_build *b, const char *src, const char *obj,
                                     unsigned how, char *err, size_t errlen);

/* Run the C preprocessor on SRC (a `.S`) into OUT.  Same returns. */
enum build_status asm_build_preprocess(struct asm_build *b, const char *src, const char *out,
                                       unsigned how, char *err, size_t errlen);

/* Link OBJ into the analysis executable EXE.  Same returns. */
enum build_status asm_build_link(struct asm_build *b, const char *obj, const char *exe, char *err,
                                 size_t errlen);

/* Whether PATH names a source the preprocessor must see first (`.S`, `.sx`). */
int asm_build_needs_cpp(const char *path);

#endif
