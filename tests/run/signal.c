/* SPDX-License-Identifier: Apache-2.0 */
/* tests/run: a signal the program handles, twice: the handler's work shows
 * in the output, which must be the same traced or not. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t caught;

static void on_usr1(int sig)
{
    caught += sig == SIGUSR1;
}

int main(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_usr1;
    sigaction(SIGUSR1, &sa, NULL);
    kill(getpid(), SIGUSR1);
    raise(SIGUSR1);
    printf("signals handled: %d\n", (int)caught);
    return 0;
}
