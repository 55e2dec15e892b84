/* SPDX-License-Identifier: Apache-2.0 */
/* tests/run: raises SIGUSR1, handled by handler.s's wrong_handler. */
#include <signal.h>
#include <stdio.h>

void wrong_handler(int sig);

int main(void)
{
    signal(SIGUSR1, wrong_handler);
    raise(SIGUSR1);
    puts("handled");
    return 0;
}
