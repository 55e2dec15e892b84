/* SPDX-License-Identifier: Apache-2.0 */
/*
 * grow: arrays that grow as they are filled, for every stage.
 *
 * An array is a pointer, a count the caller keeps and a capacity this
 * module keeps (in elements).  grow_array makes room for NEED elements,
 * doubling the capacity from GROW_FIRST so that filling it one at a time
 * costs amortised constant time, and returns the array, moved or not; on
 * failure (no memory, or a size past SIZE_MAX) it returns NULL and leaves
 * the array and its capacity as they were, still the caller's to free.
 * GROW(ARRAY, CAP, NEED) does the same in place: ARRAY (an lvalue of
 * pointer type) is set to the moved array, and it yields 0, or -1 on
 * failure.  Elements past the count are not initialised.  Header only;
 * libc only.
 */
#ifndef DWCHECK_KIT_GROW_H
#define DWCHECK_KIT_GROW_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define GROW_FIRST 16

/* ITEMS (NULL when empty) with room for NEED elements of ELEM bytes, *CAP
 * updated; or NULL, ITEMS and *CAP unchanged. */
static inline void *grow_array(void *items, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return items;
    size_t more = *cap ? *cap : GROW_FIRST;
    while (more < need) {
        if (more > SIZE_MAX / 2)
            return NULL;
        more *= 2;
    }
    if (elem && more > SIZE_MAX / elem)
        return NULL;
    void *moved = realloc(items, more * elem);
    if (!moved)
        return NULL;
    *cap = more;
    return moved;
}

/* *ARRAY_AT (a pointer to the caller's array pointer, of any object
 * type) grown as grow_array grows it; 0, or -1.  (The pointer is copied
 * in and out with memcpy: its type is the caller's.) */
static inline int grow_in_place(void *array_at, size_t *cap, size_t need, size_t elem)
{
    void *items;
    memcpy(&items, array_at, sizeof items);
    void *moved = grow_array(items, cap, need, elem);
    if (!moved)
        return -1;
    memcpy(array_at, &moved, sizeof moved);
    return 0;
}

#define GROW(array, cap, need) grow_in_place(&(array), &(cap), (need), sizeof *(array))

#endif
