/* test_ranks.c - several ranks in the terminal UI, against brute force on
 * random jobs built through the model's builder:
 *   - the union of a rank's device work (busy.h) and of its communication,
 *     over random windows, against merging the events' intervals;
 *   - a rank's device lanes (ranks.h): exactly those holding a kernel,
 *     copy or memset;
 *   - the combined view's rows: a header per rank, its device lanes unless
 *     folded, found again by rank and lane;
 *   - a box over several ranks (mstats.h): each rank's part is its own
 *     summary of the box moved to its clock, and the merged breakdown's
 *     rows are every rank's events of that label: count, total, min, max,
 *     median of the clipped durations; a row's highlight holds exactly
 *     those events, per rank and lane in position order; in the
 *     collectives view a name's highlight holds the kernels of the
 *     collectives of that name in the box;
 *   - the collectives (collview.h): each one's first and last arrival,
 *     latest end and last rank, and the per-rank sums of a box over them;
 *   - the ranks of loaded traces (multi/rankset.h tt_rankset_adopt): from
 *     metadata, file name or order, sorted, duplicates refused;
 *   - the window moved to another rank's clock (viewport.h) and back;
 *   - marker sets of a job (marks.h): saved beside every rank in its own
 *     times with the job recorded, loaded back on the job's axis, one
 *     rank's set converted through its start, a corrupt file stopping the
 *     save, deleted everywhere.
 */
#include "config.h"

#include "../tap.h"
#include "../xorshift.h"
#include "analysis/classify.h"
#include "analysis/stats.h"
#include "multi/rankset.h"
#include "tui/busy.h"
#include "tui/collview.h"
#include "tui/hilite.h"
#include "tui/layout.h"
#include "tui/marks.h"
#include "tui/mstats.h"
#include "tui/ranks.h"
#include "tui/viewport.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static uint64_t rng = 0x5eed0f7a11ba5e5ULL;
static uint64_t rnd(void)
{
    return tt_xorshift64(&rng);
}
static int64_t rint_(int64_t lo, int64_t hi)
{
    return lo + (int64_t)(rnd() % (uint64_t)(hi - lo + 1));
}

static int fails;
#define CHECK(cond, ...)                     \
    do {                                     \
        if (!(cond) && fails++ < 15) {       \
            printf("# ");                    \
            printf(__VA_ARGS__);             \
            printf("\n");                    \
        }                                    \
    } while (0)

static const char *const KERNELS[] = {"gemm", "relu", "ncclKernel_AllReduce_x", "Memcpy HtoD",
                                      "softmax"};
static const char *const KCATS[] = {"kernel", "kernel", "kernel", "gpu_memcpy", "gpu_memset"};
static const char *const COLLS[] = {"ncclKernel_AllReduce(ncclDevComm*)",
                                    "ncclKernel_Broadcast(ncclDevComm*)"};

/* A rank: a host group (threads of cpu_op events) and a device group
 * (streams of kernels, copies, memsets, some named like collectives), and
 * on a stream of its own n_coll collectives in a fixed name order, so
 * they match across ranks. */
static tt_trace *random_rank(int64_t rank, int n_coll)
{
    tt_trace *tr = tt_trace_new();
    tt_error err;
    uint32_t host, dev;
    int nl;
    if (!tr)
        return NULL;
    tr->rank = rank;
    host = tt_trace_group(tr, tt_trace_intern_cstr(tr, "host"));
    tr->groups[host].name = tt_trace_intern_cstr(tr, "python (CPU)");
    dev = tt_trace_group(tr, tt_trace_intern_cstr(tr, "gpu"));
    tr->groups[dev].name = tt_trace_intern_cstr(tr, "GPU");
    nl = (int)rint_(1, 2);
    for (int l = 0; l < nl; l++) {
        char key[32];
        uint32_t li;
        snprintf(key, sizeof key, "t%d", l);
        li = tt_trace_lane(tr, host, tt_trace_intern_cstr(tr, key), TT_LANE_THREAD);
        for (int k = (int)rint_(0, 30); k > 0; k--) {
            int64_t at = tt_trace_push_event(tr, li);
            tt_event *e = &tr->lanes[li].ev[at];
            e->start = rint_(0, 5000);
            e->dur = rint_(0, 300);
            e->name = tt_trace_intern_cstr(tr, "aten::mm");
            e->cat = tt_trace_intern_cstr(tr, "cpu_op");
            e->bytes = -1;
        }
    }
    nl = (int)rint_(1, 3);
    for (int l = 0; l < nl; l++) {
        char key[32];
        uint32_t li;
        snprintf(key, sizeof key, "s%d", l);
        li = tt_trace_lane(tr, dev, tt_trace_intern_cstr(tr, key), TT_LANE_THREAD);
        for (int k = (int)rint_(0, 40); k > 0; k--) {
            int64_t at = tt_trace_push_event(tr, li);
            tt_event *e = &tr->lanes[li].ev[at];
            int w = (int)(rnd() % 5);
            e->start = rint_(0, 5000);
            e->dur = rnd() % 9 == 0 ? 0 : rint_(1, 400);
            e->name = tt_trace_intern_cstr(tr, KERNELS[w]);
            e->cat = tt_trace_intern_cstr(tr, KCATS[w]);
            e->bytes = -1;
        }
    }
    {
        uint32_t li = tt_trace_lane(tr, dev, tt_trace_intern_cstr(tr, "comm"), TT_LANE_THREAD);
        int64_t t = rint_(0, 200);
        for (int k = 0; k < n_coll; k++) {
            int64_t at = tt_trace_push_event(tr, li);
            tt_event *e = &tr->lanes[li].ev[at];
            e->start = t;
            e->dur = rint_(1, 300);
            e->name = tt_trace_intern_cstr(tr, COLLS[k % 2]);
            e->cat = tt_trace_intern_cstr(tr, "kernel");
            e->bytes = -1;
            t += e->dur + rint_(1, 400);
        }
    }
    tt_error_clear(&err);
    if (tt_trace_finalize(tr, &err)) {
        tt_trace_free(tr);
        return NULL;
    }
    return tr;
}

static bool is_device(const tt_trace *tr, const tt_event *e)
{
    return tt_classify_category(tt_str(tr, e->cat)) != TT_CAT_OTHER;
}

static bool is_comm(const tt_trace *tr, const tt_event *e)
{
    return is_device(tr, e) && tt_classify_category(tt_str(tr, e->cat)) != TT_CAT_MEMCPY &&
           tt_classify_collective(tt_str(tr, e->name));
}

typedef struct ival {
    tt_ns s, e;
} ival;

static int cmp_ival(const void *a, const void *b)
{
    const ival *x = a, *y = b;
    return (x->s > y->s) - (x->s < y->s);
}

/* Length of the union of the kept events of a rank's lanes inside [a, b). */
static tt_ns brute_busy(const tt_vrank *r, bool comm, tt_ns a, tt_ns b)
{
    ival *v = NULL;
    size_t n = 0, cap = 0;
    tt_ns total = 0, cs = 0, ce = 0;
    bool open = false;
    for (uint32_t l = 0; l < r->tr->n_lanes; l++)
        for (size_t i = 0; i < r->tr->lanes[l].n; i++) {
            const tt_event *e = &r->tr->lanes[l].ev[i];
            tt_ns s = e->start > a ? e->start : a;
            tt_ns t = e->start + e->dur < b ? e->start + e->dur : b;
            if (!(comm ? is_comm(r->tr, e) : is_device(r->tr, e)) || t <= s)
                continue;
            if (n == cap) {
                cap = cap ? cap * 2 : 64;
                v = realloc(v, cap * sizeof *v);
            }
            v[n].s = s;
            v[n].e = t;
            n++;
        }
    if (n)
        qsort(v, n, sizeof *v, cmp_ival);
    for (size_t i = 0; i < n; i++) {
        if (open && v[i].s <= ce) {
            if (v[i].e > ce)
                ce = v[i].e;
            continue;
        }
        if (open)
            total += ce - cs;
        cs = v[i].s;
        ce = v[i].e;
        open = true;
    }
    if (open)
        total += ce - cs;
    free(v);
    return total;
}

static void test_busy(void)
{
    fails = 0;
    for (int round = 0; round < 40; round++) {
        tt_trace *tr = random_rank(round, (int)rint_(0, 6));
        tt_vrank r;
        if (!tr || tt_vrank_init(&r, tr, round, 0, NULL, "order", true) || tt_vrank_busy(&r)) {
            CHECK(false, "round %d: set up", round);
            continue;
        }
        /* device lanes: exactly those with device work */
        for (uint32_t l = 0; l < tr->n_lanes; l++) {
            bool any = false;
            for (size_t i = 0; i < tr->lanes[l].n && !any; i++)
                any = is_device(tr, &tr->lanes[l].ev[i]);
            CHECK(any == tt_vrank_is_dev(&r, l), "round %d lane %u: device lane %d", round, l, any);
        }
        CHECK(r.busy.total == brute_busy(&r, false, INT64_MIN / 4, INT64_MAX / 4),
              "round %d: the union's total", round);
        for (int q = 0; q < 60; q++) {
            tt_ns a = rint_(-100, 5500), b = a + rint_(0, q % 3 ? 600 : 6000);
            tt_ns want = brute_busy(&r, false, a, b), got = tt_busy_in(&r.busy, a, b);
            tt_ns wantc = brute_busy(&r, true, a, b), gotc = tt_busy_in(&r.comm, a, b);
            CHECK(got == want, "round %d [%lld, %lld): busy %lld, want %lld", round, (long long)a,
                  (long long)b, (long long)got, (long long)want);
            CHECK(gotc == wantc, "round %d [%lld, %lld): comm %lld, want %lld", round,
                  (long long)a, (long long)b, (long long)gotc, (long long)wantc);
        }
        for (size_t i = 1; i < r.busy.n; i++)
            CHECK(r.busy.s[i] > r.busy.e[i - 1], "round %d: intervals disjoint and apart", round);
        tt_vrank_fini(&r);
        tt_trace_free(tr);
    }
    ok(fails == 0, "busy unions (device work, communication) = merged intervals, over random "
                   "windows; device lanes = lanes with device work");
}

/* n ranks, each with a random offset; base[] numbers their lanes. */
typedef struct job {
    tt_trace *tr[6];
    tt_vrank  rk[6];
    uint32_t  base[7];
    size_t    n;
} job;

static bool job_make(job *j, size_t n, int n_coll)
{
    uint32_t lanes = 0;
    memset(j, 0, sizeof *j);
    for (size_t i = 0; i < n; i++) {
        if (!(j->tr[i] = random_rank((int64_t)i, n_coll)) ||
            tt_vrank_init(&j->rk[i], j->tr[i], (int64_t)i, rint_(-300, 300), NULL, "metadata",
                          true))
            return false;
        j->n = i + 1;
        j->base[i] = lanes;
        lanes += j->tr[i]->n_lanes;
    }
    j->base[n] = lanes;
    return true;
}

static void job_free(job *j)
{
    for (size_t i = 0; i < j->n; i++) {
        tt_vrank_fini(&j->rk[i]);
        tt_trace_free(j->tr[i]);
    }
}

static void test_rows(void)
{
    fails = 0;
    for (int round = 0; round < 30; round++) {
        job j;
        bool folded[6];
        tt_rows rows;
        bool depth0 = rnd() % 2;
        tt_rows_init(&rows);
        if (!job_make(&j, (size_t)rint_(1, 5), 2)) {
            CHECK(false, "round %d: set up", round);
            job_free(&j);
            continue;
        }
        for (size_t i = 0; i < j.n; i++)
            folded[i] = rnd() % 3 == 0;
        if (tt_rows_build_job(&rows, j.rk, j.n, j.base, j.base[j.n], folded, depth0)) {
            CHECK(false, "round %d: rows", round);
            job_free(&j);
            continue;
        }
        for (size_t k = 1; k < rows.n; k++)
            CHECK(rows.v[k].rank >= rows.v[k - 1].rank, "round %d: rows in rank order", round);
        for (size_t i = 0; i < j.n; i++) {
            int64_t h = tt_rows_rank(&rows, (uint32_t)i);
            CHECK(h >= 0 && rows.v[h].kind == TT_ROW_RANK && rows.v[h].rank == i,
                  "round %d: rank %zu's header", round, i);
            for (uint32_t l = 0; l < j.tr[i]->n_lanes; l++) {
                int64_t r = tt_rows_find_rank(&rows, (uint32_t)i, l, 0);
                bool shown = !folded[i] && tt_vrank_is_dev(&j.rk[i], l);
                CHECK((r >= 0) == shown, "round %d: rank %zu lane %u shown %d", round, i, l, shown);
                if (r >= 0) {
                    CHECK(rows.v[r].kind == TT_ROW_LANE && rows.v[r].rank == i &&
                              rows.v[r].lane == l && rows.v[r].depth == 0,
                          "round %d: the row found is the lane's", round);
                    if (!depth0 && j.tr[i]->lanes[l].max_depth > 0)
                        CHECK(tt_rows_find_rank(&rows, (uint32_t)i, l, 1) == r + 1,
                              "round %d: its nested row follows", round);
                }
                CHECK(tt_rows_find(&rows, l, 0) < 0, "round %d: several ranks need the rank",
                      round);
            }
        }
        tt_rows_fini(&rows);
        job_free(&j);
    }
    ok(fails == 0, "combined view rows: a header per rank, device lanes unless folded, found "
                   "by rank and lane");
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static bool in_sel(tt_ns from, tt_ns to, const tt_event *e)
{
    if (from >= to)
        return false;
    if (e->dur == 0)
        return e->start >= from && e->start < to;
    return e->start < to && e->start + e->dur > from;
}

static void test_mstats(void)
{
    fails = 0;
    for (int round = 0; round < 40; round++) {
        job j;
        tt_mstats m;
        tt_error err;
        uint32_t gl[64];
        size_t ng = 0;
        tt_ns from = rint_(-200, 3000), to = from + rint_(1, 3000);
        tt_ms_init(&m);
        tt_error_clear(&err);
        if (!job_make(&j, (size_t)rint_(2, 5), 3)) {
            CHECK(false, "round %d: set up", round);
            job_free(&j);
            continue;
        }
        for (uint32_t g = 0; g < j.base[j.n] && ng < 64; g++)
            if (rnd() % 2)
                gl[ng++] = g;
        if (tt_ms_ranks(&m, j.rk, j.n, j.base, from, to, gl, ng, &err)) {
            CHECK(false, "round %d: %s", round, err.what);
            job_free(&j);
            continue;
        }
        /* each rank's part: its lanes, the window on its clock */
        for (size_t p = 0; p < m.n_r; p++) {
            const tt_ms_rank *r = &m.r[p];
            tt_summary *s = NULL;
            CHECK(r->sel.from == from - j.rk[r->rank].off && r->sel.to == to - j.rk[r->rank].off,
                  "round %d: rank %zu's window", round, r->rank);
            for (size_t k = 0; k < r->lanes.n; k++)
                CHECK(r->lanes.v[k] + j.base[r->rank] >= j.base[r->rank] &&
                          r->lanes.v[k] < j.tr[r->rank]->n_lanes,
                      "round %d: its lanes", round);
            if (tt_summary_compute(j.tr[r->rank], &r->sel, &s, &err) == 0) {
                CHECK(s->events == r->sum->events && s->busy == r->sum->busy,
                      "round %d: rank %zu's summary", round, r->rank);
                tt_summary_free(s);
            }
        }
        /* the merged rows against every selected event */
        for (size_t row = 0; row < m.n_rows; row++) {
            const tt_ms_row *mr = &m.rows[row];
            int64_t *vals = NULL;
            size_t nv = 0, cap = 0;
            tt_ns total = 0;
            for (size_t k = 0; k < ng; k++) {
                size_t i = 0;
                uint32_t lane;
                tt_ns off, f, t;
                while (i + 1 < j.n && gl[k] >= j.base[i + 1])
                    i++;
                lane = gl[k] - j.base[i];
                off = j.rk[i].off;
                f = from - off;
                t = to - off;
                for (size_t q = 0; q < j.tr[i]->lanes[lane].n; q++) {
                    const tt_event *e = &j.tr[i]->lanes[lane].ev[q];
                    const char *label = tt_str(j.tr[i], m.key.kind == TT_KEY_NAME ? e->name
                                                        : m.key.kind == TT_KEY_CAT ? e->cat : 0);
                    tt_ns s2 = e->start > f ? e->start : f;
                    tt_ns t2 = e->start + e->dur < t ? e->start + e->dur : t;
                    if (!in_sel(f, t, e) || strcmp(label, mr->label) != 0)
                        continue;
                    if (nv == cap) {
                        cap = cap ? cap * 2 : 32;
                        vals = realloc(vals, cap * sizeof *vals);
                    }
                    vals[nv++] = t2 > s2 ? t2 - s2 : 0;
                    total += t2 > s2 ? t2 - s2 : 0;
                }
            }
            if (nv)
                qsort(vals, nv, sizeof *vals, cmp_i64);
            CHECK(mr->d.n == nv && mr->d.total == total, "round %d: row '%s': %llu events %lld, "
                  "want %zu %lld", round, mr->label, (unsigned long long)mr->d.n,
                  (long long)mr->d.total, nv, (long long)total);
            if (nv) {
                double med = nv % 2 ? (double)vals[nv / 2]
                                    : ((double)vals[nv / 2 - 1] + (double)vals[nv / 2]) / 2;
                CHECK(mr->d.min == vals[0] && mr->d.max == vals[nv - 1] && mr->d.median == med,
                      "round %d: row '%s': min, max, median", round, mr->label);
            }
            free(vals);
        }
        /* Enter on a row: every rank's events of its label in the box,
         * positions ascending per lane */
        for (size_t row = 0; row < m.n_rows; row++) {
            tt_hits *h = calloc(j.n, sizeof *h);
            uint64_t total = 0, want_total = 0;
            if (!h || tt_ms_row_hits(&m, row, h, &total)) {
                CHECK(false, "round %d: row hits", round);
                free(h);
                continue;
            }
            for (size_t i = 0; i < j.n; i++) {
                CHECK(h[i].n_lanes == j.tr[i]->n_lanes, "round %d: rank %zu's hits span its "
                      "lanes", round, i);
                for (uint32_t lane = 0; lane < j.tr[i]->n_lanes && lane < h[i].n_lanes; lane++) {
                    bool in_box = false;
                    size_t k = 0;
                    tt_ns f = from - j.rk[i].off, t = to - j.rk[i].off;
                    for (size_t q = 0; q < ng; q++)
                        in_box |= gl[q] == j.base[i] + lane;
                    for (uint32_t q = 0; in_box && q < j.tr[i]->lanes[lane].n; q++) {
                        const tt_event *e = &j.tr[i]->lanes[lane].ev[q];
                        const char *label = tt_str(j.tr[i], m.key.kind == TT_KEY_NAME ? e->name
                                                            : m.key.kind == TT_KEY_CAT ? e->cat
                                                                                        : 0);
                        if (!in_sel(f, t, e) || strcmp(label, m.rows[row].label) != 0)
                            continue;
                        CHECK(k < h[i].n[lane] && h[i].pos[lane][k] == q,
                              "round %d: row '%s', rank %zu lane %u: hit %zu is event %u", round,
                              m.rows[row].label, i, lane, k, q);
                        k++;
                    }
                    CHECK(k == h[i].n[lane], "round %d: row '%s', rank %zu lane %u: %zu hits, "
                          "want %zu", round, m.rows[row].label, i, lane, h[i].n[lane], k);
                    want_total += k;
                }
                tt_hits_fini(&h[i]);
            }
            CHECK(total == want_total && total == m.rows[row].d.n, "round %d: row '%s': %llu "
                  "hits for %llu events", round, m.rows[row].label, (unsigned long long)total,
                  (unsigned long long)m.rows[row].d.n);
            free(h);
        }
        {
            /* every selected event is in some row */
            uint64_t sum = 0, events = 0;
            for (size_t row = 0; row < m.n_rows; row++)
                sum += m.rows[row].d.n;
            for (size_t p = 0; p < m.n_r; p++)
                events += m.r[p].sum->events;
            CHECK(sum == events, "round %d: the rows hold every event (%llu of %llu)", round,
                  (unsigned long long)sum, (unsigned long long)events);
        }
        /* the other keys: the same events, grouped otherwise */
        if (tt_ms_cycle_key(&m, &err) == 0) {
            uint64_t sum = 0;
            for (size_t row = 0; row < m.n_rows; row++)
                sum += m.rows[row].d.n;
            CHECK(sum == m.events, "round %d: by %d the rows hold every event", round,
                  (int)m.key.kind);
        }
        tt_ms_fini(&m);
        job_free(&j);
    }
    ok(fails == 0, "a box over several ranks: each rank's part, and merged rows = every rank's "
                   "events of the label (count, total, min, max, median); a row's highlight = "
                   "those events, rank by rank");
}

static void test_colls(void)
{
    fails = 0;
    for (int round = 0; round < 30; round++) {
        job j;
        tt_collview cv;
        tt_error err;
        size_t nc = (size_t)rint_(1, 6);
        tt_collview_init(&cv);
        tt_error_clear(&err);
        if (!job_make(&j, (size_t)rint_(2, 5), (int)nc) ||
            tt_collview_build(&cv, j.rk, j.n, &err)) {
            CHECK(false, "round %d: set up %s", round, err.what);
            tt_collview_fini(&cv);
            job_free(&j);
            continue;
        }
        /* the random streams hold ncclKernel_AllReduce_x kernels too: they
         * are collectives of their own name; check those of the comm lane */
        for (size_t k = 0; k < nc; k++) {
            const char *name = COLLS[k % 2];
            uint32_t seq = (uint32_t)(k / 2);
            const tt_cgroup *g = NULL;
            tt_ns tf = INT64_MAX, tl = INT64_MIN, el = INT64_MIN, dmin = INT64_MAX;
            size_t late_rank = 0;
            tt_ns late_start = INT64_MIN;
            for (size_t gi = 0; gi < cv.n; gi++)
                if (strcmp(tt_collview_name(&cv, &cv.g[gi]), name) == 0 &&
                    cv.c.v[cv.g[gi].first].seq == seq)
                    g = &cv.g[gi];
            if (!g) {
                CHECK(false, "round %d: %s #%u not found", round, name, seq);
                continue;
            }
            CHECK(g->n == j.n, "round %d: %s #%u on %u ranks", round, name, seq, g->n);
            for (size_t i = 0; i < j.n; i++) {
                /* the seq-th of that name on rank i's comm lane */
                const tt_trace *tr = j.tr[i];
                uint32_t comm = 0, s = 0;
                for (uint32_t l = 0; l < tr->n_lanes; l++)
                    if (strcmp(tt_str(tr, tr->lanes[l].key), "comm") == 0)
                        comm = l;
                for (size_t q = 0; q < tr->lanes[comm].n; q++) {
                    const tt_event *e = &tr->lanes[comm].ev[q];
                    tt_ns st = e->start + j.rk[i].off;
                    if (strcmp(tt_str(tr, e->name), name) != 0 || s++ != seq)
                        continue;
                    if (st < tf)
                        tf = st;
                    if (st > tl)
                        tl = st;
                    if (st + e->dur > el)
                        el = st + e->dur;
                    if (e->dur < dmin || (e->dur == dmin && st > late_start)) {
                        dmin = e->dur;
                        late_rank = i;
                        late_start = st;
                    }
                }
            }
            CHECK(g->t_first == tf && g->t_last == tl && g->e_last == el,
                  "round %d: %s #%u: arrivals and end", round, name, seq);
            CHECK(cv.c.v[g->late].rank == late_rank && cv.c.v[g->late].wait == 0,
                  "round %d: %s #%u: the last rank (%zu, want %zu)", round, name, seq,
                  cv.c.v[g->late].rank, late_rank);
            for (size_t x = g->first + 1; x < g->first + g->n; x++)
                CHECK(cv.c.v[x].rank > cv.c.v[x - 1].rank, "round %d: entries in rank order",
                      round);
        }
        for (size_t gi = 1; gi < cv.n; gi++)
            CHECK(cv.g[gi].t_first >= cv.g[gi - 1].t_first, "round %d: rows by first arrival",
                  round);
        {
            /* a box over every collective and a window: per-rank sums */
            uint32_t all[512];
            tt_mstats m;
            tt_ns from = rint_(-300, 2000), to = from + rint_(0, 3000);
            size_t n = cv.n < 512 ? cv.n : 512;
            tt_ms_init(&m);
            for (size_t gi = 0; gi < n; gi++)
                all[gi] = (uint32_t)gi;
            if (tt_ms_colls(&m, j.rk, j.n, &cv, from, to, all, n, &err) == 0) {
                for (size_t i = 0; i < j.n; i++) {
                    uint64_t cnt = 0, late = 0;
                    tt_ns dur = 0, wait = 0;
                    for (size_t gi = 0; gi < n; gi++) {
                        const tt_cgroup *g = &cv.g[gi];
                        if (!(g->t_first < to && (g->e_last > from || g->t_first >= from)))
                            continue;
                        for (size_t x = g->first; x < g->first + g->n; x++)
                            if (cv.c.v[x].rank == i) {
                                cnt++;
                                dur += cv.c.v[x].dur;
                                wait += cv.c.v[x].wait;
                                late += x == g->late && g->n > 1;
                            }
                    }
                    CHECK(m.r[i].colls == cnt && m.r[i].dur == dur && m.r[i].wait == wait &&
                              m.r[i].late == late,
                          "round %d: rank %zu's collectives in the box", round, i);
                }
                /* a name's highlight: the kernels of its collectives in the box */
                for (size_t row = 0; row < m.n_rows; row++) {
                    tt_hits *h = calloc(j.n, sizeof *h);
                    uint64_t total = 0, want = 0;
                    if (!h || tt_ms_row_hits(&m, row, h, &total)) {
                        CHECK(false, "round %d: collective hits", round);
                        free(h);
                        continue;
                    }
                    for (size_t gi = 0; gi < n; gi++) {
                        const tt_cgroup *g = &cv.g[gi];
                        if (!(g->t_first < to && (g->e_last > from || g->t_first >= from)) ||
                            strcmp(cv.label[cv.c.v[g->first].name], m.rows[row].label) != 0)
                            continue;
                        for (size_t x = g->first; x < g->first + g->n; x++) {
                            const tt_coll *e = &cv.c.v[x];
                            CHECK(tt_hits_has(&h[e->rank], e->ev), "round %d: %s: rank %zu's "
                                  "kernel is lit", round, m.rows[row].label, e->rank);
                            want++;
                        }
                    }
                    CHECK(total == want, "round %d: %s: %llu kernels lit, want %llu", round,
                          m.rows[row].label, (unsigned long long)total, (unsigned long long)want);
                    for (size_t i = 0; i < j.n; i++) {
                        for (uint32_t l = 0; l < h[i].n_lanes; l++)
                            for (size_t q = 1; q < h[i].n[l]; q++)
                                CHECK(h[i].pos[l][q] > h[i].pos[l][q - 1],
                                      "round %d: positions ascend", round);
                        tt_hits_fini(&h[i]);
                    }
                    free(h);
                }
            } else {
                CHECK(false, "round %d: %s", round, err.what);
            }
            tt_ms_fini(&m);
        }
        tt_collview_fini(&cv);
        job_free(&j);
    }
    ok(fails == 0, "collectives: first and last arrival, latest end and last rank of each; a "
                   "box over them sums each rank's count, duration, wait and last arrivals, and "
                   "a name's highlight lights its collectives' kernels in the box");
}

static tt_trace *empty_trace(int64_t rank)
{
    tt_trace *tr = tt_trace_new();
    tt_error err;
    tr->rank = rank;
    tt_error_clear(&err);
    tt_trace_finalize(tr, &err);
    return tr;
}

static void test_adopt(void)
{
    /* metadata 7, a name saying rank 2, then two with neither: they take
     * the lowest free ranks in the order given */
    char *files[4] = {"job/a.json", "job/trace_rank_2.json", "job/b.json", "job/c.json"};
    int64_t meta[4] = {7, -1, -1, -1};
    tt_trace *tr[4];
    tt_rankset rs;
    tt_error err;
    for (int i = 0; i < 4; i++)
        tr[i] = empty_trace(meta[i]);
    tt_error_clear(&err);
    if (!ok(tt_rankset_adopt(&rs, files, tr, 4, &err) == 0, "adopt four loaded traces"))
        return;
    ok(tr[0] == NULL && tr[3] == NULL, "the traces are taken");
    ok(rs.n == 4 && rs.r[0].rank == 0 && rs.r[1].rank == 1 && rs.r[2].rank == 2 &&
           rs.r[3].rank == 7,
       "ranks 0 1 2 7, sorted");
    ok(strcmp(rs.r[0].path, "job/b.json") == 0 && rs.r[0].source == TT_RANK_FROM_ORDER &&
           strcmp(rs.r[2].path, "job/trace_rank_2.json") == 0 &&
           rs.r[2].source == TT_RANK_FROM_NAME && rs.r[3].source == TT_RANK_FROM_METADATA,
       "from order, file name and metadata");
    tt_rankset_fini(&rs);
    for (int i = 0; i < 4; i++)
        tr[i] = empty_trace(i < 2 ? 3 : -1);
    ok(tt_rankset_adopt(&rs, files, tr, 4, &err) != 0 && strstr(err.what, "both claim rank 3"),
       "two traces claiming one rank are refused: %s", err.what);
    ok(tr[0] == NULL && tr[3] == NULL && rs.n == 0, "and freed");
}

static void test_viewport(void)
{
    fails = 0;
    for (int round = 0; round < 200; round++) {
        tt_viewport vp, was;
        tt_ns d = rint_(-1000000, 1000000);
        int cols = (int)rint_(1, 300);
        tt_vp_init(&vp, rint_(-5000, 5000), rint_(5000, 900000), cols);
        tt_vp_zoom(&vp, vp.t0 + rint_(0, vp.t1 - vp.t0), (int)rint_(0, 12));
        was = vp;
        tt_vp_shift(&vp, d);
        for (int c = 0; c <= cols; c += cols / 7 + 1)
            CHECK(tt_vp_time(&vp, c) == tt_vp_time(&was, c) + d, "round %d: column %d moves by d",
                  round, c);
        tt_vp_shift(&vp, -d);
        CHECK(memcmp(&vp, &was, sizeof vp) == 0 || (vp.start == was.start && vp.span == was.span),
              "round %d: and back", round);
        {
            tt_ns t0 = rint_(-5000, 5000), t1 = t0 + rint_(0, 900000);
            tt_vp_rebound(&vp, t0, t1);
            CHECK(vp.start >= vp.t0 && vp.span <= tt_vp_full_span(&vp) &&
                      (vp.span >= tt_vp_full_span(&vp) || vp.start + vp.span <= vp.t1),
                  "round %d: rebound stays inside", round);
            CHECK(vp.span == was.span || was.span > tt_vp_full_span(&vp),
                  "round %d: rebound keeps a span that fits", round);
        }
    }
    ok(fails == 0, "the window on another rank's clock: shifted exactly, back again, and inside "
                   "new bounds");
}

/* ---------------------------------------------------------- marker sets */

static void put_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static int edit_put_rank2(tt_markstore *s, void *ctx, tt_error *err)
{
    tt_trace_id id = {0, 0};
    tt_marker m[2] = {{700, (char *)"a", (char *)""}, {900, (char *)"b", (char *)""}};
    (void)ctx;
    return tt_markstore_put(s, "own", id, m, 2, err) ? -1 : 0;
}

/* A set saved in the view of a job: in every rank's file, each in its own
 * times (job time + the rank's start), with the job recorded; read back
 * on the job's axis; a set of one rank's file converted through its
 * start; a corrupt file stops the save before anything is written;
 * deleting removes every copy. */
static void test_job_marks(void)
{
    char dir[300], path[3][400], side[3][420];
    const char *tmp = getenv("TMPDIR");
    tt_marks_rank rk[3];
    int64_t start[3] = {-2000, 0, -500};
    tt_marks m;
    tt_error err;
    bool other;
    snprintf(dir, sizeof dir, "%s/tt-jobmarks-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        ok(false, "a temporary directory");
        return;
    }
    for (int i = 0; i < 3; i++) {
        snprintf(path[i], sizeof path[i], "%s/rank_%d.json", dir, i);
        snprintf(side[i], sizeof side[i], "%.380s.markers.json", path[i]);
        put_file(path[i], i == 1 ? "[{\"ph\":\"X\"}]" : "[]");
        rk[i].path = path[i];
        rk[i].rank = i;
        rk[i].offset = 10 * i;
        rk[i].start = start[i];
    }
    tt_error_clear(&err);
    tt_marks_init(&m, path[0]);
    ok(tt_marks_set_job(&m, rk, 3, "absolute") == 0 && tt_marks_is_job(&m), "a job of 3 ranks");
    tt_marks_add(&m, 1000, "m1", &err);
    tt_marks_add(&m, 3000, "m2", &err);
    ok(tt_marks_save(&m, "job", &err) == 0, "save set 'job': %s", err.what);
    fails = 0;
    for (int i = 0; i < 3; i++) {
        tt_markstore s;
        tt_markset *set;
        tt_markstore_init(&s);
        if (tt_markstore_read(&s, side[i], &err) || !(set = tt_markstore_find(&s, "job"))) {
            CHECK(false, "rank %d's file has the set", i);
        } else {
            CHECK(set->n == 2 && set->m[0].t == 1000 + start[i] && set->m[1].t == 3000 + start[i],
                  "rank %d: its times are the job's plus its start", i);
            CHECK(set->job.align && strcmp(set->job.align, "absolute") == 0 &&
                      set->job.rank == i && set->job.ranks == 3 &&
                      set->job.offset == 10 * i && set->job.start == start[i],
                  "rank %d: the job is recorded", i);
        }
        tt_markstore_fini(&s);
    }
    ok(fails == 0, "every rank's file holds the set in its own times, with the job");
    tt_marks_fini(&m);

    tt_marks_init(&m, path[0]);
    tt_marks_set_job(&m, rk, 3, "absolute");
    ok(tt_marks_load(&m, "job", &other, &err) == 0 && tt_marks_count(&m) == 2 &&
           tt_marks_set(&m)->m[0].t == 1000 && tt_marks_set(&m)->m[1].t == 3000 && !other &&
           m.note[0] == '\0',
       "loaded in a job view: the job's times again");
    tt_markstore_update(side[2], edit_put_rank2, NULL, &err);
    ok(tt_marks_load(&m, "own", &other, &err) == 0 && tt_marks_count(&m) == 2 &&
           tt_marks_set(&m)->m[0].t == 700 - start[2] && strstr(m.note, "rank 2") != NULL,
       "a set of rank 2's file: its times moved through rank 2's start (%s)", m.note);
    {
        /* a rank's corrupt file: nothing is written anywhere */
        const char *bad = "{\"format\":\"tracetty-markers\", oops";
        FILE *f = fopen(side[0], "rb");
        long n0 = 0;
        if (f) {
            fseek(f, 0, SEEK_END);
            n0 = ftell(f);
            fclose(f);
        }
        put_file(side[1], bad);
        ok(tt_marks_save(&m, "again", &err) != 0 && strstr(err.what, "rank_1.json") != NULL,
           "a corrupt file stops the save: %s", err.what);
        f = fopen(side[0], "rb");
        if (f) {
            fseek(f, 0, SEEK_END);
            ok(ftell(f) == n0, "rank 0's file is untouched");
            fclose(f);
        }
        ok(tt_markstore_update(side[1], edit_put_rank2, NULL, &err) != 0,
           "and stays as it was");
        unlink(side[1]);
    }
    ok(tt_marks_delete_set(&m, "job", &err) == 0, "delete 'job'");
    {
        tt_markstore s;
        int left = 0;
        for (int i = 0; i < 3; i++) {
            tt_markstore_init(&s);
            if (tt_markstore_read(&s, side[i], &err) == 0 && tt_markstore_find(&s, "job"))
                left++;
            tt_markstore_fini(&s);
        }
        ok(left == 0, "no rank's file has it any more");
    }
    tt_marks_fini(&m);
    {
        char cmd[400];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        if (system(cmd) != 0)
            diag("cleanup of %s failed", dir);
    }
}

int main(void)
{
    test_busy();
    test_rows();
    test_mstats();
    test_colls();
    test_adopt();
    test_viewport();
    test_job_marks();
    return tap_done();
}
