/* bigalloc.c - large arrays on transparent huge pages (see bigalloc.h). */
#include "config.h"

#include "util/bigalloc.h"

#include "util/memkeep.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define HUGE_PAGE ((size_t)2 << 20)

#if defined(__SANITIZE_ADDRESS__)
#define NO_GLIBC_HEADER 1   /* another allocator's blocks */
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NO_GLIBC_HEADER 1
#endif
#endif

/* The mapping glibc made for block p of n bytes when the block has one
 * of its own: true with [*from, *from + *len). glibc's header of such a
 * block, the two words before p, holds the block's offset in its mapping
 * and its size with bit 1 set (malloc.c's munmap_chunk() reads the same);
 * what is read is checked to describe a mapping around the block. False
 * for a block of the heap, or under another allocator. */
static bool own_mapping(void *p, size_t n, uintptr_t *from, size_t *len)
{
#if defined(__GLIBC__) && !defined(NO_GLIBC_HEADER)
    const size_t *h = (const size_t *)p;
    size_t off = h[-2], size = h[-1] & ~(size_t)7;
    uintptr_t chunk = (uintptr_t)p - 2 * sizeof(size_t), block = chunk - off;
    if ((h[-1] & 2) && off <= HUGE_PAGE + 4096 && chunk >= off && block % 4096 == 0 &&
        (off + size) % 4096 == 0 && size <= SIZE_MAX - off && size > n &&
        block + off + size >= (uintptr_t)p + n) {
        *from = block;
        *len = off + size;
        return true;
    }
#else
    (void)p;
    (void)n;
#endif
    (void)from;
    (void)len;
    return false;
}

void *tt_bigalloc(size_t n)
{
    void *p = NULL;
    uintptr_t from;
    size_t len;
    if (n < TT_BIGALLOC_FROM)
        return malloc(n ? n : 1);
    /* a mapping of its own, not a range of the heap (memkeep.h) */
    tt_mem_map_big(TT_BIGALLOC_FROM);
    /* whole huge pages: the kernel backs only aligned 2 MiB ranges */
    if (n > SIZE_MAX - HUGE_PAGE)
        return NULL;
    n = (n + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
    if (posix_memalign(&p, HUGE_PAGE, n))
        return NULL;
#ifdef MADV_HUGEPAGE
    /* advice only: where it is refused the pages are ordinary ones. All
     * of glibc's mapping when the block has one, so that it stays one
     * kernel area: glibc's realloc() and free() of it then work on it
     * whole (mremap() refuses a range split by advice on part of it) */
    if (own_mapping(p, n, &from, &len))
        (void)madvise((void *)from, len, MADV_HUGEPAGE);
    else
        (void)madvise(p, n, MADV_HUGEPAGE);
#endif
    return p;
}

void *tt_bigcalloc(size_t n)
{
    void *p;
    if (n < TT_BIGALLOC_FROM)
        return calloc(n ? n : 1, 1);
    /* the block may be reused heap memory: clear it (on fresh huge pages
     * this writes what the fault zeroed, at memory speed) */
    if ((p = tt_bigalloc(n)))
        memset(p, 0, n);
    return p;
}

/* Move the pages of [p, p + n) to q (both on huge page boundaries, n
 * whole huge pages, p in a mapping of its own): their page tables move,
 * nothing is copied or faulted, and the memory is not there twice. A
 * piece that cannot move (the range spans kernel areas, or mremap() is
 * refused) is copied. */
static void move_pages(char *p, char *q, size_t n)
{
#ifdef MREMAP_FIXED
    if (mremap(p, n, n, MREMAP_MAYMOVE | MREMAP_FIXED, q) != MAP_FAILED)
        return;
    for (size_t at = 0; at < n; at += HUGE_PAGE)
        if (mremap(p + at, HUGE_PAGE, HUGE_PAGE, MREMAP_MAYMOVE | MREMAP_FIXED, q + at) ==
            MAP_FAILED)
            memcpy(q + at, p + at, HUGE_PAGE);
#else
    memcpy(q, p, n);
#endif
}

void *tt_bigrealloc(void *p, size_t used, size_t n)
{
    void *q;
    uintptr_t from;
    size_t len, whole = (used + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
    if (n < TT_BIGALLOC_FROM)
        return realloc(p, n ? n : 1);
    /* A fresh block advised before its first touch. Not realloc(): glibc
     * grows a big block with mremap(), which mostly moves it to an
     * address whose offset in a huge page differs from the old one, and
     * the kernel never backs such a moved area with huge pages (a
     * 1M-event JSON load: 13k faults instead of 8k). */
    if (!(q = tt_bigalloc(n)))
        return NULL;
    if (!p)
        return q;
    if (used >= TT_BIGALLOC_FROM && (uintptr_t)p % HUGE_PAGE == 0 &&
        own_mapping(p, whole, &from, &len))
        move_pages(p, q, whole);   /* a block of tt_bigalloc(): the rest of it is unused */
    else
        memcpy(q, p, used);
    free(p);
    return q;
}
