/* SPDX-License-Identifier: Apache-2.0 */
/*
 * change_on_reopen: an LD_PRELOAD shim for tests/merge/run.sh.  dwcheck
 * --merge reads its inputs twice (pass 1 checks every line, pass 2 opens
 * each input again and prints); the second fopen of the file named by
 * $CHANGE_FILE first changes the digit at byte $CHANGE_AT of it in place
 * (another digit: the line keeps its length and stays JSON), as another
 * program writing the file between the passes would, at a moment a test
 * cannot otherwise choose.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int opens;

static void change_digit(FILE *(*real_fopen)(const char *, const char *), const char *path, long at)
{
    FILE *f = real_fopen(path, "r+");
    if (!f)
        return;
    int c;
    if (fseek(f, at, SEEK_SET) == 0 && (c = fgetc(f)) >= '0' && c <= '9' && fseek(f, at, SEEK_SET) == 0)
        fputc(c == '9' ? '8' : c + 1, f);
    fclose(f);
}

FILE *fopen(const char *path, const char *mode)
{
    FILE *(*real_fopen)(const char *, const char *) = (FILE * (*)(const char *, const char *)) dlsym(RTLD_NEXT, "fopen");
    const char *file = getenv("CHANGE_FILE"), *at = getenv("CHANGE_AT");
    if (file && at && strcmp(path, file) == 0 && ++opens == 2)
        change_digit(real_fopen, path, atol(at));
    return real_fopen(path, mode);
}
