/*
 * frames: a chain of varied frame shapes (see frames.c).
 */
#ifndef DWUNWIND_TEST_FRAMES_H
#define DWUNWIND_TEST_FRAMES_H

typedef int (*leaf_fn)(void *arg);

/* Call through DEPTH frames of varied shapes, then LEAF(ARG). */
int chain(int depth, leaf_fn leaf, void *arg);

/* DEPTH frames of recursions: one function calling itself, then two
 * calling each other with a third between them now and then; then LEAF. */
int chain_recursive(int depth, leaf_fn leaf, void *arg);

/* The same shapes without libc's frames (frames.c built with -DFRAMES_NO_LIBC). */
int chain_without_libc(int depth, leaf_fn leaf, void *arg);
int chain_recursive_without_libc(int depth, leaf_fn leaf, void *arg);

#endif
/* SPDX-License-Identifier: Apache-2.0 */
