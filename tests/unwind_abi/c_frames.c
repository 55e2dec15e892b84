/* SPDX-License-Identifier: Apache-2.0 */
/* C frames built with -fexceptions: a cleanup (gcc's cleanup attribute,
 * as pthread_cleanup_push is built) that an exception thrown above them,
 * or a forced unwind, runs on its way through (libgcc_s's
 * __gcc_personality_v0). */
#include <stdio.h>

void c_through(void (*callback)(int), int n);

static void c_cleanup(int *n)
{
    printf("C cleanup %d\n", *n);
}

__attribute__((noinline)) void c_through(void (*callback)(int), int n)
{
    int held __attribute__((cleanup(c_cleanup))) = n;
    callback(n);
    printf("C after the callback %d\n", held);
}
