/* SPDX-License-Identifier: Apache-2.0 */
/*
 * symbol_table: names for the addresses of an object file, as `perf script`
 * prints them.
 *
 * A symbol_table reads an object's symbols once and answers lookups by the
 * object's own address (its p_vaddr space), so that dwperf --format=script
 * prints what `perf script --no-inline` (perf 6.1) prints for the same
 * frame: `PRINTED NAME+0xOFF (DSO)`.  The rules are perf's (tools/perf/util/
 * symbol.c dso__load, symbols__fixup_end, symbols__fixup_duplicate,
 * symbols__find; symbol-elf.c dso__load_sym, dso__synthesize_plt_symbols;
 * dso.c dso__read_binary_type_filename; evsel_fprintf.c), checked against
 * perf script on recordings made here (tests/unit/test_symbols.c):
 *
 *   - where: the first file of perf's list that has a .symtab gives the
 *     symbols, the first that has a .dynsym the PLT's: the .gnu_debuglink
 *     file (by its name from the working directory, then next to the object,
 *     in its .debug/, under /usr/lib/debug/DIR), perf's build-id cache
 *     (~/.debug/.build-id/NN/REST/elf and /debug), /usr/lib/debug/PATH.debug,
 *     /usr/lib/debug/PATH, /usr/lib/debug/.build-id/NN/REST.debug, the object;
 *     when the build-id is known, a file with another one (or none) is
 *     skipped.  With no .symtab anywhere, the .dynsym's symbols;
 *   - which: functions (FUNC, GNU_IFUNC), objects (OBJECT), and labels
 *     (NOTYPE) in a section named *text*; named, defined, not absolute, in
 *     an allocated section.  C++ names demangled as perf does (see
 *     demangle_symbol, profile/demangle.h);
 *   - the PLT: NAME@plt for each .rela.plt entry, one .plt entry each after
 *     its header; "@plt" for an IRELATIVE one.  .plt.sec and .plt.got get
 *     no symbol (perf 6.1);
 *   - ends: a symbol without a size ends where the next one starts (_init,
 *     of size 0, stretches over the PLT), the last one at the page after;
 *   - aliases: of the symbols of one address perf keeps the one with a
 *     length, then not weak, then global, then with fewer leading '_',
 *     then the longer name, then the first in the table;
 *   - lookups: perf descends its red-black tree of symbols, and where
 *     symbols overlap (a function over a label, the PLT's in _init) that
 *     descent, reproduced node for node, says which is named, or none;
 *   - printed addresses: perf prints user-space addresses as offsets in the
 *     object's file (the mapping's pgoff + the offset in the mapping): own
 *     address - p_vaddr + p_offset of the PT_LOAD that holds it.  Equal to
 *     the own address where p_vaddr == p_offset (GNU ld's PIEs and
 *     libraries), not for -no-pie executables (0x401136 prints 0x1136) nor
 *     lld's output.  Offsets in a symbol are the same in both.
 *
 * What the caller does: a caller frame's address is its return address - 1
 * (perf's unwinder does so); the kernel's callchain entries are printed as
 * recorded.  A frame in no mapping prints "[unknown] ([unknown])", one in a
 * mapping without a symbol "[unknown] (DSO)".  A symbol of no length (none
 * survives perf's fix-ups but in odd files) gets offset 0 here, where perf
 * prints an address less its mapping's start.
 *
 * A file that cannot be read or is not ELF gives a table with no symbols
 * (every lookup fails: perf prints "[unknown]"); nothing here exits.
 * Tables are read-only once opened: lookups may run in parallel.
 */
#ifndef DWCHECK_PROFILE_SYMBOL_TABLE_H
#define DWCHECK_PROFILE_SYMBOL_TABLE_H

#include <stddef.h>
#include <stdint.h>

struct symbol_table;

/* The symbols of the object at PATH, whose build-id (BUILD_ID, LEN bytes,
 * as perf.data records it; NULL: read from the file) finds its debug file
 * and must be that of the files read.  Never NULL except when out of
 * memory.  Free with symbol_table_free. */
struct symbol_table *symbol_table_open(const char *path, const uint8_t *build_id, size_t len);

/* The symbol perf names at ADDR (an own address of the object): its name
 * (owned by the table) and ADDR's offset in it; 0, or -1 when perf would
 * print "[unknown]".  A binary search. */
int symbol_table_lookup(const struct symbol_table *t, uint64_t addr, const char **name, uint64_t *offset);

/* The address perf prints for the own address ADDR of this object in a
 * callchain line: its file offset (see above). */
uint64_t symbol_table_printed_address(const struct symbol_table *t, uint64_t addr);

void symbol_table_free(struct symbol_table *t);

/*
 * The running kernel's symbols for frames perf names "[kernel.kallsyms]",
 * read from /proc/kallsyms as perf reads it when it finds no vmlinux (the
 * text, weak, data and bss symbols, ends fixed up, aliases merged; a
 * module's symbols by their plain name).  Own addresses are the kernel's
 * addresses, and so are the printed ones (symbol_table_printed_address
 * returns ADDR).  Without root or with kernel.kptr_restrict every address
 * reads 0: lookups then fail or name the wrong symbol, as perf's own.
 * Never NULL except when out of memory.
 */
struct symbol_table *symbol_table_open_kallsyms(void);

/* The same from PATH, a file in /proc/kallsyms's format (the copy perf keeps
 * in its build-id cache, ~/.debug/[kernel.kallsyms]/BUILD-ID/kallsyms). */
struct symbol_table *symbol_table_open_kallsyms_file(const char *path);

/* The symbols of [vdso] frames: this process's vdso, which perf script uses
 * for them too (a recording made under the same kernel has the same one).
 * Its own addresses are offsets in the vdso, as perf prints.  Never NULL
 * except when out of memory. */
struct symbol_table *symbol_table_open_vdso(void);

/* How many symbols lookups can answer with (after perf merged aliases). */
size_t symbol_table_count(const struct symbol_table *t);

/* The file the symbols were read from ("" when none was found). */
const char *symbol_table_source(const struct symbol_table *t);


#endif
