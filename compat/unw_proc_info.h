/* SPDX-License-Identifier: Apache-2.0 */
/*
 * unw_proc_info: what libunwind's unw_get_proc_info says of a procedure,
 * from the FDE that covers an address in this process (found through the
 * object's .eh_frame_hdr by the parser the runtime's DWARF fallback uses):
 * its range, LSDA and personality routine, and the object's "gp" (its
 * DT_PLTGOT).  Where no object's table covers the address, the FDEs
 * registered at run time (registered_frames.h) are searched: their
 * procedures have no gp, and are not kept in the memo below.
 *
 * An exception's walk asks the same procedures again and again (each
 * cleanup's _Unwind_Resume starts a walk anew): lu_proc_info_eh keeps what
 * it found in a fixed memo by address, checked against the object still
 * loaded there, written and read without a lock.
 *
 * Async-signal-safe: the object is found with _dl_find_object, and nothing
 * is read outside the segment that holds its .eh_frame_hdr, its dynamic
 * section, and (for an indirect personality pointer) a readable segment
 * of the object.
 */
#ifndef DWUNWIND_COMPAT_UNW_PROC_INFO_H
#define DWUNWIND_COMPAT_UNW_PROC_INFO_H

#include <stdint.h>

#include "compat/unw_abi.h"

/* The procedure whose FDE covers PC: start_ip, end_ip, lsda, handler and
 * gp in *PI, the other members untouched; *SIGNAL (may be NULL) whether
 * its CIE marks a signal frame ("S").  0, or -UNW_ENOINFO when no FDE
 * covers PC. */
int lu_proc_info(uint64_t pc, unw_proc_info_t *pi, int *signal);

/* The same without gp (0), which an exception's walk does not ask. */
int lu_proc_info_eh(uint64_t pc, unw_proc_info_t *pi);

/* The address of the FDE that covers PC (in its object's .eh_frame), and
 * the start of its procedure in *FUNC; 0 when no FDE covers PC. */
uint64_t lu_proc_fde_address(uint64_t pc, uint64_t *func);

#endif
