/* evwalk.c - the shared walk of the SQL event tables (sql/evwalk.h):
 * constraints to inclusive bounds, bounds to a range of positions per
 * lane by binary searches, then a filter over that range. */
#include "config.h"

#include "sql/evwalk.h"

#include "index/index.h"

/* Narrow [*lo, *hi] by `x op v`; an empty range ends with *lo > *hi. */
static void bound(int64_t *lo, int64_t *hi, tt_sql_op op, int64_t v)
{
    switch (op) {
    case TT_SQLOP_EQ:
        if (v > *lo)
            *lo = v;
        if (v < *hi)
            *hi = v;
        break;
    case TT_SQLOP_LT:
        if (v == INT64_MIN)
            *lo = INT64_MAX, *hi = INT64_MIN;
        else if (v - 1 < *hi)
            *hi = v - 1;
        break;
    case TT_SQLOP_LE:
        if (v < *hi)
            *hi = v;
        break;
    case TT_SQLOP_GT:
        if (v == INT64_MAX)
            *lo = INT64_MAX, *hi = INT64_MIN;
        else if (v + 1 > *lo)
            *lo = v + 1;
        break;
    case TT_SQLOP_GE:
        if (v > *lo)
            *lo = v;
        break;
    }
}

/* The first position p of a lane from which an event may meet a window
 * starting at from: every event before p ends before from (a zero-length
 * one too: it starts there), so none of them meets it. The prefix maximum
 * of ends only grows with p: a binary search over it. */
static size_t first_reaching(const tt_event *ev, size_t n, tt_ns from)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (tt_index_prefix_max_end(ev, n, mid) >= from)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* The positions [*a, *b) of lane l the bounds and the source leave. */
static void lane_range(const tt_sql_evwalk *w, uint32_t l, uint32_t *a, uint32_t *b)
{
    const tt_sql_src *s = w->s;
    const tt_lane *ln = &s->tr->lanes[l];
    size_t lo = 0, hi = ln->n;
    int64_t first = s->lane_first[l];
    if (s->lane_on && !s->lane_on[l]) {
        *a = *b = 0;
        return;
    }
    if (w->ts_lo > INT64_MIN)
        lo = tt_index_lower_bound(ln->ev, ln->n, w->ts_lo);
    if (w->ts_hi < INT64_MAX && lo < hi)
        hi = tt_index_upper_bound(ln->ev, ln->n, w->ts_hi);
    /* slice ids of this lane: [first, first + n) */
    if (w->id_lo > first) {
        int64_t off = w->id_lo - first;
        size_t bot = off < (int64_t)ln->n ? (size_t)off : ln->n;
        if (bot > lo)
            lo = bot;
    }
    if (w->id_hi < first + (int64_t)ln->n - 1 && lo < hi) {
        size_t top = w->id_hi < first ? 0 : (size_t)(w->id_hi - first + 1);
        if (top < hi)
            hi = top;
    }
    /* the window: events meeting [from, to) start before to, and none
     * before first_reaching() reaches from */
    if (s->to < INT64_MAX && lo < hi) {
        size_t top = tt_index_lower_bound(ln->ev, ln->n, s->to);
        if (top < hi)
            hi = top;
    }
    if (s->from > INT64_MIN && lo < hi) {
        size_t bot = first_reaching(ln->ev, ln->n, s->from);
        if (bot > lo)
            lo = bot;
    }
    if (lo > hi)
        lo = hi;
    *a = (uint32_t)lo;
    *b = (uint32_t)hi;
}

/* The bounds of cons and the lanes they leave; no event positioned yet. */
static void setup(tt_sql_evwalk *w, const tt_sql_src *s, const tt_sql_evkeys *k,
                  const tt_sql_cons *cons, size_t n, unsigned kinds)
{
    int64_t tr_lo = INT64_MIN, tr_hi = INT64_MAX;
    int64_t nl = s->tr->n_lanes, total = s->lane_first[s->tr->n_lanes];
    w->s = s;
    w->kinds = kinds;
    w->id_lo = w->ts_lo = w->dur_lo = INT64_MIN;
    w->id_hi = w->ts_hi = w->dur_hi = INT64_MAX;
    for (size_t i = 0; i < n; i++) {
        int c = cons[i].col;
        if (c == k->id)
            bound(&w->id_lo, &w->id_hi, cons[i].op, cons[i].v);
        else if (c == k->ts)
            bound(&w->ts_lo, &w->ts_hi, cons[i].op, cons[i].v);
        else if (c == k->dur)
            bound(&w->dur_lo, &w->dur_hi, cons[i].op, cons[i].v);
        else if (c == k->track)
            bound(&tr_lo, &tr_hi, cons[i].op, cons[i].v);
    }
    w->idx = w->idx_end = 0;
    w->lane = w->lane_end = 0;
    if (tr_lo < 0)
        tr_lo = 0;
    if (tr_hi > nl - 1)
        tr_hi = nl - 1;
    if (w->id_lo < 0)
        w->id_lo = 0;
    if (w->id_hi > total - 1)
        w->id_hi = total - 1;
    if (tr_lo > tr_hi || w->id_lo > w->id_hi || w->ts_lo > w->ts_hi || w->dur_lo > w->dur_hi)
        return;   /* nothing can meet them */
    /* the lanes holding the first and the last id left */
    tt_evref r;
    if (tt_sql_slice_ref(s, w->id_lo, &r) && (int64_t)r.lane > tr_lo)
        tr_lo = r.lane;
    if (tt_sql_slice_ref(s, w->id_hi, &r) && (int64_t)r.lane < tr_hi)
        tr_hi = r.lane;
    if (tr_lo > tr_hi)
        return;
    w->lane = (uint32_t)tr_lo;
    w->lane_end = (uint32_t)tr_hi + 1;
}

/* Move to the first event at or after the current position that passes
 * the filters, crossing into the next lanes as needed. */
static void settle(tt_sql_evwalk *w)
{
    while (w->lane < w->lane_end) {
        if (w->idx < w->idx_end) {
            const tt_event *e = &w->s->tr->lanes[w->lane].ev[w->idx];
            if ((w->kinds >> e->kind & 1u) && e->dur >= w->dur_lo && e->dur <= w->dur_hi &&
                tt_sql_src_keeps(w->s, w->lane, e))
                return;
            w->idx++;
            continue;
        }
        if (++w->lane < w->lane_end)
            lane_range(w, w->lane, &w->idx, &w->idx_end);
    }
}

void tt_sql_evwalk_first(tt_sql_evwalk *w, const tt_sql_src *s, const tt_sql_evkeys *k,
                         const tt_sql_cons *cons, size_t n, unsigned kinds)
{
    setup(w, s, k, cons, n, kinds);
    if (w->lane < w->lane_end)
        lane_range(w, w->lane, &w->idx, &w->idx_end);
    settle(w);
}

void tt_sql_evwalk_next(tt_sql_evwalk *w)
{
    w->idx++;
    settle(w);
}

int tt_sql_evcur_next(void *cur, tt_error *err)
{
    (void)err;
    tt_sql_evwalk_next(cur);
    return 0;
}

bool tt_sql_evcur_eof(const void *cur)
{
    return tt_sql_evwalk_eof(cur);
}

double tt_sql_evwalk_estimate(const tt_sql_src *s, const tt_sql_evkeys *k,
                              const tt_sql_cons *cons, size_t n)
{
    tt_sql_evwalk w;
    double rows = 0;
    setup(&w, s, k, cons, n, TT_SQL_EVKINDS_ALL);
    for (uint32_t l = w.lane; l < w.lane_end; l++) {
        uint32_t a, b;
        lane_range(&w, l, &a, &b);
        rows += b - a;
    }
    for (size_t i = 0; i < n; i++)
        if (cons[i].col == k->dur)
            rows *= 0.5;
    return rows;
}
