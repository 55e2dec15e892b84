/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cc_build: the generated C of an eh_elf compiled to a shared object, put
 * in place atomically.
 *
 * The compiler is the system's (sys/command: $CC, else cc), run bounded
 * in its own process group with
 *   $CC -O2 -fPIC -shared -fno-asynchronous-unwind-tables -o TMP C
 * where TMP is in a directory of its own beside the target
 * (TARGET.tmp-XXXXXX, mode 0700, created under the target directory's
 * descriptor and locked while it lives: runtime/trusted_path.h), renamed
 * over the target only once the compiler succeeded.  A failure or an
 * interruption leaves an existing target as it was and no temporary; a
 * run killed outright (SIGKILL) leaves its directory, which the next build
 * of the same target removes.  (The eh_elf needs no unwind tables of its
 * own: it is what unwinds.)
 *
 * Reproducible: the compiler reads C under a fixed name, eh_elf.c (a
 * symbolic link in that directory), since it writes its input's name into
 * the object; the same C and compiler give the same bytes, whatever the
 * temporaries' names and the target's.
 *
 * Ownership: the caller keeps its C file and the target path; nothing is
 * allocated past the call.
 */
#ifndef DWCHECK_CC_BUILD_H
#define DWCHECK_CC_BUILD_H

#include <stddef.h>

/* What cc_build_shared's failure is about. */
enum cc_build_failure {
    CC_BUILD_TARGET = -1,      /* the output: its temporary file or the rename */
    CC_BUILD_COMPILER = -2,    /* the compilation: the compiler failed, or out of memory */
};

/*
 * Compile C_PATH into TARGET (a path output_target returned).  Returns 0,
 * or an enum cc_build_failure with the reason in ERR: the output's
 * (`cannot create ...`), or a sentence about the compiler (`the C compiler
 * (cc) failed on the generated code`, `... exceeded its memory limit (4
 * GiB)`, `... was stopped after 120 s`).
 */
int cc_build_shared(const char *c_path, const char *target, char *err, size_t errlen);

#endif
