/* SPDX-License-Identifier: Apache-2.0 */
/*
 * signals: an interrupted tool leaves nothing behind.
 *
 * A tool registers the temporary files and directories it makes
 * (sys/output_file, annotate/asm_build), and sys/command the child
 * process it waits for.  On SIGINT, SIGTERM or SIGHUP the handler
 *   1. stops the child's process group: SIGTERM first, so that a compiler
 *      driver removes its own temporary files, then SIGKILL for what is
 *      left after 2 s;
 *   2. removes the registered files, then the registered directories;
 *   3. restores the signal's default action and raises it again: the tool
 *      dies of the signal (exit status 128+N in a shell), as it would have
 *      without the handler.
 *
 * Invariants: the handler does only async-signal-safe work (kill, waitpid,
 * nanosleep, unlink, rmdir, sigaction, raise).  The registry changes only
 * while the three signals are blocked, so the handler never sees it half
 * changed.  Registered paths are borrowed, not copied: unregister a path
 * before freeing it.  A signal that was ignored when the tool started (nohup,
 * a background job) stays ignored.  The handlers are installed on the first
 * registration or
 * signals_install; a forked child must call signals_in_child before exec.
 */
#ifndef DWCHECK_SIGNALS_H
#define DWCHECK_SIGNALS_H

#include <signal.h>
#include <sys/types.h>

/* Install the handlers (once; the registrations do it too). */
void signals_install(void);

/* Register PATH (a file, or a directory when IS_DIR) for removal on an
 * interruption.  Returns 0, or -1 when out of memory. */
int signals_register(const char *path, int is_dir);

/* Forget PATH (the same pointer as registered); nothing if it is not. */
void signals_unregister(const char *path);

/* Block SIGINT, SIGTERM and SIGHUP (and the signals of MORE, when not NULL)
 * in this thread; the previous mask in *SAVED.  signals_restore puts it back. */
void signals_block(const sigset_t *more, sigset_t *saved);
void signals_restore(const sigset_t *saved);

/* The child process group to stop on an interruption (its leader's pid),
 * or 0 for none.  One child at a time. */
void signals_set_child(pid_t pgid);

/* In a child just forked (signals blocked by signals_block): the default
 * action for the signals the handler catches, and the mask SAVED. */
void signals_in_child(const sigset_t *saved);

/*
 * Stop the process group of PID (its leader): SIGTERM, then SIGKILL to the
 * whole group when PID has not ended within 2 s.  PID is reaped; its wait
 * status in *STATUS when not NULL.  Async-signal-safe.
 */
void signals_stop_group(pid_t pid, int *status);

#endif
