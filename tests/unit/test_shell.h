/*
 * test_shell: what the unit tests that build programs at run time share (a
 * scratch directory, paths in it, shell commands and their output, text
 * files, the symbols nm reads).  Header only, included by one test file
 * each, after <cmocka.h>; define TEST_DIR (a mkdtemp template) first, or
 * TEST_DIR_BESIDE_SELF (a name) for a scratch directory beside the test
 * program, in the build's tests/ (make_dir_beside_self).
 */
#ifndef DWCHECK_TEST_SHELL_H
#define DWCHECK_TEST_SHELL_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#ifdef TEST_DIR_BESIDE_SELF
/* The scratch directory: the test's group setup makes it with
 * make_dir_beside_self (short enough that at() and run() never cut it). */
static char dir[448];

/* DIR := TEST_DIR_BESIDE_SELF.XXXXXX beside this program, made.  0, or -1
 * (also for a path with a quote in it: commands quote paths with ''). */
static int make_dir_beside_self(void)
{
    ssize_t n = readlink("/proc/self/exe", dir, sizeof dir - 64);
    if (n <= 0)
        return -1;
    dir[n] = '\0';
    char *slash = strrchr(dir, '/');
    if (!slash)
        return -1;
    snprintf(slash, sizeof dir - (size_t)(slash - dir), "/%s.XXXXXX", TEST_DIR_BESIDE_SELF);
    return strchr(dir, '\'') || !mkdtemp(dir) ? -1 : 0;
}
#else
/* The scratch directory: the test's group setup makes it with mkdtemp. */
static char dir[] = TEST_DIR;
#endif

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

/* The value nm gives symbol NAME of FILE (a quoted path), or NO_SYMBOL. */
#define NO_SYMBOL UINT64_MAX
static uint64_t nm_address(const char *file, const char *name) __attribute__((unused));
static uint64_t nm_address(const char *file, const char *name)
{
    char *out = output_of("nm -P '%s'", file);
    uint64_t v = NO_SYMBOL;
    size_t len = strlen(name);
    for (char *line = out; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
        if (strncmp(line, name, len) == 0 && line[len] == ' ' && line[len + 1] && line[len + 2] == ' ') {
            v = strtoull(line + len + 3, NULL, 16);
            break;
        }
    free(out);
    return v;
}

#endif
/* SPDX-License-Identifier: Apache-2.0 */
