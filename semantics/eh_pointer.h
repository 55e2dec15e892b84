/* SPDX-License-Identifier: Apache-2.0 */
/*
 * eh_pointer: pointers encoded with DW_EH_PE_* (the .eh_frame and
 * .gcc_except_table encodings): a size/format in the low nibble and an
 * application in bits 4-6.  Absolute and pc-relative applications are
 * supported; the others need bases (text, data, function) a reader of one
 * section does not have, and are reported as unsupported.
 *
 * Pure and bounds-checked like byte_reader.
 */
#ifndef DWCHECK_EH_POINTER_H
#define DWCHECK_EH_POINTER_H

#include "dwarf_constants.h"

#include "byte_reader.h"

/*
 * Read a pointer in encoding ENC.  START_ADDR is the run-time address of
 * r->start, so that a pc-relative value is relative to its own field.
 * ADDR_SIZE is the size of DW_EH_PE_absptr.  Returns 0, or -1 with r->error.
 */
static inline int read_eh_pointer(struct byte_reader *r, uint8_t enc, uint64_t start_addr,
                                  unsigned addr_size, uint64_t *out)
{
    uint64_t field_addr = start_addr + byte_reader_offset(r);
    uint64_t u = 0;
    int64_t s = 0;
    int rc;
    if (enc == DW_EH_PE_omit)
        return byte_reader_fail(r, "pointer encoding says omitted");
    switch (enc & 0x0f) {
    case DW_EH_PE_absptr: rc = read_uint(r, addr_size, &u); break;
    case DW_EH_PE_uleb128: rc = read_uleb128(r, &u); break;
    case DW_EH_PE_udata2: rc = read_uint(r, 2, &u); break;
    case DW_EH_PE_udata4: rc = read_uint(r, 4, &u); break;
    case DW_EH_PE_udata8: rc = read_uint(r, 8, &u); break;
    case DW_EH_PE_sleb128: rc = read_sleb128(r, &s); u = (uint64_t)s; break;
    case DW_EH_PE_sdata2: rc = read_sint(r, 2, &s); u = (uint64_t)s; break;
    case DW_EH_PE_sdata4: rc = read_sint(r, 4, &s); u = (uint64_t)s; break;
    case DW_EH_PE_sdata8: rc = read_sint(r, 8, &s); u = (uint64_t)s; break;
    default: return byte_reader_fail(r, "unknown pointer encoding");
    }
    if (rc != 0)
        return -1;
    switch (enc & 0x70) {
    case DW_EH_PE_absptr: break;
    case DW_EH_PE_pcrel:
        /* A zero field is no pointer (a missing LSDA; an FDE of code the
         * linker discarded), as libgcc reads it: no base is added to it. */
        if (u != 0)
            u += field_addr;
        break;
    default: return byte_reader_fail(r, "unsupported pointer application");
    }
    if (enc & 0x80)
        return byte_reader_fail(r, "indirect pointer");
    *out = u;
    return 0;
}

#endif
