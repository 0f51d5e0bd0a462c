/* args.c - compressed argument blocks (see args.h).
 *
 * Record layout inside a block, after a varint v:
 *   v even: a plain record, alen = v / 2: args varint(elen) extra;
 *   v odd:  a keyed row (tt_args_add_row) of key set v / 2 + the block's
 *           kbase: per key of the set varint(x), x = 0 for an absent key,
 *           else (x - 1) / 2 bytes of value text follow, a string to
 *           quote when x - 1 is odd;
 *           or, when that key set is an args template (see args_keyset),
 *           per gap of the template varint(n) and n digits, then
 *           varint(elen) extra.
 * A block is compressed once it reaches BLOCK_TARGET raw bytes; blocks that
 * do not shrink are kept raw. 128 KiB rather than 64: zstd level 1 spends
 * 8% fewer instructions on the same bytes (each block sets up its tables
 * and starts without history) and stores 7% fewer (a Kineto trace's 92 MB
 * of arguments: 10.6 MB at 64 KiB, 9.9 MB at 128 KiB, 9.5 MB at 256 KiB),
 * and the parallel load's peak RSS of the 1M-event bench trace drops by
 * about 2 MB (medians of 5: 103.3 to 101.0 MB). Negative levels were
 * cheaper still (-1: -8%, -3: -18% at 64 KiB) but stored 28-53% more,
 * over the memory budget; larger blocks make each read of a single record
 * out of storage order (details view, SQL's extract_arg) decompress more,
 * so 128 KiB stops at twice the old cost there.
 *
 * The stored bytes of the blocks are packed into slabs the store owns
 * (64 KiB, doubling to 2 MiB huge-page blocks): a malloc() per block put
 * them among everything else on the heap, each new 4 KiB page of it a
 * fault (1M events: 2k of the load's 8k); in the parallel load they were
 * the workers' fragments' blocks, kept alive in the workers' malloc
 * arenas, so that the arenas' scratch could never be reused and grew
 * into fresh pages instead. tt_args_append() copies a fragment's bytes
 * into the trace's slabs and frees its own.
 *
 * A store with a source holds no blocks of its own: its parts are stores
 * of their own, made by the source on first read and kept sorted by first
 * handle. A reader remembers the part it read last, so reading records
 * of one part takes the lock once; only finding another part takes it.
 */
#include "config.h"

#include "model/args.h"

#include "util/bigalloc.h"
#include "util/grow.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#define BLOCK_TARGET ((size_t)128 << 10)
#define ARGS_ZSTD_LEVEL 1
#define SLAB_FIRST ((size_t)64 << 10)
#define SLAB_MAX TT_BIGALLOC_FROM

/* What a block's records hold, told without decompressing it
 * (tt_args_filter): a Bloom filter of every object key of its texts (at
 * any depth; for keyed rows, every key of their key sets), or `any` when
 * the keys cannot be told from the raw bytes (a backslash or a NUL byte
 * somewhere, a string left open). Rules ask for a few keys most records
 * lack (tensor-reload's addresses in a Kineto trace): 8% of a summary's
 * CPU was decompressing blocks only to find them absent. */
#define KEYS_WORDS 8   /* 512 bits: ~30 distinct keys a block, 2 probes */
typedef struct args_keys {
    uint64_t bits[KEYS_WORDS];
    bool     any;
} args_keys;

typedef struct args_block {
    uint32_t       first;      /* handle of the first record */
    uint32_t       count;      /* records */
    uint32_t       raw_size;
    uint32_t       stored;     /* bytes in data */
    unsigned char *data;       /* zstd frame, or raw when stored == raw_size;
                                * in one of the store's slabs */
    uint32_t       kbase;      /* added to the key set ids of its keyed rows:
                                * non-zero for blocks moved by tt_args_append */
    args_keys      keys;       /* the object keys its records hold */
} args_block;

/* A key set: n JSON key texts, key i at text[off[i] .. off[i + 1]).
 * Or, with tmpl, an args template (tt_args_add_noted): a text whose n
 * digit runs are left out, its n + 1 pieces between them at text[off[i] ..
 * off[i + 1]) (off[] has n + 2 entries). Both share the ids of the
 * store's records and of tt_args_append()'s kbase. */
typedef struct args_keyset {
    uint32_t  n;
    bool      tmpl;
    size_t   *off;
    char     *text;
    args_keys keys;   /* of its keys, for the blocks holding its rows */
} args_keyset;

/* Args templates: a Kineto trace's argument objects repeat a few layouts
 * of keys, punctuation and whitespace around numbers. A record whose text
 * is a layout seen before is stored as the layout's id and its digit runs
 * (varint(length) digits each), then varint(elen) extra. zstd level 1 was
 * a fifth of a Kineto load's instructions, nearly all of it spent on the
 * keys; now it gets a fifth of the bytes (100k-event bench trace: 8.8 MB
 * of arguments to 1.9 MB), compresses them in 54% of the instructions
 * (112M to 60M) and to 57% of the stored bytes (1.00 MB to 0.56 MB). A
 * record is first tried against the template last used by records of its
 * keys (the decoder's note): a match costs a compare per gap. Otherwise
 * its text is cut into its layout and looked up; a layout becomes a
 * template the second time it is seen (a table of layout hashes), so that
 * one-off texts make none. A store keeps at most TMPL_MAX of them,
 * TMPL_BYTES of text in all. Records without a note (the other decoders,
 * a snapshot's rebuilt parts) are stored plain as before. */
#define TMPL_SLOTS   4096   /* layout hashes, a power of 2 */
#define TMPL_PROBES  4
#define TMPL_MAX     4096
#define TMPL_BYTES   ((size_t)1 << 20)
#define TMPL_GAPS    128    /* digit runs a template may have */
#define TMPL_TEXT    4096   /* longest args text cut into a template */
#define PRED_SLOTS   1024   /* a power of 2 */
/* The template last used by records of some set of keys; after `fails`
 * records of theirs in a row that made no template, the next `skip` are
 * stored plain without a try (texts that never repeat). */
typedef struct tmpl_pred {
    uint32_t id, fails, skip;
} tmpl_pred;

typedef struct tmpl_slot {
    uint64_t hash;
    uint32_t id;      /* key set id of the template; 0: seen once */
} tmpl_slot;

/* What making templates takes, while adding (freed by seal): one
 * allocation, zeroed. */
typedef struct tmpl_work {
    tmpl_slot     tab[TMPL_SLOTS];     /* layouts by hash */
    tmpl_pred     pred[PRED_SLOTS];    /* by a record's key hashes */
    uint32_t      runs[2 * TMPL_GAPS]; /* the text's digit runs: offset, length */
    unsigned char sk[TMPL_TEXT + 16];  /* the layout of the text being cut */
    unsigned char pad[TMPL_TEXT + 16]; /* the text being matched, padded */
} tmpl_work;

/* A part of a store with a source: records [first, first + n). */
typedef struct args_part {
    uint32_t first, n;
    tt_args *store;
} args_part;

typedef struct args_lazy {
    pthread_mutex_t       lock;    /* guards everything below */
    const tt_args_source *src;
    void                 *ctx;
    args_part            *parts;   /* sorted by first, disjoint */
    uint32_t              n_parts, cap_parts;
    bool                  failed;  /* err holds the source's first error */
    tt_error              err;
} args_lazy;

struct tt_args {
    args_lazy     *lazy;       /* NULL: the records are in the blocks */
    args_block    *blocks;
    uint32_t       n_blocks, cap_blocks;
    unsigned char *cur;        /* block being filled */
    size_t         cur_len, cur_cap;
    size_t         cur_fill;   /* cur_len with its templated records counted
                                * as plain ones: what block_target bounds, so
                                * that a block holds the records it held
                                * before templates (its key summary tells as
                                * much, and a read unpacks as many) */
    uint32_t       cur_first, cur_count;
    uint32_t       next;       /* next handle */
    uint64_t       raw_total;
    size_t         held;
    ZSTD_CCtx     *cctx;
    size_t         block_target;  /* raw bytes per block (BLOCK_TARGET) */
    int            level;         /* zstd level (ARGS_ZSTD_LEVEL) */
    bool           raw;           /* blocks kept uncompressed (tt_args_store_raw) */
    args_keyset   *keysets;       /* id k at keysets[k - 1] */
    uint32_t       n_keysets;
    size_t         cap_keysets;
    unsigned char **slabs;        /* the blocks' bytes; the last is filled */
    uint32_t       n_slabs, cap_slabs;
    size_t         slab_used, slab_cap;   /* of the last slab */
    unsigned char *zbuf;          /* compression output, copied to a slab */
    size_t         zbuf_cap;
    args_keys      cur_keys;      /* of the block being filled */
    tmpl_work     *tw;            /* NULL until a record is templated */
    uint32_t       n_tmpl;        /* templates made */
    size_t         tmpl_bytes;    /* their text */
};

/* Set once, before the load's threads make their stores (args.h). */
static bool store_raw;

void tt_args_store_raw(bool raw)
{
    store_raw = raw;
}

tt_args *tt_args_new(void)
{
    tt_args *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    a->next = 1;
    a->cur_first = 1;
    a->block_target = BLOCK_TARGET;
    a->level = ARGS_ZSTD_LEVEL;
    a->raw = store_raw;
    return a;
}

static void lazy_free(args_lazy *z)
{
    for (uint32_t i = 0; i < z->n_parts; i++)
        tt_args_free(z->parts[i].store);
    free(z->parts);
    if (z->src->free)
        z->src->free(z->ctx);
    pthread_mutex_destroy(&z->lock);
    free(z);
}

void tt_args_free(tt_args *a)
{
    if (!a)
        return;
    if (a->lazy)
        lazy_free(a->lazy);
    for (uint32_t i = 0; i < a->n_slabs; i++)
        free(a->slabs[i]);
    free(a->slabs);
    free(a->zbuf);
    free(a->blocks);
    free(a->cur);
    ZSTD_freeCCtx(a->cctx);
    free(a->tw);
    for (uint32_t i = 0; i < a->n_keysets; i++) {
        free(a->keysets[i].off);
        free(a->keysets[i].text);
    }
    free(a->keysets);
    free(a);
}

/* Room for `more` blocks after the a->n_blocks there are. */
static int args_reserve_blocks(tt_args *a, uint32_t more)
{
    uint32_t nc = a->cap_blocks ? a->cap_blocks : 64;
    args_block *nb;
    if (more <= a->cap_blocks - a->n_blocks)
        return 0;
    if (more > UINT32_MAX / 2 - a->n_blocks)
        return -1;
    while (nc < a->n_blocks + more)
        nc *= 2;
    nb = realloc(a->blocks, nc * sizeof *nb);
    if (!nb)
        return -1;
    a->blocks = nb;
    a->cap_blocks = nc;
    return 0;
}

/* Room for `need` bytes in the last slab: a new slab when it lacks them,
 * twice as long as the last (at most SLAB_MAX, at least need). 0, or -1
 * when out of memory. */
static int args_slab_room(tt_args *a, size_t need)
{
    size_t cap;
    unsigned char *slab;
    if (a->n_slabs && a->slab_cap - a->slab_used >= need)
        return 0;
    cap = a->slab_cap ? a->slab_cap * 2 : SLAB_FIRST;
    if (cap > SLAB_MAX)
        cap = SLAB_MAX;
    if (cap < need)
        cap = need;
    if (a->n_slabs == a->cap_slabs) {
        uint32_t nc = a->cap_slabs ? a->cap_slabs * 2 : 16;
        unsigned char **ns;
        if (nc <= a->cap_slabs || !(ns = realloc(a->slabs, nc * sizeof *ns)))
            return -1;
        a->slabs = ns;
        a->cap_slabs = nc;
    }
    if (!(slab = tt_bigalloc(cap)))
        return -1;
    a->slabs[a->n_slabs++] = slab;
    a->slab_used = 0;
    a->slab_cap = cap;
    return 0;
}

/* p[0..n) copied into the last slab, which has room (args_slab_room()). */
static unsigned char *args_slab_put(tt_args *a, const unsigned char *p, size_t n)
{
    unsigned char *at = a->slabs[a->n_slabs - 1] + a->slab_used;
    memcpy(at, p, n);
    a->slab_used += n;
    return at;
}

/* ------------------------------------------------------- key summaries */

/* Hash of the key k[0..n), avail >= n bytes readable at k (args.h). */
static inline uint64_t key_hash(const unsigned char *k, size_t n, size_t avail)
{
    return tt_args_key_hash((const char *)k, n, avail);
}

/* Two bits of the 512 from the hash's top bits (a multiply's best). */
#define KEYS_BIT1(h) ((unsigned)((h) >> 55))
#define KEYS_BIT2(h) ((unsigned)((h) >> 46) & 511)

static void keys_add_hash(args_keys *s, uint64_t h)
{
    s->bits[KEYS_BIT1(h) >> 6] |= 1ULL << (KEYS_BIT1(h) & 63);
    s->bits[KEYS_BIT2(h) >> 6] |= 1ULL << (KEYS_BIT2(h) & 63);
}

static bool keys_has_hash(const args_keys *s, uint64_t h)
{
    return (s->bits[KEYS_BIT1(h) >> 6] >> (KEYS_BIT1(h) & 63) & 1) &&
           (s->bits[KEYS_BIT2(h) >> 6] >> (KEYS_BIT2(h) & 63) & 1);
}

static void keys_merge(args_keys *dst, const args_keys *src)
{
    for (int i = 0; i < KEYS_WORDS; i++)
        dst->bits[i] |= src->bits[i];
    dst->any |= src->any;
}

/* Note the object keys of the JSON text t[0..n) in s. Without a backslash
 * or a NUL byte, a JSON text's quotes open and close its strings in turn,
 * and a key is a string followed by ':' after bytes up to ' ' (cJSON's
 * whitespace, analysis/key.c parses the texts with it): so the strings the
 * parser takes for keys are found exactly, without parsing. Anything else
 * (and a text whose last string is left open) makes s->any. */
#ifdef __SSE2__
/* Bit j of *q: t[j] is a quote; of *bad: a backslash or NUL (j < 16). */
static inline void masks16(const unsigned char *t, uint32_t *q, uint32_t *bad)
{
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)t);
    *q = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')));
    *bad = (uint32_t)_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\\')),
                                                    _mm_cmpeq_epi8(v, _mm_setzero_si128())));
}
#endif

static void keys_note(args_keys *s, const unsigned char *t, size_t n)
{
    size_t i = 0, open = 0;
    bool in = false;
    if (s->any)
        return;   /* the block is read whatever its keys */
    while (i < n) {
        uint32_t q = 0, bad = 0;
        size_t w = n - i < 32 ? n - i : 32;
#ifdef __SSE2__
        if (n >= 16) {
            /* 32 bytes at i; at the end of a text, the last 32 (bits of
             * bytes before i shifted out) or, in a text of 16 to 31, its
             * first and last 16: never a byte past the text */
            size_t at = w == 32 || n < 32 ? i : n - 32;
            size_t hi = n < 32 ? n - 16 : at + 16;
            uint32_t qh, bh;
            masks16(t + at, &q, &bad);
            masks16(t + hi, &qh, &bh);
            q |= qh << (hi - at);
            bad |= bh << (hi - at);
            if (at < i) {
                q >>= i - at;
                bad >>= i - at;
            }
        } else
#endif
        {
            for (size_t j = 0; j < w; j++) {
                q |= (uint32_t)(t[i + j] == '"') << j;
                bad |= (uint32_t)(t[i + j] == '\\' || t[i + j] == 0) << j;
            }
        }
        if (bad) {
            s->any = true;
            return;
        }
        while (q) {
            size_t at = i + (size_t)__builtin_ctz(q), j = at + 1;
            q &= q - 1;
            if (!in) {
                open = at + 1;
                in = true;
                continue;
            }
            in = false;
            while (j < n && t[j] <= ' ')
                j++;
            if (j < n && t[j] == ':')
                keys_add_hash(s, key_hash(t + open, at - open, n - open));
        }
        i += w;
    }
    if (in)
        s->any = true;
}

/* The key of a key set's key text (its JSON text with the colon, as
 * tt_args_keyset takes it) noted in s; s->any for one with an escape or
 * not of that form. */
static void keys_note_keytext(args_keys *s, const char *k, size_t n)
{
    const char *q0 = memchr(k, '"', n), *q1;
    if (memchr(k, '\\', n) || memchr(k, 0, n) || !q0 ||
        !(q1 = memchr(q0 + 1, '"', n - (size_t)(q0 + 1 - k)))) {
        s->any = true;
        return;
    }
    keys_add_hash(s, key_hash((const unsigned char *)q0 + 1, (size_t)(q1 - q0 - 1),
                               (size_t)(k + n - q0 - 1)));
}

/* A keyed row's JSON value text (a number, from the decoders) goes into
 * the object as is: one that could hold a string or an escape might put
 * keys there. */
static void keys_note_value(args_keys *s, const char *v, size_t n)
{
    /* one pass over a few bytes: three memchr() calls per value were 8% of
     * an Ascend kernel_details.csv load, whose rows are a dozen numbers */
    if (s->any)
        return;
    for (size_t i = 0; i < n; i++)
        if (v[i] == '"' || v[i] == '\\' || v[i] == 0) {
            s->any = true;
            return;
        }
}

/* Compress raw[0..len) holding `count` records into a new block whose
 * first handle is a->cur_first; advance cur_first past it. */
static int args_store_block(tt_args *a, const unsigned char *raw, size_t len, uint32_t count)
{
    args_block b;
    size_t bound, csize;
    const unsigned char *from;
    if (args_reserve_blocks(a, 1))
        return -1;
    if (a->raw) {
        csize = len;   /* stored as a block that did not shrink */
    } else {
        if (!a->cctx && !(a->cctx = ZSTD_createCCtx()))
            return -1;
        bound = ZSTD_compressBound(len);
        if (bound > a->zbuf_cap) {
            unsigned char *nz = realloc(a->zbuf, bound);
            if (!nz)
                return -1;
            a->zbuf = nz;
            a->zbuf_cap = bound;
        }
        csize = ZSTD_compressCCtx(a->cctx, a->zbuf, bound, raw, len, a->level);
    }
    from = a->zbuf;
    if (a->raw || ZSTD_isError(csize) || csize >= len) {
        from = raw;   /* kept raw */
        csize = len;
    }
    if (args_slab_room(a, csize))
        return -1;
    b.data = args_slab_put(a, from, csize);
    b.first = a->cur_first;
    b.count = count;
    b.raw_size = (uint32_t)len;
    b.stored = (uint32_t)csize;
    b.kbase = 0;
    b.keys = a->cur_keys;
    memset(&a->cur_keys, 0, sizeof a->cur_keys);
    a->blocks[a->n_blocks++] = b;
    a->held += csize;
    a->cur_first += count;
    return 0;
}

static int args_flush(tt_args *a)
{
    if (a->cur_count == 0)
        return 0;
    if (args_store_block(a, a->cur, a->cur_len, a->cur_count))
        return -1;
    a->cur_count = 0;
    a->cur_len = 0;
    a->cur_fill = 0;
    return 0;
}

static size_t put_varint(unsigned char *p, uint64_t v)
{
    size_t n = 0;
    while (v >= 0x80) {
        p[n++] = (unsigned char)(v | 0x80);
        v >>= 7;
    }
    p[n++] = (unsigned char)v;
    return n;
}

static size_t varint_len(uint64_t v)
{
    size_t n = 1;
    while (v >= 0x80) {
        v >>= 7;
        n++;
    }
    return n;
}

static const unsigned char *get_varint(const unsigned char *p, const unsigned char *end,
                                       uint64_t *v)
{
    uint64_t x = 0;
    int shift = 0;
    while (p < end && shift < 63) {
        unsigned char c = *p++;
        x |= (uint64_t)(c & 0x7f) << shift;
        if (!(c & 0x80)) {
            *v = x;
            return p;
        }
        shift += 7;
    }
    return NULL;
}

/* A run of a record: its length (a varint), then its bytes, at *at, *n
 * of them. The position past it, or NULL when it does not fit in end. */
static const unsigned char *take_run(const unsigned char *p, const unsigned char *end,
                                     const unsigned char **at, uint64_t *n)
{
    if (!(p = get_varint(p, end, n)) || *n > (uint64_t)(end - p))
        return NULL;
    *at = p;
    return p + *n;
}

/* At least `need` bytes at *buf (*cap of them allocated), doubling from
 * `first`. 0 or -1 (OOM, *buf unchanged). */
static int grow_bytes(void **buf, size_t *cap, size_t need, size_t first)
{
    size_t nc = *cap ? *cap : first;
    void *nb;
    if (need <= *cap)
        return 0;
    while (nc < need)
        nc *= 2;
    if (!(nb = realloc(*buf, nc)))
        return -1;
    *buf = nb;
    *cap = nc;
    return 0;
}

/* Room for a record of at most `need` bytes, `fill` of block_target, in
 * the block being filled (flushing a full one first). 0 or -1 (OOM). */
static int args_room(tt_args *a, size_t fill, size_t need)
{
    if (a->cur_len > 0 && a->cur_fill + fill > a->block_target && args_flush(a))
        return -1;
    return grow_bytes((void **)&a->cur, &a->cur_cap, a->cur_len + need, a->block_target + 64);
}

/* The record just written, `fill` of block_target, is complete: count it,
 * and compress its block when full. Returns its handle. */
static uint32_t args_commit(tt_args *a, uint64_t raw, size_t fill)
{
    a->cur_count++;
    a->raw_total += raw;
    a->cur_fill += fill;
    if (a->cur_fill >= a->block_target && args_flush(a)) {
        /* the record is in the unflushed block and still readable */
    }
    return a->next++;
}

/* ------------------------------------------------------ args templates */

#ifdef __SSE2__
/* Bit j: t[j] is a digit (j < 16). */
static inline uint32_t digits16(const unsigned char *t)
{
    __m128i v = _mm_sub_epi8(_mm_loadu_si128((const __m128i *)(const void *)t),
                             _mm_set1_epi8('0'));
    return (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(9)), v));
}
#endif

/* The first i' >= i with t[i'] a digit (digit) or not one (!digit), or n. */
static size_t digit_change(const unsigned char *t, size_t n, size_t i, bool digit)
{
#ifdef __SSE2__
    while (n - i >= 16) {
        uint32_t m = digits16(t + i) ^ (digit ? 0 : 0xffff);
        if (m)
            return i + (size_t)__builtin_ctz(m);
        i += 16;
    }
#endif
    while (i < n && ((unsigned)t[i] - '0' < 10) != digit)
        i++;
    return i;
}

/* d[0..n) = s[0..n), avail >= n bytes readable at s and n + 16 writable
 * at d: the few bytes between numbers without a call to memcpy. */
static inline void copy_short(unsigned char *d, const unsigned char *s, size_t n, size_t avail)
{
#ifdef __SSE2__
    if (n <= 16 && avail >= 16) {
        _mm_storeu_si128((__m128i *)(void *)d, _mm_loadu_si128((const __m128i *)(const void *)s));
        return;
    }
#endif
    (void)avail;
    memcpy(d, s, n);
}

/* Cut t[0..n) (n <= TMPL_TEXT) into its layout, a->tw->sk: the text with
 * each digit run replaced by one '0' (so that the layout's only digits
 * mark its gaps), and the runs, a->tw->runs. Returns the layout's length,
 * *g the runs; or 0 for a text of too many runs. */
static size_t tmpl_cut(tt_args *a, const unsigned char *t, size_t n, uint32_t *g)
{
    size_t i = 0, o = 0;
    uint32_t k = 0;
    while (i < n) {
        size_t j = digit_change(t, n, i, true);
        copy_short(a->tw->sk + o, t + i, j - i, n - i);
        o += j - i;
        if (j == n)
            break;
        if (k == TMPL_GAPS)
            return 0;
        i = digit_change(t, n, j + 1, false);
        a->tw->sk[o++] = '0';
        a->tw->runs[2 * k] = (uint32_t)j;
        a->tw->runs[2 * k + 1] = (uint32_t)(i - j);
        k++;
    }
    *g = k;
    return o;
}

/* Hash of a layout s[0..n) of g gaps; never 0 (an empty slot). Only its
 * length, gaps and two words: layouts that differ elsewhere share a slot
 * and are compared whole before use; hashing every byte cost 20M
 * instructions of a 100k-event load's 557M. */
static uint64_t tmpl_hash(const unsigned char *s, size_t n, uint32_t g)
{
    uint64_t h = ((uint64_t)n << 32 | g) * 0x9e3779b97f4a7c15ULL;
    if (n >= 8) {
        h = (h ^ tt_args_load_word(s + n / 2 - 4, 8, 8)) * 0xff51afd7ed558ccdULL;
        h = (h ^ tt_args_load_word(s + n - 8, 8, 8)) * 0xc4ceb9fe1a85ec53ULL;
    } else {
        h = (h ^ tt_args_load_word(s, n, n)) * 0xff51afd7ed558ccdULL;
    }
    return (h ^ h >> 32) | 1;
}

/* Room for one more key set or template; 0 or -1. */
static int keyset_room(tt_args *a)
{
    if (a->n_keysets >= UINT32_MAX / 4)
        return -1;
    return tt_grow_one((void **)&a->keysets, &a->cap_keysets, a->n_keysets, sizeof *a->keysets);
}

/* The layout a->tw->sk[0..n) of g gaps as a new template: its id, or 0. */
static uint32_t tmpl_make(tt_args *a, size_t n, uint32_t g)
{
    args_keyset ks;
    uint32_t k = 0;
    if (a->n_tmpl >= TMPL_MAX || n > TMPL_BYTES - a->tmpl_bytes || keyset_room(a))
        return 0;
    memset(&ks, 0, sizeof ks);
    ks.n = g;
    ks.tmpl = true;
    ks.off = malloc((g + (size_t)2) * sizeof *ks.off);
    ks.text = malloc(n + 16);   /* + 16: compared 16 bytes at a time */
    if (!ks.off || !ks.text) {
        free(ks.off);
        free(ks.text);
        return 0;
    }
    memcpy(ks.text, a->tw->sk, n);
    memset(ks.text + n, 0, 16);
    /* piece i: text[off[i] .. off[i + 1] - 1), the gap's '0' (or the end)
     * after it */
    ks.off[0] = 0;
    for (size_t i = 0; i < n; i++)
        if ((unsigned)ks.text[i] - '0' < 10)
            ks.off[++k] = i + 1;
    ks.off[g + 1] = n + 1;
    a->keysets[a->n_keysets++] = ks;
    a->n_tmpl++;
    a->tmpl_bytes += n;
    return a->n_keysets;
}

/* The template of args text t[0..n) (0 < n <= TMPL_TEXT), its runs cut
 * into a->tw->runs (*g of them): found, or made when its layout was seen
 * once before; 0 when the record is to be stored plain. */
static uint32_t tmpl_of(tt_args *a, const unsigned char *t, size_t n, uint32_t *g)
{
    size_t ln;
    uint64_t h;
    tmpl_slot *seen = NULL;
    if (!a->tw && !(a->tw = calloc(1, sizeof *a->tw)))
        return 0;
    if (!(ln = tmpl_cut(a, t, n, g)))
        return 0;
    h = tmpl_hash(a->tw->sk, ln, *g);
    for (uint32_t k = 0; k < TMPL_PROBES; k++) {
        tmpl_slot *sl = &a->tw->tab[(h + k) & (TMPL_SLOTS - 1)];
        if (sl->hash == h) {
            const args_keyset *ks;
            if (!sl->id)
                return sl->id = tmpl_make(a, ln, *g);   /* the second time */
            ks = &a->keysets[sl->id - 1];
            if (ks->n == *g && ks->off[*g + 1] == ln + 1 && !memcmp(ks->text, a->tw->sk, ln))
                return sl->id;
        } else if (!sl->id && !seen) {
            seen = sl;   /* empty, or a layout seen once: taken over */
        }
    }
    if (seen) {
        seen->hash = h;
        seen->id = 0;
    }
    return 0;
}

/* Whether s[0..n) equals p[0..n), with n + 16 bytes readable at both (a
 * padded copy of a text, a template's text). */
static inline bool same_bytes(const unsigned char *s, const unsigned char *p, size_t n)
{
#ifdef __SSE2__
    for (;;) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)s);
        __m128i y = _mm_loadu_si128((const __m128i *)(const void *)p);
        uint32_t m = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(x, y));
        if (n <= 16)
            return (m | ~((1u << n) - 1u)) == 0xffffffffu;
        if (m != 0xffff)
            return false;
        s += 16;
        p += 16;
        n -= 16;
    }
#else
    return memcmp(s, p, n) == 0;
#endif
}

/* The end of the digit run at t[i]: the first non-digit after it, in a
 * text padded with 16 bytes that are not digits. */
static inline size_t digits_end(const unsigned char *t, size_t i)
{
#ifdef __SSE2__
    for (;;) {
        uint32_t m = ~digits16(t + i) & 0xffff;
        if (m)
            return i + (size_t)__builtin_ctz(m);
        i += 16;
    }
#else
    while ((unsigned)t[i] - '0' < 10)
        i++;
    return i;
#endif
}

/* A record of template id (g runs, cut into a->tw->runs from t[0..n))
 * written at d, up to its extra text; returns its length. */
static size_t tmpl_put(const tt_args *a, uint32_t id, uint32_t g, const unsigned char *t,
                       size_t n, unsigned char *d)
{
    unsigned char *d0 = d;
    d += put_varint(d, (uint64_t)(id - 1) * 2 + 1);
    for (uint32_t k = 0; k < g; k++) {
        uint32_t at = a->tw->runs[2 * k], rn = a->tw->runs[2 * k + 1];
        d += put_varint(d, rn);
        copy_short(d, t + at, rn, n - at);
        d += rn;
    }
    return (size_t)(d - d0);
}

/* When t[0..n) (padded: 16 zero bytes after it) is template id's text
 * with digit runs in its gaps: the record written at d as tmpl_put()
 * writes it, and its length; else 0.
 * Cheaper than cutting the text into its layout and looking that up,
 * for a record that is the template a record with its keys had last. */
static size_t tmpl_match(const tt_args *a, uint32_t id, const unsigned char *t, size_t n,
                         unsigned char *d)
{
    const args_keyset *ks = &a->keysets[id - 1];
    const unsigned char *tx = (const unsigned char *)ks->text;
    unsigned char *d0 = d;
    size_t pos = 0, pl;
    d += put_varint(d, (uint64_t)(id - 1) * 2 + 1);
    for (uint32_t i = 0; i < ks->n; i++) {
        size_t start;
        pl = ks->off[i + 1] - 1 - ks->off[i];
        if (n - pos <= pl || !same_bytes(t + pos, tx + ks->off[i], pl))
            return 0;
        start = pos + pl;
        pos = digits_end(t, start);
        if (pos == start)
            return 0;
        d += put_varint(d, pos - start);
        copy_short(d, t + start, pos - start, pos - start + 16);
        d += pos - start;
    }
    pl = ks->off[ks->n + 1] - 1 - ks->off[ks->n];
    if (n - pos != pl || !same_bytes(t + pos, tx + ks->off[ks->n], pl))
        return 0;
    return (size_t)(d - d0);
}

/* A record of args text t[0..n) (0 < n <= TMPL_TEXT) with note (its keys
 * told by the decoder) as a template's written at d, up to its extra
 * text: the template its keys had last when the text matches it, else
 * one tmpl_of() finds. Returns its length, or 0 to store it plain. */
static size_t tmpl_noted(tt_args *a, const unsigned char *t, size_t n, const tt_args_note *note,
                         unsigned char *d)
{
    uint64_t h = note->n * 0x9e3779b97f4a7c15ULL;
    uint32_t id, g;
    tmpl_pred *pr;
    size_t len;
    if (!a->tw)
        return (id = tmpl_of(a, t, n, &g)) ? tmpl_put(a, id, g, t, n, d) : 0;
    for (uint32_t i = 0; i < note->n; i++)
        h = (h ^ note->hash[i]) * 0xff51afd7ed558ccdULL;
    pr = &a->tw->pred[(h ^ h >> 40) & (PRED_SLOTS - 1)];
    if (pr->id) {
        /* a padded copy, which the match reads 16 bytes at a time */
        memcpy(a->tw->pad, t, n);
        memset(a->tw->pad + n, 0, 16);
        if ((len = tmpl_match(a, pr->id, a->tw->pad, n, d)) != 0)
            return len;
    }
    if (pr->skip) {
        pr->skip--;
        return 0;
    }
    if (!(id = tmpl_of(a, t, n, &g))) {
        /* cutting costs about what zstd saves on a templated record:
         * back off from keys whose texts do not repeat (at most 1023
         * records skipped after each fruitless try) */
        if (++pr->fails >= 4)
            pr->skip = (1u << (pr->fails - 4 < 10 ? pr->fails - 4 : 10)) - 1;
        return 0;
    }
    pr->id = id;
    pr->fails = 0;
    return tmpl_put(a, id, g, t, n, d);
}

uint32_t tt_args_add(tt_args *a, const char *args, size_t alen, const char *extra,
                     size_t elen)
{
    return tt_args_add_noted(a, args, alen, extra, elen, NULL);
}

uint32_t tt_args_add_noted(tt_args *a, const char *args, size_t alen, const char *extra,
                           size_t elen, const tt_args_note *note)
{
    size_t start, tlen = 0, plain = varint_len((uint64_t)alen * 2) + alen + varint_len(elen) + elen;
    if ((alen == 0 && elen == 0) || a->lazy)
        return 0;
    if (a->next == UINT32_MAX || alen > UINT32_MAX / 4 || elen > UINT32_MAX / 4)
        return 0;
    /* a template's record: a varint of at most 2 bytes per run, which
     * is never longer than the text, and 16 bytes more copied */
    if (args_room(a, alen + elen + 20, 2 * alen + elen + 36))
        return 0;
    start = a->cur_len;
    /* templates for the decoders that note keys (Chrome JSON: Kineto);
     * a note with an escape or NUL somewhere is a rare text */
    if (note && !note->any && alen && alen <= TMPL_TEXT)
        tlen = tmpl_noted(a, (const unsigned char *)args, alen, note, a->cur + start);
    if (tlen) {
        a->cur_len += tlen;
    } else {
        a->cur_len += put_varint(a->cur + a->cur_len, (uint64_t)alen * 2);
        if (alen)   /* args may be NULL when empty: no memcpy(NULL) */
            memcpy(a->cur + a->cur_len, args, alen);
        a->cur_len += alen;
    }
    a->cur_len += put_varint(a->cur + a->cur_len, elen);
    if (elen)
        memcpy(a->cur + a->cur_len, extra, elen);
    a->cur_len += elen;
    if (!note || note->rescan)
        keys_note(&a->cur_keys, (const unsigned char *)args, alen);
    else if (note->any)
        a->cur_keys.any = true;
    else if (!a->cur_keys.any)
        for (uint32_t i = 0; i < note->n; i++)
            keys_add_hash(&a->cur_keys, note->hash[i]);
    keys_note(&a->cur_keys, (const unsigned char *)extra, elen);
    /* a templated record fills its block as the plain one would */
    return args_commit(a, alen + elen, tlen ? plain : a->cur_len - start);
}

uint32_t tt_args_keyset(tt_args *a, const char *const *keys, const size_t *klen, uint32_t n)
{
    args_keyset ks;
    size_t total = 0;
    if (a->lazy || keyset_room(a))
        return 0;
    for (uint32_t i = 0; i < n; i++)
        total += klen[i];
    ks.n = n;
    ks.tmpl = false;
    ks.off = malloc((n + (size_t)1) * sizeof *ks.off);
    ks.text = malloc(total ? total : 1);
    if (!ks.off || !ks.text) {
        free(ks.off);
        free(ks.text);
        return 0;
    }
    ks.off[0] = 0;
    memset(&ks.keys, 0, sizeof ks.keys);
    for (uint32_t i = 0; i < n; i++) {
        if (klen[i])
            memcpy(ks.text + ks.off[i], keys[i], klen[i]);
        ks.off[i + 1] = ks.off[i] + klen[i];
        keys_note_keytext(&ks.keys, ks.text + ks.off[i], klen[i]);
    }
    a->keysets[a->n_keysets++] = ks;
    return a->n_keysets;
}

/* The first and the last w bytes of s[0..n) to d (w <= 8, w <= n): all
 * of them when n <= 2w. */
static inline void copy_ends(unsigned char *d, const char *s, size_t n, size_t w)
{
    uint64_t x, y;
    memcpy(&x, s, w);
    memcpy(&y, s + n - w, w);
    memcpy(d, &x, w);
    memcpy(d + n - w, &y, w);
}

/* s[0..n) to d, n <= 16 as two overlapping words or bytes: a keyed row's
 * values are mostly a few digits, and a libc memcpy() call apiece was a
 * fifth of storing them. Reads and writes only [0, n). */
static inline void copy_value(unsigned char *d, const char *s, size_t n)
{
    if (n > 16) {
        memcpy(d, s, n);
    } else if (n >= 8) {
        copy_ends(d, s, n, 8);
    } else if (n >= 4) {
        copy_ends(d, s, n, 4);
    } else if (n) {
        d[0] = (unsigned char)s[0];
        d[n >> 1] = (unsigned char)s[n >> 1];
        d[n - 1] = (unsigned char)s[n - 1];
    }
}

uint32_t tt_args_add_row(tt_args *a, uint32_t keyset, const tt_args_val *vals)
{
    const args_keyset *ks;
    const size_t *off;
    size_t text, bytes, need, row;   /* text: punctuation and keys */
    unsigned char *out, *limit;
    bool json, sized = false;
    if (a->lazy || keyset == 0 || keyset > a->n_keysets || a->next == UINT32_MAX)
        return 0;
    ks = &a->keysets[keyset - 1];
    if (ks->tmpl)
        return 0;
    off = ks->off;
    /* One pass: the row is written after the block's bytes while there is
     * room, and only then is the block seen to be full (flushed, and the
     * row moved to the front of the next). Where the room ends first the
     * row is sized and room made, as args_room() makes it, and written
     * again. */
    if (a->cur_cap - a->cur_len < 10 &&
        grow_bytes((void **)&a->cur, &a->cur_cap, a->cur_len + 10, a->block_target + 64))
        return 0;
fill:
    text = bytes = 0;
    json = false;
    out = a->cur + a->cur_len;
    limit = a->cur + a->cur_cap;
    out += put_varint(out, (uint64_t)(keyset - 1) * 2 + 1);
    /* everything read into locals first: the stores through out may
     * alias anything, and would have every load made again */
    for (uint32_t i = 0, n = ks->n; i < n; i++) {
        int kind = vals[i].kind;
        const char *src = vals[i].s;
        size_t len = kind == TT_ARGV_NONE ? 0 : vals[i].n;
        size_t key = off[i + 1] - off[i];
        bool str = kind == TT_ARGV_STRING;
        uint64_t x = ((uint64_t)len << 1 | str) + 1;
        if ((size_t)(limit - out) < len + 11)
            goto measure;
        if (kind == TT_ARGV_NONE) {
            *out++ = 0;
            continue;
        }
        if (x < 0x80)
            *out++ = (unsigned char)x;
        else
            out += put_varint(out, x);
        copy_value(out, src, len);   /* an empty value may come without a buffer */
        out += len;
        bytes += len;
        text += 1 + key + (str ? 2 : 0);
        json |= kind == TT_ARGV_JSON;
    }
    if (text == 0 || bytes > TT_ARGS_ROW_MAX)
        return 0;
    need = 10 + (size_t)ks->n * 10 + bytes;
    if (!sized && a->cur_len > 0 && a->cur_fill + need > a->block_target) {
        /* the row opens the next block, as args_room() would have had it */
        size_t old = a->cur_len, len = (size_t)(out - (a->cur + old));
        if (args_flush(a))
            return 0;
        memmove(a->cur, a->cur + old, len);
        out = a->cur + len;
    }
    row = (size_t)(out - a->cur) - a->cur_len;
    a->cur_len += row;
    if (json)   /* a TT_ARGV_SCALAR holds nothing the filter counts (args.h) */
        for (uint32_t i = 0; i < ks->n; i++)
            if (vals[i].kind == TT_ARGV_JSON)
                keys_note_value(&a->cur_keys, vals[i].s, vals[i].n);
    keys_merge(&a->cur_keys, &ks->keys);
    return args_commit(a, text + bytes + 1, row);   /* + "}" */
measure:
    if (sized)
        return 0;   /* not reached: args_room() made room for the sized row */
    sized = true;
    text = bytes = 0;
    for (uint32_t i = 0; i < ks->n; i++) {
        if (vals[i].kind == TT_ARGV_NONE)
            continue;
        bytes += vals[i].n;
        text++;
    }
    need = 10 + (size_t)ks->n * 10 + bytes;
    if (text == 0 || bytes > TT_ARGS_ROW_MAX || args_room(a, need, need))
        return 0;
    goto fill;
}

char *tt_args_json_string(char *d, const char *s, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    size_t start = 0;
    *d++ = '"';
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c != '"' && c != '\\' && c >= 0x20)
            continue;
        /* runs without escapes are copied whole: most texts have none */
        memcpy(d, s + start, i - start);
        d += i - start;
        *d++ = '\\';
        if (c == '"' || c == '\\') {
            *d++ = (char)c;
        } else {
            *d++ = 'u';
            *d++ = '0';
            *d++ = '0';
            *d++ = hex[c >> 4];
            *d++ = hex[c & 15];
        }
        start = i + 1;
    }
    memcpy(d, s + start, n - start);
    d += n - start;
    *d++ = '"';
    return d;
}

int tt_args_seal(tt_args *a)
{
    if (a->lazy)
        return 0;
    if (args_flush(a))
        return -1;
    /* the fill buffer is not needed for reading any more */
    free(a->cur);
    a->cur = NULL;
    a->cur_cap = 0;
    ZSTD_freeCCtx(a->cctx);
    a->cctx = NULL;
    /* records added after sealing make their templates anew */
    free(a->tw);
    a->tw = NULL;
    return 0;
}

/* The lock of a store with a source, which readers of a const store take
 * too (the parts they find or make are the store's own business). */
static pthread_mutex_t *lazy_lock(const tt_args *a)
{
    return &a->lazy->lock;
}

uint32_t tt_args_count(const tt_args *a) { return a->next - 1; }
uint64_t tt_args_raw_bytes(const tt_args *a)
{
    uint64_t n = a->raw_total;
    if (a->lazy) {
        pthread_mutex_lock(lazy_lock(a));
        for (uint32_t i = 0; i < a->lazy->n_parts; i++)
            n += tt_args_raw_bytes(a->lazy->parts[i].store);
        pthread_mutex_unlock(lazy_lock(a));
    }
    return n;
}

size_t tt_args_memory(const tt_args *a)
{
    size_t m = a->held + a->cur_cap + (size_t)a->cap_blocks * sizeof(args_block);
    if (a->lazy) {
        pthread_mutex_lock(lazy_lock(a));
        for (uint32_t i = 0; i < a->lazy->n_parts; i++)
            m += tt_args_memory(a->lazy->parts[i].store);
        m += (size_t)a->lazy->cap_parts * sizeof(args_part);
        pthread_mutex_unlock(lazy_lock(a));
    }
    return m;
}

void tt_args_reader_init(tt_args_reader *r, const tt_args *store)
{
    r->store = store;
    r->part = NULL;
    r->part_first = r->part_n = 0;
    r->block = 0;
    r->buf = NULL;
    r->view = NULL;
    r->cap = 0;
    r->next_handle = 0;
    r->next_off = 0;
    r->loads = 0;
    r->row = NULL;
    r->row_cap = 0;
}

void tt_args_reader_fini(tt_args_reader *r)
{
    free(r->buf);
    r->buf = NULL;
    r->view = NULL;
    r->cap = 0;
    free(r->row);
    r->row = NULL;
    r->row_cap = 0;
    r->block = 0;
    r->next_handle = 0;
    r->next_off = 0;
    r->part = NULL;
}

/* The object text of a keyed row of key set ks whose values start at p
 * (already checked to lie inside the block), into r->row. 0 or -1 (OOM). */
static int row_rebuild(tt_args_reader *r, const args_keyset *ks, const unsigned char *p,
                       const unsigned char *end, const unsigned char **text, uint64_t *len)
{
    const unsigned char *q = p;
    size_t need = 2;
    char *d;
    uint64_t x = 0;
    for (uint32_t i = 0; i < ks->n; i++) {
        q = get_varint(q, end, &x);
        if (x) {
            size_t vn = (size_t)((x - 1) >> 1);
            need += 1 + ks->off[i + 1] - ks->off[i] + ((x - 1) & 1 ? TT_JSON_STRING_MAX(vn) : vn);
            q += vn;
        }
    }
    if (grow_bytes((void **)&r->row, &r->row_cap, need, 1024))
        return -1;
    d = r->row;
    for (uint32_t i = 0; i < ks->n; i++) {
        size_t kl = ks->off[i + 1] - ks->off[i], vn;
        p = get_varint(p, end, &x);
        if (!x)
            continue;
        *d = d == r->row ? '{' : ',';
        d++;
        vn = (size_t)((x - 1) >> 1);
        memcpy(d, ks->text + ks->off[i], kl);
        d += kl;
        if ((x - 1) & 1) {
            d = tt_args_json_string(d, (const char *)p, vn);
        } else {
            memcpy(d, p, vn);
            d += vn;
        }
        p += vn;
    }
    *d++ = '}';
    *text = (const unsigned char *)r->row;
    *len = (uint64_t)(d - r->row);
    return 0;
}

/* The index of the block of a (n_blocks > 0) that holds handle, a handle
 * before cur_first: the last block starting at or before it. */
static uint32_t block_of(const tt_args *a, uint32_t handle)
{
    uint32_t lo = 0, hi = a->n_blocks;
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (a->blocks[mid].first <= handle)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* The args text of a record of template ks whose runs start at p (already
 * checked to lie inside the block), `digits` bytes of them, into r->row.
 * 0 or -1 (OOM). */
static int tmpl_rebuild(tt_args_reader *r, const args_keyset *ks, const unsigned char *p,
                        const unsigned char *end, uint64_t digits, const unsigned char **text,
                        uint64_t *len)
{
    char *d;
    uint64_t x = 0;
    size_t pl;
    if (grow_bytes((void **)&r->row, &r->row_cap, ks->off[ks->n + 1] - 1 - ks->n + digits + 1,
                   1024))
        return -1;
    d = r->row;
    for (uint32_t i = 0; i < ks->n; i++) {
        pl = ks->off[i + 1] - 1 - ks->off[i];
        memcpy(d, ks->text + ks->off[i], pl);
        d += pl;
        p = get_varint(p, end, &x);
        memcpy(d, p, x);
        d += x;
        p += x;
    }
    pl = ks->off[ks->n + 1] - 1 - ks->off[ks->n];
    memcpy(d, ks->text + ks->off[ks->n], pl);
    d += pl;
    *text = (const unsigned char *)r->row;
    *len = (uint64_t)(d - r->row);
    return 0;
}

/* Record `handle` of a, a store of blocks, through r's cache. */
static int read_blocks(tt_args_reader *r, const tt_args *a, uint32_t handle, const char **args,
                       size_t *alen, const char **extra, size_t *elen, tt_args_form *form)
{
    const unsigned char *p, *end;
    uint32_t skip, kbase = 0;
    bool cached = false;
    if (handle == 0 || handle >= a->next)
        return -1;
    if (handle >= a->cur_first) {
        /* still in the block being filled */
        p = a->cur;
        end = a->cur + a->cur_len;
        skip = handle - a->cur_first;
    } else {
        uint32_t bi = block_of(a, handle);
        const args_block *b = &a->blocks[bi];
        if (r->block != bi + 1 && b->stored == b->raw_size) {
            /* a block kept raw is read where it lies (its slab never
             * moves): convert's load keeps them all raw (tt_args_store_raw) */
            r->view = b->data;
            r->next_handle = 0;
            r->loads++;
            r->block = bi + 1;
        } else if (r->block != bi + 1) {
            if (r->cap < b->raw_size) {
                unsigned char *nb = realloc(r->buf, b->raw_size);
                if (!nb)
                    return -1;
                r->buf = nb;
                r->cap = b->raw_size;
            }
            r->next_handle = 0;
            r->loads++;
            {
                size_t got = ZSTD_decompress(r->buf, b->raw_size, b->data, b->stored);
                if (ZSTD_isError(got) || got != b->raw_size) {
                    r->block = 0;
                    return -1;
                }
            }
            r->view = r->buf;
            r->block = bi + 1;
        }
        p = r->view;
        end = r->view + b->raw_size;
        skip = handle - b->first;
        kbase = b->kbase;
        if (r->next_handle && handle >= r->next_handle && r->next_off <= b->raw_size) {
            /* continue from the record after the last one read */
            p = r->view + r->next_off;
            skip = handle - r->next_handle;
        }
        cached = true;
    }
    for (;;) {
        uint64_t v, la, le;
        const unsigned char *ta, *te;
        if (!(p = get_varint(p, end, &v)))
            return -1;
        if (v & 1) {
            /* a keyed row: its values, then the object rebuilt on a match */
            const unsigned char *body = p;
            uint64_t k = (v >> 1) + 1 + kbase;
            const args_keyset *ks;
            if (k > a->n_keysets)
                return -1;
            ks = &a->keysets[k - 1];
            if (ks->tmpl) {
                /* an args template's runs, then the extra text */
                uint64_t digits = 0;
                const unsigned char *runs_end;
                for (uint32_t i = 0; i < ks->n; i++) {
                    if (!(p = take_run(p, end, &ta, &la)))
                        return -1;
                    digits += la;
                }
                runs_end = p;
                if (!(p = take_run(p, end, &te, &le)))
                    return -1;
                if (skip-- != 0)
                    continue;
                if (form) {
                    /* left as its template and runs (tt_args_read_form) */
                    form->tmpl = (uint32_t)k;
                    form->layout = ks->text;
                    form->layout_len = ks->off[ks->n + 1] - 1;
                    form->n_runs = ks->n;
                    form->runs = body;
                    form->runs_end = runs_end;
                    form->digits = (size_t)digits;
                    form->ks = ks;
                    ta = NULL;
                    la = 0;
                } else if (tmpl_rebuild(r, ks, body, end, digits, &ta, &la)) {
                    return -1;
                }
            } else {
                for (uint32_t i = 0; i < ks->n; i++) {
                    if (!(p = get_varint(p, end, &la)) ||
                        (la && (la - 1) / 2 > (uint64_t)(end - p)))
                        return -1;
                    if (la)
                        p += (la - 1) / 2;
                }
                if (skip-- != 0)
                    continue;
                if (row_rebuild(r, ks, body, end, &ta, &la))
                    return -1;
                te = ta;
                le = 0;
            }
        } else {
            la = v >> 1;
            if (la > (uint64_t)(end - p))
                return -1;
            ta = p;
            p += la;
            if (!(p = take_run(p, end, &te, &le)))   /* the extra text */
                return -1;
            if (skip-- != 0)
                continue;
        }
        *args = (const char *)ta;
        *alen = (size_t)la;
        *extra = (const char *)te;
        *elen = (size_t)le;
        if (cached) {
            r->next_handle = handle + 1;
            r->next_off = (size_t)(p - r->view);
        }
        return 0;
    }
}

/* The part of a (a store with a source) that holds handle, made by the
 * source when it is not there yet, into r->part. 0 or -1. */
static int lazy_find(tt_args_reader *r, const tt_args *a, uint32_t handle)
{
    args_lazy *z = a->lazy;
    uint32_t lo = 0, hi, first = 0, n = 0;
    tt_args *part = NULL;
    tt_error err;
    int rc = -1;
    pthread_mutex_lock(&z->lock);
    /* the first part that starts after handle */
    hi = z->n_parts;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (z->parts[mid].first <= handle)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo > 0 && handle - z->parts[lo - 1].first < z->parts[lo - 1].n) {
        lo--;
        goto found;
    }
    tt_error_clear(&err);
    if (z->src->build(z->ctx, handle, &part, &first, &n, &err)) {
        /* a corrupt source stays so; memory may be found on a later read */
        if (!z->failed && err.code != TT_ERR_NOMEM) {
            z->failed = true;
            z->err = err;
        }
        goto out;
    }
    /* a part must hold the handle, fit the store, and keep clear of its
     * neighbours (lo is where it goes) */
    if (!part || n == 0 || first > handle || handle - first >= n || n > a->next - first ||
        tt_args_count(part) != n || (lo > 0 && z->parts[lo - 1].first + z->parts[lo - 1].n > first) ||
        (lo < z->n_parts && first + n > z->parts[lo].first)) {
        tt_args_free(part);
        if (!z->failed) {
            z->failed = true;
            tt_error_set(&z->err, TT_ERR_FORMAT, "argument records rebuilt out of place");
        }
        goto out;
    }
    if (z->n_parts == z->cap_parts) {
        uint32_t nc = z->cap_parts ? z->cap_parts * 2 : 16;
        args_part *np = realloc(z->parts, nc * sizeof *np);
        if (!np) {
            tt_args_free(part);
            goto out;
        }
        z->parts = np;
        z->cap_parts = nc;
    }
    memmove(&z->parts[lo + 1], &z->parts[lo], (z->n_parts - lo) * sizeof *z->parts);
    z->parts[lo].first = first;
    z->parts[lo].n = n;
    z->parts[lo].store = part;
    z->n_parts++;
found:
    r->part = z->parts[lo].store;
    r->part_first = z->parts[lo].first;
    r->part_n = z->parts[lo].n;
    r->block = 0;
    r->next_handle = 0;
    rc = 0;
out:
    pthread_mutex_unlock(&z->lock);
    return rc;
}

int tt_args_read(tt_args_reader *r, uint32_t handle, const char **args, size_t *alen,
                 const char **extra, size_t *elen)
{
    const tt_args *a = r->store;
    if (!a || handle == 0 || handle >= a->next)
        return -1;
    if (!a->lazy)
        return read_blocks(r, a, handle, args, alen, extra, elen, NULL);
    if ((!r->part || handle < r->part_first || handle - r->part_first >= r->part_n) &&
        lazy_find(r, a, handle))
        return -1;
    return read_blocks(r, r->part, handle - r->part_first + 1, args, alen, extra, elen, NULL);
}

int tt_args_read_form(tt_args_reader *r, uint32_t handle, tt_args_form *f)
{
    const tt_args *a = r->store;
    f->tmpl = 0;
    if (!a || handle == 0 || handle >= a->next)
        return -1;
    if (a->lazy)   /* its parts' template ids are their own: texts */
        return tt_args_read(r, handle, &f->args, &f->alen, &f->extra, &f->elen);
    return read_blocks(r, a, handle, &f->args, &f->alen, &f->extra, &f->elen, f);
}

int tt_args_form_text(tt_args_reader *r, tt_args_form *f)
{
    const unsigned char *t;
    uint64_t len;
    if (!f->tmpl)
        return 0;
    if (tmpl_rebuild(r, f->ks, f->runs, f->runs_end, f->digits, &t, &len))
        return -1;
    f->args = (const char *)t;
    f->alen = (size_t)len;
    f->tmpl = 0;
    return 0;
}

int tt_args_set_source(tt_args *a, uint32_t n, const tt_args_source *src, void *ctx)
{
    args_lazy *z;
    if (a->lazy || a->next != 1 || n >= UINT32_MAX || !(z = calloc(1, sizeof *z))) {
        if (src->free)
            src->free(ctx);
        return -1;
    }
    if (pthread_mutex_init(&z->lock, NULL)) {
        free(z);
        if (src->free)
            src->free(ctx);
        return -1;
    }
    z->src = src;
    z->ctx = ctx;
    a->lazy = z;
    a->next = n + 1;
    a->cur_first = a->next;
    return 0;
}

void tt_args_prefetch(const tt_args *a, const uint32_t *handles, size_t n, unsigned threads)
{
    args_lazy *z = a->lazy;
    if (!z || !z->src->prefetch || n == 0)
        return;
    pthread_mutex_lock(&z->lock);
    /* a failed source fails every read the same way: nothing to make */
    if (!z->failed)
        z->src->prefetch(z->ctx, handles, n, threads);
    pthread_mutex_unlock(&z->lock);
}

/* Whether a block with key summary s may hold one of the keys hashed
 * hs[0..nh). */
static bool keys_may(const args_keys *s, const uint64_t *hs, size_t nh)
{
    if (s->any)
        return true;
    for (size_t k = 0; k < nh; k++)
        if (keys_has_hash(s, hs[k]))
            return true;
    return false;
}

/* tt_args_filter() of a store of blocks, from their key summaries; maybe
 * is all 1 on entry. Needles it cannot tell by keys leave it so. */
static void blocks_filter(const tt_args *a, const uint32_t *handles, size_t n,
                          const char *const *needles, size_t n_needles, unsigned char *maybe)
{
    uint64_t hs[32];
    size_t nh = 0;
    uint32_t bi = 0, told = UINT32_MAX;
    bool says = true;
    for (size_t k = 0; k < n_needles; k++) {
        const char *t = needles[k];
        size_t len = strlen(t);
        if (len == 1 && t[0] == '\\')
            continue;   /* a text with a backslash makes its block `any` */
        if (len < 2 || t[0] != '"' || t[len - 1] != '"' || nh == sizeof hs / sizeof hs[0])
            return;
        for (size_t i = 1; i + 1 < len; i++)
            if ((unsigned char)t[i] < 0x20 || t[i] == '"' || t[i] == '\\')
                return;
        hs[nh++] = key_hash((const unsigned char *)t + 1, len - 2, len - 1);
    }
    for (size_t i = 0; i < n; i++) {
        uint32_t h = handles[i], blk;
        if (h == 0 || h >= a->next)
            continue;   /* the read fails it */
        if (h >= a->cur_first) {
            blk = a->n_blocks;   /* the block being filled */
        } else {
            /* handles ascend: the block of the last one, or a later one */
            if (bi >= a->n_blocks || h < a->blocks[bi].first ||
                (bi + 1 < a->n_blocks && h >= a->blocks[bi + 1].first))
                bi = block_of(a, h);
            blk = bi;
        }
        if (blk != told) {
            says = keys_may(blk == a->n_blocks ? &a->cur_keys : &a->blocks[blk].keys, hs, nh);
            told = blk;
        }
        if (!says)
            maybe[i] = 0;
    }
}

int tt_args_filter(const tt_args *a, const uint32_t *handles, size_t n,
                   const char *const *needles, size_t n_needles, unsigned char *maybe)
{
    args_lazy *z = a->lazy;
    tt_error err;
    int rc = 0;
    if (n > 0)
        memset(maybe, 1, n);
    if (n == 0)
        return 0;
    if (!z) {
        blocks_filter(a, handles, n, needles, n_needles, maybe);
        return 0;
    }
    if (!z->src->filter)
        return 0;
    pthread_mutex_lock(&z->lock);
    tt_error_clear(&err);
    if (z->failed) {
        rc = -1;
    } else if (z->src->filter(z->ctx, handles, n, needles, n_needles, maybe, &err)) {
        /* as a failed build(): a corrupt source stays so */
        if (err.code != TT_ERR_NOMEM) {
            z->failed = true;
            z->err = err;
        }
        rc = -1;
    }
    if (rc)
        memset(maybe, 1, n);
    pthread_mutex_unlock(&z->lock);
    return rc;
}

int tt_args_error(const tt_args *a, tt_error *err)
{
    int got = 0;
    if (!a->lazy)
        return 0;
    pthread_mutex_lock(lazy_lock(a));
    if (a->lazy->failed) {
        *err = a->lazy->err;
        got = 1;
    }
    pthread_mutex_unlock(lazy_lock(a));
    return got;
}

int tt_args_append(tt_args *dst, tt_args *src)
{
    uint32_t n = src->next - 1, base = dst->next - 1;
    int rc = -1;
    uint32_t kb = dst->n_keysets;
    if (dst->lazy || src->lazy || args_flush(dst) || args_flush(src) ||
        n > UINT32_MAX - dst->next || src->n_keysets > UINT32_MAX / 4 - kb ||
        args_reserve_blocks(dst, src->n_blocks) ||
        (src->held && args_slab_room(dst, src->held)))
        goto out;
    if (src->n_keysets > dst->cap_keysets - kb) {
        /* src's key sets follow dst's: its blocks' keyed rows find theirs
         * through kbase */
        args_keyset *nk = realloc(dst->keysets, (kb + src->n_keysets) * sizeof *nk);
        if (!nk)
            goto out;
        dst->keysets = nk;
        dst->cap_keysets = kb + src->n_keysets;
    }
    if (src->n_keysets)
        memcpy(dst->keysets + kb, src->keysets, src->n_keysets * sizeof *src->keysets);
    dst->n_keysets += src->n_keysets;
    src->n_keysets = 0;
    for (uint32_t i = 0; i < src->n_blocks; i++) {
        args_block b = src->blocks[i];
        b.first += base;
        b.kbase += kb;
        b.data = args_slab_put(dst, b.data, b.stored);   /* src's slabs go with src */
        dst->blocks[dst->n_blocks++] = b;
    }
    src->n_blocks = 0;
    dst->next += n;
    dst->cur_first = dst->next;
    dst->raw_total += src->raw_total;
    dst->held += src->held;
    rc = 0;
out:
    tt_args_free(src);
    return rc;
}
