/* SPDX-License-Identifier: Apache-2.0 */
/*
 * unw_symbols: the name libunwind's unw_get_proc_name gives an address —
 * the function symbol nearest below it in the file of the object that
 * holds it, as libunwind 1.6 finds it, so that both print the same names.
 *
 * The rules are libunwind's: the object's file (the program's is
 * /proc/self/exe), or the separate debug file its .gnu_debuglink names
 * when one lies next to it or in its .debug/ directory (libunwind's other
 * place, the system's global debug directory, is never found by 1.6: it
 * looks for it under the process's root as /proc names it); every
 * SHT_SYMTAB and SHT_DYNSYM section in
 * section order, every STT_FUNC symbol defined (values moved by the load
 * bias unless absolute); the nearest at or below the address wins, the
 * first met among equals; none within the file's size is "no name".
 * A file whose build-id is not the loaded object's (replaced on disk
 * since: libunwind finds the mapped file deleted) names nothing.
 * Unlike libunwind, nothing is read outside the file's bounds (a damaged
 * symbol table or string table is skipped), and MiniDebugInfo
 * (.gnu_debugdata, xz-compressed: the runtime links only libc) is not
 * read; Debian's binaries carry none.
 *
 * Not promised async-signal-safe (libunwind's is not either), although it
 * allocates nothing and takes no lock: it opens, maps and unmaps files.
 */
#ifndef DWUNWIND_COMPAT_UNW_SYMBOLS_H
#define DWUNWIND_COMPAT_UNW_SYMBOLS_H

#include <stddef.h>
#include <stdint.h>

/* The name of the function at or below ADDR in BUF (LEN bytes, LEN > 0,
 * NUL-terminated; truncated if longer) and ADDR's offset from it in
 * *OFFSET (may be NULL).  0; -UNW_ENOMEM when the name was truncated;
 * -UNW_ENOINFO when the file has no symbol below ADDR; -UNW_EUNSPEC when
 * no object holds ADDR or its file cannot be read (the vDSO's, which has
 * no file: libunwind's answer too).  BUF is "" unless a symbol was met
 * (one further than the file's size is left in BUF, with -UNW_ENOINFO,
 * as libunwind leaves it). */
int lu_symbols_name(uint64_t addr, char *buf, size_t len, uint64_t *offset);

#endif
