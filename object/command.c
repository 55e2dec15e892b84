/*
 * command: the system's C compiler, and child processes (see command.h).
 */
#include "command.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

char **command_cc(size_t *n)
{
    const char *cc = getenv("CC");
    if (!cc || !*cc)
        cc = "cc";
    char *copy = strdup(cc);
    char **words = calloc(strlen(cc) / 2 + 2, sizeof *words);
    *n = 0;
    if (!copy || !words) {
        free(copy);
        free(words);
        return NULL;
    }
    for (char *save = NULL, *w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save))
        if (!(words[(*n)++] = strdup(w))) {
            free(copy);
            command_words_free(words);
            return NULL;
        }
    free(copy);
    if (*n == 0)   /* only blanks */
        words[(*n)++] = strdup("cc");
    if (!words[0]) {
        command_words_free(words);
        return NULL;
    }
    return words;
}

void command_words_free(char **words)
{
    for (size_t i = 0; words && words[i]; i++)
        free(words[i]);
    free(words);
}

int command_run(char *const *argv, int quiet_stdout, const char *stderr_log)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        int null = quiet_stdout ? open("/dev/null", O_WRONLY) : -1;
        if (null >= 0) {
            dup2(null, 1);
            close(null);
        }
        if (stderr_log) {
            int log = open(stderr_log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
            if (log < 0)
                _exit(127);   /* its errors would land on the caller's terminal */
            dup2(log, 2);
            close(log);
        }
        execvp(argv[0], argv);
        fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}
