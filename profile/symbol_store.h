/* SPDX-License-Identifier: Apache-2.0 */
/*
 * symbol_store: symbol tables kept in dwperf's cache between runs, and the
 * kernel's table that uses it.
 *
 * A stored table is what lookups need — the ranges of perf's descent, each
 * with its symbol's start and name, the object's segments — not the tree
 * it came from: written once (a temporary file renamed into place), read
 * back with every count and offset checked against the file (a damaged or
 * foreign file is not a table: NULL, and the table is built again).  A
 * table names frames: one is read only from a regular file, not through a
 * symbolic link, owned by the user or root and not writable by others
 * (runtime/trusted_path.h), and the cache is used only when dwperf trusts
 * it (profile/cache_dir.h).
 *
 * An object's table is kept under its build-id and a stamp of its debug
 * files (symbol_store_object): building libstdc++'s (6,000 symbols,
 * demangled, perf's tree) takes longer than unwinding a recording.
 * The kernel's symbols are the costliest case: /proc/kallsyms lists some
 * 120,000 symbols, and formatting and parsing them takes longer than
 * unwinding a recording of thousands of samples.  They are stored under a
 * key of this boot (its boot_id: the kernel's addresses move with every
 * boot), the loaded modules (a hash of /proc/modules) and the user (who
 * may see all addresses as 0).
 */
#ifndef DWCHECK_PROFILE_SYMBOL_STORE_H
#define DWCHECK_PROFILE_SYMBOL_STORE_H

#include "symbol_table.h"

/* Write T to PATH (a temporary beside it, O_EXCL, renamed over it: a link
 * at PATH is replaced, not followed).  0, or -1 (nothing left behind). */
int symbol_store_write(const struct symbol_table *t, const char *path);

/* The table stored at PATH, or NULL when there is none, it is damaged, or
 * it is not to be trusted (above). */
struct symbol_table *symbol_store_read(const char *path);

/* The symbols of the object at PATH whose build-id is BUILD_ID (LEN
 * bytes): symbol_table_open's, read from CACHE_DIR when stored there for
 * this build and the same debug files, else built and stored.  The key
 * holds the build-id and a stamp of the files perf would read the symbols
 * from (the object, perf's build-id cache, /usr/lib/debug: which exist,
 * their sizes and times), so that installing a debug file builds the table
 * again; a .gnu_debuglink file is not in the stamp.  Without a build-id or
 * a cache, the table is built.  NULL only when out of memory. */
struct symbol_table *symbol_store_object(const char *cache_dir, const char *path, const uint8_t *build_id,
                                         size_t len);

/* The running kernel's symbols (symbol_table_open_kallsyms), read from
 * CACHE_DIR when stored there for this boot, modules and user, else read
 * from /proc/kallsyms and stored (CACHE_DIR may be NULL: not stored). */
struct symbol_table *symbol_store_kernel(const char *cache_dir);

#endif
