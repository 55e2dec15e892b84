/* SPDX-License-Identifier: Apache-2.0 */
/*
 * eh_elf_find: finding, checking and loading the eh_elf of an object, for
 * this process's objects (objects.c) and for the objects of address spaces
 * (object_file.c).
 *
 * An object's eh_elf is BASENAME.eh_elf.so next to the object, then in each
 * DWUNWIND_PATH directory (not read by a set-user-ID or set-group-ID
 * program), then, when a cache directory is given, IDENTITY.eh_elf.so in it
 * (dwu_eh_elf_name).  A candidate is used only if it passes the trust
 * rule (trusted_path.h: owned by the user or root, not writable by group or
 * others, nor any directory above it; a refusal is said once through
 * dwu_trusted_report_refusal) and eh_elf_file accepts it with the object's
 * identity; it is then loaded with dlopen from the descriptor checked, and
 * stays loaded for the life of the process.  A cache entry is never taken
 * through a symbolic link.
 *
 * Everything here runs under one lock, dwu_eh_elf_lock: the table of loaded
 * eh_elfs, and the rebuild of this process's object registry, which reads
 * it from inside dl_iterate_phdr and loads eh_elfs after it.
 */
#ifndef DWUNWIND_EH_ELF_FIND_H
#define DWUNWIND_EH_ELF_FIND_H

#include <stddef.h>
#include <stdint.h>

#include "dwunwind.h"
#include "identity.h"

void dwu_eh_elf_lock(void);
void dwu_eh_elf_unlock(void);

/* The step function of OBJECT's eh_elf (OBJECT a path; "" is this process's
 * executable), or NULL.  CACHE_DIR may be NULL.  Under the lock. */
dwu_eh_elf_step_fn dwu_eh_elf_find(const char *object, const struct dwu_identity *id, const char *cache_dir);

/* The trace (dwu_eh_elf_trace) and descriptor (dwu_eh_elf_frame, which an
 * eh_elf may lack) entry points of the loaded eh_elf whose step is STEP, or
 * NULL.  Under the lock. */
void dwu_eh_elf_entries_of(dwu_eh_elf_step_fn step, dwu_eh_elf_trace_fn *trace, dwu_eh_elf_frame_fn *frame);

/* Whether BIAS is the load bias of an eh_elf this runtime loaded (not an
 * object to unwind).  Under the lock. */
int dwu_eh_elf_is_loaded(uint64_t bias);

/* The file name an eh_elf of the build ID has in a cache directory:
 * the build-id in lower-case hex, or "h" and the hex of the hash for an
 * object without one, then ".eh_elf.so".  Returns the length written
 * (snprintf's), or -1 when ID is empty. */
int dwu_eh_elf_name(const struct dwu_identity *id, char *buf, size_t size);

#endif
