/* tab_counter.c - SQL table `counter`: one row per counter sample, shaped
 * like Perfetto's counter table.
 *
 *   id        counter_first[series] + sample index (TT_SQLCOL_ID)
 *   ts        the sample's time, ns on the trace's clock
 *   track_id  the series' counter_track id (n_lanes + series index)
 *   value     the sample's value
 *
 * Only samples within the source's window (from <= ts < to). Constraints
 * narrow the walk: track_id = v to one series, ts ranges to a binary
 * search in each series' sorted times, id = v to one sample. Series are
 * walked in order, each in time order, so rows come ordered by id.
 */
#include "config.h"

#include "sql/sqltab.h"

#include <string.h>

typedef struct counter_cur {
    const tt_sql_src *s;
    uint32_t          c, c_end;     /* series [c, c_end) */
    tt_ns             lo, hi;       /* samples with lo <= ts < hi */
    int64_t           id_lo, id_hi; /* ids in [id_lo, id_hi) */
    size_t            i, i_end;     /* samples [i, i_end) of series c */
} counter_cur;

static const tt_sql_col cols[] = {
    {"id", "INTEGER", TT_SQLCOL_ID | TT_SQLCOL_KEY},
    {"ts", "INTEGER", TT_SQLCOL_KEY},
    {"track_id", "INTEGER", TT_SQLCOL_ID | TT_SQLCOL_KEY},
    {"value", "REAL", 0},
};

/* The first sample of k at or after t. */
static size_t lower(const tt_counter *k, tt_ns t)
{
    size_t lo = 0, hi = k->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (k->t[mid] < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Narrow [*lo, *hi) to the values x with `x op v`. */
static void narrow(int64_t *lo, int64_t *hi, tt_sql_op op, int64_t v)
{
    int64_t a = INT64_MIN, b = INT64_MAX;   /* [a, b) */
    switch (op) {
    case TT_SQLOP_EQ: a = v; b = v == INT64_MAX ? v : v + 1; break;   /* INT64_MAX: no row */
    case TT_SQLOP_LT: b = v; break;
    case TT_SQLOP_LE: b = v == INT64_MAX ? v : v + 1; break;
    case TT_SQLOP_GT:
        if (v == INT64_MAX)
            a = b = v;   /* nothing is greater */
        else
            a = v + 1;
        break;
    case TT_SQLOP_GE: a = v; break;
    }
    if (a > *lo)
        *lo = a;
    if (b < *hi)
        *hi = b;
}

/* The samples of series c that the window and the constraints keep. */
static void load(counter_cur *c)
{
    const tt_counter *k = &c->s->tr->counters[c->c];
    int64_t first = c->s->counter_first[c->c];
    size_t a = c->lo > INT64_MIN ? lower(k, c->lo) : 0;
    size_t b = c->hi < INT64_MAX ? lower(k, c->hi) : k->n;
    /* ids narrow the indexes too */
    if (c->id_lo > first + (int64_t)a)
        a = c->id_lo - first > (int64_t)k->n ? k->n : (size_t)(c->id_lo - first);
    if (c->id_hi < first + (int64_t)b)
        b = c->id_hi <= first ? 0 : (size_t)(c->id_hi - first);
    c->i = a;
    c->i_end = b > a ? b : a;
}

/* Move on to the next series holding a row when series c has none left. */
static void settle(counter_cur *c)
{
    while (c->c < c->c_end && c->i >= c->i_end)
        if (++c->c < c->c_end)
            load(c);
}

static int counter_first(void *vc, const tt_sql_src *s, const tt_sql_cons *cons, size_t n,
                         tt_error *err)
{
    (void)err;
    counter_cur *c = vc;
    const tt_trace *tr = s->tr;
    int64_t tk_lo = INT64_MIN, tk_hi = INT64_MAX;
    memset(c, 0, sizeof *c);
    c->s = s;
    c->lo = s->from;
    c->hi = s->to;
    c->id_lo = INT64_MIN;
    c->id_hi = INT64_MAX;
    for (size_t i = 0; i < n; i++) {
        switch (cons[i].col) {
        case 0: narrow(&c->id_lo, &c->id_hi, cons[i].op, cons[i].v); break;
        case 1: narrow(&c->lo, &c->hi, cons[i].op, cons[i].v); break;
        case 2: narrow(&tk_lo, &tk_hi, cons[i].op, cons[i].v); break;
        default: break;
        }
    }
    /* the series the track ids and sample ids allow */
    int64_t ca = 0, cb = tr->n_counters;
    if (tk_lo > INT64_MIN && tk_lo - (int64_t)tr->n_lanes > ca)
        ca = tk_lo - (int64_t)tr->n_lanes;
    if (tk_hi < INT64_MAX && tk_hi - (int64_t)tr->n_lanes < cb)
        cb = tk_hi - (int64_t)tr->n_lanes;
    if (c->id_lo > 0 && c->id_lo < s->counter_first[tr->n_counters]) {
        /* the last series whose first id is <= id_lo (series may be empty) */
        int64_t a = 0, b = tr->n_counters;
        while (b - a > 1) {
            int64_t mid = a + (b - a) / 2;
            if (s->counter_first[mid] <= c->id_lo)
                a = mid;
            else
                b = mid;
        }
        if (a > ca)
            ca = a;
    } else if (c->id_lo >= s->counter_first[tr->n_counters]) {
        ca = cb;
    }
    if (cb < ca)
        cb = ca;
    c->c = (uint32_t)ca;
    c->c_end = (uint32_t)cb;
    if (c->c < c->c_end) {
        load(c);
        settle(c);
    }
    return 0;
}

static int counter_next(void *vc, tt_error *err)
{
    (void)err;
    counter_cur *c = vc;
    c->i++;
    settle(c);
    return 0;
}

static bool counter_eof(const void *vc)
{
    const counter_cur *c = vc;
    return c->c >= c->c_end;
}

static int counter_column(void *vc, int col, tt_sql_val *v, tt_error *err)
{
    (void)err;
    counter_cur *c = vc;
    const tt_counter *k = &c->s->tr->counters[c->c];
    switch (col) {
    case 0: tt_sql_set_int(v, tt_sql_id(c->s, c->s->counter_first[c->c] + (int64_t)c->i)); break;
    case 1: tt_sql_set_int(v, k->t[c->i]); break;
    case 2: tt_sql_set_int(v, tt_sql_id(c->s, tt_sql_counter_track_id(c->s, c->c))); break;
    case 3: tt_sql_set_real(v, k->v[c->i]); break;
    default: tt_sql_set_null(v); break;
    }
    return 0;
}

/* Samples of the series a track constraint names, else of all. */
static double counter_estimate(const tt_sql_src *s, const tt_sql_cons *cons, size_t n)
{
    const tt_trace *tr = s->tr;
    double rows = (double)s->counter_first[tr->n_counters];
    for (size_t i = 0; i < n; i++) {
        if (cons[i].op != TT_SQLOP_EQ)
            continue;
        if (cons[i].col == 0)
            return 1;
        if (cons[i].col == 2) {
            int64_t k = cons[i].v - (int64_t)tr->n_lanes;
            rows = k >= 0 && k < (int64_t)tr->n_counters ? (double)tr->counters[k].n : 0;
        }
    }
    return rows;
}

const tt_sql_table tt_sqltab_counter = {
    .name = "counter",
    .help = "one row per counter sample: id, ts, track_id, value",
    .cols = cols,
    .n_cols = sizeof cols / sizeof cols[0],
    .needs = TT_SQLNEED_COUNTERS,
    .cur_size = sizeof(counter_cur),
    .first = counter_first,
    .next = counter_next,
    .eof = counter_eof,
    .column = counter_column,
    .estimate = counter_estimate,
};
