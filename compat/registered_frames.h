/* SPDX-License-Identifier: Apache-2.0 */
/*
 * registered_frames: the call-frame tables registered at run time with
 * libgcc's __register_frame family, which the drop-in exports (JITs:
 * LLVM's RuntimeDyld and ORC, and others, make the code they generate
 * unwindable so), and the search of them by address.
 *
 * What a registration is: __register_frame(BEGIN) and
 * __register_frame_info(BEGIN, OB) take the start of an .eh_frame section,
 * its entries up to a zero-length one, as libgcc reads them; when the
 * entry at BEGIN is an FDE, not a CIE, that FDE alone is registered (the
 * single FDE LLVM's libunwind takes there).  The table variants take a
 * NULL-terminated array of section starts.  Each section (or FDE) is
 * walked once when registered, by semantics/eh_frame_parse: the bytes it
 * spans (up to the terminator) and the addresses its FDEs cover are kept;
 * a search reads nothing outside those bytes, and only the sections whose
 * addresses hold the PC.  The caller's memory must stay readable until it
 * is deregistered, as with libgcc (and the bytes up to the terminator must
 * be readable when it is registered: nothing there can check them).
 *
 * The registry: fixed slots in chunks that are allocated when a
 * registration needs room and never freed, published with atomic stores.
 * A slot's state is a counter, odd while it is registered.  A reader
 * (the search below) takes a slot by counting itself in the slot's
 * readers, then checking that its state is still the one it saw; it reads
 * the section only then, and counts itself out after.  Deregistration
 * makes the state even, then waits until the slot has no reader: when it
 * returns no search is in the section, and the caller may free it.  A
 * slot whose state is even is free again for the next registration
 * (a reader that saw it before sees another state and leaves it).
 *
 * Its users (unw_cursor's step, unw_proc_info's procedures) search it
 * where no loaded object's table covers the PC: an object's table comes
 * first (libgcc searches registrations first; they differ only for a
 * registration that covers an object's code).
 *
 * Signal-safety: the searches (lu_registered_frames_*) are
 * async-signal-safe: no allocation, no lock, nothing loaded, a wait on
 * nothing.  Registration and deregistration are not: they allocate, take
 * a lock, and deregistration waits for the searches in its slots (a
 * signal handler that deregisters frames its own thread is searching
 * would wait for ever).  A registry with nothing registered costs a
 * search one load.
 */
#ifndef DWUNWIND_COMPAT_REGISTERED_FRAMES_H
#define DWUNWIND_COMPAT_REGISTERED_FRAMES_H

#include <stdint.h>

#include "runtime/dwunwind.h"

/* What a registered FDE says of its procedure. */
struct lu_registered_fde {
    uint64_t fde;          /* the FDE's address (its length field) */
    uint64_t start, end;   /* the procedure's addresses */
    uint64_t lsda;         /* or 0 */
    uint64_t handler;      /* the personality routine, or 0 */
    int signal_frame;      /* its CIE has "S" */
};

/* The registered FDE that covers PC into *OUT: 0, or -1 when none does. */
int lu_registered_frames_find(uint64_t pc, struct lu_registered_fde *out);

/* Unwind IN into OUT by the row at PC (the IP, less one after a call) of
 * the registered FDE that covers it, with the DWARF fallback's rules
 * (runtime/dwarf_fallback.h).  A dwu_status: DWU_ENOINFO when no
 * registered FDE covers PC. */
int lu_registered_frames_step(uint64_t pc, const struct dwu_regs *in, struct dwu_regs *out,
                              const struct dwu_memory *mem);

#endif
