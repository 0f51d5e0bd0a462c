/* sort.c - stable bottom-up merge sort and LSD radix sort (see sort.h). */
#include "config.h"

#include "util/sort.h"

#include "util/bigalloc.h"
#include "util/scratch.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define RUN 16

static void insertion(char *a, size_t n, size_t size, tt_cmp_fn cmp, void *ctx, char *tmp)
{
    for (size_t i = 1; i < n; i++) {
        size_t j = i;
        if (cmp(a + (i - 1) * size, a + i * size, ctx) <= 0)
            continue;
        memcpy(tmp, a + i * size, size);
        while (j > 0 && cmp(a + (j - 1) * size, tmp, ctx) > 0) {
            memcpy(a + j * size, a + (j - 1) * size, size);
            j--;
        }
        memcpy(a + j * size, tmp, size);
    }
}

int tt_sort(void *base, size_t n, size_t size, tt_cmp_fn cmp, void *ctx)
{
    char *a = base, *buf, *src, *dst;
    size_t width;
    int sorted = 1;
    if (n < 2)
        return 0;
    for (size_t i = 1; i < n && sorted; i++)
        if (cmp(a + (i - 1) * size, a + i * size, ctx) > 0)
            sorted = 0;
    if (sorted)
        return 0;
    buf = malloc(n * size + size);
    if (!buf)
        return -1;
    for (size_t i = 0; i < n; i += RUN)
        insertion(a + i * size, n - i < RUN ? n - i : RUN, size, cmp, ctx, buf + n * size);
    src = a;
    dst = buf;
    for (width = RUN; width < n; width *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = lo + width < n ? lo + width : n;
            size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            size_t i = lo, j = mid, k = lo;
            if (mid == hi || cmp(src + (mid - 1) * size, src + mid * size, ctx) <= 0) {
                memcpy(dst + lo * size, src + lo * size, (hi - lo) * size);
                continue;
            }
            while (i < mid && j < hi) {
                if (cmp(src + j * size, src + i * size, ctx) < 0) {
                    memcpy(dst + k * size, src + j * size, size);
                    j++;
                } else {
                    memcpy(dst + k * size, src + i * size, size);
                    i++;
                }
                k++;
            }
            memcpy(dst + k * size, src + i * size, (mid - i) * size);
            k += mid - i;
            memcpy(dst + k * size, src + j * size, (hi - j) * size);
        }
        {
            char *t = src;
            src = dst;
            dst = t;
        }
    }
    if (src != a)
        memcpy(a, src, n * size);
    free(buf);
    return 0;
}

/* ------------------------------------------------------------ radix sort */

/* Digits of up to 11 bits (2048 buckets: the counts of one digit stay in
 * L1, and 30-bit keys such as a second of nanoseconds take 3 passes, not
 * 4; 8 bits below RADIX_WIDE_FROM pairs, where clearing and summing 2048
 * counts per digit would cost more than the pairs), each placed at the
 * lowest key bit not yet covered that differs between two keys: bits
 * every key shares cannot reorder anything, so a key of a lane index in
 * its high half and an event index in its low one costs a pass for each
 * part, not for the zeros between them. Any digits covering every bit
 * that differs give the same stable order. */
#define RADIX_BITS 11
#define RADIX_MAX_DIGITS 8     /* 64 bits in digits of 8 */
#define RADIX_WIDE_FROM 4096

/* Above this many pairs, keys needing 3 digits or more are sorted most
 * significant bits first (msd_sort), below the LSD passes stay in cache. */
#define RADIX_MSD_FROM 65536
/* msd_sort()'s buckets up to this many pairs: insertion sort */
#define RADIX_MSD_SMALL 32

/* The radix sort's elements are tt_kv pairs or bare 64-bit keys
 * (tt_radix_sort64), the key first in both: the functions below take the
 * element's size, a constant at each call that inlining carries through,
 * so that each kind gets code of its own from one source. */
#define INL static inline __attribute__((always_inline))

INL uint64_t key_at(const void *a, size_t es, size_t i)
{
    return *(const uint64_t *)(const void *)((const char *)a + i * es);
}

INL void elem_copy(void *dst, size_t di, const void *src, size_t si, size_t es)
{
    memcpy((char *)dst + di * es, (const char *)src + si * es, es);
}

/* The digit shifts covering the bits set in diff, digits of `bits` bits;
 * returns how many. */
static int radix_digits(uint64_t diff, int bits, int shift[RADIX_MAX_DIGITS])
{
    int nd = 0;
    for (uint64_t left = diff; left; nd++) {
        shift[nd] = __builtin_ctzll(left);
        left &= shift[nd] + bits >= 64 ? 0 : ~(uint64_t)0 << (shift[nd] + bits);
    }
    return nd;
}

/* The LSD passes over src[0..n) (keys differing in diff's bits only),
 * ping-ponging with tmp; count: nd * 2^bits zeroed counters. Returns
 * where the sorted elements ended, src or tmp. */
INL void *lsd_passes(void *src, void *tmp, size_t n, size_t es, uint64_t diff, int bits,
                     size_t *count)
{
    int shift[RADIX_MAX_DIGITS], nd = radix_digits(diff, bits, shift);
    size_t mask = ((size_t)1 << bits) - 1, nb = mask + 1;
    void *dst = tmp;
    /* every digit's histogram in one pass */
    for (size_t i = 0; i < n; i++) {
        uint64_t k = key_at(src, es, i);
        for (int d = 0; d < nd; d++)
            count[d * nb + ((k >> shift[d]) & mask)]++;
    }
    for (int d = 0; d < nd; d++) {
        size_t *c = count + d * nb, sum = 0;
        int sh = shift[d];
        for (size_t b = 0; b < nb; b++) {
            size_t k = c[b];
            c[b] = sum;
            sum += k;
        }
        for (size_t i = 0; i < n; i++)
            elem_copy(dst, c[(key_at(src, es, i) >> sh) & mask]++, src, i, es);
        {
            void *t = src;
            src = dst;
            dst = t;
        }
    }
    return src;
}

INL uint64_t key_diff(const void *a, size_t n, size_t es)
{
    uint64_t diff = 0, k0 = key_at(a, es, 0);
    for (size_t i = 1; i < n; i++)
        diff |= key_at(a, es, i) ^ k0;
    return diff;
}

/* Whether the 16 bits below the highest set bit of diff are all set. */
static bool msd_bits_dense(uint64_t diff)
{
    int hb = 63 - __builtin_clzll(diff);
    uint64_t top = hb >= 15 ? diff >> (hb - 15) : diff;
    return hb >= 15 && (top & 0xffff) == 0xffff;
}

static void msd_inner(void *a, size_t n, size_t es, uint64_t diff, uint64_t high, void *buf,
                      size_t *count);

/* Above this many elements msd_sort() scatters into at most 2^12 buckets
 * (RADIX_MSD_TWO_BITS), each then sorted by a second msd_sort() of its
 * own, in cache: 2^16 buckets of one pass are 2^16 places written at
 * random, a miss each once the array outgrows L2 (the flow points' sort
 * by id of a 10M-event load: 31x the 1M one's time). */
#define RADIX_MSD_TWO_FROM ((size_t)1 << 19)
#define RADIX_MSD_TWO_BITS 12

/* Random keys (ids' hashes, the starts of a shuffled lane) over many
 * digits: one pass scatters the elements by their highest differing bits
 * into buckets of a few each, which are then sorted where they lie, in
 * cache: two passes over memory instead of one per digit. A bucket that
 * holds many (keys bunched in time) gets LSD passes of its own. Above
 * RADIX_MSD_TWO_FROM elements the buckets are fewer and bigger, and
 * those of random keys get a second msd_sort() each. The scatter and
 * every sort after it are stable, so the order is the LSD sort's. */
INL void msd_sort(void *a, size_t n, size_t es, uint64_t diff, uint64_t high, void *buf,
                  size_t *count, size_t *wide)
{
    int hb = 63 - __builtin_clzll(diff), b = 1, sh;
    int top = n >= RADIX_MSD_TWO_FROM ? RADIX_MSD_TWO_BITS : 16;
    size_t nb, mask, *end = count, from = 0;
    size_t small[RADIX_MAX_DIGITS << 8];
    /* about 4 elements a bucket, at most 2^16 buckets (the counters stay
     * in L2), or 2^12 of a second pass each */
    while (b < top && ((size_t)4 << (b + 1)) <= n)
        b++;
    if (b > hb + 1)
        b = hb + 1;
    sh = hb + 1 - b;
    nb = (size_t)1 << b;
    mask = nb - 1;
    memset(end, 0, nb * sizeof *end);
    for (size_t i = 0; i < n; i++)
        end[(key_at(a, es, i) >> sh) & mask]++;
    {
        size_t sum = 0;
        for (size_t k = 0; k < nb; k++) {
            size_t c = end[k];
            end[k] = sum;
            sum += c;
        }
    }
    for (size_t i = 0; i < n; i++)
        elem_copy(buf, end[(key_at(a, es, i) >> sh) & mask]++, a, i, es);
    /* end[k] is now where bucket k ends */
    for (size_t k = 0; k < nb; k++) {
        size_t m = end[k] - from;
        char *s = (char *)buf + from * es, *d = (char *)a + from * es;
        uint64_t bd;
        if (m <= RADIX_MSD_SMALL) {
            for (size_t i = 0; i < m; i++) {
                tt_kv x;   /* room for either kind of element */
                uint64_t xk = key_at(s, es, i);
                size_t j = i;
                memcpy(&x, s + i * es, es);
                for (; j > 0 && key_at(d, es, j - 1) > xk; j--)
                    elem_copy(d, j, d, j - 1, es);
                memcpy(d + j * es, &x, es);
            }
        } else if (top == RADIX_MSD_TWO_BITS && m < RADIX_WIDE_FROM &&
                   (bd = key_diff(s, m, es) & high) != 0 && msd_bits_dense(bd)) {
            /* the second pass, sorted where it lies in buf, a's part
             * as its buffer; its counters are those of the LSD passes
             * (its own buckets, below RADIX_WIDE_FROM, take theirs from
             * the stack) */
            msd_inner(s, m, es, bd, high, d, wide);
            memcpy(d, s, m * es);
        } else {
            /* the bucket's own LSD passes, a's part of it as their
             * second buffer; small buckets in digits of 8 bits, their
             * counters on the stack */
            int bits = m < RADIX_WIDE_FROM ? 8 : RADIX_BITS, shift[RADIX_MAX_DIGITS];
            size_t need, *c = bits == 8 ? small : wide;
            void *r;
            bd = key_diff(s, m, es) & high;
            need = (size_t)radix_digits(bd, bits, shift) << bits;
            memset(c, 0, need * sizeof *c);
            r = lsd_passes(s, d, m, es, bd, bits, c);
            if (r != d)
                memcpy(d, r, m * es);
        }
        from = end[k];
    }
}

/* msd_sort()'s second pass over a bucket of fewer than RADIX_WIDE_FROM
 * elements, out of line: an inlined function cannot call itself. So few
 * make no third pass (below RADIX_MSD_TWO_FROM), and their buckets' LSD
 * passes count in 8-bit digits on the stack: no `wide` counters. The
 * elements are pairs or bare keys (radix_sort()'s two kinds). */
static void msd_inner(void *a, size_t n, size_t es, uint64_t diff, uint64_t high, void *buf,
                      size_t *count)
{
    if (es == sizeof(tt_kv))
        msd_sort(a, n, sizeof(tt_kv), diff, high, buf, count, NULL);
    else
        msd_sort(a, n, sizeof(uint64_t), diff, high, buf, count, NULL);
}

/* tt_radix_sort_in() over elements of es bytes, the key first; the bits
 * of the key outside `high` already ascend in the order of the elements
 * (tt_radix_sort64_in). */
INL int radix_sort(void *a, size_t n, size_t es, uint64_t high, tt_scratch *pool)
{
    size_t *count;
    void *buf, *r;
    uint64_t diff;
    int shift[RADIX_MAX_DIGITS], nd, bits = n < RADIX_WIDE_FROM ? 8 : RADIX_BITS;
    size_t i = 1, ncount;
    bool msd;
    if (n < 2)
        return 0;
    while (i < n && key_at(a, es, i) >= key_at(a, es, i - 1))
        i++;
    if (i == n)
        return 0;   /* sorted: one pass */
    /* the bits that differ between keys: those of the first key that some
     * key does not share; of them, those that are not in order already */
    diff = key_diff(a, n, es) & high;
    if (!diff)
        return 0;
    nd = radix_digits(diff, bits, shift);
    /* most significant first only where the top 16 differing bits lie
     * together: (lane << 32 | index) keys, zeros between their parts,
     * would fill a handful of buckets */
    msd = n >= RADIX_MSD_FROM && nd >= 3 && msd_bits_dense(diff);
    /* msd_sort(): its buckets' counters, then those of a bucket's LSD
     * passes in 11-bit digits */
    ncount = msd ? ((size_t)1 << 16) + ((size_t)RADIX_MAX_DIGITS << RADIX_BITS)
                 : (size_t)nd << bits;
    count = calloc(ncount, sizeof *count);
    /* n elements: a pool's resident block, else fresh memory on huge
     * pages, which fault once per 2 MiB, not once per 4 KiB (see
     * bigalloc.h) */
    buf = tt_scratch_get(pool, n * es);
    if (!count || !buf) {
        free(count);
        tt_scratch_put(pool, buf, n * es);
        return -1;
    }
    if (msd) {
        msd_sort(a, n, es, diff, high, buf, count, count + ((size_t)1 << 16));
    } else if ((r = lsd_passes(a, buf, n, es, diff, bits, count)) != a) {
        memcpy(a, r, n * es);
    }
    tt_scratch_put(pool, buf, n * es);
    free(count);
    return 0;
}

int tt_radix_sort(tt_kv *a, size_t n)
{
    return tt_radix_sort_in(a, n, NULL);
}

int tt_radix_sort_in(tt_kv *a, size_t n, tt_scratch *pool)
{
    return radix_sort(a, n, sizeof *a, UINT64_MAX, pool);
}

int tt_radix_sort64_in(uint64_t *a, size_t n, int low, tt_scratch *pool)
{
    /* stable passes over the bits above `low` leave keys equal there in
     * their order, which is that of their low bits */
    return radix_sort(a, n, sizeof *a, low >= 64 ? 0 : UINT64_MAX << low, pool);
}

/* The body of tt_apply_order() over 64-bit vals, inlined for the size of
 * an event so that each move is a few vector moves rather than a call to
 * memcpy: where n does not fit the compact walk's 32-bit positions. */
static inline __attribute__((always_inline)) void apply_order(char *a, size_t n, size_t size,
                                                              tt_kv *order, char *tmp)
{
    /* follow each cycle of the permutation, marking the positions done
     * by setting their val to UINT64_MAX */
    for (size_t i = 0; i < n; i++) {
        size_t dst, src;
        if (order[i].val == UINT64_MAX || order[i].val == i) {
            order[i].val = UINT64_MAX;
            continue;
        }
        memcpy(tmp, a + i * size, size);
        dst = i;
        for (;;) {
            src = (size_t)order[dst].val;
            order[dst].val = UINT64_MAX;
            if (src == i) {
                memcpy(a + dst * size, tmp, size);
                break;
            }
            memcpy(a + dst * size, a + src * size, size);
            dst = src;
        }
    }
}

/* How many moves ahead apply_perm() fetches the elements of a cycle. */
#define APPLY_AHEAD 12
#define PERM_DONE UINT32_MAX

static inline void fetch_elem(const char *p, size_t size)
{
    __builtin_prefetch(p, 1);
    __builtin_prefetch(p + size - 1, 1);
}

/* apply_order() with the permutation in perm[], 32-bit positions: the
 * walk of a cycle reads perm (4 bytes an element: in cache, where the
 * 16-byte pairs were not) to find the elements APPLY_AHEAD moves ahead
 * and fetches them, so that the moves, each a random read of the array,
 * overlap their misses instead of waiting for each in turn (a shuffled
 * lane's reorder: one miss after another, 1.5-1.8% of a 1M-event
 * load). The same moves as apply_order(). */
static inline __attribute__((always_inline)) void apply_perm(char *a, size_t n, size_t size,
                                                             uint32_t *perm, char *tmp)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t dst, src, look;
        if (perm[i] == PERM_DONE || perm[i] == i) {
            perm[i] = PERM_DONE;
            continue;
        }
        memcpy(tmp, a + i * size, size);
        dst = look = (uint32_t)i;
        for (int k = 0; k < APPLY_AHEAD; k++) {
            look = perm[look];
            if (look == i)
                break;
            fetch_elem(a + (size_t)look * size, size);
        }
        for (;;) {
            src = perm[dst];
            perm[dst] = PERM_DONE;
            if (src == i) {
                memcpy(a + (size_t)dst * size, tmp, size);
                break;
            }
            memcpy(a + (size_t)dst * size, a + (size_t)src * size, size);
            dst = src;
            /* look stays ahead of dst on the cycle until it comes back
             * to i: what it reads is not marked done yet */
            if (look != i && (look = perm[look]) != i)
                fetch_elem(a + (size_t)look * size, size);
        }
    }
}

int tt_apply_order(void *base, size_t n, size_t size, tt_kv *order)
{
    char *tmp;
    if (n < 2)
        return 0;
    if (n < PERM_DONE) {
        /* the vals as 32-bit positions, packed into the front of order
         * itself (each pair is read before its bytes are written:
         * position i's 4 bytes lie in pair i / 4); memcpy() stores, so
         * that the compiler orders them with the reads of the pairs */
        uint32_t *perm = (uint32_t *)(void *)order;
        for (size_t i = 0; i < n; i++) {
            uint32_t v = (uint32_t)order[i].val;
            memcpy((char *)order + i * sizeof v, &v, sizeof v);
        }
        return tt_apply_perm(base, n, size, perm);
    }
    if (!(tmp = malloc(size)))
        return -1;
    if (size == 64)
        apply_order(base, n, 64, order, tmp);   /* tt_event */
    else
        apply_order(base, n, size, order, tmp);
    free(tmp);
    return 0;
}

int tt_apply_perm(void *base, size_t n, size_t size, uint32_t *perm)
{
    char *tmp;
    if (n < 2)
        return 0;
    if (!(tmp = malloc(size)))
        return -1;
    if (size == 64)
        apply_perm(base, n, 64, perm, tmp);   /* tt_event */
    else
        apply_perm(base, n, size, perm, tmp);
    free(tmp);
    return 0;
}

int tt_perm_ring_init(tt_perm_ring *r, const uint32_t *perm, size_t n, size_t size,
                      size_t max_bytes, tt_scratch *pool)
{
    size_t back = 0, b = 1;
    for (size_t i = 0; i < n; i++)
        if (perm[i] < i && i - perm[i] > back)
            back = i - perm[i];
    /* the ring's slot for position p is rewritten at p + B, after p's
     * last reader (at most p + back) */
    while (b <= back) {
        if (b > max_bytes / size / 2)
            return 1;
        b *= 2;
    }
    if (b > max_bytes / size)
        return 1;
    if (!(r->ring = tt_scratch_get(pool, b * size)))
        return -1;
    r->mask = b - 1;
    r->size = size;
    r->pool = pool;
    return 0;
}

/* How many positions ahead tt_perm_ring_apply() fetches the element a
 * position takes from the array: its reads jump about the window ahead,
 * the rest streams. */
#define RING_AHEAD 16

static inline __attribute__((always_inline)) void ring_apply(char *a, size_t n, size_t size,
                                                             char *ring, size_t mask,
                                                             const uint32_t *perm, size_t from,
                                                             size_t to)
{
    for (size_t i = from; i < to; i++) {
        size_t s = perm[i];
        char *d = a + i * size;
        if (i + RING_AHEAD < n) {
            size_t t = perm[i + RING_AHEAD];
            if (t > i + RING_AHEAD)
                fetch_elem(a + t * size, size);
        }
        memcpy(ring + (i & mask) * size, d, size);
        if (s > i)
            memcpy(d, a + s * size, size);
        else if (s < i)
            memcpy(d, ring + (s & mask) * size, size);
    }
}

void tt_perm_ring_apply(tt_perm_ring *r, void *base, size_t n, const uint32_t *perm, size_t from,
                        size_t to)
{
    if (r->size == 64)
        ring_apply(base, n, 64, r->ring, r->mask, perm, from, to);   /* tt_event */
    else
        ring_apply(base, n, r->size, r->ring, r->mask, perm, from, to);
}

void tt_perm_ring_fini(tt_perm_ring *r)
{
    tt_scratch_put(r->pool, r->ring, (r->mask + 1) * r->size);
    r->ring = NULL;
}
