/* Calls the repaired big_bss library: its .bss is mapped and zero, and
 * ld.so gives its program headers (dl_iterate_phdr): its PT_GNU_EH_FRAME
 * locates a version-1 .eh_frame_hdr, as libgcc and libunwind read it. */
#define _GNU_SOURCE
#include <link.h>
#include <string.h>

int big_bss_read(int i);

static int visit(struct dl_phdr_info *info, size_t size, void *found)
{
    (void)size;
    if (!strstr(info->dlpi_name, "libbig_bss"))
        return 0;
    for (int i = 0; i < info->dlpi_phnum; i++)
        if (info->dlpi_phdr[i].p_type == PT_GNU_EH_FRAME &&
            *(const unsigned char *)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr) == 1)
            *(int *)found = 1;
    return 1;
}

int main(void)
{
    int found = 0;
    dl_iterate_phdr(visit, &found);
    return big_bss_read(12345) == 1 && found ? 0 : 1;
}
/* SPDX-License-Identifier: Apache-2.0 */
