/* SPDX-License-Identifier: Apache-2.0 */
/*
 * trusted_path: where code and cached results may come from, how files are
 * put there, and how the runtime says what it refused.
 *
 * The rule (OpenSSH's StrictModes).  A file is trusted when it is owned by
 * the effective user or by root and is not writable by its group or by
 * others, and so is every directory on its canonical path, from the one
 * holding it up to /.  A sticky directory writable by others (/tmp) fails
 * it, unless the environment asks otherwise: DWUNWIND_TRUST_STICKY=1 (read
 * once, with secure_getenv: never in a set-user-ID program) admits a sticky
 * directory owned by the user or root, where others may add entries but
 * not rename or remove the user's; every entry on the path is still
 * checked in turn (a file planted in /tmp by another user is theirs, and
 * refused).  Nothing of another user is taken either way.  Symbolic links are
 * resolved first (realpath, or /proc/self/fd for a descriptor): what is
 * checked is where the file is, each directory then opened from / with
 * O_NOFOLLOW, so that a path changed while it is checked fails.  A
 * descriptor is checked, not a name: the caller opens the file, checks the
 * descriptor (the file must still be at the canonical path checked) and
 * uses that descriptor (the runtime hands it to dlopen as /proc/self/fd/N).
 *
 * Refusals.  The runtime reports each file it refuses once, as
 * "FILE: not loaded: REASON": to the callback set with
 * dwu_set_error_callback (dwunwind.h), else to the log DWUNWIND_LOG names
 * ("stderr", or a file, appended to, never through a symbolic link; not
 * read by a set-user-ID or set-group-ID program), else nowhere: nothing is
 * printed to a program's stderr unless asked for.  A refusal said nowhere
 * is not counted as said: a program that sets the callback after the
 * library was loaded hears it at its next dwu_init.
 *
 * Temporaries.  A file or directory being made in a directory D (a cache
 * entry, a compiler's output) is NAME.tmp-XXXXXX[SUFFIX] there: created with
 * O_EXCL and O_NOFOLLOW (a directory: mkdirat, 0700) under D's descriptor,
 * under a random name, and locked (flock) by its maker until it is renamed
 * into place or removed.  A run killed with SIGKILL leaves it; the next
 * run's sweep removes such leftovers: its own (owned by the effective
 * user), unlocked (their maker is gone), and not empty or untouched for
 * DWU_TEMP_STALE_SECONDS (a maker locks its temporary right after creating
 * it, so a young empty one may be a maker's between the two).
 *
 * Errors fill WHY (the reason, naming the directory or file at fault) and
 * return -1.  libc only: this is part of libdwunwind.
 */
#ifndef DWUNWIND_TRUSTED_PATH_H
#define DWUNWIND_TRUSTED_PATH_H

#include <dirent.h>
#include <limits.h>
#include <stddef.h>
#include <sys/stat.h>

#define DWU_TEMP_STALE_SECONDS 10

/* The rule on one file's status ST (DIR: a directory, else a regular file
 * is required).  0, or -1 with WHY ("owned by uid 1001, neither uid 0 nor
 * root" ...), without the file's name. */
int dwu_trusted_stat(const struct stat *st, int dir, char *why, size_t size);

/* 1 when DWUNWIND_TRUST_STICKY=1 admits sticky directories (see the rule). */
int dwu_trusted_sticky(void);

/* The directory DIR (absolute or relative, links resolved) opened for
 * reading (O_DIRECTORY, O_CLOEXEC) when it and every directory above it
 * pass the rule.  CREATE: missing directories are made on the way down,
 * mode 0700.  The descriptor, or -1 with WHY. */
int dwu_trusted_dir_open(const char *dir, int create, char *why, size_t size);

/* The regular file open on FD passes the rule, and so does each directory
 * of where it is (its canonical path: /proc/self/fd/FD, else PATH's, which
 * may be NULL), that path still naming FD's file.  0, or -1 with WHY. */
int dwu_trusted_fd(int fd, const char *path, char *why, size_t size);

/* PATH, opened (read-only, O_NONBLOCK) and checked by dwu_trusted_fd. */
int dwu_trusted_path(const char *path, char *why, size_t size);

/* The entry NAME of directory DIRFD opened read-only, never through a
 * symbolic link (O_NOFOLLOW), when it is a regular file passing the rule
 * (the directory itself is the caller's to have checked).  The descriptor,
 * or -1 with WHY and errno (ENOENT when there is no such entry). */
int dwu_trusted_openat(int dirfd, const char *name, char *why, size_t size);

/* Report the refusal of the file PATH for WHY (see Refusals): once per PATH
 * in the life of the process. */
void dwu_trusted_report_refusal(const char *path, const char *why);

/* A temporary file or directory in a directory (see Temporaries). */
struct dwu_trusted_temp {
    int fd;                       /* open, locked: read-write for a file, O_DIRECTORY for a directory */
    int dir;
    char name[NAME_MAX + 1];      /* its name in the directory */
};

/* Create BASE.tmp-XXXXXX SUFFIX (SUFFIX may be "") in DIRFD: a file (mode
 * 0600), or a directory when DIR (0700).  0, or -1 with errno (T->fd -1). */
int dwu_trusted_temp_create(int dirfd, const char *base, const char *suffix, int dir, struct dwu_trusted_temp *t);

/* Rename the temporary file T over NAME in DIRFD (a link there is replaced,
 * never followed) and release T.  0, or -1 with errno (T then removed). */
int dwu_trusted_temp_commit(int dirfd, struct dwu_trusted_temp *t, const char *name);

/* Remove T (a directory with what it holds) and release it. */
void dwu_trusted_temp_discard(int dirfd, struct dwu_trusted_temp *t);

/* The directory holding PATH opened for reading (O_DIRECTORY), its name
 * in it in *BASE (a pointer into PATH).  A descriptor, or -1 with errno. */
int dwu_trusted_parent_open(const char *path, const char **base);

/* Remove the leftovers of killed runs in DIRFD (see Temporaries): the
 * temporaries of BASE, or of any name when BASE is NULL.  Returns how many
 * were removed. */
int dwu_trusted_temp_sweep(int dirfd, const char *base);

/* A directory stream over the directory open at FD, from its start (on a
 * copy of FD, which stays the caller's), or NULL. */
DIR *dwu_trusted_dir_stream(int fd);

#endif
