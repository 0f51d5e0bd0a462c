/* test_stats.c - selection statistics against brute force.
 *
 * Random traces are built with the model builder (several groups and
 * lanes, nested and overlapping slices, zero-length events, transfers with
 * bytes, kernels/copies/memsets with collective names, opcodes, layers and
 * JSON arguments). For random windows and lane subsets every number of
 * tt_summary, tt_breakdown (every key), tt_transfers, tt_gpu_time and
 * tt_sel_events is compared with a direct computation from the definitions:
 * events are tested one by one without the index, union lengths are counted
 * nanosecond by nanosecond, medians come from a full sort.
 *
 * Also: dist definitions (nsys's sample stddev, checked against numbers
 * nsys printed), window and key parsing, lane patterns, interval lists,
 * the classifier tables and rank detection from file names.
 */
#include "config.h"

#include "../tap.h"
#include "../xorshift.h"
#include "analysis/classify.h"
#include "analysis/dist.h"
#include "analysis/gpu.h"
#include "analysis/intervals.h"
#include "analysis/stats.h"
#include "analysis/transfers.h"
#include "cli/cli.h"
#include "report/report.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 0x9d2c5680a1b2c3d4ULL;
static uint64_t rnd(void)
{
    return tt_xorshift64(&rng);
}
static int64_t rint_(int64_t lo, int64_t hi)   /* [lo, hi] */
{
    return lo + (int64_t)(rnd() % (uint64_t)(hi - lo + 1));
}

static int fails;   /* failures in the random part (reported in bulk) */
#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            if (fails++ < 20)                                                                      \
                diag(__VA_ARGS__);                                                                 \
        }                                                                                          \
    } while (0)

static bool near(double a, double b)
{
    double d = fabs(a - b), m = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
    return d <= 1e-9 * (m > 1 ? m : 1);
}

/* ------------------------------------------------------ random traces */

static const char *const NAMES[] = {"matmul", "conv", "ncclKernel_AllReduce_RING",
                                    "Memcpy HtoD (Pageable -> Device)", "Memset (Device)",
                                    "relu", "", "c10d::allgather_"};
/* categories and the class the test expects for them */
static const struct {
    const char  *cat;
    tt_cat_class cls;
} CATS[] = {
    {"kernel", TT_CAT_KERNEL}, {"Kernel", TT_CAT_KERNEL},      {"gpu_memcpy", TT_CAT_MEMCPY},
    {"Memcpy", TT_CAT_MEMCPY}, {"gpu_memset", TT_CAT_MEMSET},  {"cpu_op", TT_CAT_OTHER},
    {"", TT_CAT_OTHER},        {"cuda_runtime", TT_CAT_OTHER},
};
#define NNAMES (sizeof NAMES / sizeof NAMES[0])
#define NCATS (sizeof CATS / sizeof CATS[0])

static bool name_is_collective(const char *n)
{
    return strstr(n, "nccl") != NULL || strstr(n, "c10d") != NULL;
}

static tt_cat_class cat_class(const char *c)
{
    for (size_t i = 0; i < NCATS; i++)
        if (strcmp(CATS[i].cat, c) == 0)
            return CATS[i].cls;
    return TT_CAT_OTHER;
}

#define SPAN 3000

static tt_trace *random_trace(void)
{
    tt_trace *tr = tt_trace_new();
    tt_error err;
    int ng = (int)rint_(1, 3);
    for (int g = 0; g < ng; g++) {
        char key[32], name[32];
        uint32_t gi;
        int nl = (int)rint_(1, 4);
        snprintf(key, sizeof key, "%d", g);
        snprintf(name, sizeof name, "proc %d", g);
        gi = tt_trace_group(tr, tt_trace_intern_cstr(tr, key));
        tr->groups[gi].name = tt_trace_intern_cstr(tr, name);
        for (int l = 0; l < nl; l++) {
            uint32_t li;
            int n = (int)rint_(0, 4) == 0 ? 0 : (int)rint_(1, 60);
            snprintf(key, sizeof key, "%d", l);
            snprintf(name, sizeof name, "stream %d", l);
            li = tt_trace_lane(tr, gi, tt_trace_intern_cstr(tr, key),
                               rnd() % 3 ? TT_LANE_THREAD : TT_LANE_ASYNC);
            tr->lanes[li].name = tt_trace_intern_cstr(tr, name);
            for (int k = 0; k < n; k++) {
                int64_t i = tt_trace_push_event(tr, li);
                tt_event *e = &tr->lanes[li].ev[i];
                tt_attr_tuple at = {0, 0, 0};
                e->start = rint_(0, SPAN);
                e->dur = rnd() % 7 == 0 ? 0 : rint_(1, rnd() % 10 == 0 ? 1500 : 200);
                if (rnd() % 40 == 0)
                    e->start = e->start / 100 * 100;   /* equal starts */
                e->name = tt_trace_intern_cstr(tr, NAMES[rnd() % NNAMES]);
                e->cat = tt_trace_intern_cstr(tr, CATS[rnd() % NCATS].cat);
                e->bytes = rnd() % 3 == 0 ? rint_(0, 70000) : -1;
                if (rnd() % 2) {
                    at.opcode = tt_trace_intern_cstr(tr, rnd() % 2 ? "ADD" : "MUL");
                    at.layer = tt_trace_intern_cstr(tr, rnd() % 2 ? "l1" : "l2");
                    e->attrs = tt_attrs_intern(tr->attrs, at);
                }
                switch (rnd() % 5) {
                case 0: {
                    char a[64];
                    int len = snprintf(a, sizeof a, "{\"k\": %d, \"s\": \"v%d\"}",
                                       (int)(rnd() % 4), (int)(rnd() % 3));
                    e->args = tt_args_add(tr->args, a, (size_t)len, NULL, 0);
                    break;
                }
                case 1:
                    e->args = tt_args_add(tr->args, "{\"k\": \"x\", \"o\": [1, 2]}", 24,
                                          "{\"k2\": true}", 12);
                    break;
                case 2:
                    e->args = tt_args_add(tr->args, "{\"s\": \"v1\"}", 11, NULL, 0);
                    break;
                default:
                    break;
                }
            }
        }
    }
    tt_error_clear(&err);
    if (tt_trace_finalize(tr, &err)) {
        tt_trace_free(tr);
        return NULL;
    }
    return tr;
}

/* ------------------------------------------------------- brute force */

static bool lane_selected(const tt_sel *sel, uint32_t lane)
{
    if (!sel->lanes)
        return true;
    for (size_t i = 0; i < sel->n_lanes; i++)
        if (sel->lanes[i] == lane)
            return true;
    return false;
}

static bool in_window(const tt_sel *sel, const tt_event *e)
{
    if (sel->to_inclusive && e->dur == 0 && e->start == sel->to)
        return true;
    if (sel->from >= sel->to)
        return false;   /* an empty window holds nothing */
    if (e->dur == 0)
        return (e->start >= sel->from && e->start < sel->to) ||
               (sel->to_inclusive && e->start == sel->to);
    return e->start < sel->to && e->start + e->dur > sel->from;
}

static tt_ns clip_len(const tt_sel *sel, const tt_event *e)
{
    tt_ns s = e->start > sel->from ? e->start : sel->from;
    tt_ns t = e->start + e->dur < sel->to ? e->start + e->dur : sel->to;
    return t > s ? t - s : 0;
}

/* Unit cells over [lo, hi): marks count per cell. */
typedef struct cells {
    tt_ns          lo, hi;
    unsigned char *m;
} cells;

static void cells_init(cells *c, tt_ns lo, tt_ns hi)
{
    c->lo = lo;
    c->hi = hi > lo ? hi : lo;
    c->m = calloc((size_t)(c->hi - c->lo) + 1, 1);
}

static void cells_mark(cells *c, tt_ns s, tt_ns e, unsigned char bit)
{
    for (tt_ns t = s < c->lo ? c->lo : s; t < e && t < c->hi; t++)
        c->m[t - c->lo] |= bit;
}

/* cells whose marks have all bits of `all` and none of `none` */
static tt_ns cells_count(const cells *c, unsigned char all, unsigned char none)
{
    tt_ns n = 0;
    for (tt_ns t = c->lo; t < c->hi; t++) {
        unsigned char v = c->m[t - c->lo];
        if ((v & all) == all && !(v & none) && v)
            n++;
    }
    return n;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Reference distribution: sort, then the textbook formulas. */
static void ref_dist(int64_t *v, size_t n, tt_dist *d)
{
    long double sum = 0, ss = 0, mean;
    memset(d, 0, sizeof *d);
    if (!n)
        return;
    qsort(v, n, sizeof *v, cmp_i64);
    d->n = n;
    d->min = v[0];
    d->max = v[n - 1];
    for (size_t i = 0; i < n; i++) {
        d->total += v[i];
        sum += v[i];
    }
    mean = sum / n;
    d->avg = (double)mean;
    for (size_t i = 0; i < n; i++)
        ss += (v[i] - mean) * (v[i] - mean);
    d->stddev = n > 1 ? (double)sqrtl(ss / (n - 1)) : 0;
    d->median = n % 2 ? (double)v[n / 2] : ((double)v[n / 2 - 1] + (double)v[n / 2]) / 2;
}

static bool same_dist(const tt_dist *a, const tt_dist *b)
{
    return a->n == b->n && a->total == b->total && a->min == b->min && a->max == b->max &&
           near(a->avg, b->avg) && a->median == b->median && near(a->stddev, b->stddev);
}

/* Label of an event under a key, computed without analysis/key.c; returns
 * false for the none group. */
static bool ref_label(const tt_trace *tr, const tt_key *k, uint32_t lane, const tt_event *e,
                      char *buf, size_t n)
{
    const char *s = "";
    tt_attr_tuple at = tt_attrs_get(tr->attrs, e->attrs);
    switch (k->kind) {
    case TT_KEY_NAME: s = tt_str(tr, e->name); break;
    case TT_KEY_CAT: s = tt_str(tr, e->cat); break;
    case TT_KEY_OPCODE: s = tt_str(tr, at.opcode); break;
    case TT_KEY_LAYER: s = tt_str(tr, at.layer); break;
    case TT_KEY_LANE:
        tt_lane_fullname(tr, lane, buf, n);
        return true;
    case TT_KEY_ARG: {
        tt_args_reader rd;
        const char *a, *x;
        size_t an, xn;
        bool found = false;
        buf[0] = '\0';
        if (!e->args)
            return false;
        tt_args_reader_init(&rd, tr->args);
        if (tt_args_read(&rd, e->args, &a, &an, &x, &xn) == 0) {
            cJSON *oa = an ? cJSON_ParseWithLength(a, an) : NULL;
            cJSON *ox = xn ? cJSON_ParseWithLength(x, xn) : NULL;
            cJSON *it = oa ? cJSON_GetObjectItemCaseSensitive(oa, k->arg) : NULL;
            if (!it && ox)
                it = cJSON_GetObjectItemCaseSensitive(ox, k->arg);
            if (it) {
                found = true;
                if (cJSON_IsString(it)) {
                    snprintf(buf, n, "%s", it->valuestring);
                } else {
                    char *p = cJSON_PrintUnformatted(it);
                    snprintf(buf, n, "%s", p);
                    free(p);
                }
            }
            cJSON_Delete(oa);
            cJSON_Delete(ox);
        }
        tt_args_reader_fini(&rd);
        return found;
    }
    }
    snprintf(buf, n, "%s", s);
    return *s != '\0';
}

/* ----------------------------------------------------------- checks */

static void check_summary(const tt_trace *tr, const tt_sel *sel)
{
    tt_summary *s;
    tt_error err;
    cells all;
    uint64_t events = 0;
    tt_ns total = 0, clipped = 0;
    bool any = false;
    tt_ns first = 0, last = 0;
    size_t li = 0;

    if (tt_summary_compute(tr, sel, &s, &err)) {
        CHECK(0, "summary failed: %s", err.what);
        return;
    }
    cells_init(&all, sel->from, sel->to);
    for (uint32_t l = 0; l < tr->n_lanes; l++) {
        const tt_lane *ln = &tr->lanes[l];
        cells one;
        uint64_t le = 0;
        tt_ns lt = 0, lc = 0, lf = 0, ll = 0;
        if (!lane_selected(sel, l))
            continue;
        cells_init(&one, sel->from, sel->to);
        for (size_t i = 0; i < ln->n; i++) {
            const tt_event *e = &ln->ev[i];
            tt_ns cs, ce;
            /* busy counts every event, whatever the window test says */
            cells_mark(&one, e->start, e->start + e->dur, 1);
            cells_mark(&all, e->start, e->start + e->dur, 1);
            if (!in_window(sel, e))
                continue;
            cs = e->start > sel->from ? e->start : sel->from;
            ce = e->start + e->dur < sel->to ? e->start + e->dur : sel->to;
            if (ce < cs)
                ce = cs;
            if (le == 0 || cs < lf)
                lf = cs;
            if (le == 0 || ce > ll)
                ll = ce;
            le++;
            lt += e->dur;
            lc += clip_len(sel, e);
        }
        CHECK(li < s->n_lanes && s->lanes[li].lane == l, "lane order");
        if (li < s->n_lanes) {
            const tt_lane_stat *st = &s->lanes[li];
            CHECK(st->events == le, "lane %u events %llu want %llu", l,
                  (unsigned long long)st->events, (unsigned long long)le);
            CHECK(st->total == lt && st->total_clipped == lc, "lane %u totals", l);
            CHECK(st->busy == cells_count(&one, 1, 0), "lane %u busy %lld want %lld", l,
                  (long long)st->busy, (long long)cells_count(&one, 1, 0));
            CHECK(le == 0 || (st->first == lf && st->last == ll), "lane %u first/last", l);
        }
        if (le) {
            if (!any || lf < first)
                first = lf;
            if (!any || ll > last)
                last = ll;
            any = true;
        }
        events += le;
        total += lt;
        clipped += lc;
        li++;
        free(one.m);
    }
    CHECK(s->n_lanes == li, "lane count %zu want %zu", s->n_lanes, li);
    CHECK(s->events == events, "events %llu want %llu", (unsigned long long)s->events,
          (unsigned long long)events);
    CHECK(s->total == total && s->total_clipped == clipped, "totals");
    CHECK(s->busy == cells_count(&all, 1, 0), "union busy %lld want %lld", (long long)s->busy,
          (long long)cells_count(&all, 1, 0));
    CHECK(!any || (s->first == first && s->last == last), "first/last");
    free(all.m);
    tt_summary_free(s);
}

typedef struct ref_group {
    char     label[128];
    bool     none;
    int64_t *v;
    size_t   n;
    /* transfers */
    cells    busy;
    uint64_t hist[TT_XFER_BUCKETS];
} ref_group;

static ref_group *find_group(ref_group *g, size_t *n, const char *label, bool none)
{
    for (size_t i = 0; i < *n; i++)
        if (g[i].none == none && strcmp(g[i].label, label) == 0)
            return &g[i];
    memset(&g[*n], 0, sizeof g[*n]);
    snprintf(g[*n].label, sizeof g[*n].label, "%s", label);
    g[*n].none = none;
    g[*n].v = malloc(4096 * sizeof(int64_t));
    return &g[(*n)++];
}

static void check_breakdown(const tt_trace *tr, const tt_sel *sel, const tt_key *key)
{
    tt_breakdown *b;
    tt_error err;
    ref_group g[256];
    size_t ng = 0;
    tt_ns sum = 0;
    char kb[64];

    if (tt_breakdown_compute(tr, sel, key, &b, &err)) {
        CHECK(0, "breakdown failed: %s", err.what);
        return;
    }
    for (uint32_t l = 0; l < tr->n_lanes; l++) {
        const tt_lane *ln = &tr->lanes[l];
        if (!lane_selected(sel, l))
            continue;
        for (size_t i = 0; i < ln->n; i++) {
            char label[128];
            bool has;
            ref_group *rg;
            if (!in_window(sel, &ln->ev[i]))
                continue;
            has = ref_label(tr, key, l, &ln->ev[i], label, sizeof label);
            rg = find_group(g, &ng, has ? label : "", !has);
            rg->v[rg->n++] = clip_len(sel, &ln->ev[i]);
            sum += clip_len(sel, &ln->ev[i]);
        }
    }
    tt_key_str(key, kb, sizeof kb);
    CHECK(b->n == ng, "by %s: %zu groups want %zu", kb, b->n, ng);
    CHECK(b->sum_total == sum, "by %s: sum of totals", kb);
    for (size_t i = 0; i < ng; i++) {
        tt_dist want;
        const tt_brk_row *row = NULL;
        ref_dist(g[i].v, g[i].n, &want);
        for (size_t r = 0; r < b->n; r++)
            if (b->rows[r].none == g[i].none && strcmp(b->rows[r].label, g[i].label) == 0)
                row = &b->rows[r];
        CHECK(row != NULL, "by %s: group '%s' missing", kb, g[i].label);
        if (row) {
            CHECK(same_dist(&row->d, &want),
                  "by %s: group '%s' n %llu/%llu total %lld/%lld med %g/%g sd %g/%g", kb,
                  g[i].label, (unsigned long long)row->d.n, (unsigned long long)want.n,
                  (long long)row->d.total, (long long)want.total, row->d.median, want.median,
                  row->d.stddev, want.stddev);
            CHECK(near(row->share, sum ? 100.0 * (double)want.total / (double)sum : 0),
                  "by %s: share", kb);
        }
        free(g[i].v);
    }
    for (size_t r = 1; r < b->n; r++)
        CHECK(b->rows[r - 1].d.total >= b->rows[r].d.total, "by %s: sorted by total", kb);
    tt_breakdown_free(b);
}

static int bucket_of(int64_t b)   /* independent of tt_xfer_bucket */
{
    int k = 0;
    while (k < 63 && b >= ((int64_t)1 << k))
        k++;
    return k;   /* b in [2^(k-1), 2^k), 0 for b == 0 */
}

static void check_transfers(const tt_trace *tr, const tt_sel *sel, const tt_key *key)
{
    tt_transfers *t;
    tt_error err;
    ref_group g[256];
    size_t ng = 0;
    int64_t *allv = malloc(20000 * sizeof *allv);
    size_t nall = 0;
    cells allbusy;
    char kb[64];

    if (tt_transfers_compute(tr, sel, key, &t, &err)) {
        CHECK(0, "transfers failed: %s", err.what);
        free(allv);
        return;
    }
    cells_init(&allbusy, -10, SPAN + 2000);
    for (uint32_t l = 0; l < tr->n_lanes; l++) {
        const tt_lane *ln = &tr->lanes[l];
        if (!lane_selected(sel, l))
            continue;
        for (size_t i = 0; i < ln->n; i++) {
            const tt_event *e = &ln->ev[i];
            char label[128];
            bool has;
            ref_group *rg;
            if (!in_window(sel, e) || e->bytes < 0)
                continue;
            has = ref_label(tr, key, l, e, label, sizeof label);
            rg = find_group(g, &ng, has ? label : "", !has);
            if (!rg->busy.m)
                cells_init(&rg->busy, -10, SPAN + 2000);
            rg->v[rg->n++] = e->bytes;
            rg->hist[bucket_of(e->bytes)]++;
            cells_mark(&rg->busy, e->start, e->start + e->dur, 1);
            cells_mark(&allbusy, e->start, e->start + e->dur, 1);
            allv[nall++] = e->bytes;
        }
    }
    tt_key_str(key, kb, sizeof kb);
    CHECK(t->n == ng, "transfers by %s: %zu groups want %zu", kb, t->n, ng);
    {
        tt_dist want;
        tt_ns busy = cells_count(&allbusy, 1, 0);
        ref_dist(allv, nall, &want);
        CHECK(same_dist(&t->all.bytes, &want), "transfers: all bytes");
        CHECK(t->all.busy == busy, "transfers: all busy %lld want %lld", (long long)t->all.busy,
              (long long)busy);
        CHECK(near(t->all.throughput, busy ? (double)want.total * 1e9 / (double)busy : 0),
              "transfers: all throughput");
    }
    for (size_t i = 0; i < ng; i++) {
        tt_dist want;
        const tt_xfer_row *row = NULL;
        tt_ns busy = cells_count(&g[i].busy, 1, 0);
        ref_dist(g[i].v, g[i].n, &want);
        for (size_t r = 0; r < t->n; r++)
            if (t->rows[r].none == g[i].none && strcmp(t->rows[r].label, g[i].label) == 0)
                row = &t->rows[r];
        CHECK(row != NULL, "transfers by %s: group '%s' missing", kb, g[i].label);
        if (row) {
            CHECK(same_dist(&row->bytes, &want), "transfers by %s: '%s' bytes", kb, g[i].label);
            CHECK(row->busy == busy, "transfers by %s: '%s' busy %lld want %lld", kb, g[i].label,
                  (long long)row->busy, (long long)busy);
            CHECK(memcmp(row->hist, g[i].hist, sizeof row->hist) == 0,
                  "transfers by %s: '%s' histogram", kb, g[i].label);
            CHECK(near(row->throughput, busy ? (double)want.total * 1e9 / (double)busy : 0),
                  "transfers by %s: '%s' throughput", kb, g[i].label);
        }
        free(g[i].v);
        free(g[i].busy.m);
    }
    for (size_t r = 1; r < t->n; r++)
        CHECK(t->rows[r - 1].bytes.total >= t->rows[r].bytes.total, "transfers sorted");
    free(allbusy.m);
    free(allv);
    tt_transfers_free(t);
}

enum { B_COMP = 1, B_COMM = 2, B_COPY = 4 };

static void check_gpu(const tt_trace *tr, const tt_sel *sel)
{
    tt_gpu_time got;
    tt_error err;
    cells c;
    bool any = false;
    tt_ns first = 0, last = 0;
    uint64_t kernels = 0, copies = 0, sets = 0;
    if (tt_gpu_time_compute(tr, sel, &got, &err)) {
        CHECK(0, "gpu failed: %s", err.what);
        return;
    }
    cells_init(&c, sel->from, sel->to);
    for (uint32_t l = 0; l < tr->n_lanes; l++) {
        const tt_lane *ln = &tr->lanes[l];
        if (!lane_selected(sel, l))
            continue;
        for (size_t i = 0; i < ln->n; i++) {
            const tt_event *e = &ln->ev[i];
            tt_cat_class cc = cat_class(tt_str(tr, e->cat));
            unsigned char bit;
            tt_ns cs, ce;
            if (cc == TT_CAT_OTHER || !in_window(sel, e))
                continue;
            if (cc == TT_CAT_MEMCPY) {
                bit = B_COPY;
                copies++;
            } else {
                bit = name_is_collective(tt_str(tr, e->name)) ? B_COMM : B_COMP;
                if (cc == TT_CAT_KERNEL)
                    kernels++;
                else
                    sets++;
            }
            cs = e->start > sel->from ? e->start : sel->from;
            ce = e->start + e->dur < sel->to ? e->start + e->dur : sel->to;
            if (ce < cs)
                ce = cs;
            if (!any || cs < first)
                first = cs;
            if (!any || ce > last)
                last = ce;
            any = true;
            cells_mark(&c, e->start, e->start + e->dur, bit);
        }
    }
    CHECK(got.kernels == kernels && got.memcpys == copies && got.memsets == sets, "gpu counts");
    CHECK(got.computation == cells_count(&c, B_COMP, 0), "gpu computation");
    CHECK(got.communication == cells_count(&c, B_COMM, 0), "gpu communication");
    CHECK(got.memcpy == cells_count(&c, B_COPY, 0), "gpu memcpy");
    CHECK(got.busy == cells_count(&c, 0, 0), "gpu busy %lld want %lld", (long long)got.busy,
          (long long)cells_count(&c, 0, 0));
    CHECK(got.exposed_communication == cells_count(&c, B_COMM, B_COMP), "gpu exposed comm");
    CHECK(got.exposed_memcpy == cells_count(&c, B_COPY, B_COMP | B_COMM), "gpu exposed memcpy");
    CHECK(got.total == (any ? last - first : 0), "gpu total %lld want %lld", (long long)got.total,
          (long long)(any ? last - first : 0));
    CHECK(got.idle == got.total - got.busy, "gpu idle");
    free(c.m);
}

static void check_events(const tt_trace *tr, const tt_sel *sel)
{
    tt_evref *v;
    size_t n, k = 0;
    tt_error err;
    if (tt_sel_events(tr, sel, &v, &n, &err)) {
        CHECK(0, "events failed");
        return;
    }
    for (uint32_t l = 0; l < tr->n_lanes; l++) {
        if (!lane_selected(sel, l))
            continue;
        for (size_t i = 0; i < tr->lanes[l].n; i++) {
            if (!in_window(sel, &tr->lanes[l].ev[i]))
                continue;
            CHECK(k < n && v[k].lane == l && v[k].idx == i, "event list order at %zu", k);
            k++;
        }
    }
    CHECK(k == n, "event list length %zu want %zu", n, k);
    free(v);
}

static void random_part(void)
{
    static const char *const keys[] = {"name", "category", "opcode", "lane", "layer",
                                       "arg:k", "arg:s", "arg:o", "arg:k2", "arg:none"};
    int traces = 0, windows = 0;
    for (int it = 0; it < 150; it++) {
        tt_trace *tr = random_trace();
        if (!tr)
            continue;
        traces++;
        for (int w = 0; w < 6; w++) {
            tt_sel sel;
            tt_laneset ls;
            tt_key key;
            tt_error err;
            memset(&sel, 0, sizeof sel);
            tt_laneset_init(&ls);
            switch (w) {
            case 0:   /* the whole trace, as `report` with no --window */
                tt_sel_window(tr, NULL, &sel);
                break;
            case 1:   /* empty window */
                sel.from = sel.to = rint_(0, SPAN);
                break;
            default:
                sel.from = rint_(-100, SPAN + 100);
                sel.to = sel.from + rint_(0, SPAN);
                sel.to_inclusive = rnd() % 2;
                break;
            }
            if (w >= 3) {   /* a random lane subset, sometimes empty */
                for (uint32_t l = 0; l < tr->n_lanes; l++)
                    if (rnd() % 2)
                        tt_laneset_add(&ls, l);
                tt_laneset_finish(&ls);
                tt_sel_lanes(&sel, &ls);
            }
            check_summary(tr, &sel);
            check_gpu(tr, &sel);
            check_events(tr, &sel);
            for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
                tt_key_parse(keys[k], &key, &err);
                check_breakdown(tr, &sel, &key);
                if (k == 0 || k == 3 || k == 5)
                    check_transfers(tr, &sel, &key);
            }
            tt_laneset_fini(&ls);
            windows++;
        }
        tt_trace_free(tr);
    }
    ok(fails == 0, "summary, breakdowns (10 keys), transfers, gpu and event lists match brute "
                   "force on %d random traces x %d selections (%d mismatches)",
       traces, windows / (traces ? traces : 1), fails);
}

/* ------------------------------------------------------ fixed checks */

static void test_full_window(void)
{
    /* With no --window, instants at the very end are in the selection:
     * the event count of the whole trace is every event. */
    tt_trace *tr = tt_trace_new();
    tt_error err;
    tt_sel sel;
    tt_summary *s;
    uint32_t g = tt_trace_group(tr, tt_trace_intern_cstr(tr, "1"));
    uint32_t l = tt_trace_lane(tr, g, tt_trace_intern_cstr(tr, "1"), TT_LANE_THREAD);
    int64_t i;
    i = tt_trace_push_event(tr, l);
    tr->lanes[l].ev[i].start = 100;
    tr->lanes[l].ev[i].dur = 50;
    i = tt_trace_push_event(tr, l);
    tr->lanes[l].ev[i].start = 150;   /* an instant at the trace end */
    tt_trace_finalize(tr, &err);
    memset(&sel, 0, sizeof sel);   /* every lane */
    tt_sel_window(tr, NULL, &sel);
    is_i64(sel.from, 100, "whole window starts at t0");
    is_i64(sel.to, 150, "whole window ends at t1");
    tt_summary_compute(tr, &sel, &s, &err);
    is_i64((int64_t)s->events, 2, "the instant at the end is counted");
    is_i64(s->busy, 50, "busy over the whole window");
    ok(fabs(tt_stats_util(s->busy, sel.to - sel.from) - 1.0) < 1e-12, "utilization 100%%");
    tt_summary_free(s);
    {
        tt_window_spec w;
        tt_window_parse("10:", &w, &err);
        tt_sel_window(tr, &w, &sel);
        is_i64(sel.from, 110, "FROM is relative to the trace start");
        ok(sel.to == 150 && sel.to_inclusive, "an open end is the trace end, inclusive");
        tt_window_parse(":20", &w, &err);
        tt_sel_window(tr, &w, &sel);
        ok(sel.from == 100 && sel.to == 120 && !sel.to_inclusive, ":TO");
        tt_window_parse("1s:", &w, &err);
        tt_sel_window(tr, &w, &sel);
        ok(sel.from == sel.to && sel.from == 100 + 1000000000LL, "FROM past the end: empty");
        tt_summary_compute(tr, &sel, &s, &err);
        ok(s->events == 0 && s->busy == 0 && s->total == 0, "an empty window gives zeros");
        tt_summary_free(s);
    }
    {
        tt_laneset ls;
        tt_breakdown *b;
        tt_gpu_time gt;
        tt_laneset_init(&ls);
        tt_sel_window(tr, NULL, &sel);
        tt_sel_lanes(&sel, &ls);
        tt_summary_compute(tr, &sel, &s, &err);
        ok(s->events == 0 && s->n_lanes == 0 && s->busy == 0, "an empty lane set gives zeros");
        tt_summary_free(s);
        tt_breakdown_compute(tr, &sel, &(tt_key){TT_KEY_NAME, ""}, &b, &err);
        ok(b->n == 0 && b->sum_total == 0, "empty lane set: empty breakdown");
        tt_breakdown_free(b);
        tt_gpu_time_compute(tr, &sel, &gt, &err);
        ok(gt.total == 0 && gt.busy == 0 && gt.idle == 0, "empty lane set: gpu zeros");
        tt_laneset_fini(&ls);
    }
    tt_trace_free(tr);
}

static void test_dist(void)
{
    /* osrt_sum as nsys printed it: sem_wait, 2 calls, 2,971,823 and
     * 333,015,608 ns: Avg = Med 167,993,715.5, StdDev 233,376,198.5 */
    int64_t a[] = {333015608, 2971823};
    int64_t b[] = {3481709};
    int64_t c[] = {2, 4, 4, 4, 5, 5, 7, 9};
    int64_t d[] = {5, 5, 5, 5, 5, 1, 9};
    tt_dist x;
    tt_dist_compute(a, 2, &x);
    ok(x.avg == 167993715.5 && x.median == 167993715.5, "nsys example: avg and median");
    ok(fabs(x.stddev - 233376198.5) < 0.05, "nsys example: sample stddev %.1f", x.stddev);
    tt_dist_compute(b, 1, &x);
    ok(x.stddev == 0 && x.median == 3481709 && x.min == 3481709 && x.max == 3481709,
       "one instance: stddev 0");
    tt_dist_compute(c, 8, &x);
    ok(fabs(x.stddev - 2.138089935) < 1e-8 && x.median == 4.5 && x.total == 40,
       "2,4,4,4,5,5,7,9: sample stddev 2.138, median 4.5");
    tt_dist_compute(d, 7, &x);
    ok(x.median == 5 && x.min == 1 && x.max == 9, "odd count with equal values");
    tt_dist_compute(NULL, 0, &x);
    ok(x.n == 0 && x.total == 0 && x.stddev == 0, "empty");
    /* large random arrays: selection median equals sorted median */
    {
        int bad = 0;
        for (int t = 0; t < 200; t++) {
            size_t n = (size_t)rint_(1, 2000);
            int64_t *v = malloc(n * sizeof *v), *w = malloc(n * sizeof *w);
            tt_dist got, want;
            int64_t range = rnd() % 2 ? 5 : 1000000;
            for (size_t i = 0; i < n; i++)
                v[i] = w[i] = rint_(0, range);
            tt_dist_compute(v, n, &got);
            ref_dist(w, n, &want);
            bad += !same_dist(&got, &want);
            free(v);
            free(w);
        }
        ok(bad == 0, "median/stddev of 200 random arrays match sort-based reference");
    }
}

static void test_parse(void)
{
    tt_window_spec w;
    tt_key k;
    tt_error err;
    ok(tt_window_parse("1.5ms:2ms", &w, &err) == 0 && w.from == 1500000 && w.to == 2000000,
       "window 1.5ms:2ms");
    ok(tt_window_parse("300us:1200000", &w, &err) == 0 && w.from == 300000 && w.to == 1200000,
       "window 300us:1200000 (a bare number is ns)");
    ok(tt_window_parse(":", &w, &err) == 0 && !w.has_from && !w.has_to, "window ':'");
    ok(tt_window_parse("2s:", &w, &err) == 0 && w.has_from && !w.has_to && w.from == 2000000000,
       "window '2s:'");
    ok(tt_window_parse("2ms:1ms", &w, &err) != 0 && strstr(err.what, "ends before it starts"),
       "a window that ends before it starts is an error");
    ok(tt_window_parse("5ms", &w, &err) != 0 && strstr(err.what, "FROM:TO"), "no colon: error");
    ok(tt_window_parse("1m:2", &w, &err) != 0, "unknown unit: error");
    ok(tt_window_parse("1:2:3", &w, &err) != 0, "two colons: error");
    ok(tt_window_parse("3ms:3ms", &w, &err) == 0, "an empty window is allowed");

    ok(tt_key_parse("name", &k, &err) == 0 && k.kind == TT_KEY_NAME, "key name");
    ok(tt_key_parse("cat", &k, &err) == 0 && k.kind == TT_KEY_CAT, "key cat");
    ok(tt_key_parse("category", &k, &err) == 0 && k.kind == TT_KEY_CAT, "key category");
    ok(tt_key_parse("arg:External id", &k, &err) == 0 && k.kind == TT_KEY_ARG &&
           strcmp(k.arg, "External id") == 0, "key arg:External id");
    ok(tt_key_parse("arg:", &k, &err) != 0, "key arg: without a name is an error");
    ok(tt_key_parse("colour", &k, &err) != 0 && strstr(err.what, "unknown key 'colour'"),
       "unknown key");
    {
        const tt_report_kind *kind;
        tt_out_format f;
        size_t nk;
        const tt_report_kind *const *kinds = tt_report_kinds(&nk);
        char want[400];
        size_t used;
        ok(tt_report_kind_parse("gpu", &kind, &err) == 0 && kind == tt_report_kind_find("gpu"),
           "kind gpu");
        ok(tt_report_kind_parse("opz", &kind, &err) != 0 && strstr(err.what, "unknown kind"),
           "unknown kind");
        /* the usage lists the table's kinds, in its order */
        used = (size_t)snprintf(want, sizeof want, "[--kind ");
        for (size_t i = 0; i < nk; i++)
            used += (size_t)snprintf(want + used, sizeof want - used, "%s%s", i ? "|" : "",
                                     kinds[i]->name);
        snprintf(want + used, sizeof want - used, "]");
        ok(strstr(tt_cmd_report.usage, want) != NULL, "report's usage lists every kind: %s", want);
        ok(tt_report_format_parse("xml", &f, &err) != 0, "unknown format");
    }
}

static void test_lanes(void)
{
    tt_trace *tr = tt_trace_new();
    tt_error err;
    tt_laneset s;
    static const char *const lanes[][2] = {
        {"GPU 0", "stream 7"}, {"GPU 0", "stream 13"}, {"GPU 1", "stream 7"},
        {"python", "thread 1"}, {"a,b", "x"},
    };
    for (size_t i = 0; i < sizeof lanes / sizeof lanes[0]; i++) {
        uint32_t g = tt_trace_group(tr, tt_trace_intern_cstr(tr, lanes[i][0]));
        uint32_t l = tt_trace_lane(tr, g, tt_trace_intern_cstr(tr, lanes[i][1]), TT_LANE_THREAD);
        int64_t e;
        tr->groups[g].name = tt_trace_intern_cstr(tr, lanes[i][0]);
        tr->lanes[l].name = tt_trace_intern_cstr(tr, lanes[i][1]);
        e = tt_trace_push_event(tr, l);
        tr->lanes[l].ev[e].start = (tt_ns)i;
        tr->lanes[l].ev[e].dur = 1;
    }
    tt_trace_finalize(tr, &err);
    tt_laneset_init(&s);
    /* expected sets by full name, independent of lane order */
    {
        static const struct {
            const char *pat;
            const char *want;   /* '|'-separated full names */
        } cases[] = {
            {"*stream 7", "GPU 0 / stream 7|GPU 1 / stream 7"},
            {"GPU 0 / *", "GPU 0 / stream 7|GPU 0 / stream 13"},
            {"python*,GPU 1*", "GPU 1 / stream 7|python / thread 1"},
            {"*", "GPU 0 / stream 7|GPU 0 / stream 13|GPU 1 / stream 7|python / thread 1|a,b / x"},
            {"a\\,b / x", "a,b / x"},
            {"nothing*", ""},
            {"GPU ? / stream 1[0-9]", "GPU 0 / stream 13"},
        };
        for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
            char got[512] = "", want[512], name[256];
            /* sort both lists by name for comparison */
            const char *names[8];
            size_t n = 0;
            ok(tt_laneset_match(tr, cases[c].pat, &s, &err) == 0, "pattern '%s' ok",
               cases[c].pat);
            for (size_t i = 0; i < s.n; i++)
                names[n++] = strdup(tt_lane_fullname(tr, s.v[i], name, sizeof name));
            for (size_t i = 1; i < n; i++)
                for (size_t j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
                    const char *t = names[j];
                    names[j] = names[j - 1];
                    names[j - 1] = t;
                }
            for (size_t i = 0; i < n; i++) {
                if (i)
                    strcat(got, "|");
                strcat(got, names[i]);
                free((void *)names[i]);
            }
            snprintf(want, sizeof want, "%s", cases[c].want);
            {   /* sort the wanted list the same way */
                char *parts[8], *p = want, buf[512] = "";
                size_t m = 0;
                while (*p && m < 8) {
                    parts[m++] = p;
                    p = strchr(p, '|');
                    if (!p)
                        break;
                    *p++ = '\0';
                }
                for (size_t i = 1; i < m; i++)
                    for (size_t j = i; j > 0 && strcmp(parts[j - 1], parts[j]) > 0; j--) {
                        char *t = parts[j];
                        parts[j] = parts[j - 1];
                        parts[j - 1] = t;
                    }
                for (size_t i = 0; i < m; i++) {
                    if (i)
                        strcat(buf, "|");
                    strcat(buf, parts[i]);
                }
                is_str(got, buf, "pattern '%s' selects the right lanes", cases[c].pat);
            }
            for (size_t i = 1; i < s.n; i++)
                ok(s.v[i - 1] < s.v[i], "lane set sorted");
        }
    }
    ok(tt_lane_patterns_check("a,,b", &err) != 0, "an empty item is an error");
    ok(tt_lane_patterns_check("", &err) != 0, "an empty pattern is an error");
    tt_laneset_fini(&s);
    tt_trace_free(tr);
}

static void test_intervals(void)
{
    int bad = 0;
    for (int t = 0; t < 300; t++) {
        tt_ivals a, b, u;
        cells c;
        int n = (int)rint_(0, 50), m = (int)rint_(0, 50);
        tt_ivals_init(&a);
        tt_ivals_init(&b);
        tt_ivals_init(&u);
        cells_init(&c, 0, 1200);
        /* room made first, exactly or (huge pages) far more than used */
        if (t % 3 == 0)
            bad += tt_ivals_reserve(&a, t % 2 ? (size_t)n : (size_t)1 << 19) != 0;
        for (int i = 0; i < n; i++) {
            tt_ns s = rint_(0, 1000), e = s + rint_(0, 150);
            tt_ivals_push(&a, s, e);
            cells_mark(&c, s, e, 1);
        }
        for (int i = 0; i < m; i++) {
            tt_ns s = rint_(0, 1000), e = s + rint_(0, 150);
            tt_ivals_push(&b, s, e);
            cells_mark(&c, s, e, 2);
        }
        tt_ivals_normalize(&a);
        tt_ivals_normalize(&b);
        tt_ivals_union(&a, &b, &u);
        bad += tt_ivals_length(&a) != cells_count(&c, 1, 0);
        bad += tt_ivals_length(&b) != cells_count(&c, 2, 0);
        bad += tt_ivals_length(&u) != cells_count(&c, 0, 0);
        bad += tt_ivals_overlap_length(&a, &b) != cells_count(&c, 3, 0);
        for (size_t i = 1; i < u.n; i++)
            bad += !(u.v[i - 1].e < u.v[i].s);   /* disjoint, not touching */
        free(c.m);
        tt_ivals_fini(&a);
        tt_ivals_fini(&b);
        tt_ivals_fini(&u);
    }
    ok(bad == 0, "interval union/overlap lengths match unit cells on 300 random sets (a third "
                 "with room reserved first)");
}

static void test_classify(void)
{
    ok(tt_classify_category("kernel") == TT_CAT_KERNEL, "kernel");
    ok(tt_classify_category("Kernel") == TT_CAT_KERNEL, "Kernel (2021 Kineto)");
    ok(tt_classify_category("gpu_memcpy") == TT_CAT_MEMCPY, "gpu_memcpy");
    ok(tt_classify_category("Memset") == TT_CAT_MEMSET, "Memset");
    ok(tt_classify_category("cuda_runtime") == TT_CAT_OTHER, "cuda_runtime is host work");
    ok(tt_classify_category("gpu_user_annotation") == TT_CAT_OTHER, "annotations are not work");
    ok(tt_classify_category("") == TT_CAT_OTHER, "no category");
    ok(tt_classify_collective("ncclKernel_AllReduce_RING_LL_Sum_float"), "nccl kernel");
    ok(tt_classify_collective("ncclDevKernel_AllGather_RING_LL"), "nccl dev kernel");
    ok(tt_classify_collective("RCCL_allreduce"), "rccl, any case");
    ok(tt_classify_collective("hcom_allReduce__123"), "hccl task");
    ok(!tt_classify_collective("void at::native::elementwise_kernel<128, 2>"), "plain kernel");
    ok(!tt_classify_collective("Memset (Device)"), "memset");
}

static void test_rank(void)
{
    is_i64(tt_report_rank(NULL, "dir/rank-3.json.gz", 0), 3, "rank-3");
    is_i64(tt_report_rank(NULL, "trace_RANK_12.json", 0), 12, "RANK_12");
    is_i64(tt_report_rank(NULL, "rank7.pt.trace.json", 0), 7, "rank7");
    is_i64(tt_report_rank(NULL, "rank5dir/worker.json", 4), 4, "directory names do not count");
    is_i64(tt_report_rank(NULL, "ranking.json", 2), 2, "no number after rank: position");
    {
        tt_trace *tr = tt_trace_new();
        tr->rank = 9;
        is_i64(tt_report_rank(tr, "rank-3.json", 0), 9, "metadata rank wins");
        tt_trace_free(tr);
    }
}

int main(void)
{
    test_dist();
    test_parse();
    test_lanes();
    test_intervals();
    test_classify();
    test_rank();
    test_full_window();
    random_part();
    return tap_done();
}
