/*
 * shard: one part of the files, by position in their sorted order (shard.h).
 */
#include "shard.h"

#include <stdlib.h>
#include <string.h>

#include "cli.h"

int shard_parse(const char *text, unsigned *k, unsigned *n)
{
    const char *slash = strchr(text, '/');
    char kpart[16];
    unsigned long long kv, nv;
    size_t klen = slash ? (size_t)(slash - text) : 0;
    if (slash && klen < sizeof kpart) {
        memcpy(kpart, text, klen);
        kpart[klen] = '\0';
    }
    /* Decimal only: K and N are counts, a leading 0 or 0x would be a typo. */
    if (!slash || klen >= sizeof kpart || strspn(kpart, "0123456789") != klen ||
        strspn(slash + 1, "0123456789") != strlen(slash + 1) || cli_parse_address(kpart, &kv) != 0 ||
        cli_parse_address(slash + 1, &nv) != 0 || kv < 1 || nv > SHARD_MAX || kv > nv) {
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
