/* scratch.h - big scratch blocks handed back and reused within one phase.
 *
 * Why: finalize sorts each lane and then the flow points, and each sort
 * takes arrays of n pairs (keys, the radix sort's buffer, the binding's
 * positions) that it frees a moment later. A freed big block is unmapped,
 * so the next sort's block is fresh memory again: every page faults and
 * the kernel zeroes it (perf, 1M-event JSON summary: a third of the
 * load's page zeroing, ~4% of its CPU). Blocks put back here stay
 * resident and are handed to the next get() they fit, so the phase
 * touches fresh memory for its biggest sort, not for every one.
 *
 * Only blocks of TT_BIGALLOC_FROM bytes and more are kept (smaller ones
 * come from and go back to the heap, which reuses them by itself), at
 * most TT_SCRATCH_KEEP of them; tt_scratch_free() unmaps what is kept,
 * so memory is held no longer than the phase. Safe to share between the
 * threads of a phase (a mutex around the list).
 *
 * Library code: no I/O. Ownership: the phase owns the pool; a block from
 * tt_scratch_get() is the caller's until it is put back (or free()d: it
 * is an ordinary malloc()'ed block). A NULL pool is valid everywhere and
 * means no reuse (tt_bigalloc() and free()).
 */
#ifndef TT_UTIL_SCRATCH_H
#define TT_UTIL_SCRATCH_H

#include <stddef.h>

typedef struct tt_scratch tt_scratch;

#define TT_SCRATCH_KEEP 6

/* A pool; NULL when out of memory (callers then pass NULL on: no reuse). */
tt_scratch *tt_scratch_new(void);

/* n bytes, not cleared: the smallest kept block that holds n, else a
 * fresh tt_bigalloc(n). NULL when out of memory. */
void *tt_scratch_get(tt_scratch *s, size_t n);

/* Hand p back (NULL is a no-op); n is what it was got for. Kept for a
 * later get() when it is big, else freed; when the pool is full, its
 * smallest block is freed instead. */
void tt_scratch_put(tt_scratch *s, void *p, size_t n);

/* Free every kept block, the pool staying usable: where the phase goes on
 * with work that needs no scratch for a while (NULL is a no-op). */
void tt_scratch_trim(tt_scratch *s);

/* Free every kept block and the pool (NULL is a no-op). */
void tt_scratch_free(tt_scratch *s);

#endif
