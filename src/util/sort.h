/* sort.h - stable merge sort with a context argument, and a radix sort of
 * (key, value) pairs.
 *
 * glibc's qsort is neither stable nor free of hidden allocations of n*size
 * bytes; this one is stable, allocates exactly one n*size buffer, and runs in
 * O(n) on already sorted input (merges of ordered runs are skipped), which is
 * the common case for trace data.
 */
#ifndef TT_UTIL_SORT_H
#define TT_UTIL_SORT_H

#include <stddef.h>
#include <stdint.h>

typedef int (*tt_cmp_fn)(const void *a, const void *b, void *ctx);

/* Sort n elements of `size` bytes. Returns 0, or -1 when the scratch buffer
 * cannot be allocated (the array is then left in its original order). */
int tt_sort(void *base, size_t n, size_t size, tt_cmp_fn cmp, void *ctx);

/* A sort key and what it stands for (an index, usually): the unit of
 * tt_radix_sort(). */
typedef struct tt_kv {
    uint64_t key;
    uint64_t val;
} tt_kv;

/* Stable sort of n pairs by key, ascending, in O(n) per 11 bits of key
 * that differ between keys: a least-significant-digit radix sort that
 * skips the bits all keys share (keys relative to their minimum, such as
 * times within a trace, span far fewer than 64 bits). For the big sorts of finalize,
 * where tt_sort's comparisons through a function pointer dominate. Sorted
 * input costs one pass. Many pairs with keys over 3 digits or more whose
 * top bits all vary (hashes, times) take two passes instead: by their
 * highest bits into buckets of a few pairs, each then sorted in cache.
 * Returns 0, or -1 when its n-pair scratch buffer or its counters cannot
 * be allocated (the array is then left as it was). */
int tt_radix_sort(tt_kv *a, size_t n);

/* tt_radix_sort() with its buffer taken from and handed back to a
 * scratch pool (util/scratch.h; NULL: a block of its own), so that the
 * sorts of one phase reuse memory that is resident already. */
struct tt_scratch;
int tt_radix_sort_in(tt_kv *a, size_t n, struct tt_scratch *pool);

/* tt_radix_sort_in() of bare keys: for keys that carry what they stand
 * for in their low bits (an index below a time), half the memory of pairs
 * and of the sort's buffer. The low `low` bits of the keys must ascend
 * with their position among keys equal above them (the index of each key
 * does): the sort then makes no pass over them. */
int tt_radix_sort64_in(uint64_t *a, size_t n, int low, struct tt_scratch *pool);

/* Reorder n elements of `size` bytes in place so that position i receives
 * the element that was at order[i].val (a permutation of 0..n-1, such as
 * tt_radix_sort() leaves in the vals): each element moves once, and no
 * second copy of the array is needed. The pairs of order are overwritten
 * (keys too: the walk packs the vals into the front of the array).
 * Returns 0, or -1 when one element of scratch cannot be allocated:
 * base has not moved then, but order may already hold packed positions,
 * so a caller cannot retry with it (the one caller gives up). */
int tt_apply_order(void *base, size_t n, size_t size, tt_kv *order);

/* tt_apply_order() with the permutation as n 32-bit positions (n below
 * UINT32_MAX), which it overwrites. Returns 0, or -1 when one element of
 * scratch cannot be allocated (nothing has moved then). */
int tt_apply_perm(void *base, size_t n, size_t size, uint32_t *perm);

/* tt_apply_perm() front to back, a stretch at a time, for a permutation
 * that moves each element back by at most a few thousand positions (a
 * trace shuffled within windows, as exporters write them): before
 * position i is written, its element is copied into a ring of the last
 * B (a power of two past the furthest move back) originals, and position
 * i then takes its element from the array (not yet written) or from the
 * ring. The array is read and written in order, where the walk of
 * tt_apply_perm() follows cycles that jump about a window: each element
 * is fetched once, and a pass that reads the placed elements (nesting,
 * index) can run on each stretch while it is still in cache.
 * The ring owns its buffer, taken from and put back to a scratch pool
 * (NULL: a block of its own), where the sort that made the permutation
 * left memory that is resident already. */
typedef struct tt_perm_ring {
    char                *ring;
    size_t               mask;   /* B - 1 */
    size_t               size;   /* of an element */
    struct tt_scratch   *pool;
} tt_perm_ring;

/* Set *r up for perm[0..n-1] (a permutation of 0..n-1: position i
 * receives the element at perm[i]) over elements of `size` bytes.
 * Returns 0; 1 when the ring would pass max_bytes (an element moves back
 * further: use tt_apply_perm()); -1 out of memory. *r holds nothing to
 * free unless 0. */
int tt_perm_ring_init(tt_perm_ring *r, const uint32_t *perm, size_t n, size_t size,
                      size_t max_bytes, struct tt_scratch *pool);

/* Place positions from .. to - 1 of base (n elements) after the calls
 * that placed 0 .. from - 1. perm is only read. */
void tt_perm_ring_apply(tt_perm_ring *r, void *base, size_t n, const uint32_t *perm, size_t from,
                        size_t to);

void tt_perm_ring_fini(tt_perm_ring *r);

#endif
