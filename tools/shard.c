/* SPDX-License-Identifier: Apache-2.0 */
/*
 * shard: one part of the files, by position in their sorted order (shard.h).
 */
#include "shard.h"

#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* TEXT up to END (or its NUL), a decimal count without sign or leading
 * zero, into *OUT.  Returns 0, or -1. */
static int decimal(const char *text, const char *end, unsigned long long *out)
{
    size_t n = end ? (size_t)(end - text) : strlen(text);
    if (n == 0 || n > 7 || strspn(text, "0123456789") < n || text[0] == '0')
        return -1;
    *out = 0;
    for (size_t i = 0; i < n; i++)
        *out = *out * 10 + (unsigned)(text[i] - '0');
    return 0;
}

int shard_parse(const char *text, unsigned *k, unsigned *n)
{
    const char *slash = strchr(text, '/');
    unsigned long long kv, nv;
    if (!slash || decimal(text, slash, &kv) != 0 || decimal(slash + 1, NULL, &nv) != 0 || kv < 1 || kv > nv ||
        nv > SHARD_MAX) {
        cli_error(NULL, "bad --shard '%s' (K/N, 1 <= K <= N <= %d)", text, SHARD_MAX);
        return -1;
    }
    *k = (unsigned)kv;
    *n = (unsigned)nv;
    return 0;
}

/* The order of positions into the names NAMES: by name, then position. */
static int by_name(const void *a, const void *b, void *names)
{
    int i = *(const int *)a, j = *(const int *)b;
    int c = strcmp(((char **)names)[i], ((char **)names)[j]);
    return c ? c : (i > j) - (i < j);
}

int shard_select(char **names, int nnames, unsigned k, unsigned n)
{
    if (nnames == 0)
        return 0;
    int *order = malloc((size_t)nnames * sizeof *order);
    unsigned char *taken = calloc((size_t)nnames, 1);
    if (!order || !taken) {
        free(order);
        free(taken);
        return -1;
    }
    for (int i = 0; i < nnames; i++)
        order[i] = i;
    qsort_r(order, (size_t)nnames, sizeof *order, by_name, names);
    for (int p = (int)k - 1; p >= 0 && p < nnames; p += (int)n)
        taken[order[p]] = 1;
    int kept = 0;
    for (int i = 0; i < nnames; i++)
        if (taken[i])
            names[kept++] = names[i];
    free(order);
    free(taken);
    return kept;
}
