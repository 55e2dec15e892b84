/*
 * command: the system's C compiler, and child processes.
 *
 * The compiler is $CC split at blanks (`ccache gcc` works), `cc` when $CC
 * is unset or empty.  dwcompile compiles eh_elfs with it; dwsynth annotate
 * assembles and links sources with it.
 */
#ifndef DWCHECK_COMMAND_H
#define DWCHECK_COMMAND_H

#include <stddef.h>

/* The compiler's words, a NULL-terminated vector the caller owns (free it
 * with command_words_free); its length in *N.  NULL when out of memory. */
char **command_cc(size_t *n);
void command_words_free(char **words);

/*
 * Run ARGV (found on PATH) and wait for it.  Its stdout goes to /dev/null
 * when QUIET_STDOUT; its stderr to the file STDERR_LOG when not NULL
 * (created or truncated), else ours.  Returns its exit status (127: it
 * could not be run), or -1 when it could not be started or waited for, or
 * was killed.
 */
int command_run(char *const *argv, int quiet_stdout, const char *stderr_log);

#endif
