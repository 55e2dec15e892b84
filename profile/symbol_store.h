/*
 * symbol_store: symbol tables kept in dwperf's cache between runs, and the
 * kernel's table that uses it.
 *
 * A stored table is what lookups need — the ranges of perf's descent, each
 * with its symbol's start and name, the object's segments — not the tree
 * it came from: written once (a temporary file renamed into place), read
 * back with every count and offset checked against the file (a damaged or
 * foreign file is not a table: NULL, and the table is built again).
 *
 * The kernel's symbols are the costly case: /proc/kallsyms lists some
 * 120,000 symbols, and formatting and parsing them takes longer than
 * unwinding a recording of thousands of samples.  They are stored under a
 * key of this boot (its boot_id: the kernel's addresses move with every
 * boot), the loaded modules (a hash of /proc/modules) and the user (who
 * may see all addresses as 0).
 */
#ifndef DWCHECK_PROFILE_SYMBOL_STORE_H
#define DWCHECK_PROFILE_SYMBOL_STORE_H

#include "symbols.h"

/* Write T to PATH.  0, or -1 (nothing left behind). */
int symbol_store_write(const struct symbol_table *t, const char *path);

/* The table stored at PATH, or NULL when there is none or it is damaged. */
struct symbol_table *symbol_store_read(const char *path);

/* The running kernel's symbols (symbol_table_open_kallsyms), read from
 * CACHE_DIR when stored there for this boot, modules and user, else read
 * from /proc/kallsyms and stored (CACHE_DIR may be NULL: not stored). */
struct symbol_table *symbol_store_kernel(const char *cache_dir);

#endif
