/* Calls leaf (tests/repair/wrong_cfi.s), which calls inner back: gdb's
 * backtrace from inner is right only with a right table for leaf. */
void leaf(void (*)(void));

__attribute__((noinline)) void inner(void)
{
    __asm__ volatile("nop");
}

int main(void)
{
    leaf(inner);
    return 0;
}
/* SPDX-License-Identifier: Apache-2.0 */
