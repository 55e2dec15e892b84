/* A library without unwind tables whose .bss (64 MiB) reaches far past its
 * file: its repaired copy must grow by its new tables only. */
char big_bss_area[64 << 20];

int big_bss_read(int i)
{
    return big_bss_area[i] + 1;
}
/* SPDX-License-Identifier: Apache-2.0 */
