/* dist.h - summary statistics of a group of integer values (durations in
 * ns, sizes in bytes), with the definitions `nsys stats` uses:
 *   avg     total / n
 *   median  the middle value, or the mean of the two middle values for an
 *           even n (exact: selection, no sampling)
 *   stddev  sample standard deviation (divides by n - 1); 0 when n < 2
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

/* Statistics of v[0..n). Reorders v (selection for the median). O(n)
 * expected. */
void tt_dist_compute(int64_t *v, size_t n, tt_dist *d);

#endif
