/*
 * libFuzzer target over the SFrame reader alone (semantics/sframe_parse
 * and its printer, semantics/print/sframe_print), with no ELF around it: the
 * input is an .sframe section at address 0x400000, read the ways dwtable
 * --sframe reads it: the header, the checks across FDEs, every FDE, the
 * table of each of the first 64 (H, capped as the reader caps it), the FRE
 * covering a few addresses of each, and the whole section printed in
 * readelf's layout (to /dev/null).  The input buffer is exactly the
 * section, so a read outside it is an AddressSanitizer report.
 */
#include <stdint.h>
#include <stdio.h>

#include "semantics/sframe_parse.h"
#include "semantics/print/sframe_print.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void read_fde(const struct sframe_view *v, const struct sframe_header *h, uint32_t i)
{
    struct sframe_fde fde;
    struct sframe_error err;
    if (sframe_fde_read(v, h, i, &fde, &err) != 0)
        return;
    if (i < 64) {
        struct unwind_table t;
        sframe_fde_table(v, h, &fde, &t, &err);
        unwind_table_release(&t);
    }
    struct sframe_fre fre;
    uint64_t probes[] = {fde.pc, fde.pc + 1, fde.pc + 17, fde.pc + fde.size - 1};
    for (size_t p = 0; p < sizeof probes / sizeof probes[0]; p++)
        sframe_fde_fre_at(v, h, &fde, probes[p], &fre, &err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *null_out;
    if (!null_out)
        null_out = fopen("/dev/null", "w");
    if (size > 65536)
        return 0;
    struct sframe_view v = {data, size, 0x400000};
    struct sframe_header h;
    struct sframe_error err;
    if (null_out)
        sframe_print_section(null_out, &v, ".sframe", &err);
    if (sframe_header_read(&v, &h, &err) != 0)
        return 0;
    sframe_section_check(&v, &h, &err);
    for (uint32_t i = 0; i < h.num_fdes && i < 4096; i++)
        read_fde(&v, &h, i);
    return 0;
}
/* SPDX-License-Identifier: Apache-2.0 */
