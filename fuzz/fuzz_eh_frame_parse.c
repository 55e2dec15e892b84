/*
 * libFuzzer target over the section parser alone (semantics/eh_frame_parse),
 * with no ELF around it, in the two ways its users call it.
 *
 * The first byte chooses; the rest is the section:
 *   0  .eh_frame, every entry walked as cfi_reader walks it: framing, CIE,
 *      the FDE's CIE pointer, the FDE;
 *   1  the same as .debug_frame (absolute CIE pointers, 0xffffffff ids);
 *   2  the runtime's DWARF fallback: the bytes are .eh_frame_hdr followed by
 *      whatever the object maps after it (.eh_frame), addresses are
 *      pointers, and eh_frame_find_fde_in_memory looks up the first addresses
 *      of the search table and their neighbours.  The input buffer is the
 *      readable segment, so a read outside it is an AddressSanitizer report.
 */
#include <stdint.h>
#include <string.h>

#include "semantics/eh_frame_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void walk_section(const uint8_t *bytes, size_t size, int is_eh_frame)
{
    struct frame_view v = {bytes, size, 0x2000, is_eh_frame};
    struct frame_entry e, ce;
    struct eh_frame_cie cie;
    struct eh_frame_fde fde;
    const char *why;
    uint64_t cie_off;
    for (uint64_t off = 0; off < size; off = e.end) {
        if (eh_frame_entry_read(&v, off, &e, &why) != 0)
            return;
        if (e.kind == FRAME_ENTRY_CIE) {
            eh_frame_cie_parse(&v, &e, &cie, &why);
        } else if (e.kind == FRAME_ENTRY_FDE && eh_frame_fde_cie_offset(&v, &e, &cie_off, &why) == 0 &&
                   eh_frame_entry_read(&v, cie_off, &ce, &why) == 0 && eh_frame_cie_parse(&v, &ce, &cie, &why) == 0) {
            eh_frame_fde_parse(&v, &e, &cie, &fde, &why);
        }
    }
}

static void search_in_memory(const uint8_t *bytes, size_t size)
{
    struct eh_frame_hdr hdr;
    struct eh_frame_cie cie;
    struct eh_frame_fde fde;
    const char *why;
    const uint8_t *limit = bytes + size;
    eh_frame_find_fde_in_memory(bytes, bytes, limit, (uint64_t)(uintptr_t)bytes, &cie, &fde);
    if (eh_frame_hdr_parse(bytes, size, (uint64_t)(uintptr_t)bytes, &hdr, &why) != 0)
        return;
    for (uint64_t i = 0; i < hdr.count && i < 8; i++) {
        int32_t start;
        memcpy(&start, hdr.table + i * 8, 4);
        uint64_t pc = hdr.addr + (uint64_t)(int64_t)start;
        for (uint64_t d = 0; d < 3; d++)
            eh_frame_find_fde_in_memory(bytes, bytes, limit, pc + d * 7 - 1, &cie, &fde);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 65536)
        return 0;
    switch (data[0] % 3) {
    case 0: walk_section(data + 1, size - 1, 1); break;
    case 1: walk_section(data + 1, size - 1, 0); break;
    default: search_in_memory(data + 1, size - 1); break;
    }
    return 0;
}
/* SPDX-License-Identifier: Apache-2.0 */
