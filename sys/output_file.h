/* SPDX-License-Identifier: Apache-2.0 */
/*
 * output_file: the files a tool writes, replaced safely.
 *
 * An output path may name nothing (the file is created), a regular file (it
 * is replaced), or a symbolic link that leads to either: the link is
 * followed and the file it leads to is written, the link itself is kept
 * (what `cc -o` and a shell's `>` do).  Anything else — a device such as
 * /dev/null, a FIFO, a socket, a directory — is refused, and a tool checks
 * its outputs with output_target before any work.
 *
 * New contents go to a temporary file next to the target (TARGET.tmp-XXXXXX
 * plus a suffix, in the same directory, so the rename is atomic), which is
 * registered with sys/signals for removal if the tool is interrupted,
 * and renamed over the target only once complete.  A failure or an
 * interruption leaves an existing file as it was and no temporary file.
 * The new file gets the mode of the file it replaces, else what the umask
 * allows.
 *
 * Errors fill ERR with the reason, not the path (callers print
 * `tool: OUT: reason`), and return -1 (sys/error.h).
 */
#ifndef DWCHECK_OUTPUT_FILE_H
#define DWCHECK_OUTPUT_FILE_H

#include <stddef.h>
#include <stdio.h>

/*
 * Where the output PATH is written: PATH, or the file its symbolic links
 * lead to.  Returns a string the caller frees, or NULL with a reason in ERR
 * (`not a regular file (character device)`, a loop of links, out of memory).
 */
char *output_target(const char *path, char *err, size_t errlen);

/*
 * For a directory a tool writes NAME into (dwcheck --html=DIR): DIR must be
 * a directory (or a link to one) or not exist, and DIR/NAME a valid output.
 * Returns 0, or -1 with ERR, which then starts with the path at fault
 * (`DIR: not a directory (FIFO)`).
 */
int output_dir_check(const char *dir, const char *name, char *err, size_t errlen);

/* A temporary file that becomes an output. */
struct output_temp {
    char *path;          /* TARGET.tmp-XXXXXX + suffix, registered with sys/signals */
    int fd;              /* open for writing; the caller closes it (or fdopens it) */
};

/*
 * Create the temporary file for TARGET (a path output_target returned),
 * named with SUFFIX at its end (".c", "" ...).  Returns 0, or -1 with ERR.
 */
int output_temp_create(struct output_temp *t, const char *target, const char *suffix, char *err,
                       size_t errlen);

/*
 * Rename T (complete, its fd closed) over TARGET, which must still be a
 * regular file or absent.  Returns 0, or -1 with ERR (the temporary file is
 * removed then).  T is released either way.
 */
int output_temp_commit(struct output_temp *t, const char *target, char *err, size_t errlen);

/* Remove T's file and release T. */
void output_temp_discard(struct output_temp *t);

/* Write SIZE bytes of TEXT to the output PATH.  Returns 0, or -1 with ERR. */
int output_write(const char *path, const char *text, size_t size, char *err, size_t errlen);

/* Write the output PATH with WRITER(F, ARG), which returns 0 or -1 (ERR is
 * then a generic write error).  Returns 0, or -1 with ERR. */
int output_write_stream(const char *path, int (*writer)(FILE *f, const void *arg), const void *arg,
                        char *err, size_t errlen);

#endif
