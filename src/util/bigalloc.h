/* bigalloc.h - allocations of large arrays backed by transparent huge
 * pages where the kernel offers them.
 *
 * Why: a whole .ttz reopen writes every event of the trace into fresh
 * memory, and on a virtual machine each 4 KiB page's first touch is a
 * costly fault (a fifth of a 1M-event reopen's CPU time went to them).
 * An array of a few MB asked for with MADV_HUGEPAGE takes one fault per 2
 * MiB instead. Where THP is off ("never") or unknown, this is malloc().
 *
 * Library code: no I/O. Ownership: the caller owns the block and frees it
 * with free(), like any malloc()'ed one (realloc() works on it too).
 */
#ifndef TT_UTIL_BIGALLOC_H
#define TT_UTIL_BIGALLOC_H

#include <stddef.h>

/* n bytes (n == 0: one byte), aligned on a huge page and advised to be
 * backed by huge pages when n is at least TT_BIGALLOC_FROM, else plain
 * malloc(n). NULL when out of memory. */
void *tt_bigalloc(size_t n);

#define TT_BIGALLOC_FROM ((size_t)4 << 20)

#endif
