/* test_sort.c - the radix sort's most-significant-digit path (many pairs,
 * keys over 3 digits or more): the same order as the stable merge sort
 * for random keys, keys bunched into a few buckets and keys falling into
 * mid-sized ones (which then get LSD passes of their own, in 8- and
 * 11-bit digits), runs of equal keys (stable), keys differing only in
 * their top bits, shuffled event starts, and through a scratch pool; the
 * same keys bare (tt_radix_sort64_in), at sizes up to those whose
 * buckets get a second most-significant pass; tt_apply_perm() and
 * tt_perm_ring. */
#include "config.h"

#include "../tap.h"
#include "../xorshift.h"
#include "util/scratch.h"
#include "util/sort.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rs = 0x9e3779b97f4a7c15ULL;

static uint64_t rnd(void)
{
    return tt_xorshift64(&rs);
}

static int cmp_kv(const void *pa, const void *pb, void *ctx)
{
    const tt_kv *a = pa, *b = pb;
    (void)ctx;
    return a->key < b->key ? -1 : a->key > b->key;
}

typedef enum { RANDOM, BUNCHED, MID_BUCKETS, EQUAL_RUNS, TOP_BITS, TIMES } shape;

static uint64_t key_of(shape s, size_t i, size_t n)
{
    switch (s) {
    case RANDOM:
        return rnd();
    case BUNCHED:
        /* a few dense clusters far apart: most buckets empty, some of a
         * few hundred pairs, one of thousands */
        switch (rnd() % 8) {
        case 0: return ((uint64_t)1 << 40) + rnd() % 200;
        case 1: case 2: case 3: return ((uint64_t)3 << 40) + rnd() % 100000;
        default: return rnd() & (((uint64_t)1 << 41) - 1);
        }
    case MID_BUCKETS:
        /* 64 buckets of n/64 pairs: LSD passes in 8-bit digits below
         * 4096 pairs, in 11-bit ones above (a few keys spread over all
         * bits, so that the sort goes most significant first) */
        return i % 4096 == 7 ? rnd() & (((uint64_t)1 << 36) - 1)
                             : (rnd() % 64) << 30 | rnd() % 1000000;
    case EQUAL_RUNS:
        return (rnd() % (n / 16 + 1)) * 977 << 10;
    case TOP_BITS:
        return rnd() & ~(((uint64_t)1 << 50) - 1);
    case TIMES:
        /* event starts of a shuffled lane: increasing with jitter */
        return (uint64_t)i * 30000 + rnd() % 1000000;
    }
    return 0;
}

int main(void)
{
    static const size_t sizes[] = {65536, 65537, 100000, 300001, 600001};
    static const char *names[] = {"random", "bunched", "mid-sized buckets", "equal runs", "top bits", "times"};
    tt_scratch *pool = tt_scratch_new();
    for (int s = RANDOM; s <= TIMES; s++) {
        int bad = 0, bad64 = 0;
        for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
            size_t n = sizes[si];
            tt_kv *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
            for (size_t i = 0; i < n; i++)
                a[i] = (tt_kv){key_of((shape)s, i, n), i};
            if (s == TIMES)   /* shuffled */
                for (size_t i = n - 1; i > 0; i--) {
                    size_t j = rnd() % (i + 1);
                    tt_kv t = a[i];
                    a[i] = a[j];
                    a[j] = t;
                }
            memcpy(b, a, n * sizeof *a);
            if (tt_radix_sort_in(a, n, si % 2 ? pool : NULL) != 0 ||
                tt_sort(b, n, sizeof *b, cmp_kv, NULL) != 0 || memcmp(a, b, n * sizeof *a) != 0) {
                bad++;
                diag("%s keys, n=%zu: not the stable order", names[s], n);
            }
            {
                /* the keys alone, from the unsorted pairs' order (b's vals
                 * are the positions they came from) */
                uint64_t *k = malloc(n * sizeof *k);
                for (size_t i = 0; i < n; i++)
                    k[b[i].val] = b[i].key;
                if (tt_radix_sort64_in(k, n, 0, si % 2 ? NULL : pool) != 0)
                    bad64++;
                for (size_t i = 0; i < n; i++)
                    if (k[i] != b[i].key) {
                        bad64++;
                        diag("%s keys, n=%zu: bare key %zu out of order", names[s], n, i);
                        break;
                    }
                free(k);
            }
            {
                /* the keys' top bits over their position, the sort told
                 * that the low bits ascend: each key in place, ascending */
                int ib = 1;
                uint64_t *k = malloc(n * sizeof *k), mask;
                unsigned char *seen = calloc(n, 1);
                while (((size_t)1 << ib) < n)
                    ib++;
                mask = ((uint64_t)1 << ib) - 1;
                for (size_t i = 0; i < n; i++)
                    k[b[i].val] = (b[i].key & ~mask) | b[i].val;
                if (tt_radix_sort64_in(k, n, ib, si % 2 ? pool : NULL) != 0)
                    bad64++;
                for (size_t i = 0; i < n; i++) {
                    if ((i > 0 && k[i - 1] >= k[i]) || seen[k[i] & mask]++) {
                        bad64++;
                        diag("%s keys, n=%zu: packed key %zu out of order", names[s], n, i);
                        break;
                    }
                }
                free(k);
                free(seen);
            }
            free(a);
            free(b);
        }
        is_i64(bad, 0, "radix sort, %s keys, 64k to 600k pairs: the stable merge sort's order",
               names[s]);
        is_i64(bad64, 0, "radix sort of bare keys, %s keys, 64k to 600k: ascending, with and without index bits",
               names[s]);
    }
    {
        /* tt_apply_perm(): position i receives the element at perm[i], for
         * 64-byte elements (its inlined case) and 12-byte ones */
        enum { N = 100003 };
        static const size_t sizes2[] = {64, 12};
        for (size_t z = 0; z < 2; z++) {
            size_t es = sizes2[z];
            uint32_t *perm = malloc(N * sizeof *perm), *from = malloc(N * sizeof *from);
            unsigned char *v = malloc(N * es);
            int bad = 0;
            for (uint32_t i = 0; i < N; i++)
                perm[i] = i;
            for (size_t i = N - 1; i > 0; i--) {
                size_t j = rnd() % (i + 1);
                uint32_t t = perm[i];
                perm[i] = perm[j];
                perm[j] = t;
            }
            for (size_t i = 0; i < N; i++) {
                uint32_t tag = (uint32_t)i;
                memset(v + i * es, (int)(i & 0xff), es);
                memcpy(v + i * es, &tag, sizeof tag);
            }
            memcpy(from, perm, N * sizeof *perm);
            if (tt_apply_perm(v, N, es, perm) != 0)
                bad++;
            for (size_t i = 0; i < N; i++) {
                uint32_t tag;
                memcpy(&tag, v + i * es, sizeof tag);
                if (tag != from[i] || v[i * es + es - 1] != (unsigned char)(from[i] & 0xff))
                    bad++;
            }
            is_i64(bad, 0, "apply_perm: %zu-byte elements land where the permutation says", es);
            free(perm);
            free(from);
            free(v);
        }
    }
    {
        /* tt_perm_ring: permutations shuffled within windows (of 1, 7,
         * 1000 and 4096 positions: the last ones shorter), applied in
         * stretches of 1 to 300 positions; and its refusal of a
         * permutation that moves an element back past max_bytes */
        enum { N = 50021 };
        static const size_t windows[] = {1, 7, 1000, 4096};
        static const size_t sizes2[] = {64, 12};
        for (size_t z = 0; z < 2; z++) {
            size_t es = sizes2[z];
            int bad = 0;
            for (size_t w = 0; w < 4; w++) {
                uint32_t *perm = malloc(N * sizeof *perm);
                unsigned char *v = malloc(N * es);
                tt_perm_ring r;
                for (uint32_t i = 0; i < N; i++)
                    perm[i] = i;
                for (size_t b = 0; b < N; b += windows[w]) {
                    size_t m = N - b < windows[w] ? N - b : windows[w];
                    for (size_t i = m; i > 1; i--) {
                        size_t j = rnd() % i;
                        uint32_t t = perm[b + i - 1];
                        perm[b + i - 1] = perm[b + j];
                        perm[b + j] = t;
                    }
                }
                for (size_t i = 0; i < N; i++) {
                    uint32_t tag = (uint32_t)i;
                    memset(v + i * es, (int)(i & 0xff), es);
                    memcpy(v + i * es, &tag, sizeof tag);
                }
                if (windows[w] > 1 && tt_perm_ring_init(&r, perm, N, es, windows[w] / 2 * es, pool) != 1)
                    bad++;
                if (tt_perm_ring_init(&r, perm, N, es, 2 * windows[w] * es, NULL) != 0) {
                    bad++;
                } else {
                    for (size_t i = 0, step = 1; i < N; i += step, step = step % 300 + 37)
                        tt_perm_ring_apply(&r, v, N, perm, i, N - i < step ? N : i + step);
                    tt_perm_ring_fini(&r);
                }
                for (size_t i = 0; i < N; i++) {
                    uint32_t tag;
                    memcpy(&tag, v + i * es, sizeof tag);
                    if (tag != perm[i] || v[i * es + es - 1] != (unsigned char)(perm[i] & 0xff))
                        bad++;
                }
                free(perm);
                free(v);
            }
            is_i64(bad, 0, "perm ring: %zu-byte elements shuffled within windows land where the permutation says",
                   es);
        }
    }
    tt_scratch_free(pool);
    return tap_done();
}
