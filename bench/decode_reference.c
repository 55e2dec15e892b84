/*
 * decode_reference: the baseline of the synthesis benchmark — a bare
 * Capstone decode (same settings as synthesis: x86_64, details on) of every
 * executable section of FILE, and nothing else.
 *
 *   decode_reference FILE
 */
#include <stdio.h>

#include "object/elf_file.h"
#include "synth/x86_decode.h"

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: decode_reference FILE\n");
        return 2;
    }
    char err[ELF_FILE_ERRLEN];
    struct elf_file ef;
    if (elf_file_open(&ef, argv[1], err, sizeof err) != 0) {
        fprintf(stderr, "decode_reference: %s: %s\n", argv[1], err);
        return 2;
    }
    struct x86_decoder *d = x86_decoder_new();
    if (!d)
        return 2;
    size_t insns = 0;
    for (size_t i = 0; i < ef.nsections; i++) {
        struct elf_section *s = &ef.sections[i];
        if (!(s->flags & SHF_EXECINSTR) || s->type == SHT_NOBITS)
            continue;
        uint64_t n;
        const uint8_t *bytes = elf_file_section_bytes(&ef, s, &n, err, sizeof err);
        if (bytes)
            insns += x86_decode_only(d, bytes, n, s->addr);
    }
    printf("%zu instructions\n", insns);
    x86_decoder_free(d);
    elf_file_close(&ef);
    return 0;
}
/* SPDX-License-Identifier: Apache-2.0 */
