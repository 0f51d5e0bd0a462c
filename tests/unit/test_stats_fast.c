/* test_stats_fast.c - large selections from summary levels (stats_fast.h,
 * selsum.h) against the walk over the events (tt_*_compute_walk).
 *
 * Every number must be the same, doubles bit for bit: the summary (events,
 * totals, busy per lane and over the lane set, first, last) and the
 * breakdown by every key the levels serve (name, category, opcode, lane,
 * layer: count, total, min, max, avg, median, stddev, share, row order).
 * The fast path is forced (it would decline small windows) and the normal
 * entry points are checked too. Windows: the whole trace, nothing (empty,
 * beyond the end), edges exactly on block boundaries and on event starts
 * and ends, a single event, zero-length events at an inclusive end, most
 * of the trace, random ones; every lane, single lanes and random subsets.
 * Traces: random ones built with the model builder (lanes longer than a
 * block, nesting, overlaps, equal starts, instants at the trace end) and
 * every trace under ../shared/traces that loads.
 *
 * The GPU time breakdown (gpu.h) and the transfers (transfers.h, by name,
 * lane and an argument) the same way: the cached ones of a whole lane set
 * (setsum.h) against the walk, field by field, on every window and lane
 * set above, each asked twice (built, then from the cache).
 *
 * Also: tt_dist's avg and stddev do not depend on the order of the values,
 * and moments survive removals exactly.
 */
#include "config.h"

#include "../tap.h"
#include "../xorshift.h"
#include "analysis/dist.h"
#include "analysis/gpu.h"
#include "analysis/setsum.h"
#include "analysis/selsum.h"
#include "analysis/stats.h"
#include "analysis/stats_fast.h"
#include "decode/decode.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static uint64_t rng = 0x5bd1e9955bd1e995ULL;
static uint64_t rnd(void)
{
    return tt_xorshift64(&rng);
}
static int64_t rint_(int64_t lo, int64_t hi)   /* [lo, hi] */
{
    return lo + (int64_t)(rnd() % (uint64_t)(hi - lo + 1));
}

static int fails, checks;
#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        checks++;                                                                                  \
        if (!(cond)) {                                                                             \
            if (fails++ < 20)                                                                      \
                diag(__VA_ARGS__);                                                                 \
        }                                                                                          \
    } while (0)

/* ---------------------------------------------------------- comparing */

static bool same_dist(const tt_dist *a, const tt_dist *b)
{
    return a->n == b->n && a->total == b->total && a->min == b->min && a->max == b->max &&
           memcmp(&a->avg, &b->avg, sizeof a->avg) == 0 &&
           memcmp(&a->median, &b->median, sizeof a->median) == 0 &&
           memcmp(&a->stddev, &b->stddev, sizeof a->stddev) == 0;
}

static bool same_summary(const tt_summary *a, const tt_summary *b)
{
    if (a->from != b->from || a->to != b->to || a->events != b->events ||
        a->total != b->total || a->total_clipped != b->total_clipped || a->busy != b->busy ||
        a->first != b->first || a->last != b->last || a->n_lanes != b->n_lanes)
        return false;
    for (size_t i = 0; i < a->n_lanes; i++) {
        const tt_lane_stat *x = &a->lanes[i], *y = &b->lanes[i];
        if (x->lane != y->lane || x->events != y->events || x->total != y->total ||
            x->total_clipped != y->total_clipped || x->busy != y->busy || x->first != y->first ||
            x->last != y->last)
            return false;
    }
    return true;
}

static bool same_breakdown(const tt_breakdown *a, const tt_breakdown *b)
{
    if (a->n != b->n || a->events != b->events || a->sum_total != b->sum_total)
        return false;
    for (size_t i = 0; i < a->n; i++) {
        const tt_brk_row *x = &a->rows[i], *y = &b->rows[i];
        if (strcmp(x->label, y->label) != 0 || x->none != y->none || x->id != y->id ||
            !same_dist(&x->d, &y->d) || memcmp(&x->share, &y->share, sizeof x->share) != 0)
            return false;
    }
    return true;
}

static const tt_key_kind KINDS[] = {TT_KEY_NAME, TT_KEY_CAT, TT_KEY_OPCODE, TT_KEY_LANE,
                                    TT_KEY_LAYER};

/* The GPU time breakdown, cached and walked; twice, so the second call of
 * a box holding everything answers from the cache. */
static void check_gpu(const tt_trace *tr, const tt_sel *sel, const char *label)
{
    tt_gpu_time w, c;
    tt_error err;
    tt_error_clear(&err);
    CHECK(tt_gpu_time_compute_walk(tr, sel, &w, &err) == 0, "%s: walk GPU time", label);
    for (int twice = 0; twice < 2; twice++) {
        CHECK(tt_gpu_time_compute(tr, sel, &c, &err) == 0, "%s: GPU time", label);
        CHECK(memcmp(&w, &c, sizeof w) == 0,
              "%s [%lld, %lld%s] (%d): GPU time differs: kernels %llu/%llu memcpys %llu/%llu "
              "first %lld/%lld last %lld/%lld busy %lld/%lld comp %lld/%lld comm %lld/%lld "
              "copy %lld/%lld exposed %lld/%lld %lld/%lld",
              label, (long long)sel->from, (long long)sel->to, sel->to_inclusive ? "]" : ")",
              twice, (unsigned long long)w.kernels, (unsigned long long)c.kernels,
              (unsigned long long)w.memcpys, (unsigned long long)c.memcpys,
              (long long)w.first, (long long)c.first, (long long)w.last, (long long)c.last,
              (long long)w.busy, (long long)c.busy, (long long)w.computation,
              (long long)c.computation, (long long)w.communication, (long long)c.communication,
              (long long)w.memcpy, (long long)c.memcpy, (long long)w.exposed_communication,
              (long long)c.exposed_communication, (long long)w.exposed_memcpy,
              (long long)c.exposed_memcpy);
    }
}

static bool same_xfer_row(const tt_xfer_row *a, const tt_xfer_row *b)
{
    return strcmp(a->label, b->label) == 0 && a->none == b->none && a->id == b->id &&
           same_dist(&a->bytes, &b->bytes) && a->busy == b->busy &&
           memcmp(&a->throughput, &b->throughput, sizeof a->throughput) == 0 &&
           memcmp(a->hist, b->hist, sizeof a->hist) == 0;
}

static bool same_transfers(const tt_transfers *a, const tt_transfers *b)
{
    if (a->n != b->n || !same_xfer_row(&a->all, &b->all))
        return false;
    for (size_t i = 0; i < a->n; i++)
        if (!same_xfer_row(&a->rows[i], &b->rows[i]))
            return false;
    return true;
}

/* Transfers by a few keys, cached and walked, twice each. */
static void check_transfers(const tt_trace *tr, const tt_sel *sel, const char *label)
{
    static const char *const XKEYS[] = {"name", "lane", "arg:stream"};
    for (size_t k = 0; k < sizeof XKEYS / sizeof XKEYS[0]; k++) {
        tt_key key;
        tt_error err;
        tt_transfers *w = NULL, *c = NULL;
        tt_error_clear(&err);
        tt_key_parse(XKEYS[k], &key, &err);
        CHECK(tt_transfers_compute_walk(tr, sel, &key, &w, &err) == 0, "%s: walk transfers",
              label);
        for (int twice = 0; twice < 2; twice++) {
            CHECK(tt_transfers_compute(tr, sel, &key, &c, &err) == 0, "%s: transfers", label);
            if (w && c)
                CHECK(same_transfers(w, c),
                      "%s [%lld, %lld%s] (%d): transfers by %s differ: %zu/%zu rows, "
                      "%llu/%llu transfers", label, (long long)sel->from, (long long)sel->to,
                      sel->to_inclusive ? "]" : ")", twice, XKEYS[k], w->n, c->n,
                      (unsigned long long)w->all.bytes.n, (unsigned long long)c->all.bytes.n);
            tt_transfers_free(c);
            c = NULL;
        }
        tt_transfers_free(w);
    }
}

/* Compare both paths on one selection. */
static void check_sel(const tt_trace *tr, const tt_sel *sel, const char *label)
{
    tt_summary *w = NULL, *f = NULL, *c = NULL;
    tt_error err;
    int r;
    tt_error_clear(&err);
    check_gpu(tr, sel, label);
    check_transfers(tr, sel, label);
    CHECK(tt_summary_compute_walk(tr, sel, &w, &err) == 0, "%s: walk summary", label);
    r = tt_summary_fast(tr, sel, true, &f, &err);
    CHECK(r == 1, "%s: fast summary answers when forced (%d)", label, r);
    CHECK(tt_summary_compute(tr, sel, &c, &err) == 0, "%s: summary", label);
    if (w && f)
        CHECK(same_summary(w, f),
              "%s [%lld, %lld%s]: summary differs: events %llu/%llu total %lld/%lld clipped "
              "%lld/%lld busy %lld/%lld first %lld/%lld last %lld/%lld",
              label, (long long)sel->from, (long long)sel->to, sel->to_inclusive ? "]" : ")",
              (unsigned long long)w->events, (unsigned long long)f->events, (long long)w->total,
              (long long)f->total, (long long)w->total_clipped, (long long)f->total_clipped,
              (long long)w->busy, (long long)f->busy, (long long)w->first, (long long)f->first,
              (long long)w->last, (long long)f->last);
    if (w && c)
        CHECK(same_summary(w, c), "%s: tt_summary_compute differs from the walk", label);
    tt_summary_free(w);
    tt_summary_free(f);
    tt_summary_free(c);
    for (size_t k = 0; k < sizeof KINDS / sizeof KINDS[0]; k++) {
        tt_key key;
        tt_breakdown *bw = NULL, *bf = NULL, *bc = NULL;
        memset(&key, 0, sizeof key);
        key.kind = KINDS[k];
        CHECK(tt_breakdown_compute_walk(tr, sel, &key, &bw, &err) == 0, "%s: walk breakdown",
              label);
        r = tt_breakdown_fast(tr, sel, &key, true, &bf, &err);
        CHECK(r == 1, "%s: fast breakdown answers when forced (%d)", label, r);
        CHECK(tt_breakdown_compute(tr, sel, &key, &bc, &err) == 0, "%s: breakdown", label);
        if (bw && bf) {
            bool same = same_breakdown(bw, bf);
            CHECK(same, "%s [%lld, %lld%s]: breakdown by key %d differs (%zu/%zu rows)", label,
                  (long long)sel->from, (long long)sel->to, sel->to_inclusive ? "]" : ")",
                  (int)key.kind, bw->n, bf->n);
            if (!same && fails < 5)
                for (size_t i = 0; i < bw->n && i < bf->n; i++)
                    diag("  row %zu: '%s' n %llu/%llu total %lld/%lld min %lld/%lld max "
                         "%lld/%lld med %.17g/%.17g sd %.17g/%.17g", i, bw->rows[i].label,
                         (unsigned long long)bw->rows[i].d.n,
                         (unsigned long long)bf->rows[i].d.n, (long long)bw->rows[i].d.total,
                         (long long)bf->rows[i].d.total, (long long)bw->rows[i].d.min,
                         (long long)bf->rows[i].d.min, (long long)bw->rows[i].d.max,
                         (long long)bf->rows[i].d.max, bw->rows[i].d.median,
                         bf->rows[i].d.median, bw->rows[i].d.stddev, bf->rows[i].d.stddev);
        }
        if (bw && bc)
            CHECK(same_breakdown(bw, bc), "%s: tt_breakdown_compute differs from the walk",
                  label);
        tt_breakdown_free(bw);
        tt_breakdown_free(bf);
        tt_breakdown_free(bc);
    }
}

/* A random event of a non-empty lane, or NULL. */
static const tt_event *some_event(const tt_trace *tr, uint32_t *lane)
{
    for (int tries = 0; tries < 20 && tr->n_lanes; tries++) {
        uint32_t l = (uint32_t)(rnd() % tr->n_lanes);
        if (tr->lanes[l].n) {
            *lane = l;
            return &tr->lanes[l].ev[rnd() % tr->lanes[l].n];
        }
    }
    return NULL;
}

/* The windows listed at the top, each over every lane, one lane and a
 * random subset. */
static void check_windows(const tt_trace *tr, int n_random, const char *label)
{
    tt_sel base, sel;
    tt_laneset one, some;
    char what[300];
    int n_win = 0;
    tt_sel wins[64];
    const tt_event *e;
    uint32_t lane;
    tt_ns span = tr->t1 - tr->t0;

    memset(&base, 0, sizeof base);
    tt_sel_window(tr, NULL, &base);   /* the whole trace, inclusive end */
    wins[n_win++] = base;
    sel = base;
    sel.to_inclusive = false;         /* whole, but the instants at the end left out */
    wins[n_win++] = sel;
    sel.from = sel.to = tr->t1;       /* nothing but the instants at the end */
    sel.to_inclusive = true;
    wins[n_win++] = sel;
    sel.to_inclusive = false;         /* nothing at all */
    wins[n_win++] = sel;
    sel.from = tr->t1 + 10;           /* beyond the end */
    sel.to = tr->t1 + 20;
    wins[n_win++] = sel;
    sel.from = tr->t0 - 20;           /* before the start, touching it */
    sel.to = tr->t0;
    wins[n_win++] = sel;
    sel.from = tr->t0 + span / 20;    /* most of the trace */
    sel.to = tr->t1 - span / 20;
    wins[n_win++] = sel;
    sel.from = tr->t0 + 1;
    sel.to = tr->t1 - 1;
    wins[n_win++] = sel;
    for (uint32_t l = 0; l < tr->n_lanes && n_win < 24; l++) {
        const tt_lane *ln = &tr->lanes[l];
        if (ln->n > TT_SS_BLOCK * 2) {
            /* edges on block boundaries of the position ranges */
            sel.from = ln->ev[TT_SS_BLOCK].start;
            sel.to = ln->ev[ln->n - TT_SS_BLOCK].start;
            sel.to_inclusive = rnd() % 2;
            wins[n_win++] = sel;
            sel.from = ln->ev[TT_SS_BLOCK - 1].start;
            sel.to = ln->ev[2 * TT_SS_BLOCK].start;
            wins[n_win++] = sel;
        }
    }
    for (int i = 0; i < 6 && n_win < 40; i++) {
        if (!(e = some_event(tr, &lane)))
            break;
        sel.from = e->start;              /* a single event, exactly */
        sel.to = tt_event_end(e);
        sel.to_inclusive = e->dur == 0;
        wins[n_win++] = sel;
        sel.from = tr->t0;                /* ending where an event starts, inclusive */
        sel.to = e->start;
        sel.to_inclusive = true;
        wins[n_win++] = sel;
        sel.from = tt_event_end(e);       /* starting where it ends */
        sel.to = tr->t1;
        sel.to_inclusive = rnd() % 2;
        wins[n_win++] = sel;
    }
    for (int i = 0; i < n_random && n_win < 64; i++) {
        tt_ns a = tr->t0 + (span > 0 ? (tt_ns)(rnd() % (uint64_t)(span + 1)) : 0) - 5;
        tt_ns b = tr->t0 + (span > 0 ? (tt_ns)(rnd() % (uint64_t)(span + 1)) : 0) + 5;
        sel.from = a < b ? a : b;
        sel.to = a < b ? b : a;
        sel.to_inclusive = rnd() % 2;
        wins[n_win++] = sel;
    }
    tt_laneset_init(&one);
    tt_laneset_init(&some);
    for (int w = 0; w < n_win; w++) {
        sel = wins[w];
        sel.lanes = NULL;
        snprintf(what, sizeof what, "%s window %d, every lane", label, w);
        check_sel(tr, &sel, what);
        if (tr->n_lanes == 0)
            continue;
        one.n = 0;
        tt_laneset_add(&one, (uint32_t)(rnd() % tr->n_lanes));
        tt_sel_lanes(&sel, &one);
        snprintf(what, sizeof what, "%s window %d, lane %u", label, w, one.v[0]);
        check_sel(tr, &sel, what);
        some.n = 0;
        for (uint32_t l = 0; l < tr->n_lanes; l++)
            if (rnd() % 2)
                tt_laneset_add(&some, l);
        tt_sel_lanes(&sel, &some);
        snprintf(what, sizeof what, "%s window %d, %zu lanes", label, w, some.n);
        check_sel(tr, &sel, what);
    }
    tt_laneset_fini(&one);
    tt_laneset_fini(&some);
}

/* ------------------------------------------------------ random traces */

static const char *const NAMES[] = {"matmul", "conv", "nccl", "memcpy", "relu", "", "step"};
static const char *const CATS[] = {"kernel", "cpu_op", "", "gpu_memcpy"};

static void push(tt_trace *tr, uint32_t lane, tt_ns start, tt_ns dur)
{
    int64_t i = tt_trace_push_event(tr, lane);
    tt_event *e = &tr->lanes[lane].ev[i];
    tt_attr_tuple at = {0, 0, 0};
    e->start = start;
    e->dur = dur;
    e->name = tt_trace_intern_cstr(tr, NAMES[rnd() % (sizeof NAMES / sizeof NAMES[0])]);
    e->cat = tt_trace_intern_cstr(tr, CATS[rnd() % (sizeof CATS / sizeof CATS[0])]);
    e->bytes = rnd() % 4 ? -1 : (int64_t)(rnd() % 100000);   /* some transfers */
    if (rnd() % 2) {
        at.opcode = tt_trace_intern_cstr(tr, rnd() % 2 ? "ADD" : "MUL");
        at.layer = tt_trace_intern_cstr(tr, rnd() % 3 ? "l1" : "l2");
        e->attrs = tt_attrs_intern(tr->attrs, at);
    }
}

static tt_trace *random_trace(int max_events)
{
    tt_trace *tr = tt_trace_new();
    tt_error err;
    int nl = (int)rint_(1, 5);
    tt_ns span = rint_(50, 200000), end = 0;
    uint32_t g = tt_trace_group(tr, tt_trace_intern_cstr(tr, "1"));
    uint32_t lanes[5];
    for (int l = 0; l < nl; l++) {
        char key[16];
        int n = rnd() % 5 == 0 ? 0 : (int)rint_(1, max_events);
        bool async = rnd() % 3 == 0;
        snprintf(key, sizeof key, "%d", l);
        lanes[l] = tt_trace_lane(tr, g, tt_trace_intern_cstr(tr, key),
                                 async ? TT_LANE_ASYNC : TT_LANE_THREAD);
        for (int k = 0; k < n; k++) {
            tt_ns s = rint_(0, span), d;
            switch (rnd() % 8) {
            case 0: d = 0; break;                                   /* instants */
            case 1: d = rint_(span / 4, span); break;               /* long, overlapping */
            case 2: s = s / 50 * 50; d = rint_(0, 100); break;      /* equal starts */
            default: d = rint_(1, 1 + span / 100); break;
            }
            push(tr, lanes[l], s, d);
            if (s + d > end)
                end = s + d;
        }
    }
    /* instants at the very end of the trace */
    for (int k = (int)rint_(0, 3); k > 0; k--)
        push(tr, lanes[rnd() % (uint64_t)nl], end, 0);
    tt_error_clear(&err);
    if (tt_trace_finalize(tr, &err)) {
        tt_trace_free(tr);
        return NULL;
    }
    return tr;
}

/* ------------------------------------------------------- real traces */

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular file under dir, recursively, sorted; *n of them. */
static void list_files(const char *dir, char ***out, size_t *n, size_t *cap)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    if (!d)
        return;
    while ((e = readdir(d))) {
        char path[2048];
        struct stat st;
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (stat(path, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode)) {
            list_files(path, out, n, cap);
        } else if (S_ISREG(st.st_mode) && !strstr(e->d_name, ".md")) {
            if (*n == *cap) {
                *cap = *cap ? *cap * 2 : 64;
                *out = realloc(*out, *cap * sizeof **out);
            }
            (*out)[(*n)++] = strdup(path);
        }
    }
    closedir(d);
}

static void check_real_traces(void)
{
    const char *srcdir = getenv("srcdir");
    char dir[1024];
    char **files = NULL;
    size_t n = 0, cap = 0;
    int loaded = 0;
    if (!srcdir)
        srcdir = ".";
    snprintf(dir, sizeof dir, "%s/../shared/traces", srcdir);
    list_files(dir, &files, &n, &cap);
    if (n == 0) {
        ok(1, "# SKIP ../shared/traces is absent");
        return;
    }
    qsort(files, n, sizeof *files, cmp_str);
    for (size_t i = 0; i < n; i++) {
        tt_load_opts o;
        tt_trace *tr = NULL;
        tt_error err;
        int before = fails;
        memset(&o, 0, sizeof o);
        tt_error_clear(&err);
        if (tt_load(files[i], &o, &tr, NULL, &err) == 0) {
            loaded++;
            check_windows(tr, 4, files[i] + strlen(dir) + 1);
            ok(fails == before, "%s: %llu events, every window the same both ways",
               files[i] + strlen(dir) + 1, (unsigned long long)tr->n_events);
        }
        tt_trace_free(tr);
        free(files[i]);
    }
    free(files);
    ok(loaded >= 20, "%d real traces compared", loaded);
}

/* ------------------------------------------------------------ moments */

static void check_moments(void)
{
    int bad = 0;
    for (int t = 0; t < 300; t++) {
        size_t n = (size_t)rint_(1, 200);
        int64_t v[200], w[200];
        tt_dist a, b;
        tt_moments m, r;
        int64_t scale = rnd() % 4 == 0 ? (int64_t)1 << 50 : rnd() % 2 ? 1000000 : 10;
        int64_t base = rnd() % 3 == 0 ? (int64_t)1 << 40 : 0;
        memset(&m, 0, sizeof m);
        for (size_t i = 0; i < n; i++) {
            v[i] = base + rint_(0, scale);
            w[i] = v[i];
            tt_moments_add(&m, v[i]);
        }
        for (size_t i = n; i > 1; i--) {   /* shuffle */
            size_t j = rnd() % i;
            int64_t x = w[i - 1];
            w[i - 1] = w[j];
            w[j] = x;
        }
        tt_dist_compute(v, n, &a);
        tt_dist_compute(w, n, &b);
        bad += !same_dist(&a, &b);
        /* add and take out extra values: the moments come back exactly */
        r = m;
        for (int k = 0; k < 20; k++)
            tt_moments_add(&r, rint_(0, (int64_t)1 << 62));
        bad += memcmp(&r, &m, sizeof m) == 0;   /* they did change */
        memset(&r, 0, sizeof r);
        for (size_t i = 0; i < n; i++)
            tt_moments_add(&r, w[i]);
        for (int k = 0; k < 5; k++) {
            int64_t x = rint_(0, (int64_t)1 << 62);
            tt_moments_add(&r, x);
            tt_moments_remove(&r, x);
        }
        bad += memcmp(&r, &m, sizeof m) != 0;
    }
    ok(bad == 0, "avg and stddev do not depend on the order of the values; removals are exact "
       "(%d bad)", bad);
}

/* A box over the whole trace that leaves out the one instant at its end
 * (a TUI box ends there, exclusive) is still answered from the levels,
 * although that instant is half of its short lane's events. */
static void check_box_with_short_lane(void)
{
    tt_trace *tr = tt_trace_new();
    uint32_t g = tt_trace_group(tr, tt_trace_intern_cstr(tr, "1"));
    uint32_t big = tt_trace_lane(tr, g, tt_trace_intern_cstr(tr, "1"), TT_LANE_THREAD);
    uint32_t small = tt_trace_lane(tr, g, tt_trace_intern_cstr(tr, "2"), TT_LANE_THREAD);
    tt_breakdown *b = NULL;
    tt_error err;
    tt_sel sel;
    tt_key key;
    for (int i = 0; i < 1000; i++)
        push(tr, big, 10 * i, 5);
    push(tr, small, 0, 3);
    push(tr, small, 9995, 0);   /* at the trace's end */
    tt_error_clear(&err);
    tt_trace_finalize(tr, &err);
    memset(&sel, 0, sizeof sel);
    tt_sel_window(tr, NULL, &sel);
    sel.to_inclusive = false;
    memset(&key, 0, sizeof key);
    key.kind = TT_KEY_NAME;
    ok(tt_selsum_memory(tr) == 0 && tt_breakdown_compute(tr, &sel, &key, &b, &err) == 0 &&
       tt_selsum_memory(tr) > 0 && b->events == 1001,
       "a whole-trace box leaving out a short lane's instant at the end uses the levels");
    tt_breakdown_free(b);
    tt_trace_free(tr);
}

/* The GPU time of a box over the whole trace comes from the cache; a
 * window cutting into the GPU events is declined (and walked). */
static void check_gpu_cache(void)
{
    tt_trace *tr = random_trace(300);
    tt_gpu_time w, c;
    tt_error err;
    tt_sel sel;
    tt_error_clear(&err);
    memset(&sel, 0, sizeof sel);
    if (!tr) {
        ok(0, "a random trace builds");
        return;
    }
    tt_sel_window(tr, NULL, &sel);
    ok(tt_gpu_time_compute_walk(tr, &sel, &w, &err) == 0 && w.kernels > 0 &&
       tt_setsum_gpu(tr, &sel, &c, &err) == 1 && memcmp(&w, &c, sizeof w) == 0,
       "the whole trace's GPU time is answered from the cache, as the walk has it");
    {
        tt_transfers *xw = NULL, *xc = NULL;
        tt_key key;
        tt_key_parse("name", &key, &err);
        ok(tt_transfers_compute_walk(tr, &sel, &key, &xw, &err) == 0 && xw->all.bytes.n > 0 &&
           tt_setsum_transfers(tr, &sel, &key, &xc, &err) == 1 && same_transfers(xw, xc),
           "the whole trace's transfers are answered from the cache, as the walk has them");
        tt_transfers_free(xc);
        tt_transfers_free(xw);
        xc = xw = NULL;
        /* the TUI's box over the whole trace: the instants at the end
         * left out, answered from a cache of its own */
        sel.to_inclusive = false;
        ok(tt_transfers_compute_walk(tr, &sel, &key, &xw, &err) == 0 &&
           tt_setsum_transfers(tr, &sel, &key, &xc, &err) == 1 && same_transfers(xw, xc),
           "the whole trace's transfers, ending exclusive, are answered as the walk has them");
        tt_transfers_free(xc);
        tt_transfers_free(xw);
        xc = xw = NULL;
        {
            tt_gpu_time we, ce;
            ok(tt_gpu_time_compute_walk(tr, &sel, &we, &err) == 0 &&
               tt_setsum_gpu(tr, &sel, &ce, &err) == 1 && memcmp(&we, &ce, sizeof we) == 0,
               "the whole trace's GPU time, ending exclusive, is answered as the walk has it");
        }
        sel.from = tr->t0 + 1;      /* cutting into the first event: declined */
        ok(tt_setsum_transfers(tr, &sel, &key, &xc, &err) == 0 && !xc,
           "transfers of a window not holding every event whole are declined");
        sel.from = tr->t0;
        sel.to_inclusive = true;
    }
    sel.from = w.first + 1;
    ok(tt_setsum_gpu(tr, &sel, &c, &err) == 0,
       "a window leaving out the start of the first GPU event is declined");
    tt_trace_free(tr);
}

int main(void)
{
    check_gpu_cache();
    check_moments();
    check_box_with_short_lane();
    for (int t = 0; t < 40; t++) {
        tt_trace *tr = random_trace(t % 3 == 0 ? 3000 : t % 3 == 1 ? 300 : 40);
        char label[64];
        int before = fails;
        snprintf(label, sizeof label, "random trace %d", t);
        if (!tr) {
            ok(0, "%s builds", label);
            continue;
        }
        check_windows(tr, 8, label);
        ok(fails == before, "%s (%llu events): every window the same both ways", label,
           (unsigned long long)tr->n_events);
        tt_trace_free(tr);
    }
    check_real_traces();
    ok(fails == 0, "%d comparisons, %d differ", checks, fails);
    return tap_done();
}
