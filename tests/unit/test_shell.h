/*
 * test_shell: what the unit tests that build programs at run time share (a
 * scratch directory, paths in it, shell commands and their output, text
 * files).  Header only, included by one test file each, after <cmocka.h>;
 * define TEST_DIR (a mkdtemp template) first.
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

/* The output of a shell command, in a buffer the caller frees. */
static char *output_of(const char *fmt, ...) __attribute__((format(printf, 1, 2), unused));
static char *output_of(const char *fmt, ...)
{
    char cmd[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t cap = 1 << 16, n = 0, r;
    char *out = malloc(cap);
    assert_non_null(out);
    while ((r = fread(out + n, 1, cap - 1 - n, p)) > 0)
        if ((n += r) == cap - 1)
            assert_non_null(out = realloc(out, cap *= 2));
    out[n] = 0;
    pclose(p);
    return out;
}

/* TEXT written to the file PATH. */
static void write_text(const char *path, const char *text) __attribute__((unused));
static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

#endif
/* SPDX-License-Identifier: Apache-2.0 */
