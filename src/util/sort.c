/* sort.c - stable bottom-up merge sort and LSD radix sort (see sort.h). */
#include "config.h"

#include "util/sort.h"

#include "util/bigalloc.h"
#include "util/scratch.h"

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

int tt_radix_sort(tt_kv *a, size_t n)
{
    return tt_radix_sort_in(a, n, NULL);
}

int tt_radix_sort_in(tt_kv *a, size_t n, tt_scratch *pool)
{
    size_t *count;
    tt_kv *buf, *src = a, *dst;
    uint64_t diff = 0, left;
    int shift[RADIX_MAX_DIGITS], nd = 0, bits = n < RADIX_WIDE_FROM ? 8 : RADIX_BITS;
    size_t i = 1, mask = ((size_t)1 << bits) - 1, nb = mask + 1;
    if (n < 2)
        return 0;
    while (i < n && a[i].key >= a[i - 1].key)
        i++;
    if (i == n)
        return 0;   /* sorted: one pass */
    /* the bits that differ between keys: those of the first key that some
     * key does not share */
    for (i = 1; i < n; i++)
        diff |= a[i].key ^ a[0].key;
    for (left = diff; left; nd++) {
        shift[nd] = __builtin_ctzll(left);
        left &= shift[nd] + bits >= 64 ? 0 : ~(uint64_t)0 << (shift[nd] + bits);
    }
    count = calloc((size_t)nd * nb, sizeof *count);
    /* n pairs: a pool's resident block, else fresh memory on huge pages,
     * which fault once per 2 MiB, not once per 4 KiB (see bigalloc.h) */
    buf = tt_scratch_get(pool, n * sizeof *buf);
    if (!count || !buf) {
        free(count);
        tt_scratch_put(pool, buf, n * sizeof *buf);
        return -1;
    }
    /* every digit's histogram in one pass */
    for (i = 0; i < n; i++) {
        uint64_t k = a[i].key;
        for (int d = 0; d < nd; d++)
            count[d * nb + ((k >> shift[d]) & mask)]++;
    }
    dst = buf;
    for (int d = 0; d < nd; d++) {
        size_t *c = count + d * nb, sum = 0;
        int sh = shift[d];
        for (size_t b = 0; b < nb; b++) {
            size_t k = c[b];
            c[b] = sum;
            sum += k;
        }
        for (i = 0; i < n; i++)
            dst[c[(src[i].key >> sh) & mask]++] = src[i];
        {
            tt_kv *t = src;
            src = dst;
            dst = t;
        }
    }
    if (src != a)
        memcpy(a, src, n * sizeof *a);
    tt_scratch_put(pool, buf, n * sizeof *buf);
    free(count);
    return 0;
}

/* The body of tt_apply_order(), inlined for the size of an event so
 * that each move is a few vector moves rather than a call to memcpy. */
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

int tt_apply_order(void *base, size_t n, size_t size, tt_kv *order)
{
    char *tmp;
    if (n < 2)
        return 0;
    if (!(tmp = malloc(size)))
        return -1;
    if (size == 64)
        apply_order(base, n, 64, order, tmp);   /* tt_event */
    else
        apply_order(base, n, size, order, tmp);
    free(tmp);
    return 0;
}
