/* evblocks.c - the events of a format-3 .ttz as independent per-lane
 * blocks with an index (see evblocks.h): writer and reader.
 *
 * Each column is turned into small, repetitive numbers as format 2 did
 * (snapshot.c keeps its reader): times in the lane's unit, starts as the
 * distance from the previous start or end, durations plain or against the
 * last duration of the same name, categories against the last of the same
 * name, correlation ids as deltas or as positions among the ids seen
 * before; the choices are made per block by trial compression. The state
 * behind "the last of the same name" lives in tables indexed by string id
 * with a generation stamp per entry, so a block starts afresh without
 * clearing a table as long as all the strings.
 *
 * Blocks are written and read in parallel: jobs take every n-th block, each
 * with its own scratch. Nothing from a block is trusted before it is
 * checked against its index entry and its neighbours.
 */
#include "config.h"

#include "snapshot/evblocks.h"

#include "util/parallel.h"
#include "util/u64map.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

/* The first nine as in format 2 (tt_evb_read_rest() reads both) */
enum {
    COL_START, COL_DUR, COL_NAME, COL_CAT, COL_ATTRS, COL_CORR, COL_ARGS, COL_BYTES, COL_KIND,
    COL_DEPTH, COL__COUNT
};
enum { START_AFTER_START, START_AFTER_END };
enum { DUR_PLAIN, DUR_BY_NAME };
enum { CORR_DELTA, CORR_MATCH };

#define LEVEL_TRIAL 3
/* no zstd frame expands by more than this (snapshot.c says why) */
#define ZSTD_MAX_RATIO 44000u
#define MAX_PER_BLOCK (1u << 24)

static uint32_t crc(const void *p, size_t n)
{
    return (uint32_t)crc32_z(crc32_z(0L, Z_NULL, 0), p ? p : (const void *)"", n);
}

/* Per name: the last duration and category of the block, valid where the
 * stamp is the block's. */
typedef struct by_name {
    int64_t  *dur;
    uint32_t *cat, *stamp, now;
} by_name;

static int by_name_init(by_name *t, uint32_t n_strings)
{
    t->dur = calloc((size_t)n_strings + 1, sizeof *t->dur);
    t->cat = calloc((size_t)n_strings + 1, sizeof *t->cat);
    t->stamp = calloc((size_t)n_strings + 1, sizeof *t->stamp);
    t->now = 0;
    return t->dur && t->cat && t->stamp ? 0 : -1;
}

static void by_name_fini(by_name *t)
{
    free(t->dur);
    free(t->cat);
    free(t->stamp);
}

static void by_name_restart(by_name *t, uint32_t n_strings)
{
    if (++t->now == 0) {   /* the stamps wrapped: clear them once */
        memset(t->stamp, 0, ((size_t)n_strings + 1) * sizeof *t->stamp);
        t->now = 1;
    }
}

static inline int64_t last_dur(const by_name *t, uint32_t name)
{
    return t->stamp[name] == t->now ? t->dur[name] : 0;
}

static inline uint32_t last_cat(const by_name *t, uint32_t name)
{
    return t->stamp[name] == t->now ? t->cat[name] : 0;
}

static inline void set_last(by_name *t, uint32_t name, int64_t dur, uint32_t cat)
{
    t->stamp[name] = t->now;
    t->dur[name] = dur;
    t->cat[name] = cat;
}

/* --------------------------------------------------------------- writer */

static uint64_t gcd64(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* The unit of a lane's times: the largest number dividing every start and
 * duration (1000 when they are whole microseconds; 1 when nothing does). */
static int64_t lane_unit(const tt_lane *ln)
{
    uint64_t g = 0;
    for (size_t i = 0; i < ln->n && g != 1; i++) {
        int64_t s = ln->ev[i].start;
        g = gcd64(g, s < 0 ? (uint64_t)0 - (uint64_t)s : (uint64_t)s);
        g = gcd64(g, (uint64_t)ln->ev[i].dur);
    }
    return g == 0 || g > INT64_MAX ? 1 : (int64_t)g;
}

typedef struct enc_ctx {
    const tt_trace *tr;
    const uint32_t *arg_map;
    int             level;
    tt_evb_index    ix;
    tt_wbuf        *frames;     /* per block */
    unsigned        n_jobs;
    atomic_int      failed;
} enc_ctx;

typedef struct enc_job {
    by_name    names;
    tt_wbuf    col[COL__COUNT][2], raw, tmp;
    ZSTD_CCtx *cc;
} enc_job;

/* One block's columns in every encoding (col[c][m]; one for most). */
static int enc_columns(enc_ctx *x, enc_job *j, const tt_evb_block *b)
{
    const tt_lane *ln = &x->tr->lanes[b->lane];
    tt_wbuf *start = j->col[COL_START], *dur = j->col[COL_DUR], *corr = j->col[COL_CORR];
    int64_t u = x->ix.lanes[b->lane].unit, last_pos = -1;
    uint32_t last_corr = 0, last_new = 0, n_corr = 0, next_arg = b->arg_base;
    tt_u64map corr_pos;
    int rc = -1;

    tt_u64map_init(&corr_pos);
    by_name_restart(&j->names, tt_strtab_count(x->tr->strings));
    for (size_t i = b->at; i < b->at + b->n; i++) {
        const tt_event *e = &ln->ev[i];
        int64_t s = e->start / u, d = e->dur / u;
        if (i == b->at) {
            tt_wbuf_svarint(&start[START_AFTER_START], s);
            tt_wbuf_svarint(&start[START_AFTER_END], s);
        } else {
            int64_t ps = ln->ev[i - 1].start / u, pe = ps + ln->ev[i - 1].dur / u;
            tt_wbuf_varint(&start[START_AFTER_START], (uint64_t)(s - ps));
            tt_wbuf_varint(&start[START_AFTER_END], s >= pe ? 2 * (uint64_t)(s - pe) + 1
                                                            : 2 * (uint64_t)(s - ps));
        }
        tt_wbuf_varint(&dur[DUR_PLAIN], (uint64_t)d);
        tt_wbuf_svarint(&dur[DUR_BY_NAME], d - last_dur(&j->names, e->name) / u);
        tt_wbuf_varint(&j->col[COL_NAME][0], e->name);
        tt_wbuf_varint(&j->col[COL_CAT][0],
                       e->cat == last_cat(&j->names, e->name) ? 0 : (uint64_t)e->cat + 1);
        set_last(&j->names, e->name, e->dur, e->cat);
        tt_wbuf_varint(&j->col[COL_ATTRS][0], e->attrs);
        if (e->corr) {
            uint32_t *pos = tt_u64map_get(&corr_pos, e->corr);
            tt_wbuf_varint(&corr[CORR_DELTA], tt_zigzag((int64_t)e->corr - last_corr) + 1);
            last_corr = e->corr;
            if (pos) {
                tt_wbuf_varint(&corr[CORR_MATCH], 2 * tt_zigzag((int64_t)*pos - last_pos - 1) + 2);
                last_pos = *pos;
            } else {
                tt_wbuf_varint(&corr[CORR_MATCH], 2 * tt_zigzag((int64_t)e->corr - last_new) + 1);
                last_new = e->corr;
                if (tt_u64map_put(&corr_pos, e->corr, n_corr++))
                    goto out;
            }
        } else {
            tt_wbuf_varint(&corr[CORR_DELTA], 0);
            tt_wbuf_varint(&corr[CORR_MATCH], 0);
        }
        if (e->args) {
            uint32_t h = x->arg_map[e->args];
            if (h == next_arg) {
                tt_wbuf_varint(&j->col[COL_ARGS][0], 1);
                next_arg++;
            } else {
                tt_wbuf_varint(&j->col[COL_ARGS][0], (uint64_t)h + 1);
            }
        } else {
            tt_wbuf_varint(&j->col[COL_ARGS][0], 0);
        }
        tt_wbuf_svarint(&j->col[COL_BYTES][0], e->bytes);
        tt_wbuf_varint(&j->col[COL_KIND][0], (uint64_t)e->kind | (uint64_t)e->flags << 4);
        tt_wbuf_varint(&j->col[COL_DEPTH][0], e->depth);
    }
    rc = 0;
out:
    tt_u64map_fini(&corr_pos);
    return rc;
}

static int enc_block(enc_ctx *x, enc_job *j, size_t k)
{
    tt_evb_block *b = &x->ix.blocks[k];
    tt_wbuf *out = &x->frames[k];
    unsigned mode[3];
    size_t bound, got;

    for (int c = 0; c < COL__COUNT; c++)
        j->col[c][0].n = j->col[c][1].n = 0;
    j->raw.n = 0;
    if (enc_columns(x, j, b))
        return -1;
    for (int c = 0; c < COL__COUNT; c++)
        if (j->col[c][0].oom || j->col[c][1].oom)
            return -1;
    mode[0] = tt_wbuf_smallest(j->cc, j->col[COL_START], 2, LEVEL_TRIAL, &j->tmp);
    mode[1] = tt_wbuf_smallest(j->cc, j->col[COL_DUR], 2, LEVEL_TRIAL, &j->tmp);
    mode[2] = tt_wbuf_smallest(j->cc, j->col[COL_CORR], 2, LEVEL_TRIAL, &j->tmp);
    tt_wbuf_byte(&j->raw, (unsigned char)(mode[0] | mode[1] << 1 | mode[2] << 2));
    for (int c = 0; c < COL__COUNT; c++) {
        unsigned m = c == COL_START ? mode[0] : c == COL_DUR ? mode[1] : c == COL_CORR ? mode[2] : 0;
        tt_wbuf_str(&j->raw, j->col[c][m].p, j->col[c][m].n);
    }
    bound = ZSTD_compressBound(j->raw.n);
    if (j->raw.oom || !tt_wbuf_reserve(out, bound))
        return -1;
    ZSTD_CCtx_reset(j->cc, ZSTD_reset_session_and_parameters);
    ZSTD_CCtx_setParameter(j->cc, ZSTD_c_compressionLevel, x->level);
    /* the index holds a crc32 of every block: no zstd checksum on top */
    ZSTD_CCtx_setParameter(j->cc, ZSTD_c_checksumFlag, 0);
    ZSTD_CCtx_setParameter(j->cc, ZSTD_c_contentSizeFlag, 1);
    got = ZSTD_compress2(j->cc, out->p, bound, j->raw.p, j->raw.n);
    if (ZSTD_isError(got))
        return -1;
    out->n = got;
    b->stored = got;
    b->raw = j->raw.n;
    b->crc = crc(out->p, got);
    return 0;
}

static void enc_work(void *ctx, size_t job)
{
    enc_ctx *x = ctx;
    enc_job j;
    memset(&j, 0, sizeof j);
    if (by_name_init(&j.names, tt_strtab_count(x->tr->strings)) || !(j.cc = ZSTD_createCCtx())) {
        atomic_store(&x->failed, 1);
    } else {
        for (size_t k = job; k < x->ix.n_blocks && !atomic_load(&x->failed); k += x->n_jobs)
            if (enc_block(x, &j, k))
                atomic_store(&x->failed, 1);
    }
    by_name_fini(&j.names);
    for (int c = 0; c < COL__COUNT; c++) {
        tt_wbuf_free(&j.col[c][0]);
        tt_wbuf_free(&j.col[c][1]);
    }
    tt_wbuf_free(&j.raw);
    tt_wbuf_free(&j.tmp);
    ZSTD_freeCCtx(j.cc);
}

/* Events per block: TT_EVB_EVENTS, or for tests TRACETTY_TTZ_BLOCK_EVENTS
 * (tiny blocks put block edges everywhere in a small trace). */
static uint32_t per_block(void)
{
    const char *env = getenv("TRACETTY_TTZ_BLOCK_EVENTS");
    if (env && *env) {
        char *endp;
        unsigned long v = strtoul(env, &endp, 10);
        if (*endp == '\0' && v >= 1 && v <= MAX_PER_BLOCK)
            return (uint32_t)v;
    }
    return TT_EVB_EVENTS;
}

/* The blocks of every lane, their time bounds and argument numbering. */
static int plan_blocks(enc_ctx *x)
{
    const tt_trace *tr = x->tr;
    tt_evb_index *ix = &x->ix;
    size_t nb = 0, k = 0;
    uint32_t next_arg = 1, per = per_block();
    ix->per_block = per;
    ix->n_lanes = tr->n_lanes;
    for (uint32_t l = 0; l < tr->n_lanes; l++)
        nb += (tr->lanes[l].n + per - 1) / per;
    ix->lanes = calloc((size_t)tr->n_lanes + 1, sizeof *ix->lanes);
    ix->blocks = calloc(nb + 1, sizeof *ix->blocks);
    if (!ix->lanes || !ix->blocks)
        return -1;
    ix->n_blocks = nb;
    for (uint32_t l = 0; l < tr->n_lanes; l++) {
        const tt_lane *ln = &tr->lanes[l];
        tt_evb_lane *il = &ix->lanes[l];
        il->unit = lane_unit(ln);
        il->max_depth = ln->max_depth;
        il->first = (uint32_t)k;
        for (size_t at = 0; at < ln->n; at += per, k++) {
            tt_evb_block *b = &ix->blocks[k];
            b->lane = l;
            b->at = at;
            b->n = (uint32_t)(ln->n - at < per ? ln->n - at : per);
            b->arg_base = next_arg;
            b->first = ln->ev[at].start;
            b->last = ln->ev[at + b->n - 1].start;
            b->max_end = INT64_MIN;
            for (size_t i = at; i < at + b->n; i++) {
                uint32_t h = ln->ev[i].args ? x->arg_map[ln->ev[i].args] : 0;
                tt_ns end = tt_event_end(&ln->ev[i]);
                if (h && h == next_arg)
                    next_arg++;
                if (end > b->max_end)
                    b->max_end = end;
            }
            b->new_args = next_arg - b->arg_base;
            il->n_blocks++;
        }
    }
    return 0;
}

int tt_evb_encode(const tt_trace *tr, const uint32_t *arg_map, int level, unsigned threads,
                  tt_wbuf *events, tt_wbuf *index)
{
    enc_ctx x;
    unsigned cores = threads ? threads : tt_parallel_cores();
    int rc = -1;
    memset(&x, 0, sizeof x);
    x.tr = tr;
    x.arg_map = arg_map;
    x.level = level;
    atomic_init(&x.failed, 0);
    if (plan_blocks(&x))
        goto out;
    if (!(x.frames = calloc(x.ix.n_blocks + 1, sizeof *x.frames)))
        goto out;
    x.n_jobs = cores < x.ix.n_blocks ? cores : (unsigned)(x.ix.n_blocks ? x.ix.n_blocks : 1);
    tt_parallel_run(x.n_jobs, x.n_jobs, enc_work, &x);
    if (atomic_load(&x.failed))
        goto out;
    tt_wbuf_varint(index, x.ix.per_block);
    for (uint32_t l = 0; l < tr->n_lanes; l++) {
        tt_wbuf_varint(index, (uint64_t)x.ix.lanes[l].unit);
        tt_wbuf_varint(index, x.ix.lanes[l].max_depth);
    }
    for (size_t k = 0; k < x.ix.n_blocks; k++) {
        const tt_evb_block *b = &x.ix.blocks[k];
        tt_wbuf_svarint(index, b->first);
        tt_wbuf_varint(index, (uint64_t)(b->last - b->first));
        tt_wbuf_varint(index, (uint64_t)(b->max_end - b->first));
        tt_wbuf_varint(index, b->stored);
        tt_wbuf_varint(index, b->raw);
        tt_wbuf_varint(index, b->crc);
        tt_wbuf_varint(index, b->new_args);
        tt_wbuf_put(events, x.frames[k].p, x.frames[k].n);
    }
    rc = index->oom || events->oom ? -1 : 0;
out:
    if (x.frames)
        for (size_t k = 0; k < x.ix.n_blocks; k++)
            tt_wbuf_free(&x.frames[k]);
    free(x.frames);
    tt_evb_index_free(&x.ix);
    return rc;
}

/* ---------------------------------------------------------------- index */

void tt_evb_index_free(tt_evb_index *ix)
{
    free(ix->lanes);
    free(ix->blocks);
    memset(ix, 0, sizeof *ix);
}

static int index_fail(tt_evb_index *ix, const char **what, const char *why)
{
    tt_evb_index_free(ix);
    *what = why;
    return why ? -2 : -1;
}

int tt_evb_index_read(const unsigned char *p, size_t len, const tt_trace *tr,
                      uint64_t events_size, uint32_t n_args, tt_evb_index *ix, const char **what)
{
    tt_rd c = {p, p + len, false};
    uint64_t per, nb = 0, off = 0, next_arg = 1;
    size_t k = 0;

    memset(ix, 0, sizeof *ix);
    per = tt_rd_varint(&c);
    if (c.bad || per == 0 || per > MAX_PER_BLOCK)
        return index_fail(ix, what, "events per block");
    ix->per_block = (uint32_t)per;
    ix->n_lanes = tr->n_lanes;
    for (uint32_t l = 0; l < tr->n_lanes; l++)
        nb += (tr->lanes[l].n + per - 1) / per;
    /* two bytes per lane and seven per block at least: counts bounded by
     * the data before anything is allocated for them */
    if ((uint64_t)tr->n_lanes * 2 + nb * 7 > len)
        return index_fail(ix, what, "truncated");
    ix->lanes = calloc((size_t)tr->n_lanes + 1, sizeof *ix->lanes);
    ix->blocks = calloc((size_t)nb + 1, sizeof *ix->blocks);
    if (!ix->lanes || !ix->blocks)
        return index_fail(ix, what, NULL);
    ix->n_blocks = (size_t)nb;
    for (uint32_t l = 0; l < tr->n_lanes; l++) {
        uint64_t u = tt_rd_varint(&c), d = tt_rd_varint(&c);
        if (c.bad || u == 0 || u > INT64_MAX || d > UINT16_MAX)
            return index_fail(ix, what, "bad lane");
        ix->lanes[l].unit = (int64_t)u;
        ix->lanes[l].max_depth = (uint32_t)d;
    }
    for (uint32_t l = 0; l < tr->n_lanes; l++) {
        const tt_lane *ln = &tr->lanes[l];
        tt_evb_lane *il = &ix->lanes[l];
        il->first = (uint32_t)k;
        for (size_t at = 0; at < ln->n; at += per, k++) {
            tt_evb_block *b = &ix->blocks[k];
            uint64_t dl, dm;
            b->lane = l;
            b->at = at;
            b->n = (uint32_t)(ln->n - at < per ? ln->n - at : per);
            b->first = tt_rd_svarint(&c);
            dl = tt_rd_varint(&c);
            dm = tt_rd_varint(&c);
            b->stored = tt_rd_varint(&c);
            b->raw = tt_rd_varint(&c);
            b->crc = tt_rd_u32(&c);
            b->new_args = tt_rd_u32(&c);
            if (c.bad)
                return index_fail(ix, what, "truncated");
            /* starts within the limits, ends within twice them (model/trace.h) */
            if (!tt_time_ok(b->first) || dl > (uint64_t)2 * TT_TIME_LIMIT ||
                dm < dl || dm > (uint64_t)(2 * TT_TIME_LIMIT - b->first) ||
                !tt_time_ok(b->first + (int64_t)dl))
                return index_fail(ix, what, "block times out of range");
            b->last = b->first + (int64_t)dl;
            b->max_end = b->first + (int64_t)dm;
            if (at > 0 && b->first < ix->blocks[k - 1].last)
                return index_fail(ix, what, "blocks out of order");
            if (b->stored == 0 || b->stored > events_size - off)
                return index_fail(ix, what, "block offset past the end of the section");
            if (b->raw > b->stored * ZSTD_MAX_RATIO + 64 || b->raw < (uint64_t)b->n * COL__COUNT)
                return index_fail(ix, what, "impossible block size");
            b->offset = off;
            off += b->stored;
            if (b->new_args > n_args + 1 - next_arg)
                return index_fail(ix, what, "argument records out of range");
            b->arg_base = (uint32_t)next_arg;
            next_arg += b->new_args;
            il->n_blocks++;
        }
    }
    if (c.p != c.end)
        return index_fail(ix, what, "extra data");
    if (off != events_size)
        return index_fail(ix, what, "the blocks do not fill the section");
    if (next_arg != (uint64_t)n_args + 1)
        return index_fail(ix, what, "argument records no event holds");
    return 0;
}

/* --------------------------------------------------------------- reader */

typedef struct dec_ctx {
    const tt_evb_decoding *d;
    const size_t          *sel, *dest;
    size_t                 n_sel;
    unsigned               n_jobs;
    const char           **why;     /* per selected block, NULL when good */
    atomic_int             oom, bad;
} dec_ctx;

typedef struct dec_job {
    by_name        names;
    uint32_t      *corr;            /* CORR_MATCH: the block's distinct ids */
    unsigned char *buf;
    size_t         cap;
    ZSTD_DCtx     *dc;
} dec_job;

typedef struct blk_state {
    tt_rd       col[COL__COUNT];
    unsigned    start_mode, dur_mode;
    tt_evb_corr corr;
    uint32_t    next_arg, arg_end;
    int64_t     unit;
    uint32_t    max_depth;
} blk_state;

/* x * u, refusing what leaves int64 or is negative. */
static bool scale(int64_t x, int64_t u, int64_t *out)
{
    return x >= 0 && !__builtin_mul_overflow(x, u, out);
}

const char *tt_evb_read_corr(tt_evb_corr *st, tt_rd *col, uint32_t *corr)
{
    uint64_t v = tt_rd_varint(col);
    int64_t q;
    *corr = 0;
    if (v == 0)
        return NULL;
    if (!st->match) {
        if (__builtin_add_overflow((int64_t)st->last, tt_unzigzag(v - 1), &q) || q <= 0 ||
            q > UINT32_MAX)
            return "correlation id out of range";
        *corr = st->last = (uint32_t)q;
    } else if (v & 1) {
        /* an id not seen before */
        if (__builtin_add_overflow((int64_t)st->last_new, tt_unzigzag(v >> 1), &q) || q <= 0 ||
            q > UINT32_MAX)
            return "correlation id out of range";
        *corr = st->last_new = st->seen[st->n_seen++] = (uint32_t)q;
    } else {
        if (__builtin_add_overflow(st->last_pos + 1, tt_unzigzag((v - 2) >> 1), &q) || q < 0 ||
            (uint64_t)q >= st->n_seen)
            return "correlation id out of range";
        *corr = st->seen[q];
        st->last_pos = q;
    }
    return NULL;
}

const char *tt_evb_read_time(tt_rd *starts, tt_rd *durs, unsigned start_mode, unsigned dur_mode,
                             const tt_event *p, int64_t u, tt_ns last_dur, tt_event *e)
{
    uint64_t v;
    int64_t q, base;
    if (!p) {
        q = tt_rd_svarint(starts);
        if (__builtin_mul_overflow(q, u, &e->start))
            return "start out of range";
    } else {
        v = tt_rd_varint(starts);
        base = p->start;
        if (start_mode == START_AFTER_END) {
            if (v & 1)
                base += p->dur;   /* checked when p was read */
            v >>= 1;
        }
        if (v > INT64_MAX || !scale((int64_t)v, u, &q) || __builtin_add_overflow(base, q, &e->start))
            return "start out of range";
    }
    /* the limits every decoder keeps (model/trace.h): no end overflows */
    if (!tt_time_ok(e->start))
        return "start out of range";
    v = tt_rd_varint(durs);
    if (dur_mode == DUR_BY_NAME) {
        if (__builtin_add_overflow(last_dur / u, tt_unzigzag(v), &q))
            return "duration out of range";
    } else {
        q = v > INT64_MAX ? -1 : (int64_t)v;
    }
    if (!scale(q, u, &e->dur) || !tt_dur_ok(e->dur))
        return "duration out of range";
    /* the order tt_trace_finalize() leaves: start, then longer first */
    if (p && (e->start < p->start || (e->start == p->start && e->dur > p->dur)))
        return "events out of order";
    return NULL;
}

const char *tt_evb_read_rest(tt_rd *col, uint32_t *next_arg, uint32_t arg_end,
                             tt_argcols_hint *hint, bool no_args, tt_event *e)
{
    uint64_t v = tt_rd_varint(&col[COL_ARGS]);
    if (v == 1) {
        if (*next_arg >= arg_end)
            return "argument handle out of range";
        if (hint) {
            hint[*next_arg - 1].corr = e->corr;
            hint[*next_arg - 1].name = e->name;
        }
        e->args = (*next_arg)++;
    } else if (v) {
        if (v - 1 >= *next_arg)
            return "argument handle out of range";
        e->args = (uint32_t)(v - 1);
    } else {
        e->args = 0;
    }
    /* handles are checked all the same: they number the records */
    if (no_args)
        e->args = 0;
    e->bytes = tt_rd_svarint(&col[COL_BYTES]);
    v = tt_rd_varint(&col[COL_KIND]);
    e->kind = (uint8_t)(v & 15);
    e->flags = (uint8_t)(v >> 4);
    if (e->kind > TT_EV_ASYNC || v >> 4 > (TT_EVF_UNCLOSED | TT_EVF_CLAMPED))
        return "bad event kind";
    return NULL;
}

/* Event i of the block (its predecessor p in the block decoded, or NULL). */
static const char *read_event(const tt_evb_decoding *d, blk_state *st, dec_job *j, tt_event *e,
                              const tt_event *p)
{
    const char *why;
    uint64_t v;
    int64_t u = st->unit;
    e->max_end = e->busy_upto = 0;
    e->name = tt_rd_u32(&st->col[COL_NAME]);
    if (e->name >= d->n_strings)
        return "id out of range";
    if ((why = tt_evb_read_time(&st->col[COL_START], &st->col[COL_DUR], st->start_mode,
                                st->dur_mode, p, u, last_dur(&j->names, e->name), e)) != NULL)
        return why;
    v = tt_rd_varint(&st->col[COL_CAT]);
    if (v > d->n_strings)
        return "id out of range";
    e->cat = v ? (uint32_t)(v - 1) : last_cat(&j->names, e->name);
    set_last(&j->names, e->name, e->dur, e->cat);
    e->attrs = tt_rd_u32(&st->col[COL_ATTRS]);
    if (e->attrs >= d->n_attrs)
        return "id out of range";
    if ((why = tt_evb_read_corr(&st->corr, &st->col[COL_CORR], &e->corr)) != NULL)
        return why;
    if ((why = tt_evb_read_rest(st->col, &st->next_arg, st->arg_end, d->hint, d->no_args, e)))
        return why;
    v = tt_rd_varint(&st->col[COL_DEPTH]);
    if (v > st->max_depth)
        return "depth beyond the lane's";
    e->depth = (uint16_t)v;
    return NULL;
}

/* dec_block()'s answer when a buffer cannot grow */
static const char no_memory[] = "out of memory";

static const char *dec_block(const tt_evb_decoding *d, dec_job *j, const tt_evb_block *b,
                             tt_event *out)
{
    const unsigned char *src = d->events + b->offset;
    blk_state st;
    tt_rd c;
    uint64_t m;
    size_t got;
    tt_ns max_end = INT64_MIN;

    if (crc(src, (size_t)b->stored) != b->crc)
        return "checksum mismatch";
    if (ZSTD_getFrameContentSize(src, (size_t)b->stored) != b->raw)
        return "size mismatch";
    if (b->raw > j->cap) {
        unsigned char *nb = realloc(j->buf, (size_t)b->raw);
        if (!nb)
            return no_memory;
        j->buf = nb;
        j->cap = (size_t)b->raw;
    }
    got = ZSTD_decompressDCtx(j->dc, j->buf, (size_t)b->raw, src, (size_t)b->stored);
    if (ZSTD_isError(got) || got != b->raw)
        return "does not decompress";
    memset(&st, 0, sizeof st);
    c.p = j->buf;
    c.end = j->buf + b->raw;
    c.bad = false;
    m = tt_rd_varint(&c);
    if (c.bad || m > 7)
        return "encoding";
    st.start_mode = (unsigned)(m & 1);
    st.dur_mode = (unsigned)(m >> 1 & 1);
    st.corr.match = (m >> 2 & 1) == CORR_MATCH;
    st.corr.seen = j->corr;
    st.corr.last_pos = -1;
    for (int k = 0; k < COL__COUNT; k++) {
        uint64_t len = tt_rd_varint(&c);
        if (c.bad || len > (uint64_t)(c.end - c.p) || len < b->n)
            return "column sizes";
        st.col[k].p = c.p;
        st.col[k].end = c.p + len;
        st.col[k].bad = false;
        c.p += len;
    }
    if (c.p != c.end)
        return "extra data";
    st.unit = d->ix->lanes[b->lane].unit;
    st.max_depth = d->ix->lanes[b->lane].max_depth;
    st.next_arg = b->arg_base;
    st.arg_end = b->arg_base + b->new_args;
    by_name_restart(&j->names, d->n_strings);
    for (uint32_t i = 0; i < b->n; i++) {
        const char *why = read_event(d, &st, j, &out[i], i ? &out[i - 1] : NULL);
        if (why)
            return why;
        if (tt_event_end(&out[i]) > max_end)
            max_end = tt_event_end(&out[i]);
    }
    for (int k = 0; k < COL__COUNT; k++)
        if (st.col[k].bad || st.col[k].p != st.col[k].end)
            return "its columns do not hold the events its index entry counts";
    if (out[0].start != b->first || out[b->n - 1].start != b->last || max_end != b->max_end)
        return "times differ from its index entry";
    if (st.next_arg != st.arg_end)
        return "argument records differ from its index entry";
    return NULL;
}

static void dec_work(void *ctx, size_t job)
{
    dec_ctx *x = ctx;
    const tt_evb_decoding *d = x->d;
    dec_job j;
    memset(&j, 0, sizeof j);
    if (by_name_init(&j.names, d->n_strings) ||
        !(j.corr = malloc((size_t)d->ix->per_block * sizeof *j.corr)) ||
        !(j.dc = ZSTD_createDCtx())) {
        atomic_store(&x->oom, 1);
    } else {
        for (size_t k = job; k < x->n_sel && !atomic_load(&x->oom); k += x->n_jobs) {
            /* every block is decoded even after a bad one, so that the
             * first bad one in sel order is named whatever the threads */
            const tt_evb_block *b = &d->ix->blocks[x->sel[k]];
            const char *why = dec_block(d, &j, b, d->tr->lanes[b->lane].ev + x->dest[k]);
            if (why == no_memory)
                atomic_store(&x->oom, 1);
            else if ((x->why[k] = why) != NULL)
                atomic_store(&x->bad, 1);
        }
    }
    by_name_fini(&j.names);
    free(j.corr);
    free(j.buf);
    ZSTD_freeDCtx(j.dc);
}

int tt_evb_decode(const tt_evb_decoding *d, const size_t *sel, const size_t *dest, size_t n_sel,
                  size_t *bad_block, const char **what)
{
    dec_ctx x;
    unsigned cores = d->threads ? d->threads : tt_parallel_cores();
    int rc = 0;
    if (n_sel == 0)
        return 0;
    memset(&x, 0, sizeof x);
    x.d = d;
    x.sel = sel;
    x.dest = dest;
    x.n_sel = n_sel;
    x.n_jobs = cores < n_sel ? cores : (unsigned)n_sel;
    atomic_init(&x.oom, 0);
    atomic_init(&x.bad, 0);
    if (!(x.why = calloc(n_sel, sizeof *x.why)))
        return -1;
    tt_parallel_run(x.n_jobs, x.n_jobs, dec_work, &x);
    if (atomic_load(&x.bad)) {
        for (size_t k = 0; k < n_sel; k++)
            if (x.why[k]) {
                *bad_block = sel[k];
                *what = x.why[k];
                rc = -2;
                break;
            }
    } else if (atomic_load(&x.oom)) {
        rc = -1;
    }
    free(x.why);
    return rc;
}
