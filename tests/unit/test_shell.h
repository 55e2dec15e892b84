/*
 * test_shell: what the unit tests that build programs at run time share (a
 * scratch directory, paths in it, shell commands).  Header only, included
 * by one test file each; define TEST_DIR (a mkdtemp template) first.
 */
#ifndef DWCHECK_TEST_SHELL_H
#define DWCHECK_TEST_SHELL_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

/* The scratch directory: the test's group setup makes it with mkdtemp. */
static char dir[] = TEST_DIR;

/* DIR/NAME, in one of a few rotating buffers. */
static const char *at(const char *name)
{
    static char buf[8][512];
    static unsigned next;
    char *p = buf[next++ % 8];
    snprintf(p, sizeof buf[0], "%s/%s", dir, name);
    return p;
}

/* Run a shell command; its exit status, 128+N when killed by signal N. */
static int run(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int run(const char *fmt, ...)
{
    char cmd[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    int st = system(cmd);
    if (st == -1)
        return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

#endif
