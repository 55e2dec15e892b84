/* SPDX-License-Identifier: Apache-2.0 */
/*
 * startup_objects: the objects loaded with the program, which glibc never
 * unloads (they are implicitly NODELETE): a row of theirs that a walk kept
 * needs no second look at whether the object is still there.
 *
 * They are the main program, the vDSO, the dynamic linker, the LD_PRELOAD
 * libraries, and every library that one of them needs (DT_NEEDED, matched
 * by DT_SONAME or file name), found once when libdwunwind is loaded.  An
 * object dlopened before that (by another library's constructor) and not
 * needed by one of them is left out: its rows are checked at each walk,
 * as those of any object loaded later.
 */
#ifndef DWUNWIND_STARTUP_OBJECTS_H
#define DWUNWIND_STARTUP_OBJECTS_H

#include <stdint.h>

/* Find them (dl_iterate_phdr; not async-signal-safe). */
void dwu_startup_objects_find(void);

/* Whether the object whose first segment starts at MAP_START (as
 * _dl_find_object gives it) is one of them.  Async-signal-safe. */
int dwu_startup_object(uint64_t map_start);

#endif
