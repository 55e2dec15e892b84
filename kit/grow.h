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
 * Elements past the count are not initialised.  Header only; libc only.
 */
#ifndef DWCHECK_KIT_GROW_H
#define DWCHECK_KIT_GROW_H

#include <stdint.h>
#include <stdlib.h>

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

#endif
