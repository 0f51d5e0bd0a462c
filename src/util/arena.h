/* arena.h - bump allocator for data that lives as long as its owner.
 *
 * Ownership: an arena owns every block it hands out; tt_arena_fini() frees
 * them all at once. Individual allocations are never freed. Not thread-safe:
 * one arena per owner (per trace).
 */
#ifndef TT_UTIL_ARENA_H
#define TT_UTIL_ARENA_H

#include <stddef.h>

typedef struct tt_arena_chunk tt_arena_chunk;

typedef struct tt_arena {
    tt_arena_chunk *head;   /* most recent chunk */
    size_t          used;   /* bytes used in head */
    size_t          total;  /* bytes allocated from the system, all chunks */
} tt_arena;

void tt_arena_init(tt_arena *a);
void tt_arena_fini(tt_arena *a);

/* n bytes aligned to `align` (a power of two <= 16); NULL when out of memory. */
void *tt_arena_alloc(tt_arena *a, size_t n, size_t align);

/* Copy of [s, s+n) with a terminating NUL; NULL when out of memory. */
char *tt_arena_strndup(tt_arena *a, const char *s, size_t n);

#endif
