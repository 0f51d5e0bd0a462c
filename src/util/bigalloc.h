/* bigalloc.h - allocations of large arrays backed by transparent huge
 * pages where the kernel offers them.
 *
 * Why: a whole .ttz reopen writes every event of the trace into fresh
 * memory, and on a virtual machine each 4 KiB page's first touch is a
 * costly fault (a fifth of a 1M-event reopen's CPU time went to them).
 * An array of a few MB asked for with MADV_HUGEPAGE takes one fault per 2
 * MiB instead. Where THP is off ("never") or unknown, this is malloc().
 *
 * Arrays that grow (the lanes' events, the flow points) go through
 * tt_bigrealloc(): glibc's realloc() of a big block moves it with
 * mremap() to an address the kernel never backs with huge pages, or
 * copies it into fresh heap memory; either way each new 4 KiB page
 * faults (a 1M-event JSON load: 11k of its 31k faults).
 *
 * Library code: no I/O. Ownership: the caller owns the block and frees it
 * with free(), like any malloc()'ed one (realloc() works on it too).
 */
#ifndef TT_UTIL_BIGALLOC_H
#define TT_UTIL_BIGALLOC_H

#include <stddef.h>

/* n bytes (n == 0: one byte), aligned on a huge page and advised to be
 * backed by huge pages when n is at least TT_BIGALLOC_FROM, else plain
 * malloc(n). A big block is whole huge pages (n rounded up): the kernel
 * backs only whole aligned 2 MiB ranges, and a 4 KiB tail would fault up
 * to 511 times; only what is touched is resident, so the rounding costs
 * at most the rest of the last huge page touched. NULL when out of
 * memory. */
void *tt_bigalloc(size_t n);

/* One huge page: below it THP cannot help. */
#define TT_BIGALLOC_FROM ((size_t)2 << 20)

/* n zeroed bytes: calloc() below TT_BIGALLOC_FROM, else tt_bigalloc()
 * cleared (a huge page's fault and a clear cost less than a fault per
 * 4 KiB page of calloc()'s fresh mapping when the block is used). NULL
 * when out of memory. */
void *tt_bigcalloc(size_t n);

/* p (a malloc()'ed block, or NULL) grown to n bytes, its first `used`
 * bytes kept (used <= n): realloc() while n is below TT_BIGALLOC_FROM,
 * else a fresh tt_bigalloc() block, p freed. What p held is copied, or,
 * when p is a big block of tt_bigalloc(), its pages are moved there
 * (mremap(): no copy, no fault, not resident twice). NULL when out of
 * memory (p is then unchanged, still the caller's). */
void *tt_bigrealloc(void *p, size_t used, size_t n);

#endif
