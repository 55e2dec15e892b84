/* SPDX-License-Identifier: Apache-2.0 */
/*
 * command: the system's C compiler, and child processes (see command.h).
 */
#include "command.h"

#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "signals.h"

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

/* Default limits (see command.h). */
#define DEFAULT_MEMORY_MIB 4096ull
#define DEFAULT_SECONDS 120ull
/* How often the wait looks at the clock when no SIGCHLD comes. */
#define WAIT_SLICE_MS 200

/* $NAME as a number, DEFAULT when unset, empty or not a number. */
static unsigned long long env_limit(const char *name, unsigned long long fallback)
{
    const char *text = getenv(name);
    char *end;
    if (!text || !*text || *text == '-')
        return fallback;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    return errno || *end ? fallback : v;
}

/* Lower RESOURCE to SOFT/HARD, never above what it is. */
static void lower_limit(int resource, rlim_t soft, rlim_t hard)
{
    struct rlimit cur;
    if (getrlimit(resource, &cur) != 0)
        return;
    if (cur.rlim_max != RLIM_INFINITY && hard > cur.rlim_max)
        hard = cur.rlim_max;
    if (cur.rlim_cur != RLIM_INFINITY && soft > cur.rlim_cur)
        soft = cur.rlim_cur;
    if (soft > hard)
        soft = hard;
    struct rlimit r = {soft, hard};
    setrlimit(resource, &r);
}

/* The forked child: its own process group, limits, redirections, then ARGV. */
static void run_child(char *const *argv, int quiet_stdout, const char *stderr_log,
                      const struct command_result *limits, const sigset_t *saved, pid_t parent)
{
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != parent)   /* the tool died before prctl */
        _exit(127);
    /* Outside the terminal's foreground group, a write to the terminal
     * would stop it (stty tostop); reading it, too. */
    signal(SIGTTOU, SIG_IGN);
    int null = open("/dev/null", O_RDWR);
    if (null >= 0) {
        dup2(null, 0);
        if (quiet_stdout)
            dup2(null, 1);
        if (null > 2)
            close(null);
    }
    if (stderr_log) {
        int log = open(stderr_log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (log < 0)
            _exit(127);   /* its errors would land on the caller's terminal */
        dup2(log, 2);
        close(log);
    }
    if (limits->memory_mib) {
        rlim_t bytes = (rlim_t)limits->memory_mib << 20;
        lower_limit(RLIMIT_AS, bytes, bytes);
    }
    if (limits->seconds)
        lower_limit(RLIMIT_CPU, (rlim_t)limits->seconds, (rlim_t)limits->seconds + 5);
    signals_in_child(saved);
    execvp(argv[0], argv);
    fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
    _exit(127);
}

static long long elapsed_ms(const struct timespec *since)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)(now.tv_sec - since->tv_sec) * 1000 + (now.tv_nsec - since->tv_nsec) / 1000000;
}

/* Wait for PID until the deadline (LIMIT_MS, 0: none), SIGCHLD blocked.
 * Returns 1 when it ended (status and usage filled), 0 at the deadline,
 * -1 when it cannot be waited for. */
static int wait_bounded(pid_t pid, long long limit_ms, int *status, struct rusage *ru)
{
    sigset_t chld;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (;;) {
        pid_t r = wait4(pid, status, WNOHANG, ru);
        if (r == pid)
            return 1;
        if (r < 0 && errno != EINTR)
            return -1;
        long long left = WAIT_SLICE_MS;
        if (limit_ms) {
            left = limit_ms - elapsed_ms(&start);
            if (left <= 0)
                return 0;
            if (left > WAIT_SLICE_MS)
                left = WAIT_SLICE_MS;
        }
        struct timespec slice = {left / 1000, (left % 1000) * 1000000};
        sigtimedwait(&chld, NULL, &slice);
    }
}

int command_run(char *const *argv, int quiet_stdout, const char *stderr_log,
                struct command_result *result)
{
    struct command_result local;
    struct command_result *res = result ? result : &local;
    memset(res, 0, sizeof *res);
    res->memory_mib = env_limit("DWCHECK_CC_MEMORY", DEFAULT_MEMORY_MIB);
    res->seconds = env_limit("DWCHECK_CC_SECONDS", DEFAULT_SECONDS);
    if (res->memory_mib > ((unsigned long long)RLIM_INFINITY >> 20) - 1)
        res->memory_mib = 0;
    if (res->seconds > 1000000000ull)
        res->seconds = 0;

    /* A SIGCHLD ignored by whoever started us would reap the child itself. */
    struct sigaction chld_action;
    if (sigaction(SIGCHLD, NULL, &chld_action) == 0 && chld_action.sa_handler == SIG_IGN) {
        chld_action.sa_handler = SIG_DFL;
        sigaction(SIGCHLD, &chld_action, NULL);
    }
    signals_install();
    fflush(NULL);
    sigset_t chld, saved;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    signals_block(&chld, &saved);   /* until the child is known to the handler */
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        signals_restore(&saved);
        res->end = COMMAND_NOT_RUN;
        return -1;
    }
    if (pid == 0)
        run_child(argv, quiet_stdout, stderr_log, res, &saved, parent);
    setpgid(pid, pid);   /* as the child does: whichever runs first */
    signals_set_child(pid);
    sigset_t waiting = saved;
    sigaddset(&waiting, SIGCHLD);
    sigprocmask(SIG_SETMASK, &waiting, NULL);   /* interruptions now reach the handler */

    int status = 0;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    int ended = wait_bounded(pid, (long long)res->seconds * 1000, &status, &ru);
    if (ended == 0)
        signals_stop_group(pid, &status);
    signals_set_child(0);
    signals_restore(&saved);

    if (ended < 0) {
        res->end = COMMAND_NOT_RUN;
        return -1;
    }
    unsigned long long cpu = (unsigned long long)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec);
    int at_time = ended == 0 || (res->seconds && cpu >= res->seconds) ||
                  (WIFSIGNALED(status) && WTERMSIG(status) == SIGXCPU);
    /* ru_maxrss is in KiB: the largest of the child and the processes it waited for. */
    int at_memory = res->memory_mib && (unsigned long long)ru.ru_maxrss >= (res->memory_mib << 10) / 4;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && ended == 1) {
        res->end = COMMAND_EXITED;
        return 0;
    }
    if (at_time) {
        res->end = COMMAND_TIMED_OUT;
    } else if (at_memory) {
        res->end = COMMAND_OUT_OF_MEMORY;
    } else if (WIFSIGNALED(status)) {
        res->end = COMMAND_KILLED;
        res->signal = WTERMSIG(status);
    } else if (WEXITSTATUS(status) == 127) {
        res->end = COMMAND_NOT_RUN;
        return 127;
    } else {
        res->end = COMMAND_EXITED;
        res->status = WEXITSTATUS(status);
        return res->status;
    }
    return -1;
}

/* MIB as `4 GiB` or `300 MiB`. */
static void format_mib(unsigned long long mib, char *buf, size_t len)
{
    if (mib >= 1024 && mib % 1024 == 0)
        snprintf(buf, len, "%llu GiB", mib / 1024);
    else
        snprintf(buf, len, "%llu MiB", mib);
}

const char *command_failure(const struct command_result *r, const char *who, char *buf, size_t len)
{
    char size[32];
    switch (r->end) {
    case COMMAND_OUT_OF_MEMORY:
        format_mib(r->memory_mib, size, sizeof size);
        snprintf(buf, len, "%s exceeded its memory limit (%s)", who, size);
        break;
    case COMMAND_TIMED_OUT:
        snprintf(buf, len, "%s was stopped after %llu s", who, r->seconds);
        break;
    case COMMAND_KILLED:
        snprintf(buf, len, "%s was killed by signal %d (%s)", who, r->signal, strsignal(r->signal));
        break;
    case COMMAND_NOT_RUN:
        snprintf(buf, len, "%s could not be run", who);
        break;
    case COMMAND_EXITED:
        snprintf(buf, len, "%s failed (exit status %d)", who, r->status);
        break;
    }
    return buf;
}
