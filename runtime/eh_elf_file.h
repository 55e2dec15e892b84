/* SPDX-License-Identifier: Apache-2.0 */
/*
 * eh_elf_file: whether a file may be handed to dlopen as an eh_elf.
 *
 * An eh_elf is code: dlopen maps it into the process, runs its relocations
 * and constructors, and the unwinder calls it.  The dynamic loader trusts
 * the file's layout: a truncated file kills the process with SIGBUS inside
 * dlopen, a relocation aimed outside the object writes into the host's
 * memory, a FIFO blocks the open forever.  So before dlopen the runtime
 * reads the file itself, through a descriptor it opened with O_NONBLOCK,
 * with bounded preads whose sizes are checked against the file, and accepts
 * only what it can vouch for:
 *   - a regular file, ELF64 little-endian x86_64 ET_DYN, headers of the
 *     sizes this runtime knows, at most DWU_EH_ELF_MAX_PHDRS program
 *     headers;
 *   - every segment within the file; the PT_LOADs ascending and disjoint in
 *     memory and in the file, congruent modulo the page size, spanning at
 *     most DWU_EH_ELF_MAX_SPAN, zero-filled memory only in writable ones;
 *     the dynamic section, notes, .eh_frame_hdr and program headers mapped
 *     from their own file bytes; RELRO on the pages of one writable load;
 *     no PT_TLS, no executable stack;
 *   - only dynamic tags it knows, and each table they name (strings,
 *     symbols, hash tables, relocations, version tables, init and fini
 *     arrays) inside the segments' file bytes, with the sizes the loader
 *     reads without looking; hash chains that end; string, symbol and
 *     version indexes in range; version needs of needed libraries;
 *   - the relocations a position-independent object needs (no IRELATIVE,
 *     COPY, TLS or text relocation): each writes an aligned word of a
 *     writable segment outside the dynamic section, no word twice; symbols
 *     only imported ones; every init or fini slot relocated to code;
 *   - the eh_elf ABI: dwu_eh_elf_abi, dwu_eh_elf_identity and
 *     dwu_eh_elf_step defined where they belong, the ABI version this
 *     runtime's, and the identity the object's (a stale eh_elf is never
 *     loaded).
 * Anything else, or any doubt, is "not an eh_elf": the object is then
 * unwound from its .eh_frame.  The code is not checked, nor where the code
 * pointers the loader calls (DT_INIT, DT_FINI, the init and fini slots)
 * land within it: an eh_elf must come from a directory the user trusts.  A
 * file changed after the check is the caller's concern (it loads the
 * descriptor it checked; a file rewritten in place while loaded is beyond
 * any check).
 */
#ifndef DWUNWIND_EH_ELF_FILE_H
#define DWUNWIND_EH_ELF_FILE_H

#include "identity.h"

#define DWU_EH_ELF_MAX_PHDRS 32
#define DWU_EH_ELF_MAX_SPAN ((uint64_t)1 << 30)   /* file size, mapped span */

/* 0 when the file open on FD (read with pread: its offset is not moved)
 * is a well-formed eh_elf compiled from the build whose identity is ID; -1
 * otherwise.  ID NULL skips the identity comparison (for tests).  Memory
 * is allocated only for the duration of the call. */
int dwu_eh_elf_file_check(int fd, const struct dwu_identity *id);

#endif
