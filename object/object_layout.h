/* SPDX-License-Identifier: Apache-2.0 */
/*
 * object_layout: a relocatable object (ET_REL, `cc -c`) laid out in memory
 * as if linked, so that the stages that read linked files can read it.
 *
 * A .o has no addresses: every section starts at 0, an FDE's pc_begin and
 * a call's target are relocations against sections or symbols.  Here each
 * SHF_ALLOC section gets an address — the executable ones first, from
 * OBJECT_LAYOUT_BASE up, each at its alignment, then the others from the
 * next page — and the relocations that apply to allocated sections are
 * applied to copies of their bytes as a linker (and `readelf -wF`, for
 * .eh_frame) applies them: R_X86_64_64 and PC64, 32 and 32S, PC32, PLT32
 * and the GOTPCREL family (S + A - P, as if relaxed to the symbol itself),
 * 16, PC16, 8, PC8; NONE and the TLS relocations are left (they address
 * data, never code or unwind tables).  A symbol's address is its section's
 * plus its value; an undefined symbol's is 0 (an external function: a call
 * to it leaves the object).  Symbols (ef->symbols) are moved to their
 * addresses, and one executable PT_LOAD per code section, one read-only or
 * writable per other section, stand in for program headers (code_bounds).
 *
 * Addresses in an object's findings are thus this layout's; what names a
 * place is its section and function (verify/audit/check names both for ET_REL).
 *
 * Invariants and bounds: every relocation is checked to lie inside its
 * target section before it is applied; the bytes copied are the sections'
 * own (each no larger than the file); addresses never wrap (a layout past
 * 2^47 is refused).  The copies belong to EF (elf_file.owned) and are freed
 * by elf_file_close.  Errors: -1 with a reason in ERR.
 */
#ifndef DWCHECK_OBJECT_LAYOUT_H
#define DWCHECK_OBJECT_LAYOUT_H

#include <stddef.h>

#include "elf_file.h"

#define OBJECT_LAYOUT_BASE 0x10000

/* Lay out the ET_REL file EF (opened with elf_file_open_object).  0, or -1. */
int object_layout_place(struct elf_file *ef, char *err, size_t errlen);

#endif
