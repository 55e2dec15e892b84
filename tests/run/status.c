/* SPDX-License-Identifier: Apache-2.0 */
/* tests/run: output on both streams, input read, a forked child's output,
 * and an exit status of its own. */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    char line[128];
    if (fgets(line, sizeof line, stdin))
        printf("read: %s", line);
    fprintf(stderr, "to stderr: %d args\n", argc - 1);
    printf("first arg: %s\n", argc > 1 ? argv[1] : "(none)");
    fflush(NULL);
    if (fork() == 0) {
        printf("the child\n");
        _exit(0);
    }
    wait(NULL);
    return 3;
}
