/* attribsec.c - the attribution section of a .ttz (see attribsec.h).
 *
 * The stored arrays are written as they lie in memory (little-endian, as
 * the rest of the writer assumes) and read back with one copy each; every
 * count is bounded by the bytes that remain before anything is allocated,
 * and the result is checked against the trace by tt_attrib_store_adopt().
 */
#include "config.h"

#include "snapshot/attribsec.h"

#include "analysis/attrib.h"
#include "analysis/attrib_store.h"
#include "util/bigalloc.h"

#include <stdlib.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

enum {
    LF_DEVICE = 1u << 0,
    LF_SLOTS = 1u << 1,
    LF_LAUNCH = 1u << 2,
    LF_SUMS = 1u << 3,
    LF__ALL = (1u << 4) - 1
};

/* The section's layouts, its first varint: store version 1 with the
 * totals as byte planes (written before the packed one, still read),
 * and the packed one (put_packed(), and the arena's size), which holds
 * the same store (TT_ATTRIB_STORE_VERSION 2). Another number: the section
 * is skipped, the attribution rebuilt when asked. */
#define LAYOUT_PLANES 1u
#define LAYOUT_PACKED 2u
_Static_assert(TT_ATTRIB_STORE_VERSION == LAYOUT_PACKED,
               "a store of another computation: drop LAYOUT_PLANES, renumber");

/* Arrays in a restore's arena start on cache lines. */
#define ARENA_ALIGN 64u

/* A trace with fewer events stores no attribution: rebuilding it costs
 * well under a millisecond there, while its self times and device totals
 * (some two bytes an event that no encoding removes) would grow a small
 * snapshot by a quarter (issue 7: a .ttz stays under a third of gzip). */
#define STORE_FROM_EVENTS 65536u

/* STORE_FROM_EVENTS, or for tests TRACETTY_TTZ_ATTRIB_FROM (0: store the
 * attribution of any trace). */
static uint64_t store_from(void)
{
    const char *env = getenv("TRACETTY_TTZ_ATTRIB_FROM");
    if (env && *env) {
        char *endp;
        unsigned long long v = strtoull(env, &endp, 10);
        if (*endp == '\0')
            return v;
    }
    return STORE_FROM_EVENTS;
}

static size_t words_of(size_t bits)
{
    return (bits + 63) / 64;
}

/* n little-endian numbers of `size` bytes as byte planes: every low byte,
 * then every next one (numbers of a few significant bits then compress
 * well: their high planes are runs of zeros). */
static void put_planes(tt_wbuf *b, const void *v, size_t n, size_t size)
{
    const unsigned char *p = v;
    if (!tt_wbuf_reserve(b, n * size))
        return;
    for (size_t byte = 0; byte < size; byte++)
        for (size_t i = 0; i < n; i++)
            b->p[b->n++] = p[i * size + byte];
}

/* The layout a writer uses: LAYOUT_PACKED, or for tests
 * TRACETTY_TTZ_ATTRIB_LAYOUT=1, the planes of store version 1 (still
 * read). */
static unsigned layout_of(void)
{
    const char *env = getenv("TRACETTY_TTZ_ATTRIB_LAYOUT");
    return env && strcmp(env, "1") == 0 ? LAYOUT_PLANES : LAYOUT_PACKED;
}

/* The arena bytes of an array of `bytes` (arrays start on cache lines). */
static size_t arena_size(size_t bytes)
{
    return (bytes + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
}

/* What the arrays of lane l (n events) take in a restore's arena, in the
 * order read_lane() carves them. */
static size_t lane_arena(const tt_attrib_lane_store *l, size_t n)
{
    size_t a = 0;
    if (l->slot)
        a += arena_size(n * 2) + 2 * arena_size(l->n_esc * 4u);
    if (l->launch)
        a += arena_size(n * 4);
    if (l->has)
        a += arena_size(words_of(n) * 8) + arena_size(l->n_sum * 4u) +
             arena_size(words_of(l->n_sum) * 8) + arena_size(l->n_big * 4u) +
             arena_size(l->n_big * 8u) + arena_size(l->n_xs * 4u) + arena_size(l->n_xs * 8u) +
             arena_size(words_of(n) * 4);
    return a;
}

/* The totals as the packed layout stores them: the first (a varint),
 * then each total less the next entry's (mod 2^32: an op's total is
 * usually its launching call's, the next entry, so most are 0) as its
 * size in two bits (0, 1, 2 or 4 bytes), four to a byte, then the varint
 * length of the bytes and the bytes. A third of the planes' bytes for
 * zstd to produce, which is what a restore pays for (about 1.5 ns a
 * byte); the first total lets the reader subtract going forward, in the
 * pass that reads the sizes. */
static void put_packed(tt_wbuf *b, const uint32_t *total, uint32_t n)
{
    tt_wbuf data = {0};
    size_t nc = ((size_t)n + 3) / 4;
    tt_wbuf_varint(b, n ? total[0] : 0);
    if (!tt_wbuf_reserve(b, nc))
        return;
    memset(b->p + b->n, 0, nc);
    for (uint32_t k = 0; k < n; k++) {
        uint32_t d = total[k] - (k + 1 < n ? total[k + 1] : 0);
        unsigned code = d == 0 ? 0 : d <= 0xff ? 1 : d <= 0xffff ? 2 : 3;
        b->p[b->n + k / 4] |= (unsigned char)(code << (2 * (k % 4)));
        tt_wbuf_put(&data, &d, code == 3 ? 4 : code);
    }
    b->n += nc;
    tt_wbuf_varint(b, data.n);
    tt_wbuf_put(b, data.p, data.n);
    b->oom |= data.oom;
    free(data.p);
}

int tt_attribsec_encode(const tt_trace *tr, tt_wbuf *b, tt_error *err)
{
    const tt_attrib *a;
    const tt_attrib_store *st;
    bool store = tr->n_events >= store_from();
    unsigned layout = layout_of();
    size_t arena = 0;
    tt_wbuf_varint(b, layout);
    tt_wbuf_varint(b, store);
    if (!store)
        return 0;
    if (!(a = tt_attrib_get(tr, err)))
        return -1;
    st = tt_attrib_store_of(a);
    tt_wbuf_varint(b, st->n_lanes);
    tt_wbuf_varint(b, st->n_str);
    tt_wbuf_varint(b, st->n_links);
    tt_wbuf_varint(b, st->n_device);
    tt_wbuf_varint(b, st->n_dangling);
    if (layout == LAYOUT_PACKED) {
        for (uint32_t li = 0; li < st->n_lanes; li++)
            arena += lane_arena(&st->lanes[li], tr->lanes[li].n);
        tt_wbuf_varint(b, arena);
    }
    tt_wbuf_put(b, st->sflags, st->n_str);
    for (uint32_t li = 0; li < st->n_lanes; li++) {
        const tt_attrib_lane_store *l = &st->lanes[li];
        size_t n = tr->lanes[li].n;
        tt_wbuf_byte(b, (unsigned char)((l->device ? LF_DEVICE : 0) | (l->slot ? LF_SLOTS : 0) |
                                        (l->launch ? LF_LAUNCH : 0) | (l->has ? LF_SUMS : 0)));
        if (l->slot) {
            tt_wbuf_varint(b, l->n_esc);
            put_planes(b, l->slot, n, sizeof *l->slot);
            tt_wbuf_put(b, l->esc_idx, l->n_esc * sizeof *l->esc_idx);
            tt_wbuf_put(b, l->esc_val, l->n_esc * sizeof *l->esc_val);
        }
        if (l->launch) {   /* from the previous launcher: small, repetitive */
            uint32_t prev = 0;
            for (size_t i = 0; i < n; i++) {
                uint32_t v = l->launch[i];
                tt_wbuf_varint(b, v ? tt_zigzag((int64_t)v - prev) + 1 : 0);
                prev = v ? v : prev;
            }
        }
        if (l->has) {
            tt_wbuf_varint(b, l->n_sum);
            tt_wbuf_varint(b, l->n_big);
            tt_wbuf_varint(b, l->n_xs);
            tt_wbuf_put(b, l->has, words_of(n) * sizeof *l->has);
            if (layout == LAYOUT_PACKED) {
                put_packed(b, l->total, l->n_sum);
            } else {
                /* each total less the next entry's, as byte planes */
                for (int byte = 0; byte < 4; byte++)
                    for (uint32_t k = 0; k < l->n_sum; k++) {
                        uint32_t d = l->total[k] - (k + 1 < l->n_sum ? l->total[k + 1] : 0);
                        tt_wbuf_byte(b, (unsigned char)(d >> (8 * byte)));
                    }
            }
            tt_wbuf_put(b, l->same, words_of(l->n_sum) * sizeof *l->same);
            tt_wbuf_put(b, l->big_at, l->n_big * sizeof *l->big_at);
            tt_wbuf_put(b, l->big_val, l->n_big * sizeof *l->big_val);
            tt_wbuf_put(b, l->xs_at, l->n_xs * sizeof *l->xs_at);
            tt_wbuf_put(b, l->xs_val, l->n_xs * sizeof *l->xs_val);
        }
    }
    return 0;
}

/* Where the arrays of a restored store go. The packed layout names the
 * bytes they take in all: one block (tt_bigalloc(): huge pages) holds
 * them, carved in order, each on a cache line. A restore of a 1M-event
 * trace writes some 3 MB there, and as some 800 separate 4 KiB pages of
 * malloc() each first touch was a fault, a third of the restore after
 * the decompression. The planes layout (store version 1) says nothing of
 * it: each array is its own allocation then (base NULL). */
typedef struct arena {
    unsigned char *base;
    size_t         used, cap;
} arena;

/* Room for `bytes` into *dst: from the arena (-1 when it is too small:
 * a corrupt section), or allocated (-2 out of memory). 0. */
static int carve(arena *a, void *dst, size_t bytes)
{
    void *q;
    if (a->base) {
        size_t need = arena_size(bytes);
        if (need > a->cap - a->used)
            return -1;
        q = a->base + a->used;
        a->used += need;
    } else if (!(q = tt_bigalloc(bytes ? bytes : 1))) {
        return -2;
    }
    memcpy(dst, &q, sizeof q);
    return 0;
}

/* A copy of the next count elements of `size` bytes into *dst (carved).
 * 0; -1 when the section is too short (c->bad); -2 out of memory. */
static int take(tt_rd *c, arena *a, void *dst, uint64_t count, size_t size)
{
    const unsigned char *p = tt_rd_bytes(c, count * size);   /* count < 2^32 */
    void *q;
    int rc;
    if (!p)
        return -1;
    if ((rc = carve(a, dst, (size_t)count * size)))
        return rc;
    memcpy(&q, dst, sizeof q);
    memcpy(q, p, (size_t)count * size);
    return 0;
}

/* The next n numbers of `width` bytes (2 or 4) stored as byte planes
 * (put_planes(): every number's low byte, then every next byte), side by
 * side into little-endian numbers at *dst (carved): the slots (2) and
 * the totals of the planes layout (4). One pass that reads the planes
 * side by side; where SSE2 is, sixteen numbers a step: bytes paired into
 * 16-bit words, and for width 4 those words paired into 32-bit ones.
 * width is a constant at each call, so each is compiled for its width. */
static inline int take_planes(tt_rd *c, arena *a, void *dst, size_t n, unsigned width)
{
    const unsigned char *p = tt_rd_bytes(c, (uint64_t)n * width);
    unsigned char *q;
    size_t i = 0;
    int rc;
    if (!p)
        return -1;
    if ((rc = carve(a, dst, n * width)))
        return rc;
    memcpy(&q, dst, sizeof q);
#ifdef __SSE2__
    for (; i + 16 <= n; i += 16) {
        __m128i b0 = _mm_loadu_si128((const __m128i *)(p + i));
        __m128i b1 = _mm_loadu_si128((const __m128i *)(p + n + i));
        __m128i lo = _mm_unpacklo_epi8(b0, b1), hi = _mm_unpackhi_epi8(b0, b1);
        unsigned char *o = q + i * width;
        if (width == 2) {
            _mm_storeu_si128((__m128i *)o, lo);
            _mm_storeu_si128((__m128i *)(o + 16), hi);
        } else {
            __m128i b2 = _mm_loadu_si128((const __m128i *)(p + 2 * n + i));
            __m128i b3 = _mm_loadu_si128((const __m128i *)(p + 3 * n + i));
            __m128i lo23 = _mm_unpacklo_epi8(b2, b3), hi23 = _mm_unpackhi_epi8(b2, b3);
            _mm_storeu_si128((__m128i *)o, _mm_unpacklo_epi16(lo, lo23));
            _mm_storeu_si128((__m128i *)(o + 16), _mm_unpackhi_epi16(lo, lo23));
            _mm_storeu_si128((__m128i *)(o + 32), _mm_unpacklo_epi16(hi, hi23));
            _mm_storeu_si128((__m128i *)(o + 48), _mm_unpackhi_epi16(hi, hi23));
        }
    }
#endif
    for (; i < n; i++)
        for (unsigned b = 0; b < width; b++)
            q[i * width + b] = p[b * n + i];
    return 0;
}

/* Each total less the next entry's back to totals: the sums from the
 * last entry, carried in a register. */
static void totals_sum(uint32_t *q, size_t n)
{
    uint32_t sum = 0;
    for (size_t k = n; k-- > 0;)
        q[k] = sum += q[k];
}

/* The totals of the planes layout: each total less the next entry's, as
 * four byte planes, summed back. */
static int take_totals_planes(tt_rd *c, arena *a, uint32_t **dst, size_t n)
{
    int rc = take_planes(c, a, dst, n, 4);
    if (rc == 0)
        totals_sum(*dst, n);
    return rc;
}

/* The totals of the packed layout (put_packed()), in one pass: each the
 * one before less its difference; every size code used, the bytes
 * exactly, the unused codes of the last control byte 0, and the last
 * total less its difference 0. */
static int take_totals_packed(tt_rd *c, arena *a, uint32_t **dst, size_t n)
{
    static const unsigned char size_of[4] = {0, 1, 2, 4};
    static const uint32_t mask_of[4] = {0, 0xff, 0xffff, 0xffffffff};
    uint64_t first = tt_rd_varint(c);
    const unsigned char *ctl = tt_rd_bytes(c, ((uint64_t)n + 3) / 4), *d, *end;
    uint64_t len = tt_rd_varint(c);
    uint32_t *q, cur;
    int rc;
    if (!ctl || c->bad || first > UINT32_MAX || !(d = tt_rd_bytes(c, len)))
        return -1;
    if (n % 4 && ctl[n / 4] >> (2 * (n % 4)))
        return -1;
    if ((rc = carve(a, dst, n * sizeof *q)))
        return rc;
    q = *dst;
    end = d + len;
    cur = (uint32_t)first;
    for (size_t k = 0; k < n; k++) {
        unsigned code = (ctl[k / 4] >> (2 * (k % 4))) & 3u;
        uint32_t v = 0;
        if (end - d >= 4) {
            memcpy(&v, d, 4);   /* little-endian, as the writer */
            v &= mask_of[code];
        } else if ((size_t)(end - d) >= size_of[code]) {
            for (unsigned b = 0; b < size_of[code]; b++)
                v |= (uint32_t)d[b] << (8 * b);
        } else {
            return -1;
        }
        q[k] = cur;
        cur -= v;
        d += size_of[code];
    }
    return d == end && cur == 0 ? 0 : -1;
}

/* Lane li of the section into l. 0, -1 corrupt (*why), -2 OOM. */
static int read_lane(tt_rd *c, arena *a, bool packed, const tt_lane *ln, tt_attrib_lane_store *l,
                     const char **why)
{
    size_t n = ln->n;
    int rc = 0;
    unsigned flags = c->p < c->end ? *c->p++ : (c->bad = true, 0u);
    if (c->bad || flags > LF__ALL)
        return *why = "lane flags", -1;
    l->device = flags & LF_DEVICE;
    if (flags & LF_SLOTS) {
        l->n_esc = tt_rd_u32(c);
        if (c->bad || l->n_esc > n)
            return *why = "escape count", -1;
        if ((rc = take_planes(c, a, &l->slot, n, 2)) ||
            (rc = take(c, a, &l->esc_idx, l->n_esc, sizeof *l->esc_idx)) ||
            (rc = take(c, a, &l->esc_val, l->n_esc, sizeof *l->esc_val)))
            return *why = "slots", rc;
    }
    if (flags & LF_LAUNCH) {
        int64_t prev = 0;
        if ((rc = carve(a, &l->launch, n * sizeof *l->launch)))
            return *why = "launchers", rc;
        for (size_t i = 0; i < n; i++) {
            uint64_t z = c->p < c->end && *c->p < 0x80 ? *c->p++ : tt_rd_varint(c);
            int64_t v = z ? prev + tt_unzigzag(z - 1) : 0;
            if (c->bad || v < 0 || v > UINT32_MAX)
                return *why = "launchers", -1;
            l->launch[i] = (uint32_t)v;
            prev = z ? v : prev;
        }
    }
    if (flags & LF_SUMS) {
        l->n_sum = tt_rd_u32(c);
        l->n_big = tt_rd_u32(c);
        l->n_xs = tt_rd_u32(c);
        if (c->bad || l->n_sum > n || l->n_big > l->n_sum || l->n_xs > l->n_sum)
            return *why = "device time counts", -1;
        if ((rc = take(c, a, &l->has, words_of(n), sizeof *l->has)) ||
            (rc = packed ? take_totals_packed(c, a, &l->total, l->n_sum)
                         : take_totals_planes(c, a, &l->total, l->n_sum)) ||
            (rc = take(c, a, &l->same, words_of(l->n_sum), sizeof *l->same)) ||
            (rc = take(c, a, &l->big_at, l->n_big, sizeof *l->big_at)) ||
            (rc = take(c, a, &l->big_val, l->n_big, sizeof *l->big_val)) ||
            (rc = take(c, a, &l->xs_at, l->n_xs, sizeof *l->xs_at)) ||
            (rc = take(c, a, &l->xs_val, l->n_xs, sizeof *l->xs_val)))
            return *why = "device time", rc;
        /* the rank words are computed by the adoption, not stored */
        if ((rc = carve(a, &l->rank, words_of(n) * sizeof *l->rank)))
            return *why = "device time", rc;
    }
    return 0;
}

int tt_attribsec_decode(const unsigned char *p, size_t n, const tt_trace *tr, const char **why,
                        tt_error *err)
{
    tt_rd c = {p, p + n, false};
    tt_attrib_store st;
    arena a = {NULL, 0, 0};
    uint64_t layout, stored;
    int rc = 0;
    *why = NULL;
    layout = tt_rd_varint(&c);
    if (layout != LAYOUT_PLANES && layout != LAYOUT_PACKED)
        return c.bad ? (*why = "truncated", -1) : 0;   /* rebuilt when asked */
    stored = tt_rd_varint(&c);
    if (c.bad || stored > 1 || (!stored && c.p != c.end))
        return *why = "bad header", -1;
    if (!stored)
        return 0;   /* a small trace: rebuilt when asked */
    memset(&st, 0, sizeof st);
    st.n_lanes = tt_rd_u32(&c);
    st.n_str = tt_rd_u32(&c);
    st.n_links = tt_rd_varint(&c);
    st.n_device = tt_rd_varint(&c);
    st.n_dangling = tt_rd_varint(&c);
    if (c.bad || st.n_lanes != tr->n_lanes || st.n_str != tt_strtab_count(tr->strings))
        return *why = "counts", -1;
    if (layout == LAYOUT_PACKED) {
        /* no array takes more than 16 times its stored bytes (a total:
         * two bits), plus its alignment */
        a.cap = tt_rd_varint(&c);
        if (c.bad || a.cap > 16 * (uint64_t)n + (uint64_t)st.n_lanes * 12 * ARENA_ALIGN)
            return *why = "arena size", -1;
        if (!(a.base = tt_bigalloc((size_t)a.cap)))
            return tt_error_set(err, TT_ERR_NOMEM, "out of memory reading the snapshot");
        st.arena = a.base;
    }
    if ((rc = take(&c, &(arena){NULL, 0, 0}, &st.sflags, st.n_str, 1)) == 0 &&
        !(st.lanes = calloc(st.n_lanes ? st.n_lanes : 1, sizeof *st.lanes)))
        rc = -2;
    if (rc)
        *why = "string flags";
    for (uint32_t li = 0; !rc && li < st.n_lanes; li++)
        rc = read_lane(&c, &a, layout == LAYOUT_PACKED, &tr->lanes[li], &st.lanes[li], why);
    if (!rc && c.p != c.end)
        rc = -1, *why = "extra data";
    if (!rc && a.used != a.cap)
        rc = -1, *why = "arena size";
    if (rc) {
        tt_attrib_store_free(&st);
        if (rc == -2) {
            *why = NULL;
            return tt_error_set(err, TT_ERR_NOMEM, "out of memory reading the snapshot");
        }
        return -1;
    }
    rc = tt_attrib_store_adopt(tr, &st, why);
    if (rc == -2)
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory reading the snapshot");
    return rc < 0 ? -1 : 0;
}
