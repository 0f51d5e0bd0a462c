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

/* ------------------------------------------------------------ moments */

typedef unsigned __int128 u128;

/* 192-bit unsigned arithmetic modulo 2^192 on little-endian limbs: the sum
 * of squares and the centred sum below stay exact as long as their true
 * value fits, whatever the order of the additions and removals. */
static void u192_add(uint64_t r[3], const uint64_t a[3])
{
    u128 t = (u128)r[0] + a[0];
    r[0] = (uint64_t)t;
    t = (u128)r[1] + a[1] + (uint64_t)(t >> 64);
    r[1] = (uint64_t)t;
    r[2] += a[2] + (uint64_t)(t >> 64);
}

static void u192_sub(uint64_t r[3], const uint64_t a[3])
{
    uint64_t b0 = r[0] < a[0], t1 = r[1] - a[1], b1 = r[1] < a[1] || t1 < b0;
    r[0] -= a[0];
    r[1] = t1 - b0;
    r[2] -= a[2] + b1;
}

/* x * y for a 64-bit x and a 128-bit y. */
static void u192_mul(uint64_t r[3], uint64_t x, u128 y)
{
    u128 lo = (u128)x * (uint64_t)y, hi = (u128)x * (uint64_t)(y >> 64);
    u128 mid = (lo >> 64) + (uint64_t)hi;
    r[0] = (uint64_t)lo;
    r[1] = (uint64_t)mid;
    r[2] = (uint64_t)(hi >> 64) + (uint64_t)(mid >> 64);
}

static void square(uint64_t r[3], int64_t v)
{
    uint64_t a = v < 0 ? -(uint64_t)v : (uint64_t)v;
    u128 s = (u128)a * a;
    r[0] = (uint64_t)s;
    r[1] = (uint64_t)(s >> 64);
    r[2] = 0;
}

void tt_moments_add(tt_moments *m, int64_t v)
{
    uint64_t sq[3];
    square(sq, v);
    m->n++;
    m->sum += v;
    u192_add(m->sq, sq);
}

void tt_moments_remove(tt_moments *m, int64_t v)
{
    uint64_t sq[3];
    square(sq, v);
    m->n--;
    m->sum -= v;
    u192_sub(m->sq, sq);
}

void tt_moments_merge(tt_moments *m, const tt_moments *o)
{
    m->n += o->n;
    m->sum += o->sum;
    u192_add(m->sq, o->sq);
}

static u128 abs128(__int128 x)
{
    return x < 0 ? -(u128)x : (u128)x;
}

/* Sample variance from exact moments. With c the mean truncated to an
 * integer and r = sum - n*c (|r| < n), the squared deviations from c sum
 * to T = sumsq - 2*c*sum + n*c^2 exactly (c and sum have the same sign, so
 * 2*c*sum >= 0), and the squared deviations from the mean to T - r^2/n.
 * T is small when the values are close together, which is where computing
 * sumsq - sum^2/n in floating point would cancel. */
static long double sample_variance(const tt_moments *m)
{
    uint64_t n = m->n, t[3], x[3];
    __int128 c = m->sum / (__int128)n, r = m->sum - c * (__int128)n;
    uint64_t ac = (uint64_t)abs128(c);   /* |mean| < 2^63 */
    t[0] = m->sq[0];
    t[1] = m->sq[1];
    t[2] = m->sq[2];
    u192_mul(x, n, (u128)ac * ac);
    u192_add(t, x);
    u192_mul(x, ac, abs128(m->sum));
    u192_sub(t, x);
    u192_sub(t, x);
    if (t[1] == 0 && t[2] == 0) {
        /* (n*T - r^2) / (n*(n-1)), the numerator exact in 128 bits */
        u128 num = (u128)n * t[0] - (u128)(abs128(r) * abs128(r));
        return (long double)num / ((long double)n * (long double)(n - 1));
    }
    {
        long double tl = ((long double)t[2] * 0x1p64L + (long double)t[1]) * 0x1p64L +
                         (long double)t[0];
        long double rl = (long double)r;
        return (tl - rl * rl / (long double)n) / (long double)(n - 1);
    }
}

void tt_dist_finish(const tt_moments *m, int64_t min, int64_t max, double median, tt_dist *d)
{
    memset(d, 0, sizeof *d);
    if (m->n == 0)
        return;
    d->n = m->n;
    d->total = (int64_t)(uint64_t)(u128)m->sum;
    d->min = min;
    d->max = max;
    d->median = median;
    /* the sum converts exactly while it fits 64 bits of mantissa, as the
     * long double running sum this replaced did */
    d->avg = (double)((long double)m->sum / (long double)m->n);
    if (m->n >= 2)
        d->stddev = (double)sqrtl(sample_variance(m));
}

void tt_dist_compute(int64_t *v, size_t n, tt_dist *d)
{
    tt_moments m;
    int64_t lo, hi, mn, mx;
    memset(&m, 0, sizeof m);
    if (n == 0) {
        memset(d, 0, sizeof *d);
        return;
    }
    mn = mx = v[0];
    for (size_t i = 0; i < n; i++) {
        tt_moments_add(&m, v[i]);
        if (v[i] < mn)
            mn = v[i];
        if (v[i] > mx)
            mx = v[i];
    }
    hi = select_kth(v, n, n / 2);
    lo = hi;
    if (n % 2 == 0) {
        /* upper middle by selection; the lower middle is then the largest
         * value left of it */
        lo = v[0];
        for (size_t i = 1; i < n / 2; i++)
            if (v[i] > lo)
                lo = v[i];
    }
    tt_dist_finish(&m, mn, mx, tt_dist_median_of(lo, hi), d);
}
