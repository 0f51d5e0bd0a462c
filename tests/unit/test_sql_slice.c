/* test_sql_slice.c - the SQL event tables' constrained walk (sql/evwalk.h
 * through tab_slice.c and tab_instant.c) against brute force on random
 * traces: for random constraints on id, ts, dur and track_id, and random
 * windows and lane sets of the source, first()/next() must yield exactly
 * the rows an unconstrained walk keeps when every constraint and the
 * window are tested row by row, in the same order; estimate() must bound
 * what the walk yields for constraints other than dur. */
#include "config.h"

#include "../tap.h"
#include "../xorshift.h"
#include "sql/sqltab.h"

#include <stdlib.h>

static uint64_t rng = 88172645463325252ULL;
static uint64_t rnd(void)
{
    return tt_xorshift64(&rng);
}

static tt_trace *make_trace(uint32_t lanes, size_t per_lane)
{
    tt_trace *tr = tt_trace_new();
    char key[16];
    uint32_t g = tt_trace_group(tr, tt_trace_intern_cstr(tr, "p"));
    uint32_t name = tt_trace_intern_cstr(tr, "ev");
    for (uint32_t l = 0; l < lanes; l++) {
        snprintf(key, sizeof key, "%u", l);
        uint32_t ln = tt_trace_lane(tr, g, tt_trace_intern_cstr(tr, key),
                                    l % 3 == 2 ? TT_LANE_ASYNC : TT_LANE_THREAD);
        size_t n = l % 4 == 3 ? 0 : per_lane;   /* some lanes empty */
        for (size_t i = 0; i < n; i++) {
            int64_t ix = tt_trace_push_event(tr, ln);
            tt_event *e = tr->lanes[ln].ev + ix;
            e->start = (tt_ns)(rnd() % 1000);
            e->dur = rnd() % 4 == 0 ? 0 : (tt_ns)(rnd() % 60);
            e->name = name;
            e->kind = e->dur == 0 && rnd() % 2 ? TT_EV_INSTANT : TT_EV_SLICE;
        }
    }
    tt_error err;
    tt_error_clear(&err);
    if (tt_trace_finalize(tr, &err)) {
        tt_trace_free(tr);
        return NULL;
    }
    return tr;
}

static bool meets(tt_sql_op op, int64_t x, int64_t v)
{
    switch (op) {
    case TT_SQLOP_EQ: return x == v;
    case TT_SQLOP_LT: return x < v;
    case TT_SQLOP_LE: return x <= v;
    case TT_SQLOP_GT: return x > v;
    case TT_SQLOP_GE: return x >= v;
    }
    return false;
}

/* The ids a walk of t yields for cons (cols: see trials()). With check,
 * the walk is over the whole trace, unconstrained, and each row is tested
 * here against cons and the source's window and lanes. */
static size_t walk(const tt_sql_table *t, const tt_sql_src *s, const tt_sql_cons *cons,
                   size_t n, bool check, const int cols[4], int64_t *out, size_t cap)
{
    void *cur = calloc(1, t->cur_size);
    tt_error err;
    size_t k = 0;
    tt_sql_src whole = *s;
    whole.from = INT64_MIN, whole.to = INT64_MAX, whole.lane_on = NULL;
    tt_error_clear(&err);
    t->first(cur, check ? &whole : s, check ? NULL : cons, check ? 0 : n, &err);
    while (!t->eof(cur)) {
        bool keep = true;
        tt_sql_val id, ts, dur, track;
        t->column(cur, cols[0], &id, &err);
        if (check) {
            t->column(cur, cols[1], &ts, &err);
            t->column(cur, cols[3], &track, &err);
            dur.i = 0;
            if (cols[2] >= 0)
                t->column(cur, cols[2], &dur, &err);
            keep = !s->lane_on || s->lane_on[track.i];
            if (keep && dur.i == 0)
                keep = ts.i >= s->from && ts.i < s->to;
            else if (keep)
                keep = ts.i < s->to && ts.i + dur.i > s->from;
        }
        for (size_t i = 0; check && i < n && keep; i++) {
            tt_sql_val v;
            t->column(cur, cons[i].col, &v, &err);
            keep = meets(cons[i].op, v.i, cons[i].v);
        }
        if (keep && k < cap)
            out[k++] = id.i;
        t->next(cur, &err);
    }
    if (t->close)
        t->close(cur);
    free(cur);
    return k;
}

static int64_t pick(const tt_sql_src *s, int key)
{
    switch (key) {
    case 0: return (int64_t)(rnd() % (uint64_t)(s->lane_first[s->tr->n_lanes] + 4)) - 2;
    case 1: return (int64_t)(rnd() % 1100) - 50;
    case 2: return (int64_t)(rnd() % 70);
    default: return (int64_t)(rnd() % (s->tr->n_lanes + 2)) - 1;
    }
}

/* Random trials of table t whose id, ts, dur and track_id columns are
 * cols[0..3] (-1: none). */
static void trials(const char *what, const tt_sql_table *t, const int cols[4], tt_trace *tr)
{
    tt_sql_src s;
    tt_error err;
    tt_error_clear(&err);
    unsigned char *on = calloc(tr->n_lanes, 1);
    size_t cap = tr->n_events + 1;
    int64_t *a = malloc(cap * sizeof *a), *b = malloc(cap * sizeof *b);
    int bad = 0, bad_est = 0, trial;
    if (tt_sql_src_init(&s, tr, "random", &err) || !on || !a || !b) {
        ok(0, "%s: set up", what);
        return;
    }
    for (trial = 0; trial < 3000; trial++) {
        tt_sql_cons cons[4];
        size_t n = rnd() % 4, na, nb;
        bool dur = false;
        for (size_t i = 0; i < n; i++) {
            int key;
            do
                key = (int)(rnd() % 4);
            while (cols[key] < 0);
            cons[i].col = cols[key];
            cons[i].op = (tt_sql_op)(rnd() % 5);
            cons[i].v = pick(&s, key);
            dur |= key == 2;
        }
        s.from = INT64_MIN, s.to = INT64_MAX, s.lane_on = NULL;
        if (rnd() % 3 == 0) {
            s.from = (tt_ns)(rnd() % 1000);
            s.to = s.from + (tt_ns)(rnd() % 300);
        }
        if (rnd() % 3 == 0) {
            for (uint32_t l = 0; l < tr->n_lanes; l++)
                on[l] = rnd() % 2;
            s.lane_on = on;
        }
        na = walk(t, &s, cons, n, false, cols, a, cap);
        nb = walk(t, &s, cons, n, true, cols, b, cap);
        if (na != nb || memcmp(a, b, na * sizeof *a) != 0) {
            if (bad++ == 0)
                printf("# %s trial %d: %zu rows ranged, %zu brute force\n", what, trial, na, nb);
        }
        if (!dur && t->estimate && t->estimate(&s, cons, n) < (double)na)
            bad_est++;
    }
    ok(bad == 0, "%s: the ranged walk yields the brute-force rows in order (%d of %d differ)",
       what, bad, trial);
    ok(bad_est == 0, "%s: estimate() bounds the rows (%d below)", what, bad_est);
    tt_sql_src_fini(&s);
    free(on);
    free(a);
    free(b);
}

int main(void)
{
    const int slice_cols[4] = {0, 1, 2, 3};     /* id, ts, dur, track_id */
    const int instant_cols[4] = {5, 0, -1, 1};  /* slice_id, ts, -, track_id */
    for (int round = 0; round < 3; round++) {
        tt_trace *tr = make_trace(5 + (uint32_t)round * 3, round == 2 ? 2000 : 60);
        if (!ok(tr != NULL, "random trace %d", round))
            continue;
        trials("slice", tt_sql_table_find("slice", NULL), slice_cols, tr);
        trials("instant", tt_sql_table_find("instant", NULL), instant_cols, tr);
        tt_trace_free(tr);
    }
    return tap_done();
}
