/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cache_dir: where dwperf keeps what it makes for later runs — eh_elfs by
 * build-id, symbol tables, the vDSO's copy: $XDG_CACHE_HOME/dwcheck/eh_elf,
 * else ~/.cache/dwcheck/eh_elf, or --cache=DIR.
 *
 * An eh_elf is code, and a symbol table names frames: the cache is used
 * only when it passes the trust rule (runtime/trusted_path.h: the directory
 * and every one above it owned by the user or root and not writable by
 * group or others; /tmp fails), and is created so (mode 0700).  A cache
 * that fails is not used at all, said once on stderr
 * (`dwperf: DIR: not used as a cache: REASON`): the run goes on without
 * one — eh_elfs neither compiled nor taken from it, symbol tables built
 * each time, no copy of the vDSO — whether DIR is the default or named with
 * --cache (a profile is still worth having; the runtime refuses the cache's
 * eh_elfs on its own too).
 *
 * Everything is written under the directory's descriptor, opened once:
 * temporaries made with O_EXCL and O_NOFOLLOW under random names, renamed
 * into place (a link there is replaced, never written through), entries
 * read with O_NOFOLLOW and only when they pass the rule (another user's
 * file is not read).  The first open removes what killed runs left.
 */
#ifndef DWCHECK_PROFILE_CACHE_DIR_H
#define DWCHECK_PROFILE_CACHE_DIR_H

#include <stddef.h>

/* The default cache directory, written into BUF (LEN bytes); NULL when
 * neither variable names an absolute directory. */
const char *cache_dir_default(char *buf, size_t len);

/* DIR (may be NULL: -1) opened as the cache: a descriptor for openat, the
 * same one for every call with the same DIR; -1 when DIR fails the rule
 * (said once, above). */
int cache_dir_open(const char *dir);

/* The entry NAME of the cache open at DIRFD, for reading when it is a
 * regular file passing the rule (not a link, not another user's): a
 * descriptor, or -1. */
int cache_dir_read(int dirfd, const char *name);

/* Write SIZE bytes at DATA as the entry NAME of the cache open at DIRFD
 * (through a temporary renamed into place).  0, or -1. */
int cache_dir_write(int dirfd, const char *name, const void *data, size_t size);

#endif
