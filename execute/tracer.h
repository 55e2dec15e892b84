/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tracer: a program run under ptrace, every instruction of it single-stepped
 * and seen (execute/frame_watch), for `dwcheck --run`.
 *
 * The program is forked and exec'ed with PTRACE_TRACEME; its stdin, stdout
 * and stderr are dwcheck's own, untouched.  Its threads are followed
 * (PTRACE_O_TRACECLONE), each with its own shadow stack; its execs are
 * followed too (PTRACE_O_TRACEEXEC: the new image is checked, the frames of
 * the old one forgotten).  Its forks and vforks (PTRACE_O_TRACEFORK,
 * _TRACEVFORK) are detached at their first stop and run untraced, as they
 * would without dwcheck.  Signals it receives are delivered on the next
 * resume, as they would have been; a signal handler is entered as a frame.
 * A group-stop (SIGSTOP and the terminal's stop signals) is not kept: the
 * program runs on.  PTRACE_O_EXITKILL: should dwcheck die, so does the
 * traced program.  After MAX_STEPS steps (0: no bound) every thread is
 * detached and the program runs to its end at full speed.
 *
 * With --only, and by default (the functions the static audit of each
 * object leaves in doubt: execute/audit_select), threads run at full speed
 * (PTRACE_CONT) and are stepped only inside the selected functions
 * (execute/selective), from the int3 at their entries.  To run the instruction under an int3 of ours, a thread
 * steps over it with the original byte back while every other thread of
 * the process is stopped (a SIGSTOP of dwcheck's, never delivered; their
 * stops are parked and handled after), so that no thread runs past a
 * selected entry unseen; a thread that has ended (a main thread's
 * pthread_exit) is not waited for.  A fork's child gets its original bytes back
 * before it is let go; a vfork's shares its parent's memory and is let go
 * as it is (it must exec before it runs a selected function).  The int3s
 * are written back when --max-steps is reached.  dwcheck
 * ignores SIGINT and SIGQUIT while the program runs: the terminal's keys
 * reach the program, as a shell's would.
 */
#ifndef DWCHECK_TRACER_H
#define DWCHECK_TRACER_H

#include <stddef.h>
#include <stdint.h>

#include "audit_select.h"
#include "run_result.h"

struct tracer_options {
    uint64_t max_steps;            /* 0: no bound */
    char *const *only;             /* --only: the functions stepped (execute/selective); */
    size_t nonly;                  /* none: ... */
    struct audit_select *audit;    /* ... those this audit leaves in doubt (borrowed), or
                                      NULL: every instruction (--step-all) */
    char missing[256];             /* out: an --only name no object defined, or "" */
};

/* Run ARGV (ARGV[0] looked up in PATH) to its end and fill RESULT (its
 * figures, records and the program's exit status).  Returns 0; -1 with a
 * reason in ERR when it could not run (the program cannot be executed,
 * ptrace is refused). */
int tracer_run(char *const *argv, struct tracer_options *opt, struct run_result *result, char *err,
               size_t errlen);

#endif
