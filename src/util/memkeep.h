/* memkeep.h - whether memory a command frees goes back to the kernel.
 *
 * Why: on the virtual machines this runs on, the first touch of a page
 * that the process got fresh from the kernel costs about 20 us (a 4 KiB
 * page fault through the hypervisor). A load frees most of what it
 * parsed with, and glibc hands large freed blocks (and, after
 * tt_mem_trim(), every free page) back to the kernel; a command that then
 * does as much work again, such as convert's encode, faults the same
 * amount of memory in anew (1M events: ~18k faults, ~0.4 s of CPU). A
 * command that keeps what it frees reuses those pages instead, at the
 * price of a higher resident size between its phases. Plain loads keep
 * giving memory back (their peak is what matters there).
 *
 * Process-wide, as glibc's allocator settings are; no-ops where the C
 * library is not glibc. Library code: no I/O.
 */
#ifndef TT_UTIL_MEMKEEP_H
#define TT_UTIL_MEMKEEP_H

#include <stddef.h>

/* From now on, keep freed memory in the process: blocks below 32 MB come
 * from the heap rather than from a mapping of their own, the heap is not
 * shrunk when its top is freed, and tt_mem_trim() does nothing. Call it
 * before the work whose memory is to be reused (before the load). */
void tt_mem_keep_freed(void);

/* Give free memory back to the kernel (malloc_trim(0)), unless
 * tt_mem_keep_freed() was called. */
void tt_mem_trim(void);

/* Unless keeping: blocks of `from` bytes and more get mappings of their
 * own from now on, whatever was freed before. Why: glibc raises its mmap
 * threshold to the size of each mapped block freed (up to 32 MB), after
 * which big blocks come from the heap; a huge-page block there
 * (util/bigalloc.h) leaves its range advised after it is freed, and the
 * heap's next small block or free-list pointer written into that range
 * makes a whole 2 MiB page resident (1M-event JSON summary: peak 104 MB
 * instead of 94). A block of its own is unmapped when freed. Blocks below
 * `from` keep coming from the heap, reused. Called by tt_bigalloc(). */
void tt_mem_map_big(size_t from);

#endif
