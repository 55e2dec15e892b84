/* SPDX-License-Identifier: Apache-2.0 */
/*
 * identity: an opened ELF file's identity (identity.h), read with libelf.
 */
#include "identity.h"

#include "elf_file.h"
#include "sys/error.h"

int identity_of_file(struct elf_file *ef, struct dwu_identity *id, char *err, size_t errlen)
{
    uint64_t n;
    struct elf_section *notes = elf_file_section(ef, ".note.gnu.build-id");
    const uint8_t *bytes = notes ? elf_file_section_bytes(ef, notes, &n, err, errlen) : NULL;
    if (bytes && dwu_identity_from_notes(bytes, (size_t)n, id) == 0)
        return 0;
    struct elf_section *hdr = elf_file_section(ef, ".eh_frame_hdr");
    if (!hdr || !(bytes = elf_file_section_bytes(ef, hdr, &n, err, errlen)))
        return error_set(err, errlen, "no build-id and no .eh_frame_hdr: the runtime could not find the "
                                      "tables, nor tell this build from another");
    dwu_identity_from_hdr(bytes, (size_t)n, id);
    return 0;
}
