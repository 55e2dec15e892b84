/*
 * frames: a chain of varied frame shapes (see frames.c).
 */
#ifndef DWUNWIND_TEST_FRAMES_H
#define DWUNWIND_TEST_FRAMES_H

typedef int (*leaf_fn)(void *arg);

/* Call through DEPTH frames of varied shapes, then LEAF(ARG). */
int chain(int depth, leaf_fn leaf, void *arg);

/* The same shapes without libc's frames (frames.c built with -DFRAMES_NO_LIBC). */
int chain_without_libc(int depth, leaf_fn leaf, void *arg);

#endif
/* SPDX-License-Identifier: Apache-2.0 */
