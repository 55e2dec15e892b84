/* SPDX-License-Identifier: Apache-2.0 */
/*
 * shard: a deterministic part of a command line's files (dwcheck --shard=K/N).
 *
 * N runs of one command line, each with its own K, share its files out so
 * that each file name is in exactly one shard, whatever machine runs it and
 * whatever order the names came in: the names are sorted (bytewise, as
 * strcmp and `LC_ALL=C sort` order them; a name given twice counts twice),
 * and shard K takes those at positions K-1, K-1+N, K-1+2N ... of that
 * order.  Shards differ by at most one file, and neighbours in the sort
 * (one package's libraries, often alike in size) go to different shards.
 * A shard keeps its names in the command line's order.
 */
#ifndef DWCHECK_SHARD_H
#define DWCHECK_SHARD_H

/* The largest N of --shard=K/N. */
#define SHARD_MAX 1000000

/* Parse TEXT, "K/N" with 1 <= K <= N <= SHARD_MAX, into *K and *N.  On
 * error, print `tool: bad --shard 'TEXT' (K/N, 1 <= K <= N)` and return -1. */
int shard_parse(const char *text, unsigned *k, unsigned *n);

/*
 * Keep, in NAMES[0 .. NNAMES-1], those of shard K of N, in their order;
 * returns how many.  Returns -1 when out of memory (NAMES unchanged).
 */
int shard_select(char **names, int nnames, unsigned k, unsigned n);

#endif
