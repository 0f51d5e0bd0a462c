/* dist.c - count, total, min, max, mean, median, sample stddev (see dist.h). */
#include "config.h"

#include "analysis/dist.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

/* Deterministic pivots: results must not depend on a global seed, and a
 * fixed xorshift keeps adversarial-looking traces (all equal, sorted)
 * linear because the three-way partition absorbs equal values. */
static uint64_t next_rand(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* The k-th smallest of v[0..n) (0-based); on return every element before
 * position k is <= it and every one after is >= it. Hoare partitioning
 * around a random pivot: equal values split evenly, so runs of identical
 * durations (common in traces) stay linear. */
static int64_t select_kth(int64_t *v, size_t n, size_t k)
{
    ptrdiff_t lo = 0, hi = (ptrdiff_t)n - 1, kk = (ptrdiff_t)k;   /* search in [lo, hi] */
    uint64_t seed = 0x9e3779b97f4a7c15ULL;
    while (lo < hi) {
        int64_t p = v[lo + (ptrdiff_t)(next_rand(&seed) % (uint64_t)(hi - lo + 1))];
        ptrdiff_t i = lo, j = hi;
        while (i <= j) {
            while (v[i] < p)
                i++;
            while (v[j] > p)
                j--;
            if (i <= j) {
                int64_t t = v[i];
                v[i++] = v[j];
                v[j--] = t;
            }
        }
        /* now v[lo..j] <= p, v[i..hi] >= p, and v(j..i) == p */
        if (kk <= j)
            hi = j;
        else if (kk >= i)
            lo = i;
        else
            break;
    }
    return v[k];
}

void tt_dist_compute(int64_t *v, size_t n, tt_dist *d)
{
    long double sum = 0, mean, ss = 0;
    memset(d, 0, sizeof *d);
    if (n == 0)
        return;
    d->n = n;
    d->min = d->max = v[0];
    for (size_t i = 0; i < n; i++) {
        d->total += v[i];
        if (v[i] < d->min)
            d->min = v[i];
        if (v[i] > d->max)
            d->max = v[i];
        sum += (long double)v[i];
    }
    mean = sum / (long double)n;
    d->avg = (double)mean;
    if (n >= 2) {
        for (size_t i = 0; i < n; i++) {
            long double x = (long double)v[i] - mean;
            ss += x * x;
        }
        d->stddev = (double)sqrtl(ss / (long double)(n - 1));
    }
    if (n % 2) {
        d->median = (double)select_kth(v, n, n / 2);
    } else {
        /* upper middle by selection; the lower middle is then the largest
         * value left of it */
        int64_t hi = select_kth(v, n, n / 2), lo = v[0];
        for (size_t i = 1; i < n / 2; i++)
            if (v[i] > lo)
                lo = v[i];
        d->median = ((double)lo + (double)hi) / 2.0;
    }
}
