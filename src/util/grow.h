/* grow.h - room for one more element in a growable array.
 *
 * The arrays of the decoders and the statistics grow one element at a
 * time by doubling; this is the one copy of that step. Header only: it is
 * called on hot paths (every event of a chunk), so it stays inline.
 * Library code: no I/O. Ownership: the caller owns *arr (free() it).
 */
#ifndef TT_UTIL_GROW_H
#define TT_UTIL_GROW_H

#include <stddef.h>
#include <stdlib.h>

/* Make room for element n of *arr (elements of `size` bytes, *cap of them
 * allocated): doubles the capacity, starting at 64, when n == *cap.
 * 0, or -1 when out of memory (*arr and *cap unchanged). */
static inline int tt_grow_one(void **arr, size_t *cap, size_t n, size_t size)
{
    size_t nc;
    void *na;
    if (n < *cap)
        return 0;
    nc = *cap ? *cap * 2 : 64;
    if (!(na = realloc(*arr, nc * size)))
        return -1;
    *arr = na;
    *cap = nc;
    return 0;
}

#endif
