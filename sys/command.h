/* SPDX-License-Identifier: Apache-2.0 */
/*
 * command: the system's C compiler, and child processes.
 *
 * The compiler is $CC split at blanks (`ccache gcc` works), `cc` when $CC
 * is unset or empty.  dwcompile compiles eh_elfs with it; dwsynth annotate
 * assembles and links sources with it.
 *
 * A child runs bounded and in its own process group:
 *   - its address space is limited (RLIMIT_AS, inherited by the assembler or
 *     cc1 the driver starts) to $DWCHECK_CC_MEMORY MiB, 4096 by default, and
 *     its time to $DWCHECK_CC_SECONDS seconds, 120 by default (a wall-clock
 *     deadline, and RLIMIT_CPU for each of its processes); 0 lifts a limit;
 *   - at the deadline, and when the tool is interrupted (sys/signals),
 *     its whole process group is stopped: SIGTERM, then SIGKILL;
 *   - its stdin is /dev/null, and it dies with the tool (PR_SET_PDEATHSIG).
 * One child at a time.
 */
#ifndef DWCHECK_COMMAND_H
#define DWCHECK_COMMAND_H

#include <stddef.h>

/* The compiler's words, a NULL-terminated vector the caller owns (free it
 * with command_words_free); its length in *N.  NULL when out of memory. */
char **command_cc(size_t *n);
void command_words_free(char **words);

/* How a child ended. */
enum command_end {
    COMMAND_EXITED,          /* with STATUS (0: success) */
    COMMAND_NOT_RUN,         /* it could not be started (exit status 127, or fork failed) */
    COMMAND_KILLED,          /* by signal SIGNAL */
    COMMAND_OUT_OF_MEMORY,   /* failed at its memory limit: its processes' peak
                                resident size reached a quarter of the limit */
    COMMAND_TIMED_OUT,       /* stopped at its time limit */
};

struct command_result {
    enum command_end end;
    int status;                       /* COMMAND_EXITED */
    int signal;                       /* COMMAND_KILLED */
    unsigned long long memory_mib;    /* the limits it ran under (0: none) */
    unsigned long long seconds;
};

/*
 * Run ARGV (found on PATH) and wait for it, within the limits above.  Its
 * stdout goes to /dev/null when QUIET_STDOUT; its stderr to the file
 * STDERR_LOG when not NULL (created or truncated), else ours.  How it ended
 * goes to *RESULT when not NULL.  Returns its exit status (127: it could not
 * be run), or -1 when it could not be started or waited for, was killed, or
 * stopped at a limit.
 */
int command_run(char *const *argv, int quiet_stdout, const char *stderr_log,
                struct command_result *result);

/*
 * Why a child failed, as a sentence about WHO (`the assembler`):
 * `the assembler exceeded its memory limit (4 GiB)`, `... was stopped after
 * 120 s`, `... was killed by signal 11 (Segmentation fault)`, `... could not
 * be run`, `... failed (exit status 1)`.  Returns BUF.
 */
const char *command_failure(const struct command_result *r, const char *who, char *buf, size_t len);

#endif
