/* arena.c - bump allocator (see arena.h). */
#include "config.h"

#include "util/arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Chunks grow geometrically up to 4 MiB so small traces stay small and big
 * ones do not pay a malloc per string. */
#define ARENA_MIN_CHUNK ((size_t)16 << 10)
#define ARENA_MAX_CHUNK ((size_t)4 << 20)

struct tt_arena_chunk {
    tt_arena_chunk *prev;
    size_t          size;
    _Alignas(16) unsigned char data[];
};

void tt_arena_init(tt_arena *a)
{
    a->head = NULL;
    a->used = 0;
    a->total = 0;
}

void tt_arena_fini(tt_arena *a)
{
    tt_arena_chunk *c = a->head;
    while (c) {
        tt_arena_chunk *prev = c->prev;
        free(c);
        c = prev;
    }
    tt_arena_init(a);
}

void *tt_arena_alloc(tt_arena *a, size_t n, size_t align)
{
    size_t off;
    if (align == 0)
        align = 1;
    if (a->head) {
        off = (a->used + (align - 1)) & ~(align - 1);
        if (off <= a->head->size && n <= a->head->size - off) {
            a->used = off + n;
            return a->head->data + off;
        }
    }
    {
        size_t want = a->head ? a->head->size * 2 : ARENA_MIN_CHUNK;
        tt_arena_chunk *c;
        if (want > ARENA_MAX_CHUNK)
            want = ARENA_MAX_CHUNK;
        if (want < n + align)
            want = n + align;
        if (want > SIZE_MAX - sizeof *c)
            return NULL;
        c = malloc(sizeof *c + want);
        if (!c)
            return NULL;
        c->prev = a->head;
        c->size = want;
        a->head = c;
        a->total += want;
        a->used = n;
        return c->data;
    }
}

char *tt_arena_strndup(tt_arena *a, const char *s, size_t n)
{
    char *p = tt_arena_alloc(a, n + 1, 1);
    if (!p)
        return NULL;
    if (n)
        memcpy(p, s, n);
    p[n] = '\0';
    return p;
}
