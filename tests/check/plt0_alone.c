/* A program that imports no function: the linker still writes the lazy
 * PLT's first stub (PLT0) with its FDE (CFA rsp+16, then rsp+24), and no
 * PLTn stub that would jump to it.  Built as an executable and as a shared
 * library by tests/check/run.sh: PLT0's rows are right by the linker's
 * convention, whatever calls it. */
int main(void)
{
    return 0;
}
/* SPDX-License-Identifier: Apache-2.0 */
