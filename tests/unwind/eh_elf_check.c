/*
 * eh_elf_check: the runtime's check of eh_elf files (runtime/eh_elf_file),
 * on its own.
 *
 *   eh_elf_check [--load] FILE...
 *
 * Prints "FILE: accepted" or "FILE: refused" for each, opened as the
 * runtime opens it (O_NONBLOCK: a FIFO is refused, not waited on); the
 * identity is not compared.  --load then loads each accepted file as the
 * runtime does (dlopen of /proc/self/fd/N) and looks its entry point up: a
 * file the check accepts must load without harm.  Exit status 0 when every
 * file is accepted (and loads), 1 otherwise, 2 on a usage error.
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "runtime/dwunwind.h"
#include "runtime/eh_elf_file.h"

int main(int argc, char **argv)
{
    int load = argc > 1 && strcmp(argv[1], "--load") == 0;
    if (argc < 2 + load) {
        fprintf(stderr, "usage: eh_elf_check [--load] FILE...\n");
        return 2;
    }
    int status = 0;
    for (int i = 1 + load; i < argc; i++) {
        int fd = open(argv[i], O_RDONLY | O_NONBLOCK | O_CLOEXEC);
        int accepted = fd >= 0 && dwu_eh_elf_file_check(fd, NULL) == 0;
        const char *verdict = accepted ? "accepted" : "refused";
        if (accepted && load) {
            char by_fd[32];
            snprintf(by_fd, sizeof by_fd, "/proc/self/fd/%d", fd);
            void *h = dlopen(by_fd, RTLD_NOW | RTLD_LOCAL);
            if (!h || !dlsym(h, DWU_EH_ELF_STEP)) {
                verdict = "accepted, but does not load";
                accepted = 0;
            }
            /* Kept loaded (and FD open), as the runtime keeps them. */
        } else if (fd >= 0) {
            close(fd);
        }
        printf("%s: %s\n", argv[i], verdict);
        if (!accepted)
            status = 1;
    }
    return status;
}
/* SPDX-License-Identifier: Apache-2.0 */
