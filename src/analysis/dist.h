/* dist.h - summary statistics of a group of integer values (durations in
 * ns, sizes in bytes), with the definitions `nsys stats` uses:
 *   avg     total / n
 *   median  the middle value, or the mean of the two middle values for an
 *           even n (exact: selection, no sampling)
 *   stddev  sample standard deviation (divides by n - 1); 0 when n < 2
 *
 * avg and stddev are computed from exact integer moments (tt_moments: the
 * count, the sum and the sum of squares, kept without rounding), so they
 * depend on the multiset of values only, never on the order they were
 * added in: a selection summed from precomputed per-block moments
 * (selsum.h) gives bit for bit the doubles a walk over its events gives.
 *
 * Library code: no I/O.
 */
#ifndef TT_ANALYSIS_DIST_H
#define TT_ANALYSIS_DIST_H

#include <stddef.h>
#include <stdint.h>

typedef struct tt_dist {
    uint64_t n;
    int64_t  total, min, max;    /* 0 when n == 0 */
    double   avg, median, stddev;
} tt_dist;

/* Exact moments of a multiset of int64 values: n, sum (128 bits: no int64
 * value count can overflow it) and the sum of squares in 192 bits (each
 * square < 2^126, at most 2^64 of them). Additions and removals are exact,
 * in any order; removing a value that was added leaves the moments as if it
 * never had been. A zeroed struct is the empty multiset. */
typedef struct tt_moments {
    uint64_t n;
    __int128 sum;
    uint64_t sq[3];   /* little-endian limbs */
} tt_moments;

void tt_moments_add(tt_moments *m, int64_t v);
void tt_moments_remove(tt_moments *m, int64_t v);
void tt_moments_merge(tt_moments *m, const tt_moments *other);

/* n, total, avg and stddev from the moments; min, max and median as given
 * (the caller selects them). n == 0 gives an all-zero distribution. */
void tt_dist_finish(const tt_moments *m, int64_t min, int64_t max, double median, tt_dist *d);

/* The median of a sorted group's k-th values as tt_dist defines it: for
 * an odd n the middle one, for an even n the mean of lo (the n/2-1-th) and
 * hi (the n/2-th); odd n passes lo == hi. */
static inline double tt_dist_median_of(int64_t lo, int64_t hi)
{
    return lo == hi ? (double)lo : ((double)lo + (double)hi) / 2.0;
}

/* Statistics of v[0..n). Reorders v (selection for the median). O(n)
 * expected. */
void tt_dist_compute(int64_t *v, size_t n, tt_dist *d);

#endif
