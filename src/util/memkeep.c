/* memkeep.c - keeping freed memory for reuse (see memkeep.h). */
#include "config.h"

#include "util/memkeep.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>   /* first of the C library's headers: defines __GLIBC__ */

#ifdef __GLIBC__
#include <malloc.h>
#endif

/* Blocks up to this size come from the heap when keeping: glibc's
 * largest accepted threshold for thread arenas' heaps is 32 MB on 64-bit
 * hosts (half their 64 MB). */
#define KEEP_MMAP_THRESHOLD (32 << 20)

static atomic_bool keep;

void tt_mem_keep_freed(void)
{
#ifdef __GLIBC__
    /* both also turn off glibc's dynamic threshold adjustment, which
     * would otherwise move them back as blocks are freed */
    (void)mallopt(M_MMAP_THRESHOLD, KEEP_MMAP_THRESHOLD);
    (void)mallopt(M_TRIM_THRESHOLD, -1);  /* never shrink the heap */
#endif
    atomic_store(&keep, true);
}

void tt_mem_trim(void)
{
#ifdef __GLIBC__
    if (!atomic_load(&keep))
        (void)malloc_trim(0);
#endif
}

void tt_mem_map_big(size_t from)
{
#ifdef __GLIBC__
    static atomic_bool done;
    if (atomic_load(&keep) || atomic_exchange(&done, true))
        return;
    /* a fixed threshold also ends glibc's adjustment of the trim
     * threshold, which would have followed it to twice its value: keep
     * that much free heap top (no release and refault for each chunk) */
    (void)mallopt(M_MMAP_THRESHOLD, (int)from);
    (void)mallopt(M_TRIM_THRESHOLD, (int)(2 * from));
#else
    (void)from;
#endif
}
