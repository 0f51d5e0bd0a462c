/* sort.h - stable merge sort with a context argument.
 *
 * glibc's qsort is neither stable nor free of hidden allocations of n*size
 * bytes; this one is stable, allocates exactly one n*size buffer, and runs in
 * O(n) on already sorted input (merges of ordered runs are skipped), which is
 * the common case for trace data.
 */
#ifndef TT_UTIL_SORT_H
#define TT_UTIL_SORT_H

#include <stddef.h>

typedef int (*tt_cmp_fn)(const void *a, const void *b, void *ctx);

/* Sort n elements of `size` bytes. Returns 0, or -1 when the scratch buffer
 * cannot be allocated (the array is then left in its original order). */
int tt_sort(void *base, size_t n, size_t size, tt_cmp_fn cmp, void *ctx);

#endif
