/* wire.h - byte buffers, varints and length-prefixed strings shared by the
 * .ttz writer and reader (snapshot.c) and the argument-record codec
 * (argcols.c). Internal to src/snapshot/.
 *
 * Values are LEB128 varints; signed values are zigzag-coded first; a
 * string is its length, then its bytes. A write buffer (tt_wbuf) records
 * a failed allocation in `oom` instead of returning it from every call;
 * the writer checks it once per section. A read cursor (tt_rd) turns any
 * overrun into `bad`, after which every read returns 0, so loops end
 * quickly and the caller checks `bad` once.
 */
#ifndef TT_SNAPSHOT_WIRE_H
#define TT_SNAPSHOT_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

typedef struct tt_wbuf {
    unsigned char *p;
    size_t         n, cap;
    bool           oom;
} tt_wbuf;

/* Room for `need` elements of `size` bytes in the array whose pointer is at
 * pp (doubling its capacity *cap). The pointer is copied in and out with
 * memcpy, so one helper serves arrays of any type. */
static inline bool tt_grow(void *pp, size_t *cap, size_t need, size_t size)
{
    size_t nc;
    void *p, *np;
    if (need <= *cap)
        return true;
    if (need > SIZE_MAX / 2 / size)
        return false;
    nc = *cap ? *cap : 64;
    while (nc < need)
        nc *= 2;
    memcpy(&p, pp, sizeof p);
    np = realloc(p, nc * size);
    if (!np)
        return false;
    memcpy(pp, &np, sizeof np);
    *cap = nc;
    return true;
}

static inline void tt_wbuf_free(tt_wbuf *b)
{
    free(b->p);
    memset(b, 0, sizeof *b);
}

static inline bool tt_wbuf_reserve(tt_wbuf *b, size_t extra)
{
    if (b->oom)
        return false;
    if (extra > SIZE_MAX / 4 - b->n || !tt_grow(&b->p, &b->cap, b->n + extra, 1))
        b->oom = true;
    return !b->oom;
}

static inline void tt_wbuf_put(tt_wbuf *b, const void *p, size_t n)
{
    if (n && tt_wbuf_reserve(b, n)) {
        memcpy(b->p + b->n, p, n);
        b->n += n;
    }
}

static inline void tt_wbuf_byte(tt_wbuf *b, unsigned char c)
{
    if (tt_wbuf_reserve(b, 1))
        b->p[b->n++] = c;
}

static inline void tt_wbuf_varint(tt_wbuf *b, uint64_t v)
{
    if (!tt_wbuf_reserve(b, 10))
        return;
    while (v >= 0x80) {
        b->p[b->n++] = (unsigned char)(v | 0x80);
        v >>= 7;
    }
    b->p[b->n++] = (unsigned char)v;
}

static inline uint64_t tt_zigzag(int64_t v)
{
    return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static inline int64_t tt_unzigzag(uint64_t v)
{
    return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

static inline void tt_wbuf_svarint(tt_wbuf *b, int64_t v)
{
    tt_wbuf_varint(b, tt_zigzag(v));
}

/* A length-prefixed string: its length as a varint, then its n bytes. */
static inline void tt_wbuf_str(tt_wbuf *b, const void *s, size_t n)
{
    tt_wbuf_varint(b, n);
    tt_wbuf_put(b, s, n);
}

/* Bytes of b after compression at `level` (cc and tmp are scratch). Data
 * too small for trial compression to say anything counts its raw size. */
static inline size_t tt_wbuf_zsize(ZSTD_CCtx *cc, const tt_wbuf *b, int level, tt_wbuf *tmp)
{
    size_t bound, got;
    if (b->n < 256)
        return b->n;
    bound = ZSTD_compressBound(b->n);
    tmp->n = 0;
    if (!tt_wbuf_reserve(tmp, bound))
        return b->n;
    got = ZSTD_compressCCtx(cc, tmp->p, bound, b->p, b->n, level);
    return ZSTD_isError(got) ? b->n : got;
}

/* Whether cand[i] holds the same bytes as one of cand[0..i). */
static inline bool tt_wbuf_seen_before(const tt_wbuf *cand, unsigned i)
{
    for (unsigned j = 0; j < i; j++)
        if (cand[j].n == cand[i].n && (cand[i].n == 0 || memcmp(cand[j].p, cand[i].p, cand[i].n) == 0))
            return true;
    return false;
}

/* Of n encodings of the same data, cand[0..n), the index of the one that
 * compresses smallest at `level` (the first of equals): how the writer
 * chooses between encodings. cc and tmp are scratch. A candidate with the
 * bytes of an earlier one compresses to its size and cannot be chosen, so
 * it is not compressed: an argument column's predictors often write the
 * same bytes (the record's first number predicted by the record's last,
 * the column's last, or a missing correlation id's). */
static inline unsigned tt_wbuf_smallest(ZSTD_CCtx *cc, const tt_wbuf *cand, unsigned n, int level,
                                        tt_wbuf *tmp)
{
    unsigned best = 0;
    size_t best_size = tt_wbuf_zsize(cc, &cand[0], level, tmp);
    for (unsigned i = 1; i < n; i++) {
        size_t size;
        if (cand[i].n >= 256 && tt_wbuf_seen_before(cand, i))
            continue;
        size = tt_wbuf_zsize(cc, &cand[i], level, tmp);
        if (size < best_size) {
            best_size = size;
            best = i;
        }
    }
    return best;
}

/* Read cursor over decompressed bytes. */
typedef struct tt_rd {
    const unsigned char *p, *end;
    bool                 bad;
} tt_rd;

static inline uint64_t tt_rd_varint(tt_rd *r)
{
    uint64_t v = 0;
    int shift = 0;
    while (r->p < r->end) {
        unsigned char c = *r->p++;
        if (shift == 63 && c > 1)
            break;
        v |= (uint64_t)(c & 0x7f) << shift;
        if (!(c & 0x80))
            return v;
        shift += 7;
        if (shift > 63)
            break;
    }
    r->bad = true;
    r->p = r->end;
    return 0;
}

static inline int64_t tt_rd_svarint(tt_rd *r)
{
    return tt_unzigzag(tt_rd_varint(r));
}

/* A varint that must fit in uint32 (ids, counts). */
static inline uint32_t tt_rd_u32(tt_rd *r)
{
    uint64_t v = tt_rd_varint(r);
    if (v > UINT32_MAX) {
        r->bad = true;
        return 0;
    }
    return (uint32_t)v;
}

/* n bytes, or NULL (and bad) when fewer remain. n is as read (any
 * uint64), so callers need no bound check of their own. */
static inline const unsigned char *tt_rd_bytes(tt_rd *r, uint64_t n)
{
    const unsigned char *p = r->p;
    if ((uint64_t)(r->end - r->p) < n) {
        r->bad = true;
        r->p = r->end;
        return NULL;
    }
    r->p += n;
    return p;
}

/* A length-prefixed string (tt_wbuf_str); *n receives its length. When
 * the cursor runs out: "", length 0, and bad. */
static inline const char *tt_rd_str(tt_rd *r, size_t *n)
{
    uint64_t len = tt_rd_varint(r);
    const unsigned char *p = tt_rd_bytes(r, len);
    *n = p ? (size_t)len : 0;
    return p ? (const char *)p : "";
}

#endif
